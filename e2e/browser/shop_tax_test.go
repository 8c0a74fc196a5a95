package browser_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/e2e/browser"
)

// TestShopTaxedCart: with VAT included in the prices, the product page says
// "incl. VAT", and the cart and checkout list the VAT under the total; axe
// and both widths on the cart and checkout pages.
func TestShopTaxedCart(t *testing.T) {
	t.Parallel()
	srv, jacket := shopFixture(t)
	srv.API(t, "PATCH", "/api/v1/admin/stores/1/config/", srv.OwnerToken(t), map[string]any{
		"store": map[string]any{"country": "GB"}, "taxes": map[string]any{"prices_include_tax": true,
			"rates": []map[string]any{{"name": "VAT", "rate": "20", "country": "GB"}}}}, 200, nil)
	p := browser.NewPage(t, srv)
	p.Go("/search/?q=trail")
	p.Submit(`main li.card a`)
	if got := p.Text(".tax-note"); got != "incl. VAT" {
		t.Fatalf("tax note: %q", got)
	}
	p.SetChecked(fmt.Sprintf(`input[name=variant_id][value="%d"]`, jacket.Variants[1].ID), true)
	p.Submit(`form.add button[type=submit]`)
	if got := p.Text(".totals dt.incl"); !strings.Contains(got, "incl. VAT 20%") {
		t.Fatalf("cart tax line: %q", got)
	}
	if got := p.Text(".totals dd.incl"); got != "$8.67" { // 52.00 / 6
		t.Fatalf("cart VAT: %q, want $8.67", got)
	}
	p.CheckAxe()
	p.CheckNoOverflow()
	p.Submit(`.summary a.button`)
	if got := p.Text(".totals dt.incl"); !strings.Contains(got, "incl. VAT 20%") {
		t.Fatalf("checkout tax line: %q", got)
	}
	p.CheckAxe()
	p.CheckNoOverflow()
}
