package browser_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
)

// TestShopTwoHosts: two stores on two hosts of shop.domain, in one
// browser, never show each other's products, carts or sessions. Chromium
// maps every *.shops.test name to the test server (browser.go).
func TestShopTwoHosts(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Env: []string{"STOREFRONT_SHOP__DOMAIN=shops.test"}})
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	base := func(sub string) string { return "http://" + sub + ".shops.test:" + u.Port() }
	for _, s := range []struct{ name, sub, product string }{{"Alpha Shop", "alpha", "Alpha Kettle"}, {"Bravo Shop", "bravo", "Bravo Lamp"}} {
		st := srv.CreateStore(t, s.name, s.sub)
		srv.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), srv.OwnerToken(t),
			map[string]any{"name": s.product, "price": "20.00", "stock": 5}, 201, nil)
	}
	p := browser.NewPage(t, srv)
	open := func(sub, path string) string {
		t.Helper()
		p.Do("open "+sub+path, chromedp.Navigate(base(sub)+path))
		return p.Text("main")
	}
	alpha, bravo := base("alpha"), base("bravo")
	if got := open("alpha", "/products/"); !strings.Contains(got, "Alpha Kettle") || strings.Contains(got, "Bravo") {
		t.Fatalf("alpha's products: %q", got)
	}
	if got := open("bravo", "/search/?q=kettle"); strings.Contains(got, "Alpha Kettle") {
		t.Fatalf("bravo's search shows alpha's product: %q", got)
	}
	p.AllowConsoleErrors(bravo + "/products/alpha-kettle/") // its 404
	if got := open("bravo", "/products/alpha-kettle/"); strings.Contains(got, "Alpha Kettle") || !strings.Contains(got, "not found") {
		t.Fatalf("bravo serves alpha's product page: %q", got)
	}

	// alpha's cart and a shopper signed in to alpha
	open("alpha", "/products/alpha-kettle/")
	p.Submit(`form.add button[type=submit]`)
	if got := p.Text(".cart-name"); got != "Alpha Kettle" || !strings.HasPrefix(p.URL(), alpha) {
		t.Fatalf("alpha's cart: %q at %s", got, p.URL())
	}
	open("alpha", "/account/register/")
	p.Fill("#f-first_name", "Ann")
	p.Fill("#f-last_name", "Alpha")
	p.Fill("#f-email", "ann@example.com")
	p.Fill("#f-password", "password123")
	p.Fill("#f-password_confirm", "password123")
	p.Submit(`form[action="/account/register/"] button[type=submit]`)
	open("alpha", "/account/")
	if !strings.HasPrefix(p.URL(), alpha+"/account/") {
		t.Fatalf("alpha's shopper is not signed in: %s", p.URL())
	}

	// bravo: an empty cart, nobody signed in
	if got := open("bravo", "/cart/"); !strings.Contains(got, "Your cart is empty") || strings.Contains(got, "Alpha") {
		t.Fatalf("bravo's cart: %q", got)
	}
	open("bravo", "/account/")
	if !strings.HasPrefix(p.URL(), bravo+"/account/login/") {
		t.Fatalf("bravo's account page for alpha's shopper: %s", p.URL())
	}
	// and alpha still has its own
	if got := open("alpha", "/cart/"); !strings.Contains(got, "Alpha Kettle") {
		t.Fatalf("alpha's cart after bravo: %q", got)
	}
}
