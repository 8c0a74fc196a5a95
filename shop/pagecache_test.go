package shop_test

import (
	"testing"

	"storefront/app"
	"storefront/shop"
)

// TestPageCache: a cached page carries each shopper's own CSRF token, never
// the placeholder, and a catalog or store change shows at once.
func TestPageCache(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	p := e.Product(a, 0, "Hammer", 1250, 5)
	one, two := newBrowser(t, e, hostOf("Acme")), newBrowser(t, e, hostOf("Acme"))
	first := one.get("/products/hammer/").expect(t, 200, "$12.50")
	second := two.get("/products/hammer/").expect(t, 200, "$12.50")
	a1, a2 := csrfOf(t, first.Body), csrfOf(t, second.Body)
	if a1 == a2 {
		t.Fatal("two shoppers got the same CSRF token")
	}
	if again := csrfOf(t, one.get("/products/hammer/").Body); again != a1 {
		t.Fatalf("a shopper's token changed: %s then %s", a1, again)
	}
	for _, pg := range []*page{first, second} {
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
