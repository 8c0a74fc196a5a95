package app_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"

	"storefront/app"
)

// TestCodesComplete: app.Codes holds every error code error.go declares
// (each string constant named E...), once, and nothing else; a code added to
// the const block and not to Codes fails here, and through Codes the HTTP
// status table's test (httpkit) sees it.
func TestCodesComplete(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "error.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING || name.Name[0] != 'E' {
					continue
				}
				v, _ := strconv.Unquote(lit.Value)
				declared = append(declared, v)
			}
		}
	}
	got := slices.Sorted(slices.Values(app.Codes))
	slices.Sort(declared)
	if len(declared) == 0 || !slices.Equal(got, declared) {
		t.Fatalf("app.Codes: got %v, want the codes error.go declares %v", got, declared)
	}
	if len(slices.Compact(got)) != len(app.Codes) {
		t.Fatalf("app.Codes lists a code twice: %v", app.Codes)
	}
}
