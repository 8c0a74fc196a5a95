package browser_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
)

// TestShopOtherPages: the demo's shop pages the other browser tests do not
// open (all products, a blog post, the content pages, the 404 page, the
// sign-in, forgot and reset password pages) have no critical or serious
// axe-core violation at 390 and 1280 px and fit both (screenshots at both
// widths go to the folder the test logs).
func TestShopOtherPages(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	p := browser.NewPage(t, srv)
	p.Go("/blog/")
	post := p.Attr(`main article a, main li a`, "href")
	if !strings.HasPrefix(post, "/blog/") || post == "/blog/" {
		t.Fatalf("blog post link: %q", post)
	}
	paths := []string{"/products/", post, "/account/login/", "/account/password/forgot/", "/account/password/reset/"}
	p.Go("/")
	paths = append(paths, strings.Fields(browser.Eval[string](p,
		`[...document.querySelectorAll("footer a")].map(a => a.getAttribute("href")).filter(h => /^\/(about|shipping|terms|privacy)\/$/.test(h)).join(" ")`))...)
	if len(paths) < 6 {
		t.Fatalf("no content page linked from the footer: %v", paths)
	}
	check := func(path string, status int) {
		t.Helper()
		p.GoStatus(path, status)
		for _, w := range browser.Widths {
			p.Do("viewport", chromedp.EmulateViewport(w, 900))
			p.CheckAxe()
		}
		p.CheckNoOverflow()
	}
	for _, path := range paths {
		check(path, 0)
	}
	check("/no/such/page/", 404)
	if got := p.Text("h1"); got != "Page not found" {
		t.Fatalf("404 page: %q", got)
	}
}
