package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// readmeMarker is the line before every README shell block that runs as
// written (an HTML comment, invisible on the rendered page).
const readmeMarker = "<!-- readme-test -->"

// readmeFiles hold the runnable examples, run in this order as one script:
// the README's first steps, the walk-through in docs/api.md, then the
// examples of the panel (images, CSV) and webhooks pages.
var readmeFiles = []string{"README.md", "docs/api.md", "docs/panel.md", "docs/webhooks.md"}

// snippetMarkers are the comments one of which must stand before every ```sh
// and ```ts block of the README and docs: run by TestReadmeRunsAsWritten,
// by scripts/tscheck.sh (ts-test), checked against the release archive
// (install-steps, scripts/dist), or not run, saying why.
var snippetMarkers = []string{readmeMarker, "<!-- ts-test -->", "<!-- install-steps -->", "<!-- not-run: "}

// readmeBlocks returns the marked ```sh blocks of readmeFiles, in order.
func readmeBlocks(t *testing.T) []string {
	t.Helper()
	var blocks []string
	for _, name := range readmeFiles {
		raw, err := os.ReadFile("../" + name)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, markedBlocks(t, name, string(raw))...)
	}
	return blocks
}

// markedBlocks returns the ```sh blocks of one file that follow readmeMarker.
func markedBlocks(t *testing.T, name, text string) []string {
	t.Helper()
	lines := strings.Split(text, "\n")
	var blocks []string
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != readmeMarker {
			continue
		}
		if i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != "```sh" {
			t.Fatalf("%s:%d: %s must be followed by a ```sh block", name, i+1, readmeMarker)
		}
		var b strings.Builder
		j := i + 2
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			b.WriteString(lines[j] + "\n")
		}
		if j == len(lines) {
			t.Fatalf("%s:%d: the block never closes", name, i+2)
		}
		blocks = append(blocks, b.String())
		i = j
	}
	return blocks
}

// TestReadmeRunsAsWritten runs the marked shell examples of the README and then
// of docs/api.md in order, in one bash, against a fresh demo server (the real binary on a free port). The
// README's address and the placeholder API key are replaced by the real ones;
// every curl fails on an HTTP error (--fail-with-body) and the script stops at
// the first failing command (set -euo pipefail), so a broken example fails here.
func TestReadmeRunsAsWritten(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "sed", "grep"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to run the README examples: %v", tool, err)
		}
	}
	blocks := readmeBlocks(t)
	if len(blocks) < 4 {
		t.Fatalf("got %d marked blocks in README.md and docs/api.md, want at least 4 (products/admin, register, checkout, after the order)", len(blocks))
	}
	script := strings.Join(blocks, "\n")
	for _, must := range []string{"payment/initiate/", "$REDIRECT_URL", "payment/verify/", "provider_params", "/orders/", "tickets/"} {
		if !strings.Contains(script, must) {
			t.Errorf("the README's runnable examples lack %q", must)
		}
	}

	base, key := startDemo(t, binary(t), t.TempDir())
	const readmeBase, readmeKey = "http://127.0.0.1:8080", "sk_..."
	for _, placeholder := range []string{readmeBase, readmeKey} {
		if !strings.Contains(script, placeholder) {
			t.Fatalf("the README examples no longer use %q; update this test's substitutions", placeholder)
		}
	}
	script = strings.NewReplacer(readmeBase, base, readmeKey, key).Replace(script)
	prelude := "set -euo pipefail\ncurl() { command curl --fail-with-body --max-time 20 \"$@\"; }\n"

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-x", "-c", prelude+script)
	cmd.Dir = t.TempDir()
	writeImages(t, cmd.Dir, "mug.jpg", "mug-side.png") // docs/panel.md uploads them
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("a README example failed (%v); the trace of the run:\n%s", err, out)
	}
	if !strings.Contains(string(out), `"success":true`) {
		t.Fatalf("the checkout walk-through did not verify a payment:\n%s", out)
	}
}

var bannerKey = regexp.MustCompile(`^\s+(sk_[0-9a-f]+)\s*$`)

// startDemo runs `storefront serve` in demo mode on a free port and returns
// its base URL and the API key the banner printed. The banner is written
// before the server logs that it listens.
func startDemo(t *testing.T, bin, dataDir string) (string, string) {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(),
		"STOREFRONT_DEMO=true",
		"STOREFRONT_DATA_DIR="+dataDir,
		"STOREFRONT_HTTP__ADDR=127.0.0.1:0",
		"STOREFRONT_LOG__FORMAT=json",
		"STOREFRONT_HTTP__LOG_REQUESTS=false",
	)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	logDone, outDone := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-logDone; <-outDone; _ = cmd.Wait() })
	keyc, addrc := make(chan string, 1), make(chan string, 1)
	go func() {
		defer close(outDone)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := bannerKey.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case keyc <- m[1]:
				default:
				}
			}
		}
	}()
	go func() {
		defer close(logDone)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var line struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
			}
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
				addrc <- line.Addr
			}
		}
	}()
	var base, key string
	deadline := time.After(60 * time.Second)
	for base == "" || key == "" {
		select {
		case addr := <-addrc:
			base = "http://" + addr
		case key = <-keyc:
		case <-logDone:
			t.Fatal("the demo server exited before listening")
		case <-deadline:
			t.Fatalf("the demo server did not listen and print its key within 60s (base %q, key %q)", base, key)
		}
	}
	return base, key
}

// writeImages writes a small real image under each name (JPEG or PNG by its
// extension) into dir.
func writeImages(t *testing.T, dir string, names ...string) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	for _, name := range names {
		var buf bytes.Buffer
		var err error
		if strings.HasSuffix(name, ".png") {
			err = png.Encode(&buf, img)
		} else {
			err = jpeg.Encode(&buf, img, nil)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestEverySnippetAccountedFor: every ```sh and ```ts block of the README,
// docs/*.md and the SDK's README follows one of snippetMarkers, so a new
// example is run by a test or says why it is not.
func TestEverySnippetAccountedFor(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	files = append(files, "../README.md", "../clients/typescript/README.md")
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(raw), "\n")
		for i, line := range lines {
			if line != "```sh" && line != "```ts" {
				continue
			}
			prev := ""
			if i > 0 {
				prev = strings.TrimSpace(lines[i-1])
			}
			if !slices.ContainsFunc(snippetMarkers, func(m string) bool { return strings.HasPrefix(prev, m) }) {
				t.Errorf("%s:%d: a %s block without a marker before it (%s, or <!-- not-run: why -->)", name, i+1, line, readmeMarker)
			}
		}
	}
}
