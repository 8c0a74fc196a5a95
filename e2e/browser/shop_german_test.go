package browser_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
)

// germanShop starts a server whose default shop speaks German and sells in
// euros: a teapot at 1.234,56 €.
func germanShop(t *testing.T) *browser.Server {
	srv := browser.StartServer(t, browser.ServerOptions{Env: []string{"STOREFRONT_SHOP__DEFAULT_STORE=1"}})
	var st browser.Store
	srv.API(t, "POST", "/api/v1/admin/stores/", srv.OwnerToken(t), map[string]string{"name": "Teeladen", "subdomain": "teeladen", "currency": "EUR"}, 201, &st)
	if st.ID != 1 {
		t.Fatalf("store id %d, want 1 (the default store)", st.ID)
	}
	srv.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/payments/", st.ID), srv.OwnerToken(t), map[string]any{"payments_live": false}, 200, nil)
	srv.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/config/", st.ID), srv.OwnerToken(t), map[string]any{"locale": "de"}, 200, nil)
	srv.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), srv.OwnerToken(t), map[string]any{
		"name": "Teekanne Aurora", "price": "1234.56", "stock": 5, "description": "Eine Kanne für grünen Tee."}, 201, nil)
	return srv
}

// TestShopGermanPurchaseWithScript: a guest buys in a German shop: German
// texts, <html lang="de">, money as 2.469,12 €; axe-core at 390 and 1280 px.
func TestShopGermanPurchaseWithScript(t *testing.T) { germanPurchase(t, true) }

// TestShopGermanPurchaseWithoutScript is the same purchase with JavaScript off.
func TestShopGermanPurchaseWithoutScript(t *testing.T) { germanPurchase(t, false) }

func germanPurchase(t *testing.T, script bool) {
	srv := germanShop(t)
	p := browser.NewPage(t, srv)
	if !script {
		p.SetScripts(false)
	}
	p.Go("/")
	if lang := p.Attr("html", "lang"); lang != "de" {
		t.Fatalf("<html lang=%q>, want de", lang)
	}
	p.Go("/search/?q=teekanne")
	p.Submit(`main li.card a`)
	if got := p.Text(`form.add button[type=submit]`); got != "In den Warenkorb" {
		t.Fatalf("add button: %q", got)
	}
	if got := p.Text("main"); !strings.Contains(got, "1.234,56\u00a0€") {
		t.Fatalf("product page lacks the German price: %q", got)
	}
	p.Fill(`form.add input[name=quantity]`, "2")
	p.Submit(`form.add button[type=submit]`)
	if got := p.Text("h1"); got != "Ihr Warenkorb" {
		t.Fatalf("cart heading: %q", got)
	}
	if got := p.Text(".totals dd.grand"); got != "2.469,12\u00a0€" {
		t.Fatalf("cart total: %q, want 2.469,12 €", got)
	}
	axeAtEachWidth(p)
	p.Submit(`.summary a.button`)
	if got := p.Text("h1"); got != "Kasse" {
		t.Fatalf("checkout heading: %q", got)
	}
	axeAtEachWidth(p)
	p.Fill(`#email`, "gast@example.com")
	p.Fill(`#receiver_name`, "Greta Gast")
	p.Fill(`#phone`, "+49 30 1234567")
	p.Fill(`#address`, "Teestraße 7, 10115 Berlin")
	if got := p.Text(`.checkout-form button[type=submit]`); got != "Kostenpflichtig bestellen" {
		t.Fatalf("place order button: %q", got)
	}
	p.Submit(`.checkout-form button[type=submit]`)
	if !strings.Contains(p.URL(), "/sandbox/pay/") {
		t.Fatalf("after placing the order: %s", p.URL())
	}
	p.Submit(`button[value=success]`)
	if got := p.Text("h1"); got != "Vielen Dank für Ihre Bestellung" {
		t.Fatalf("confirmation: %q", got)
	}
	if got := p.Text("main"); !strings.Contains(got, "2.469,12\u00a0€") {
		t.Fatalf("confirmation lacks the German total: %q", got)
	}
	axeAtEachWidth(p)
}

// axeAtEachWidth runs axe-core at every width of browser.Widths and checks
// the page does not overflow.
func axeAtEachWidth(p *browser.Page) {
	p.T.Helper()
	for _, w := range browser.Widths {
		p.Do("viewport", chromedp.EmulateViewport(w, 900))
		p.CheckAxe()
	}
	p.CheckNoOverflow()
}
