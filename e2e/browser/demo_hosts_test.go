package browser_test

import (
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
)

// TestDemoLoadsNothingFromAnotherHost: no page of the demo (the shop's
// home, a category, a product, a search, the blog, a post, contact, cart,
// sign-in; the panel's dashboard, products, a product, settings) makes the
// browser request anything from another host: its pictures are the media
// store's (issue 36.7), and every page's pictures load.
func TestDemoLoadsNothingFromAnotherHost(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	p := browser.NewPage(t, srv)
	own, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var foreign []string
	images := 0
	err = chromedp.Listen(p.Context(), func(ev any) {
		e, ok := ev.(*network.EventRequestWillBeSent)
		if !ok {
			return
		}
		u, err := url.Parse(e.Request.URL)
		mu.Lock()
		defer mu.Unlock()
		if e.Type == network.ResourceTypeImage {
			images++
		}
		if err != nil || (u.Scheme != "data" && u.Host != own.Host) {
			foreign = append(foreign, e.Request.URL)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	p.Go("/")
	shop := []string{"/", p.Attr(`section[aria-labelledby=h-cats] a`, "href"), p.Attr(`ul.grid li.card a`, "href"),
		"/search/?q=boot", "/blog/", "/contact/", "/cart/", "/account/login/"}
	p.Go("/blog/")
	shop = append(shop, p.Attr(`main article a, main li a`, "href"))
	for _, path := range shop {
		p.Go(path)
		checkImagesLoaded(t, p)
	}
	p.LoginOwner()
	panel := []string{"/admin/", "/admin/stores/1/products/", "/admin/stores/1/products/1/", "/admin/stores/1/settings/"}
	for _, path := range panel {
		p.Go(path)
		checkImagesLoaded(t, p)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(foreign) > 0 {
		slices.Sort(foreign)
		t.Fatalf("requests to other hosts: %s", strings.Join(slices.Compact(foreign), "\n"))
	}
	if images < 10 {
		t.Fatalf("%d image requests: the pages show the demo's pictures", images)
	}
}

// checkImagesLoaded fails when an image of the page did not load.
func checkImagesLoaded(t *testing.T, p *browser.Page) {
	t.Helper()
	broken := browser.Eval[string](p, `[...document.images].filter(i => i.complete && i.loading !== "lazy" && i.naturalWidth === 0).map(i => i.src).join(" ")`)
	if broken != "" {
		t.Fatalf("%s: pictures that did not load: %s", p.URL(), broken)
	}
}
