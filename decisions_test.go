package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// citedSection finds a docs/decisions.md section named in a comment:
// the name quoted after "decisions.md, ", perhaps over lines.
var citedSection = regexp.MustCompile(`decisions\.md, "([^"]+)"`)

// TestDecisionSectionsExist fails on a Go comment that names a section of
// docs/decisions.md that is not there: a "## " heading equal to the name,
// or starting with it ("Staff roles" for "Staff roles, two-factor and the
// outbox"). A rewritten or merged section leaves no dangling pointer.
func TestDecisionSectionsExist(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("docs/decisions.md")
	if err != nil {
		t.Fatal(err)
	}
	var headings []string
	for _, l := range strings.Split(string(doc), "\n") {
		if h, ok := strings.CutPrefix(l, "## "); ok {
			headings = append(headings, h)
		}
	}
	cited := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && path != "." && strings.HasPrefix(d.Name(), ".") {
			return skipHidden(err)
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		for _, name := range commentCitations(t, path) {
			cited++
			if !hasSection(headings, name) {
				t.Errorf("%s: cites docs/decisions.md section %q, which is not there", path, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited < 5 {
		t.Fatalf("found only %d citations: run from the repository root", cited)
	}
}

func skipHidden(err error) error {
	if err != nil {
		return err
	}
	return filepath.SkipDir
}

// commentCitations are the section names the comments of a Go file cite.
func commentCitations(t *testing.T, path string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, cg := range f.Comments {
		text := strings.Join(strings.Fields(cg.Text()), " ")
		for _, m := range citedSection.FindAllStringSubmatch(text, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

func hasSection(headings []string, name string) bool {
	for _, h := range headings {
		if h == name || strings.HasPrefix(h, name+",") || strings.HasPrefix(h, name+" ") || strings.HasPrefix(h, name+":") {
			return true
		}
	}
	return false
}
