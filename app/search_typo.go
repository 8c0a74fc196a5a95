package app

import "strings"

// Vocabulary is a store's search terms in byte order, as a backend reads
// them: Seek returns the first indexed key at or after from ("" past the
// last). A from ending in NUL asks for the first key after the rest.
type Vocabulary interface {
	Seek(from string) string
}

// MaxTypoTerms is how many terms a word's typos expand to at most.
const MaxTypoTerms = 16

// TypoTerms returns the terms of v within w's typo allowance of its stem
// (TypoAllowance of the word as typed, and its Slack; a swap of
// neighbouring letters is one typo; the first letter must be right), at most MaxTypoTerms, in byte order. It walks the terms in
// order and skips every term that begins with a prefix already too far
// from the stem, so it reads a few seeks per letter, not the vocabulary.
func TypoTerms(v Vocabulary, w SearchWord) []string {
	k := w.allowance()
	if k == 0 {
		return nil
	}
	tw := typoWalk{target: []rune(w.Term[len(TermMark):]), k: k}
	if len(tw.target) == 0 {
		return nil
	}
	// the first letter is taken as typed: the walk stays among the terms
	// that begin with it (a few seeks, where every first letter would be
	// one walk per letter of the alphabet and each digit)
	first := TermMark + string(tw.target[0])
	var out []string
	for from := first; len(out) < MaxTypoTerms; {
		term := v.Seek(from)
		if !strings.HasPrefix(term, first) {
			break
		}
		body := term[len(TermMark):]
		if cut := tw.feed(body); cut >= 0 {
			next, ok := successor(body[:cut])
			if !ok {
				break
			}
			from = TermMark + next
			continue
		}
		if tw.distance() <= k && term != w.Term {
			out = append(out, term)
		}
		from = term + "\x00"
	}
	return out
}

// successor is the first string after every string that begins with p.
func successor(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

// typoWalk computes the edit distance (optimal string alignment: insert,
// delete, replace, swap neighbours) of a sequence of candidates to target,
// one row per candidate rune, reusing the rows of the prefix a candidate
// shares with the one before.
type typoWalk struct {
	target []rune
	k      int
	cand   []rune  // the runes of the rows computed
	rows   [][]int // rows[i]: distances after i runes of cand
}

// feed computes the rows of body; it returns the byte length of the
// shortest prefix of body already more than k from every prefix of the
// target (every word beginning with it is too far), or -1.
func (t *typoWalk) feed(body string) int {
	if t.rows == nil {
		first := make([]int, len(t.target)+1)
		for j := range first {
			first[j] = j
		}
		t.rows = [][]int{first}
	}
	runes := []rune(body)
	common := 0
	for common < len(runes) && common < len(t.cand) && runes[common] == t.cand[common] {
		common++
	}
	t.cand, t.rows = append(t.cand[:common], runes[common:]...), t.rows[:common+1]
	for i := common; i < len(runes); i++ {
		if t.addRow(i) > t.k {
			t.cand = t.cand[:i+1]
			return len(string(runes[:i+1]))
		}
	}
	return -1
}

// addRow computes the row after cand[i] and returns its smallest value.
func (t *typoWalk) addRow(i int) int {
	prev, c := t.rows[i], t.cand[i]
	row := make([]int, len(t.target)+1)
	row[0] = i + 1
	low := row[0]
	for j := 1; j <= len(t.target); j++ {
		cost := 1
		if t.target[j-1] == c {
			cost = 0
		}
		row[j] = min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
		if i > 0 && j > 1 && c == t.target[j-2] && t.cand[i-1] == t.target[j-1] {
			row[j] = min(row[j], t.rows[i-1][j-2]+1)
		}
		low = min(low, row[j])
	}
	t.rows = append(t.rows, row)
	return low
}

// distance is the edit distance of the last candidate fed whole.
func (t *typoWalk) distance() int {
	r := t.rows[len(t.rows)-1]
	return r[len(r)-1]
}
