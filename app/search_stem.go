package app

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The stemmers of the store languages (Settings.Lang): light suffix
// strippers, one small table of endings each, so that a word's plural and
// its simple inflections share a stem. They work on folded words
// (FoldText: lower case, Latin accents stripped, ё read as е), leave words
// with digits and words under 4 letters as they are, strip one ending (the
// longest that fits) and keep at least minStem letters. A stem begins with
// its word's first letter: only endings change.

// minStem is the fewest letters a stem keeps.
const minStem = 3

// stripEnding removes from w the first of endings (longest first) it ends
// with that leaves at least minStem letters, and reports whether one did.
func stripEnding(w string, endings []string) (string, bool) {
	for _, e := range endings {
		if strings.HasSuffix(w, e) && utf8.RuneCountInString(w)-utf8.RuneCountInString(e) >= minStem {
			return w[:len(w)-len(e)], true
		}
	}
	return w, false
}

// stemmable reports whether a stemmer changes w at all: 4 letters or more,
// no digits.
func stemmable(w string) bool {
	return utf8.RuneCountInString(w) >= 4 && strings.IndexFunc(w, unicode.IsDigit) < 0
}

// germanEndings are German plural and case endings (umlauts folded:
// "Bücher" is "bucher", so its stem is "Buch"'s).
var germanEndings = []string{"ern", "em", "en", "er", "es", "e", "n"}

// StemGerman strips one German ending: -ern, -em, -en, -er, -es, -e, -n,
// or -s but not after u or s ("Schuhe", "Schuhen" -> "schuh"; "Bücher" ->
// "buch"; "Autos" -> "auto"; "Haus" stays).
func StemGerman(w string) string {
	if !stemmable(w) {
		return w
	}
	if s, ok := stripEnding(w, germanEndings); ok {
		return s
	}
	if n := len(w); w[n-1] == 's' && w[n-2] != 'u' && w[n-2] != 's' {
		return w[:n-1]
	}
	return w
}

// StemFrench strips the French plural (-s, -x; -aux reads as -al) and then
// a final -e, so that masculine and feminine share a stem ("robes",
// "robe" -> "rob"; "chevaux", "cheval" -> "cheval"; "bijoux" -> "bijou").
func StemFrench(w string) string {
	if !stemmable(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "eaux"):
		w = w[:len(w)-1]
	case strings.HasSuffix(w, "aux") && len(w) >= 6:
		w = w[:len(w)-3] + "al"
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "x"):
		w = w[:len(w)-1]
	}
	w, _ = stripEnding(w, []string{"e"})
	return w
}

// StemSpanish strips the Spanish plural (-s after a vowel, -es after a
// consonant, -ces reads as -z) and then a final -a, -o or -e (gender):
// "zapatos", "zapato" -> "zapat"; "camiones", "camión" -> "camion";
// "luces" -> "luz"; "rojas", "rojo" -> "roj".
func StemSpanish(w string) string {
	if !stemmable(w) {
		return w
	}
	switch n := len(w); {
	case strings.HasSuffix(w, "ces"):
		w = w[:n-3] + "z"
	case strings.HasSuffix(w, "es") && !strings.ContainsRune("aeiou", rune(w[n-3])):
		w = w[:n-2]
	case strings.HasSuffix(w, "s") && strings.ContainsRune("aeiou", rune(w[n-2])):
		w = w[:n-1]
	}
	w, _ = stripEnding(w, []string{"a", "o", "e"})
	return w
}

// russianEndings are the common endings of Russian nouns and adjectives,
// longest first.
var russianEndings = []string{
	"ами", "ями", "ого", "его", "ому", "ему", "ыми", "ими",
	"ах", "ях", "ам", "ям", "ов", "ев", "ей", "ой", "ом", "ем", "ый", "ий", "ая", "яя", "ое", "ее", "ые", "ие", "ых", "их", "ым", "им", "ую", "юю", "ью",
	"а", "я", "о", "е", "ы", "и", "у", "ю", "ь", "й",
}

// StemRussian strips one Russian noun or adjective ending ("наушники",
// "наушник", "наушниками" -> "наушник"; "красная", "красный" -> "красн";
// "книгу", "книги" -> "книг").
func StemRussian(w string) string {
	if !stemmable(w) {
		return w
	}
	w, _ = stripEnding(w, russianEndings)
	return w
}

// uzbekCases are the Uzbek case endings, longest first; the plural -lar
// comes before them ("kitob-lar-ni").
var uzbekCases = []string{"ning", "dan", "tan", "ni", "ga", "ka", "qa", "da", "ta"}

// StemUzbek strips an Uzbek (Latin) case ending and then the plural -lar
// ("kitoblar", "kitoblarni", "kitobni" -> "kitob"; "telefonlar" ->
// "telefon").
func StemUzbek(w string) string {
	if !stemmable(w) {
		return w
	}
	w, _ = stripEnding(w, uzbekCases)
	w, _ = stripEnding(w, []string{"lar"})
	return w
}
