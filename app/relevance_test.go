package app_test

import (
	"strings"
	"testing"

	"storefront/app"
)

// relevanceBySlice is Relevance written over SearchWords' slice, as it was
// before it walked the name in place.
func relevanceBySlice(name string, words []string) byte {
	nw := app.SearchWords(name)
	score := 0
	for _, w := range words {
		best := 0
		for _, x := range nw {
			if x == w {
				best = 2
				break
			}
			if strings.HasPrefix(x, w) {
				best = 1
			}
		}
		score += best
	}
	if len(words) > 0 && len(nw) > 0 && strings.HasPrefix(nw[0], words[0]) {
		score++
	}
	return byte(min(score, 255))
}

// TestRelevance: the scores of names against queries, and the same as the
// slice-based definition on every pair.
func TestRelevance(t *testing.T) {
	names := []string{"Trail Running Shoe", "running trail pro", "Pro Runner 2", "  --Run!! run run ", "", "Café Crème",
		"RUN", "runs", "the run", "x-run-y", "日本 ランナー run", "a,b;c"}
	queries := []string{"run", "run trail", "trail run", "pro", "cafe", "creme cafe", "r", "runner", "zzz", "x y", "日本"}
	for _, n := range names {
		for _, q := range queries {
			words := app.QueryWords(q)
			if got, want := app.Relevance(n, words), relevanceBySlice(n, words); got != want {
				t.Errorf("Relevance(%q, %q) = %d, want %d", n, words, got, want)
			}
		}
	}
	for _, c := range []struct {
		name, q string
		want    byte
	}{
		{"Trail Running Shoe", "run", 1},       // begins a word
		{"Run Trail", "run", 3},                // a whole word, and the first word
		{"Trail Running Shoe", "trail run", 4}, // 2 + 1, and the first word
		{"Shoe", "run", 0},
	} {
		if got := app.Relevance(c.name, app.QueryWords(c.q)); got != c.want {
			t.Errorf("Relevance(%q, %q) = %d, want %d", c.name, c.q, got, c.want)
		}
	}
}
