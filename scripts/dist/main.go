// Command dist builds the release archives (make dist): a static binary per
// target with the version stamped, packed with the README, the LICENSE, the
// CHANGELOG, config.example.yaml, docs/ and deploy/ as
// storefront-VERSION-OS-ARCH.tar.gz (.zip for Windows), and SHA256SUMS over
// them and the TypeScript SDK's npm tarball when one was packed into the
// output folder beforehand, in the format `sha256sum -c` reads.
//
//	go run ./scripts/dist -version v0.9.0 -ldflags '...' -out dist [-targets linux/amd64,...]
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// defaultTargets are the platforms a release is built for.
const defaultTargets = "linux/amd64,linux/arm64,darwin/arm64,windows/amd64"

// extras are the files and folders (their files, recursively) packed beside
// the binary: what docs/deploy.md's install steps need from an unpacked archive.
var extras = []string{"README.md", "LICENSE", "CHANGELOG.md", "config.example.yaml", "docs", "deploy"}

func main() {
	version := flag.String("version", "v0.0.0-dev", "version stamped into the binaries and the archive names")
	ldflags := flag.String("ldflags", "", "linker flags (make dist passes the version, commit and date)")
	out := flag.String("out", "dist", "output folder")
	targets := flag.String("targets", defaultTargets, "comma-separated GOOS/GOARCH list")
	flag.Parse()
	if err := run(*version, *ldflags, *out, strings.Split(*targets, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
}

func run(version, ldflags, out string, targets []string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, t := range targets {
		goos, goarch, ok := strings.Cut(strings.TrimSpace(t), "/")
		if !ok {
			return fmt.Errorf("target %q: want GOOS/GOARCH", t)
		}
		start := time.Now()
		name, err := buildTarget(version, ldflags, out, goos, goarch)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", goos, goarch, err)
		}
		fmt.Printf("dist: %s (%s)\n", name, time.Since(start).Round(time.Second))
	}
	return writeSums(out)
}

// buildTarget builds one binary into a temporary folder and packs it.
func buildTarget(version, ldflags, out, goos, goarch string) (string, error) {
	tmp, err := os.MkdirTemp("", "storefront-dist-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	exe := "storefront"
	if goos == "windows" {
		exe += ".exe"
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", filepath.Join(tmp, exe), ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build: %w", err)
	}
	return pack(version, out, goos, goarch, filepath.Join(tmp, exe))
}

// pack writes the archive of one target around the binary at exe (run from
// the module root, where the extras are) and returns its name.
func pack(version, out, goos, goarch, exe string) (string, error) {
	base := fmt.Sprintf("storefront-%s-%s-%s", strings.ReplaceAll(version, "+", "_"), goos, goarch)
	files := map[string]string{filepath.Base(exe): exe}
	for _, f := range extras {
		if err := addExtra(files, f); err != nil {
			return "", err
		}
	}
	if goos == "windows" {
		return base + ".zip", packZip(filepath.Join(out, base+".zip"), base, files)
	}
	return base + ".tar.gz", packTarGz(filepath.Join(out, base+".tar.gz"), base, files)
}

// addExtra adds the file at path, or every regular file under the folder at
// path, to files under the same relative name (with forward slashes).
func addExtra(files map[string]string, path string) error {
	return filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if d.Type().IsRegular() {
			files[filepath.ToSlash(p)] = p
		}
		return nil
	})
}

// sorted returns the names of files in order, so archives are reproducible.
func sorted(files map[string]string) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func packTarGz(path, dir string, files map[string]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	for _, name := range sorted(files) {
		if err := addTar(tw, dir+"/"+name, files[name]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

func addTar(tw *tar.Writer, name, src string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	hdr := &tar.Header{Name: name, Mode: int64(fi.Mode().Perm()), Size: fi.Size(), ModTime: fi.ModTime(), Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	return copyFile(tw, src)
}

func packZip(path, dir string, files map[string]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, name := range sorted(files) {
		fi, err := os.Stat(files[name])
		if err != nil {
			return err
		}
		hdr, err := zip.FileInfoHeader(fi)
		if err != nil {
			return err
		}
		hdr.Name, hdr.Method = dir+"/"+name, zip.Deflate
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		if err := copyFile(w, files[name]); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

func copyFile(w io.Writer, src string) error {
	r, err := os.Open(src)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(w, r)
	return err
}

// writeSums writes SHA256SUMS over every archive and tarball in out.
func writeSums(out string) error {
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !(strings.HasSuffix(n, ".tar.gz") || strings.HasSuffix(n, ".zip") || strings.HasSuffix(n, ".tgz")) {
			continue
		}
		h := sha256.New()
		if err := copyFile(h, filepath.Join(out, n)); err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(h.Sum(nil)), n)
	}
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(b.String()), 0o644)
}
