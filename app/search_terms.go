package app

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Search that forgives (issue 36). Beside the words of a product's name as
// typed (folded; a query word finds the names with a word it begins), the
// search index holds terms: TermMark and the stem of every word of the name
// and the description (IndexTerms). A query word then also finds every
// product with a word of the same stem, in the name or the description
// ("boots" finds "Hiking Boot", "hiking" finds "hike"), and a query word
// that finds nothing so is matched with typos against the store's terms:
// one for a word of 4 to 7 letters, two from 8 (TypoAllowance; a swap of
// two neighbouring letters is one typo). Description words count as whole
// words only (no prefix) and rank below the name (Relevance).

// TermMark begins a term of the search index. No word as typed begins with
// it, so a prefix of a word never reaches a term.
const TermMark = "\x01"

// Stemmer reduces a folded word to the form its plural and simple
// inflections share ("boots", "boot" -> "boot"; "hiking", "hike" -> "hik").
// Stems are never shown: only equality of stems counts.
type Stemmer func(word string) string

// stemmers are the search languages by the store's language code
// (Settings.Lang; search_stem.go). A store's index is written with its
// language's stemmer (a change of language re-indexes the store's terms);
// a language without one searches in English.
var stemmers = map[string]Stemmer{"en": StemEnglish, "de": StemGerman, "fr": StemFrench,
	"es": StemSpanish, "ru": StemRussian, "uz": StemUzbek}

// StemmerFor returns the stemmer of a language (English when it has none).
func StemmerFor(lang string) Stemmer {
	if s, ok := stemmers[lang]; ok {
		return s
	}
	return StemEnglish
}

// MaxDescriptionTerms is how many distinct words of a description are
// indexed (the first ones); ignoreTerms are English words too common to
// search for.
const MaxDescriptionTerms = 64

var ignoreTerms = map[string]bool{"and": true, "the": true, "for": true, "with": true, "you": true,
	"your": true, "are": true, "from": true, "that": true, "this": true, "into": true, "our": true}

// IndexTerm is a key of a product's search index entries: a word of its
// name as typed (Prefix) or a term (TermMark and a stem), and whether it
// comes from the name (a description-only term ranks lower).
type IndexTerm struct {
	Key    string
	Prefix bool
	InName bool
}

// IndexTerms are the search index keys of a product: its name's words, then
// the terms of its name and description, each once.
func IndexTerms(name, description string, stem Stemmer) []IndexTerm {
	nameWords := SearchWords(name)
	out := make([]IndexTerm, 0, 2*len(nameWords)+8)
	seen := make(map[string]int, 2*len(nameWords)+8)
	for _, w := range nameWords {
		out = append(out, IndexTerm{Key: w, Prefix: true, InName: true})
	}
	for _, w := range nameWords {
		t := TermMark + stem(w)
		if _, ok := seen[t]; !ok {
			seen[t] = len(out)
			out = append(out, IndexTerm{Key: t, InName: true})
		}
	}
	n := 0
	for _, w := range SearchWords(description) {
		if n == MaxDescriptionTerms {
			break
		}
		if utf8.RuneCountInString(w) < 3 || ignoreTerms[w] || !hasLetter(w) {
			continue
		}
		n++
		t := TermMark + stem(w)
		if _, ok := seen[t]; !ok {
			seen[t] = len(out)
			out = append(out, IndexTerm{Key: t})
		}
	}
	return out
}

func hasLetter(w string) bool { return strings.IndexFunc(w, unicode.IsLetter) >= 0 }

// StemEnglish strips English plural and verb endings: -s, -es, -ies,
// -ed, -ing, then a final -e, so that "box"/"boxes", "battery"/"batteries",
// "hike"/"hikes"/"hiked"/"hiking" and "run"/"running" share a stem. Words
// under 4 letters and words with digits are left as they are.
func StemEnglish(w string) string {
	if len(w) < 4 || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") || strings.HasSuffix(w, "ied"):
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "zes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	case strings.HasSuffix(w, "ing") && hasVowel(w[:len(w)-3]) && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && hasVowel(w[:len(w)-2]) && len(w) > 4:
		w = undouble(w[:len(w)-2])
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

func hasVowel(s string) bool { return strings.ContainsAny(s, "aeiouy") }

// undouble drops one of a doubled final consonant ("runn" -> "run"), not
// of l, s or z ("fall", "miss", "buzz").
func undouble(s string) string {
	n := len(s)
	if n >= 2 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouylsz", rune(s[n-1])) {
		return s[:n-1]
	}
	return s
}

// TypoAllowance is how many typos a query word may have: none under 4
// letters, one under 8, two from 8.
func TypoAllowance(word string) int {
	switch n := utf8.RuneCountInString(word); {
	case n >= 8:
		return 2
	case n >= 4:
		return 1
	}
	return 0
}

// SearchWord is a query word as a search reads the index with it.
type SearchWord struct {
	Word  string   // folded, as typed: it begins a word of the name
	Term  string   // TermMark and its stem: a word of the name or description in any inflection
	Typos []string // terms of the store within its typo allowance (set by the backend when Word and Term find nothing)
	Slack int      // typos allowed beyond TypoAllowance, to a word of 3 letters or more (ProductQuery.Lenient)
	Stem  Stemmer  // the store's: the index's terms were made with it
}

// NewSearchWords makes the search words of a query's words; lenient
// allows each word one typo more (Lenient).
func NewSearchWords(words []string, stem Stemmer, lenient bool) []SearchWord {
	out := make([]SearchWord, len(words))
	for i, w := range words {
		out[i] = SearchWord{Word: w, Term: TermMark + stem(w), Stem: stem}
		if lenient {
			out[i].Slack = 1
		}
	}
	return out
}

// allowance is how many typos w may have.
func (w SearchWord) allowance() int {
	n := TypoAllowance(w.Word)
	if utf8.RuneCountInString(w.Word) >= 3 {
		n += w.Slack
	}
	return n
}

// Exact lists the terms the word finds as whole words: its own and its typos.
func (w SearchWord) Exact() []string {
	return append([]string{w.Term}, w.Typos...)
}

// NameScore is how well w matches a word of the folded name: 2 when a word
// has w's stem, 1 when one begins with w as typed or is one of its typos, 0
// when none does (the product may still match by its description).
func (w SearchWord) NameScore(folded string) int {
	best := 0
	for x, rest := nextWord(folded); x != ""; x, rest = nextWord(rest) {
		if strings.HasPrefix(x, w.Word) {
			best = 1
		}
		t := w.Stem(x)
		if t == w.Term[len(TermMark):] {
			return 2
		}
		for _, typo := range w.Typos {
			if t == typo[len(TermMark):] {
				best = 1
			}
		}
	}
	return best
}

// InName reports whether w matches a word of the folded name
// (NameScore > 0), testing the prefixes before it stems any word.
func (w SearchWord) InName(folded string) bool {
	return hasWordPrefix(folded, w.Word) || w.NameScore(folded) > 0
}

// SearchRelevance scores how well name matches the query (0-255, higher is
// better): per query word its NameScore (a word found only in the
// description scores 0), and 1 more when the name's first word begins with
// the query's first word. Ties list newest first.
func SearchRelevance(name string, words []SearchWord) byte {
	folded := FoldText(name)
	score := 0
	for _, w := range words {
		score += w.NameScore(folded)
	}
	if first, _ := nextWord(folded); len(words) > 0 && first != "" && strings.HasPrefix(first, words[0].Word) {
		score++
	}
	return byte(min(score, 255))
}
