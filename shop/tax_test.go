package shop_test

import (
	"testing"

	"storefront/shop"
)

// TestShopTaxLines: the cart and checkout pages list the tax lines, "plus"
// before the total when prices exclude tax, "incl." under it when they
// include it; a store without rates shows none.
func TestShopTaxLines(t *testing.T) {
	e := newEnv(t, shop.Config{})
	us := newCartStore(t, e, "Acme")
	patchConfig(t, e, us.id, `{"store":{"country":"US","region":"CA"},"taxes":{"rates":[{"name":"Sales tax","rate":"7.25","country":"US","region":"CA"}]}}`)
	uk := newCartStore(t, e, "Bravo")
	patchConfig(t, e, uk.id, `{"store":{"country":"GB"},"taxes":{"prices_include_tax":true,"rates":[{"name":"VAT","rate":"20","country":"GB"}]}}`)
	plain := newCartStore(t, e, "Plain")

	b := newBrowser(t, e, us.host)
	add(b, us.hammer.ID, 0, 2) // 25.00 + 7.25% = 1.81
	b.get("/cart/").expect(t, 200, "<dt>plus Sales tax 7.25%</dt><dd>", "1.81", "26.81")
	b.get("/checkout/").expect(t, 200, "plus Sales tax 7.25%", "26.81")

	b = newBrowser(t, e, uk.host)
	add(b, uk.hammer.ID, 0, 2) // 25.00 incl. 20% = 4.17
	b.get("/cart/").expect(t, 200, `<dt class="incl">incl. VAT 20%</dt>`, "4.17", "25.00").lacks(t, "plus VAT")

	b = newBrowser(t, e, plain.host)
	add(b, plain.hammer.ID, 0, 1)
	b.get("/cart/").expect(t, 200, "12.50").lacks(t, "incl.", "plus ")
}

// TestShopTaxNote: the product page's price says "incl. VAT" or "plus tax"
// as the settings say, and nothing without rates.
func TestShopTaxNote(t *testing.T) {
	e := newEnv(t, shop.Config{})
	for _, c := range []struct{ name, cfg, want string }{
		{"Acme", `{"taxes":{"rates":[{"name":"Sales tax","rate":"7.25","country":"US"}]}}`, `<small class="tax-note">plus tax</small>`},
		{"Bravo", `{"taxes":{"prices_include_tax":true,"rates":[{"name":"VAT","rate":"20"}]}}`, `<small class="tax-note">incl. VAT</small>`},
		{"Plain", ``, ``},
	} {
		cs := newCartStore(t, e, c.name)
		if c.cfg != "" {
			patchConfig(t, e, cs.id, c.cfg)
		}
		pg := newBrowser(t, e, cs.host).get("/products/"+cs.hammer.Slug+"/").expect(t, 200, c.want)
		if c.want == "" {
			pg.lacks(t, "tax-note")
		}
	}
}
