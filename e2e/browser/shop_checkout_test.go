package browser_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/e2e/browser"
)

// shopFixture starts a server whose default shop is a store with a jacket
// in two sizes (no images from elsewhere: the page loads nothing but its
// own files). It skips when the shop's catalog pages are not served (a
// branch without them).
func shopFixture(t *testing.T) (*browser.Server, product) {
	srv := browser.StartServer(t, browser.ServerOptions{Env: []string{"STOREFRONT_SHOP__DEFAULT_STORE=1"}})
	st := srv.CreateStore(t, "Corner Shop", "corner")
	if st.ID != 1 {
		t.Fatalf("store id %d, want 1 (the default store)", st.ID)
	}
	// the sandbox takes the payment: the store is in test mode
	srv.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/config/", st.ID), srv.OwnerToken(t), map[string]any{"payments_live": false}, 200, nil)
	var p product
	srv.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), srv.OwnerToken(t), map[string]any{
		"name": "Trail Jacket", "price": "49.00", "stock": 0, "description": "A light jacket for wet days.",
		"variants": []map[string]any{{"name": "Small", "sku": "TJ-S", "price": "49.00", "stock": 4},
			{"name": "Medium", "sku": "TJ-M", "price": "52.00", "stock": 6}}}, 201, &p)
	if status, _, _ := srv.Request(t, "GET", "/search/?q=trail", "", "", nil); status == 404 {
		t.Skip("the shop's catalog pages (search, product) are not served on this branch")
	}
	return srv, p
}

// TestShopGuestBuysWithScript: a guest finds a product by search, picks a
// variant, adds it, changes the quantity with the stepper, buys it on the
// sandbox and sees the confirmation; axe-core and both widths on the cart,
// checkout and confirmation pages.
func TestShopGuestBuysWithScript(t *testing.T) { guestBuys(t, true) }

// TestShopGuestBuysWithoutScript is the same purchase with JavaScript off.
func TestShopGuestBuysWithoutScript(t *testing.T) { guestBuys(t, false) }

func guestBuys(t *testing.T, script bool) {
	srv, jacket := shopFixture(t)
	p := browser.NewPage(t, srv)
	if !script {
		p.SetScripts(false)
	}
	p.Go("/search/?q=trail")
	p.Submit(`main li.card a`)
	if !strings.Contains(p.Text("h1"), "Trail Jacket") {
		t.Fatalf("product page: %q", p.Text("h1"))
	}
	p.SetChecked(fmt.Sprintf(`input[name=variant_id][value="%d"]`, jacket.Variants[1].ID), true)
	p.Fill(`form.add input[name=quantity]`, "2")
	p.Submit(`form.add button[type=submit]`)
	if got := p.Text(".cart-name"); got != "Trail Jacket - Medium" {
		t.Fatalf("cart line: %q", got)
	}
	steppers := p.Count(".qty button.step")
	if script {
		if steppers != 2 {
			t.Fatalf("%d stepper buttons, want 2", steppers)
		}
		p.Click(`.qty button.step[aria-label^="Increase"]`) // the cart updates itself (shop_cart_test.go)
		until(p, "the new total", grandJS+` === "$156.00"`)
	} else {
		if steppers != 0 {
			t.Fatalf("%d stepper buttons without script", steppers)
		}
		p.Fill(`.qty input[name=quantity]`, "3")
		p.Submit(`.qty button[type=submit]`)
	}
	if got := p.Text(".totals dd.grand"); got != "$156.00" {
		t.Fatalf("cart total: %q, want $156.00", got)
	}
	p.CheckAxe()
	p.CheckNoOverflow()

	p.Submit(`.summary a.button`)
	p.CheckAxe()
	p.CheckNoOverflow()
	p.Fill(`#email`, "guest@example.com")
	p.Fill(`#receiver_name`, "Grace Guest")
	p.Fill(`#phone`, "+1 555 0142")
	p.Fill(`#address`, "7 Hill Road, Springfield")
	p.Submit(`.checkout-form button[type=submit]`)
	if !strings.Contains(p.URL(), "/sandbox/pay/") {
		t.Fatalf("after placing the order: %s", p.URL())
	}
	p.Submit(`button[value=success]`)
	if got := p.Text("h1"); got != "Thank you for your order" {
		t.Fatalf("confirmation: %q", got)
	}
	if got := p.Text(".summary-lines"); !strings.Contains(got, "Trail Jacket - Medium × 3") {
		t.Fatalf("confirmation lines: %q", got)
	}
	p.CheckAxe()
	p.CheckNoOverflow()
	p.Go("/cart/")
	if !strings.Contains(p.Text("main"), "Your cart is empty") {
		t.Fatalf("cart after payment: %q", p.Text("main"))
	}
}
