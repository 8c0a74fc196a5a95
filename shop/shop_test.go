package shop_test

import (
	"strings"
	"testing"

	"storefront/app"
	"storefront/shop"
)

func TestHomeByHost(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	b, _ := e.Store("Bravo")
	e.Product(a, e.Category(a, "Tools").ID, "Acme Hammer", 1250, 5)
	e.Product(b, e.Category(b, "Toys").ID, "Bravo Kite", 900, 5)

	newBrowser(t, e, hostOf("Acme")).get("/").expect(t, 200, "<title>Home · Acme</title>", "Acme Hammer", "$12.50", "Tools").
		lacks(t, "Bravo")
	newBrowser(t, e, hostOf("Bravo")+":8080").get("/").expect(t, 200, "Bravo Kite", "$9.00").lacks(t, "Acme")
	// a subdomain of shop.domain that names no store, and an unknown host
	// with no default store: the plain 404, never another store's shop
	newBrowser(t, e, "nope."+shopDomain).get("/").expect(t, 404, "no shop at this address").lacks(t, "Acme", "Bravo")
	newBrowser(t, e, "elsewhere.example").get("/").expect(t, 404, "no shop at this address")
	// an inactive store
	if _, err := e.Svc.Stores.SetActive(b, false); err != nil {
		t.Fatal(err)
	}
	newBrowser(t, e, hostOf("Bravo")).get("/").expect(t, 404, "no shop at this address").lacks(t, "Bravo Kite")
}

func TestDefaultStore(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{Host: app.ShopHost{Domain: shopDomain, DefaultStore: 1}})
	e.Store("Acme")
	newBrowser(t, e, "127.0.0.1").get("/").expect(t, 200, "Acme")
	newBrowser(t, e, "nope."+shopDomain).get("/").expect(t, 404)
}

func TestNotFoundPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	e.Store("Acme")
	br := newBrowser(t, e, hostOf("Acme"))
	p := br.get("/no/such/page/").expect(t, 404, "Page not found", `<meta name="robots" content="noindex">`, "Acme")
	if ct := p.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	// the API's own 404 stays JSON
	api := br.get("/api/v1/no-such-thing/")
	if api.Status != 404 || api.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("API 404: %d %s", api.Status, api.Header.Get("Content-Type"))
	}
}

func TestAssetsImmutable(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	e.Store("Acme")
	br := newBrowser(t, e, hostOf("Acme"))
	home := br.get("/").expect(t, 200)
	css := cssURL.FindString(home.Body)
	if css == "" {
		t.Fatalf("no stylesheet link:\n%s", home.Body)
	}
	a := br.get(css).expect(t, 200, "--brand")
	if cc := a.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Fatalf("Cache-Control %q", cc)
	}
	br.get("/assets/shop.00000000.css").expect(t, 404)
}

// TestUnknownHostPoisonsNothing: a request with a made-up Host reaches the
// default store, and its page names the store's configured address, not
// that host; so does the page cached for the next visitors (it named
// attacker.example for 2 seconds), the sitemap and robots.txt.
func TestUnknownHostPoisonsNothing(t *testing.T) {
	e := newEnv(t, shop.Config{Host: app.ShopHost{Domain: shopDomain, DefaultStore: 1}})
	e.Store("Acme")
	for _, path := range []string{"/", "/products/", "/sitemap.xml", "/robots.txt"} {
		evil := newBrowser(t, e, "attacker.example").get(path).expect(t, 200)
		if strings.Contains(evil.Body, "attacker.example") {
			t.Fatalf("%s with Host attacker.example names it:\n%s", path, evil.Body)
		}
		for _, host := range []string{"shop.test", hostOf("Acme")} {
			p := newBrowser(t, e, host).get(path).expect(t, 200, "http://"+host+"/")
			if strings.Contains(p.Body, "attacker.example") {
				t.Fatalf("%s on %s after a poisoned request names attacker.example:\n%s", path, host, p.Body)
			}
		}
	}
	newBrowser(t, e, "attacker.example").get("/").expect(t, 200, `<link rel="canonical" href="http://acme.shops.test/">`)
}
