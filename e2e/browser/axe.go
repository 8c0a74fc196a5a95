package browser

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// AxeVersion is the axe-core (npm package) the accessibility checks run.
const AxeVersion = "4.10.3"

var axe struct {
	once sync.Once
	src  string
	err  error
}

// axeSource is axe.min.js: the file $STOREFRONT_AXE_JS names, else the
// copy in the user cache, fetched once with `npm pack` (the npm registry).
func axeSource() (string, error) {
	axe.once.Do(func() {
		path := os.Getenv("STOREFRONT_AXE_JS")
		if path == "" {
			dir, err := os.UserCacheDir()
			if err != nil {
				dir = os.TempDir()
			}
			dir = filepath.Join(dir, "storefront", "axe-core-"+AxeVersion)
			path = filepath.Join(dir, "axe.min.js")
			if _, err := os.Stat(path); err != nil {
				if axe.err = fetchAxe(dir); axe.err != nil {
					return
				}
			}
		}
		b, err := os.ReadFile(path)
		axe.src, axe.err = string(b), err
	})
	return axe.src, axe.err
}

// fetchAxe packs axe-core with npm into dir and keeps its axe.min.js.
func fetchAxe(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cmd := exec.Command("npm", "pack", "axe-core@"+AxeVersion, "--silent", "--pack-destination", dir)
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("npm pack axe-core: %v", err)
	}
	tgz := filepath.Join(dir, strings.TrimSpace(string(out)))
	defer os.Remove(tgz)
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			return fmt.Errorf("axe-core package: no axe.min.js (%v)", err)
		}
		if h.Name == "package/axe.min.js" {
			b, err := io.ReadAll(io.LimitReader(tr, 8<<20))
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "axe.min.js"), b, 0o644)
		}
	}
}

// axeRunJS runs axe-core on the document (WCAG 2.1 A and AA rules) and
// returns its violations of critical or serious impact.
const axeRunJS = `axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}})
  .then(r => JSON.stringify({passes: r.passes.length, minor: r.violations.filter(v => v.impact !== "critical" && v.impact !== "serious").map(v => v.id),
    violations: r.violations.filter(v => v.impact === "critical" || v.impact === "serious")
    .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)}))}))`

// CheckAxe runs axe-core on the current page and fails the test on any
// critical or serious violation, naming each. Without axe-core (no npm, no
// network) it logs and skips the check, except in CI where it fails.
func (p *Page) CheckAxe() {
	p.T.Helper()
	src, err := axeSource()
	if err != nil {
		if inCI() {
			p.T.Fatalf("axe-core: %v", err)
		}
		p.T.Logf("axe-core unavailable, accessibility check skipped: %v", err)
		return
	}
	on := p.scriptsOff
	if on {
		p.SetScripts(true) // evaluation needs script; the page's own already ran (or did not)
		defer p.SetScripts(false)
	}
	if Eval[bool](p, `typeof axe === "undefined"`) { // loaded once per page, not per width
		p.Do("axe-core", chromedp.Evaluate[chromedp.Void](src+"\n;0"))
	}
	out, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](axeRunJS, chromedp.EvalAwaitPromise))
	if err != nil {
		p.T.Fatalf("axe-core on %s: %v", p.URL(), err)
	}
	var res struct {
		Passes     int
		Minor      []string
		Violations []struct {
			ID, Impact, Help string
			Nodes            []string
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		p.T.Fatalf("axe-core result: %v", err)
	}
	p.T.Logf("axe-core on %s: %d rules passed, %d serious or critical violations, minor ones: %v", p.URL(), res.Passes, len(res.Violations), res.Minor)
	for _, v := range res.Violations {
		p.T.Errorf("axe-core on %s: %s (%s): %s at %s", p.URL(), v.ID, v.Impact, v.Help, strings.Join(v.Nodes, ", "))
	}
}

// SetScripts turns the page's JavaScript on or off (off: the pages a
// shopper without JavaScript sees, from the next load on).
func (p *Page) SetScripts(on bool) {
	p.T.Helper()
	if _, err := chromedp.Call(p.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on}); err != nil {
		p.T.Fatalf("script execution: %v", err)
	}
	p.scriptsOff = !on
}
