package browser_test

import (
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
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	p := browser.NewPage(t, srv)
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
			p.CheckAxe()
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
