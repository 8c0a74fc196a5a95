package shop_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"storefront/shop"
)

// TestMessageKeys: every literal key a template or the Go code names has
// its string (a missing one would show as its key).
func TestMessageKeys(t *testing.T) {
	t.Parallel()
	keyRE := regexp.MustCompile(`(?:\{\{-?\s*(?:t|tf)|\(t|\(tf|\.TF?\()\s*"([a-z0-9_.]*[a-z0-9_])"`)
	files, _ := filepath.Glob("templates/*.html")
	gofiles, _ := filepath.Glob("*.go")
	n := 0
	for _, f := range append(files, gofiles...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyRE.FindAllStringSubmatch(string(b), -1) {
			if m[1] == "key" { // doc.go's own comment
				continue
			}
			n++
			if !shop.HasMessage(m[1]) {
				t.Errorf("%s: no string for %q", f, m[1])
			}
		}
	}
	// the keys made from a name
	for _, k := range []string{"newest", "price_asc", "price_desc", "name_asc", "rating_desc", "relevance"} {
		if !shop.HasMessage("list.sort." + k) {
			t.Errorf("no string for the sort %s", k)
		}
	}
	for _, k := range []string{"about", "shipping", "terms", "privacy"} {
		if !shop.HasMessage("page." + k) {
			t.Errorf("no string for the page %s", k)
		}
	}
	if n < 50 {
		t.Fatalf("found only %d keys: the pattern is off", n)
	}
}
