package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a shipped function may be (docs/decisions.md,
// "Layering and services").
const maxFuncLines = 60

// notShipped are the folders TestShortFunctions skips: they are not built
// into the binary (benchmarks, browser tests, the SDK's tools, scripts,
// test data and the test environment). Everything else is checked, every
// package and every root file, storage/storagetest included (shipped test
// support for storage backends).
var notShipped = map[string]bool{"bench": true, "e2e": true, "clients": true, "scripts": true, "testdata": true,
	"testenv": true, "docs": true, "deploy": true, "node_modules": true}

// TestShortFunctions fails on any function or method over maxFuncLines lines
// (from its func line to its closing brace) outside the _test.go files and
// the folders not shipped, naming each.
func TestShortFunctions(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (notShipped[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		checked++
		return checkFuncLengths(t, fset, path)
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d files: run from the repository root", checked)
	}
}

// checkFuncLengths reports every function of the file at path over maxFuncLines.
func checkFuncLengths(t *testing.T, fset *token.FileSet, path string) error {
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
			t.Errorf("%s: %s is %d lines, more than %d: split it into named steps", fset.Position(fd.Pos()), funcName(fd), n, maxFuncLines)
		}
	}
	return nil
}

// funcName is fd's name, with its receiver's type for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch x := typ.(type) {
	case *ast.Ident:
		return x.Name + "." + fd.Name.Name
	case *ast.IndexExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return id.Name + "." + fd.Name.Name
		}
	case *ast.IndexListExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return id.Name + "." + fd.Name.Name
		}
	}
	return fd.Name.Name
}
