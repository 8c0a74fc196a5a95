package app

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Product search (the q parameter of product lists): a product matches when
// every word of q finds it, compared without case or accents: the word
// begins a word of its name ("hea 300" and "HÉAD" find "Headlamp 300
// Lumen", "lamp" does not), or is a word of its name or description in
// another inflection or with a typo (search_terms.go). Words are runs of
// letters and digits; everything else separates them.

// MaxSearchWords is how many words of q are used; more are ignored.
const MaxSearchWords = 8

// SortRelevance orders a search by how well the name matches q (see
// SearchRelevance), then newest first. Only product lists with q accept it.
const SortRelevance = "relevance"

// FoldText lowercases s and strips the accents of Latin letters ("Café" ->
// "cafe", "Ærø" -> "aero"), and reads the Russian ё as е; NULs are dropped.
func FoldText(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c == 0 || (c >= 'A' && c <= 'Z') {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == 0 {
			continue
		}
		r = unicode.ToLower(r)
		if f, ok := accentFold[r]; ok {
			b.WriteString(f)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// accentFold maps accented lowercase Latin letters to their base letters.
var accentFold = func() map[rune]string {
	m := map[rune]string{}
	for base, letters := range map[string]string{
		"a": "àáâãäåāăąǎǟǡǻȁȃȧ", "c": "çćĉċč", "d": "ďđ", "e": "èéêëēĕėęěȅȇȩ",
		"g": "ĝğġģǧǵ", "h": "ĥħȟ", "i": "ìíîïĩīĭįıǐȉȋ", "j": "ĵǰ", "k": "ķǩ",
		"l": "ĺļľŀł", "n": "ñńņňŉǹ", "o": "òóôõöøōŏőǒǫǭǿȍȏȫȭȯȱ", "r": "ŕŗřȑȓ",
		"е": "ё", "s": "śŝşšșſ", "t": "ţťŧț", "u": "ùúûüũūŭůűųǔǖǘǚǜȕȗ", "w": "ŵ",
		"y": "ýÿŷȳ", "z": "źżžƶ", "ae": "æǣǽ", "oe": "œ", "ss": "ß", "th": "þ", "dh": "ð",
	} {
		for _, r := range letters {
			m[r] = base
		}
	}
	return m
}()

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// SearchWords returns the distinct words of s, folded (FoldText), in order.
func SearchWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(FoldText(s), func(r rune) bool { return !isWordRune(r) }) {
		dup := false
		for _, x := range out {
			if x == w {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, w)
		}
	}
	return out
}

// QueryWords are the words of a search query (at most MaxSearchWords).
func QueryWords(q string) []string {
	w := SearchWords(q)
	if len(w) > MaxSearchWords {
		w = w[:MaxSearchWords]
	}
	return w
}

// hasWordPrefix reports whether w begins a word of the folded text s.
func hasWordPrefix(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		if j == 0 {
			return true
		}
		r, _ := utf8.DecodeLastRuneInString(s[:j])
		if !isWordRune(r) {
			return true
		}
		_, n := utf8.DecodeRuneInString(s[j:])
		i = j + n
	}
}

// MatchWords reports whether every word begins a word of name (any case or accents).
func MatchWords(name string, words []string) bool {
	if len(words) == 0 {
		return true
	}
	f := FoldText(name)
	for _, w := range words {
		if !hasWordPrefix(f, w) {
			return false
		}
	}
	return true
}

// nextWord returns the first word of s (as SearchWords splits) and what
// follows it; "" when s has no more words.
func nextWord(s string) (word, rest string) {
	start := -1
	for i, r := range s {
		switch {
		case isWordRune(r) && start < 0:
			start = i
		case !isWordRune(r) && start >= 0:
			return s[start:i], s[i:]
		}
	}
	if start < 0 {
		return "", ""
	}
	return s[start:], ""
}
