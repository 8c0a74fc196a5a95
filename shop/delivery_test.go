package shop_test

import (
	"strings"
	"testing"

	"storefront/app"
	"storefront/shop"
)

// TestCartDeliveryRules: the cart prices the delivery option by its rule
// (free from free_over), says how much more buys free delivery, and a
// pickup checks out without an address and says "pickup" on the
// confirmation.
func TestCartDeliveryRules(t *testing.T) {
	e := newEnv(t, shop.Config{})
	sid, _ := e.Store("Acme")
	patchConfig(t, e, sid, `{"delivery_options": [
		{"id": "standard", "name": "Standard", "fee": "4.99", "free_over": "50.00"},
		{"id": "pickup", "name": "Pick up in store", "fee": "0.00", "needs_address": false}]}`)
	p := e.Product(sid, 0, "Lamp", 1000, 100)
	b := newBrowser(t, e, hostOf("Acme"))
	add(b, p.ID, 0, 4)
	b.get("/cart/").expect(t, 200, "$40.00", "$4.99", "Add $10.00 more for free Standard.", "$44.99")
	b.post("/cart/", "/cart/update", line(p.ID, 0, 5)).expect(t, 303)
	b.get("/cart/").expect(t, 200, "$50.00", "Standard: Free").lacks(t, "more for free", "$54.99")
	b.get("/checkout/?delivery=standard").expect(t, 200, "$50.00").lacks(t, "$54.99")
	// a pickup: the address may stay empty, and the order says pickup
	co := b.get("/checkout/?delivery=pickup").expect(t, 200, "no address needed")
	f := checkoutForm(co.Body, app.WalletA)
	f.Set("delivery", "pickup")
	f.Set("address", "")
	placed := b.do("POST", "/checkout/", f).expect(t, 303)
	conf := pay(t, b, placed.Location, app.OutcomeSuccess).expect(t, 200, "Pickup (no delivery address)")
	o := e.Order(sid, orderIDOf(t, conf.Body))
	if !o.Pickup || o.Address != "" || o.DeliveryFee != 0 || o.DeliveryOption != "pickup" {
		t.Fatalf("order %+v", o)
	}
	// standard without an address: the field's message
	add(b, p.ID, 0, 1)
	co = b.get("/checkout/?delivery=standard")
	f = checkoutForm(co.Body, app.WalletA)
	f.Set("address", "")
	b.do("POST", "/checkout/", f).expect(t, 400, `id="address-err"`)
	// the confirmation mail says pickup, not an empty address
	st, err := e.Svc.Stores.Get(sid)
	if err != nil {
		t.Fatal(err)
	}
	v := o.View()
	m, err := app.RenderMail(st, app.MailOrderConfirmation, "ann@example.com", app.MailData{Order: &v})
	if err != nil || !strings.Contains(m.Text, "Pickup: Ann Lee") || strings.Contains(m.Text, "Deliver to") {
		t.Fatalf("mail (%v):\n%s", err, m.Text)
	}
}

// TestCartShortLine: a line the stock can no longer serve is named in the
// cart with what is left, left out of the totals, and checkout is refused
// (no button; the page and a posted form send the shopper back to the cart)
// until it is changed.
func TestCartShortLine(t *testing.T) {
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 3)
	add(b, s.shirt.ID, s.small, 1)
	co := b.get("/checkout/").expect(t, 200, "$57.50")
	stock := int64(2)
	editProduct(t, e, s.id, s.hammer.ID, app.ProductInput{Stock: &stock})
	b.get("/cart/").expect(t, 200, "Some items cannot be ordered as they are", "Acme Hammer: Only 2 left", "Not counted in the total",
		"$37.50", "$20.00").lacks(t, `href="/checkout/`, "$57.50")
	b.get("/checkout/").expect(t, 303)
	if p := b.do("POST", "/checkout/", checkoutForm(co.Body, app.WalletA)); p.Status != 303 || p.Location != "/cart/?m=short" {
		t.Fatalf("a checkout with a short line: %d %q", p.Status, p.Location)
	}
	b.post("/cart/", "/cart/update", line(s.hammer.ID, 0, 2)).expect(t, 303)
	b.get("/cart/").expect(t, 200, `href="/checkout/`, "$45.00").lacks(t, "cannot be ordered")
}
