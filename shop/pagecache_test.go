package shop_test

import (
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/shop"
)

// TestPageCache: a cached page carries each shopper's own CSRF token, never
// the placeholder; a fresh browser (no seed cookie yet) gets it with no
// token and no cookie, the same page and ETag as any other fresh browser;
// a catalog or store change shows at once.
func TestPageCache(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	p := e.Product(a, 0, "Hammer", 1250, 5)
	one, two := newBrowser(t, e, hostOf("Acme")), newBrowser(t, e, hostOf("Acme"))
	fresh1, fresh2 := one.get("/products/hammer/").expect(t, 200, "$12.50"), two.get("/products/hammer/").expect(t, 200, "$12.50")
	if csrfOf(t, fresh1.Body) != "" || fresh1.Header.Get("Set-Cookie") != "" || fresh1.Header.Get("ETag") != fresh2.Header.Get("ETag") {
		t.Fatalf("a fresh browser's product page: token %q, Set-Cookie %q, ETags %q %q", csrfOf(t, fresh1.Body),
			fresh1.Header.Get("Set-Cookie"), fresh1.Header.Get("ETag"), fresh2.Header.Get("ETag"))
	}
	one.token() // the seed cookie, as a page made per request sets it
	two.token()
	first := one.get("/products/hammer/").expect(t, 200, "$12.50")
	second := two.get("/products/hammer/").expect(t, 200, "$12.50")
	a1, a2 := csrfOf(t, first.Body), csrfOf(t, second.Body)
	if a1 == a2 || a1 == "" {
		t.Fatalf("two shoppers got the CSRF tokens %q and %q", a1, a2)
	}
	if again := csrfOf(t, one.get("/products/hammer/").Body); again != a1 {
		t.Fatalf("a shopper's token changed: %s then %s", a1, again)
	}
	for _, pg := range []*page{fresh1, first, second} {
		pg.lacks(t, "c5rfc5rf")
	}
	price := app.Money(1500)
	editProduct(t, e, a, p.ID, app.ProductInput{Price: &price})
	one.get("/products/hammer/").expect(t, 200, "$15.00").lacks(t, "$12.50")
	one.get("/").expect(t, 200, "$15.00")
	patchConfig(t, e, a, `{"footer":{"text":"New footer"}}`)
	one.get("/products/hammer/").expect(t, 200, "New footer")
	// gzip from the cache is the same page
	gz := one.get("/blog/")
	if gz.Status != 200 {
		t.Fatalf("blog: %d", gz.Status)
	}
}

// TestFreshBrowserForms: a browser without the seed cookie got the product
// and contact pages with no token; their forms are taken from it when the
// request passes net/http's cross-origin check (Sec-Fetch-Site
// same-origin, or an Origin of this host, or neither header: not a
// browser's cross-site form), and refused from another site. Every other
// form wants the token: signing in from a fresh browser does not pass.
func TestFreshBrowserForms(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	addForm := line(s.hammer.ID, 0, 1)
	for _, tc := range []struct {
		name   string
		header map[string]string
		status int
	}{
		{"same-origin", map[string]string{"Sec-Fetch-Site": "same-origin"}, 303},
		{"origin of this host", map[string]string{"Origin": "http://" + s.host}, 303},
		{"no header (not a browser)", nil, 303},
		{"ErrCrossSite", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"ErrSameSite", map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
		{"ErrOtherOrigin", map[string]string{"Origin": "https://evil.example"}, 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowser(t, e, s.host)
			if tok := csrfOf(t, b.get("/products/"+s.hammer.Slug+"/").Body); tok != "" {
				t.Fatalf("a fresh browser's token %q", tok)
			}
			b.send("POST", "/cart/add", addForm, tc.header).expect(t, tc.status)
			cart := b.get("/cart/")
			if got := strings.Contains(cart.Body, "Acme Hammer"); got != (tc.status == 303) {
				t.Fatalf("in the cart: %v", got)
			}
		})
	}
	t.Run("contact form", func(t *testing.T) {
		b := newBrowser(t, e, s.host)
		b.send("POST", "/contact/", url.Values{"name": {"Ann"}, "email": {"ann@example.com"}, "message": {"Hello"}},
			map[string]string{"Sec-Fetch-Site": "same-origin"}).expect(t, 303)
		b.send("POST", "/contact/", url.Values{"name": {"Eve"}, "email": {"eve@example.com"}, "message": {"Hi"}},
			map[string]string{"Sec-Fetch-Site": "cross-site"}).expect(t, 403)
		if n := contactCount(t, e, s.id); n != 1 {
			t.Fatalf("%d messages stored, want Ann's only", n)
		}
	})
	t.Run("ErrSignInFromFreshBrowser", func(t *testing.T) {
		b := newBrowser(t, e, s.host)
		b.send("POST", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"password123"}},
			map[string]string{"Sec-Fetch-Site": "same-origin"}).expect(t, 403)
	})
}
