package main

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// installSteps returns the commands of the block after <!-- install-steps -->
// in docs/deploy.md.
func installSteps(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("docs/deploy.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(raw), "<!-- install-steps -->\n```sh\n")
	if !ok {
		t.Fatal("docs/deploy.md has no <!-- install-steps --> block")
	}
	block, _, _ = strings.Cut(block, "```")
	return strings.Split(strings.TrimSpace(block), "\n")
}

// unpack extracts the tar.gz at path into dir.
func unpack(t *testing.T, path, dir string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(h.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, os.FileMode(h.Mode)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestArchiveHoldsInstallSteps packs a linux/amd64 archive (around a stand-in
// binary: make test-dist checks a built one), unpacks it as docs/deploy.md
// says, and checks that every file its install steps name is there, that the
// steps are the systemd unit's, and that the docs and deploy folders came whole.
func TestArchiveHoldsInstallSteps(t *testing.T) {
	if err := os.Chdir("../.."); err != nil { // the module root, as make dist runs
		t.Fatal(err)
	}
	out, exe := t.TempDir(), filepath.Join(t.TempDir(), "storefront")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	name, err := pack("v1.2.3", out, "linux", "amd64", exe)
	if err != nil {
		t.Fatal(err)
	}
	unpack(t, filepath.Join(out, name), out)
	steps := installSteps(t)
	if len(steps) < 5 || !strings.Contains(steps[1], "tar xzf storefront-VERSION-linux-amd64.tar.gz && cd storefront-VERSION-linux-amd64") {
		t.Fatalf("install steps: got %q, want sha256sum, then tar and cd, then the unit's steps", steps)
	}
	root := filepath.Join(out, "storefront-v1.2.3-linux-amd64")
	unit, err := os.ReadFile(filepath.Join(root, "deploy/storefront.service"))
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range steps[2:] {
		if !strings.Contains(string(unit), "#   "+step+"\n") {
			t.Errorf("step %q is not in the header of deploy/storefront.service", step)
		}
		f := strings.Fields(step)
		if f[0] == "install" && f[1] != "-d" && !strings.HasPrefix(f[len(f)-2], "/") {
			if _, err := os.Stat(filepath.Join(root, f[len(f)-2])); err != nil {
				t.Errorf("step %q: %s is not in the archive", step, f[len(f)-2])
			}
		}
	}
	for _, f := range append(extras, "storefront", "docs/deploy.md", "deploy/storefront.env.example", "deploy/Caddyfile") {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("the archive lacks %s", f)
		}
	}
}
