package browser_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"storefront/e2e/browser"
)

// TestShopSearchForgives: in the demo shop, typing into the header's search
// box lists the products the text finds (the box's datalist, from
// /search/suggest); a search with a typo finds the product; one that finds
// nothing offers the closest products ("Did you mean"), and the results
// pages pass axe at both widths.
func TestShopSearchForgives(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	p := browser.NewPage(t, srv)
	p.Go("/")
	p.Type("#q", "headph")
	p.Do("hints", chromedp.WaitReady(chromedp.CSS(`datalist#q-hints-1 option[value="Wireless Headphones"]`)))
	p.Type("#q", kb.Enter)
	p.Do("results", chromedp.WaitReady(chromedp.CSS(`#f-q`)))
	if !strings.Contains(p.URL(), "/search/?q=headph") {
		t.Fatalf("the search box sent %s", p.URL())
	}

	p.Go("/search/?q=headphnes") // a letter missing
	if got := p.Text("ul.grid"); !strings.Contains(got, "Wireless Headphones") {
		t.Fatalf("q=headphnes found %q", got)
	}
	p.Go("/search/?q=hedfones+xyzzy") // nothing: the closest names
	if got := p.Text("p.didyoumean"); !strings.Contains(got, "Did you mean") || !strings.Contains(got, "Wireless Headphones") {
		t.Fatalf("did you mean: %q", got)
	}
	for _, w := range browser.Widths {
		p.Do("viewport", chromedp.EmulateViewport(w, 900))
		p.CheckAxe()
	}
	p.Submit("p.didyoumean a")
	if !strings.HasPrefix(p.URL(), srv.URL+"/products/") {
		t.Fatalf("the suggestion led to %s", p.URL())
	}
}
