package app_test

import (
	"slices"
	"sort"
	"testing"

	"storefront/app"
)

func TestStemEnglish(t *testing.T) {
	same := [][]string{
		{"boot", "boots"}, {"box", "boxes"}, {"battery", "batteries"}, {"watch", "watches"},
		{"hike", "hikes", "hiked", "hiking"}, {"run", "running", "runs"}, {"glass", "glasses"},
		{"headphone", "headphones"}, {"shoe", "shoes"}, {"dress", "dresses"}, {"stop", "stopped"},
	}
	for _, group := range same {
		for _, w := range group[1:] {
			if a, b := app.StemEnglish(group[0]), app.StemEnglish(w); a != b {
				t.Errorf("stem(%q) = %q, stem(%q) = %q: want the same", group[0], a, w, b)
			}
		}
	}
	differ := [][2]string{{"boot", "boat"}, {"bus", "bu"}, {"lamp", "lamb"}, {"42", "4"}, {"fall", "fal"}}
	for _, p := range differ {
		if app.StemEnglish(p[0]) == app.StemEnglish(p[1]) {
			t.Errorf("stem(%q) = stem(%q) = %q: want different", p[0], p[1], app.StemEnglish(p[0]))
		}
	}
}

// vocab is a sorted slice of terms.
type vocab []string

func (v vocab) Seek(from string) string {
	i := sort.SearchStrings(v, from)
	if i == len(v) {
		return ""
	}
	return v[i]
}

func TestTypoTerms(t *testing.T) {
	words := []string{"headphone", "headlamp", "boot", "boat", "trail", "runner", "pro", "tent", "12345", "cafe"}
	var v vocab
	for _, w := range words {
		v = append(v, app.TermMark+app.StemEnglish(w))
	}
	v = append(v, "zz") // a word as typed after the terms
	sort.Strings(v)
	cases := []struct {
		q    string
		want []string
	}{
		{"headphnes", []string{"headphon"}},  // a letter missing (9 letters: two allowed)
		{"haedphones", []string{"headphon"}}, // a swap
		{"trial", []string{"trail"}},         // a swap in 5 letters
		{"runer", []string{"runner"}},
		{"bost", []string{"boat", "boot"}},
		{"tnet", []string{"tent"}},
		{"pri", nil}, // 3 letters: no typo
		{"heedlamqs", []string{"headlamp"}},
		{"xxxxxxxx", nil},
		{"cafes", []string{}}, // its own term is no typo of itself
	}
	for _, c := range cases {
		w := app.NewSearchWords([]string{c.q}, app.StemEnglish, false)[0]
		got := app.TypoTerms(v, w)
		var bodies []string
		for _, g := range got {
			bodies = append(bodies, g[len(app.TermMark):])
		}
		if !slices.Equal(bodies, c.want) && (len(bodies) != 0 || len(c.want) != 0) {
			t.Errorf("TypoTerms(%q) = %q, want %q", c.q, bodies, c.want)
		}
	}
}

func TestSearchRelevance(t *testing.T) {
	stem := app.StemEnglish
	words := func(q string) []app.SearchWord { return app.NewSearchWords(app.QueryWords(q), stem, false) }
	cases := []struct {
		name, q string
		want    byte
	}{
		{"Hiking Boot", "boots", 2}, // a plural of a whole word
		{"Hiking Boot", "hike", 2},  // an inflection
		{"Hiking Boot", "hik", 3},   // a stem too, and the first word
		{"Headlamp 300", "tent", 0}, // not in the name: the description at most
		{"Trail Runner 7 Pro", "trail runners", 5},
	}
	for _, c := range cases {
		if got := app.SearchRelevance(c.name, words(c.q)); got != c.want {
			t.Errorf("SearchRelevance(%q, %q) = %d, want %d", c.name, c.q, got, c.want)
		}
	}
	w := words("haedphones")
	w[0].Typos = []string{app.TermMark + "headphon"}
	if got := app.SearchRelevance("Studio Headphones", w); got != 1 {
		t.Errorf("a typo of a name word: %d, want 1", got)
	}
}

func TestIndexTerms(t *testing.T) {
	got := app.IndexTerms("Hiking Boots", "Boots for the trail, and 2 laces. Trail!", app.StemEnglish)
	want := []app.IndexTerm{{Key: "hiking", Prefix: true, InName: true}, {Key: "boots", Prefix: true, InName: true},
		{Key: app.TermMark + "hik", InName: true}, {Key: app.TermMark + "boot", InName: true},
		{Key: app.TermMark + "trail"}, {Key: app.TermMark + "lac"}}
	if !slices.Equal(got, want) {
		t.Errorf("IndexTerms = %+v, want %+v", got, want)
	}
}
