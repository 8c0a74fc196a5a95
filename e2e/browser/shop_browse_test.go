package browser_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
)

// TestShopBrowsePages: the demo's shop window (home, a category, a product,
// a search, the blog and the contact form) fits 390 and 1280 px with no
// console error, has no critical or serious axe-core violation at either
// width, and keeps its look (screenshots of each page at both widths go to
// the folder the test logs).
func TestShopBrowsePages(t *testing.T) {
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	p := browser.NewPage(t, srv)
	p.AllowConsoleErrors("https://picsum.photos/") // the demo's images: no network in tests
	p.Go("/")
	cat := p.Attr(`section[aria-labelledby=h-cats] a`, "href")
	prod := p.Attr(`ul.grid li.card a`, "href")
	if !strings.HasPrefix(cat, "/categories/") || !strings.HasPrefix(prod, "/products/") {
		t.Fatalf("home links: category %q, product %q", cat, prod)
	}
	for _, path := range []string{"/", cat, prod, "/search/?q=lamp", "/blog/", "/contact/"} {
		p.Go(path)
		for _, w := range browser.Widths {
			p.Do("viewport", chromedp.EmulateViewport(w, 900))
			shopAxe(t, p)
		}
		p.Do("viewport", chromedp.EmulateViewport(browser.Widths[0], 900))
		p.CheckNoOverflow()
	}
	// keyboard: the skip link is the first stop and leads to the main content
	p.Go(prod)
	p.Do("tab", chromedp.KeyEvent("\t"))
	if got := browser.Eval[string](p, `document.activeElement.className`); got != "skip" {
		t.Fatalf("first tab stop: %q, want the skip link", got)
	}
}

// shopAxe runs axe-core (the file $STOREFRONT_AXE_JS names, or the copy the
// harness keeps in the user cache) on the page and fails on a critical or
// serious violation; without axe-core it logs and skips (fails in CI).
// The lead may fold it into the harness's own axe check when both land.
func shopAxe(t *testing.T, p *browser.Page) {
	t.Helper()
	path := os.Getenv("STOREFRONT_AXE_JS")
	if path == "" {
		dir, _ := os.UserCacheDir()
		path = filepath.Join(dir, "storefront", "axe-core-4.10.3", "axe.min.js")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("axe-core: %v", err)
		}
		t.Logf("axe-core unavailable, accessibility check skipped: %v", err)
		return
	}
	p.Do("axe-core", chromedp.Evaluate[chromedp.Void](string(src)+"\n;0"))
	out, err := chromedp.Run(p.Context(), chromedp.Evaluate[string](`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}})
  .then(r => JSON.stringify(r.violations.filter(v => v.impact === "critical" || v.impact === "serious")
    .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)}))))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe-core on %s: %v", p.URL(), err)
	}
	var violations []struct {
		ID, Impact, Help string
		Nodes            []string
	}
	if err := json.Unmarshal([]byte(out), &violations); err != nil {
		t.Fatalf("axe-core result: %v", err)
	}
	for _, v := range violations {
		t.Errorf("axe-core on %s: %s (%s): %s at %s", p.URL(), v.ID, v.Impact, v.Help, strings.Join(v.Nodes, ", "))
	}
}
