package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forbiddenImports are, per package, the storefront packages its shipped
// files must not import (docs/architecture.md, "Import rules"): the four
// rooms never import each other nor storage, and the kits never import a
// room.
var forbiddenImports = map[string][]string{
	"web":             {"admin", "panel", "shop", "storage", "httpkit/staff"},
	"admin":           {"web", "panel", "shop", "storage", "httpkit/pagekit"},
	"panel":           {"web", "admin", "shop", "storage"},
	"shop":            {"web", "admin", "panel", "storage", "httpkit/staff"},
	"httpkit":         {"web", "admin", "panel", "shop", "storage"},
	"httpkit/pagekit": {"web", "admin", "panel", "shop", "storage", "httpkit/staff", "app/"},
	"httpkit/staff":   {"web", "admin", "panel", "shop", "storage", "httpkit/pagekit"},
}

// TestRoomsImportNoRoom fails on a shipped file that imports what its
// package must not.
func TestRoomsImportNoRoom(t *testing.T) {
	t.Parallel()
	for pkg, banned := range forbiddenImports {
		files, err := filepath.Glob(filepath.Join(pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", pkg, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				rel, ok := strings.CutPrefix(path, "storefront/")
				if !ok {
					continue
				}
				for _, b := range banned {
					if rel == b || strings.HasPrefix(rel, strings.TrimSuffix(b, "/")+"/") {
						t.Errorf("%s imports %s: %s must not", f, path, pkg)
					}
				}
			}
		}
	}
}
