package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPostgresSuitesPoolDatabases: every package make test-pg runs on
// PostgreSQL lends its tests pgtest's pool of databases (a TestMain calling
// pgtest.Main). Without it each test makes a database of its own: when the
// panel moved to its own package it lost its TestMain, and its PostgreSQL run
// cost the server 131 s of CPU instead of 23 s.
func TestPostgresSuitesPoolDatabases(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^test-pg:\n\t.*STOREFRONT_TEST_BACKEND=postgres .* test .*?((?: \./[a-z/]+)+)\s*$`).FindSubmatch(raw)
	if m == nil {
		t.Fatal("the Makefile has no test-pg recipe running go test with STOREFRONT_TEST_BACKEND=postgres")
	}
	for _, pkg := range strings.Fields(string(m[1])) {
		pkg = strings.TrimPrefix(pkg, "./")
		files, _ := filepath.Glob(filepath.Join(pkg, "*_test.go"))
		pooled := false
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			pooled = pooled || strings.Contains(string(b), "pgtest.Main(")
		}
		if !pooled {
			t.Errorf("%s: make test-pg runs it on PostgreSQL, but no TestMain calls pgtest.Main (add %s/main_test.go as web's)", pkg, pkg)
		}
	}
}
