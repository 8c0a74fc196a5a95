package shop_test

import (
	"testing"

	"storefront/app"
	"storefront/shop"
)

// TestCheckoutMethods: the checkout offers the methods the API's
// payment-methods/ lists (same rule), each marked when it takes test
// payments; a live store offers no sandbox method.
func TestCheckoutMethods(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 1)
	st, err := e.Svc.Stores.Get(s.id)
	if err != nil {
		t.Fatal(err)
	}
	offered := e.Svc.Payments.OfferedMethods(st)
	if len(offered) != 2 || !offered[0].Test {
		t.Fatalf("offered %+v", offered)
	}
	b.get("/checkout/").expect(t, 200, `value="WALLET_A"`, `value="WALLET_B"`, "Wallet A <span class=\"small\">(test mode)</span>")

	if _, err := e.Svc.Stores.PatchConfig(s.id, []byte(`{"payments_live": true}`)); err != nil {
		t.Fatal(err)
	}
	b.get("/checkout/").expect(t, 200, "Place order and pay").lacks(t, `value="WALLET_A"`, `value="WALLET_B"`, "test mode", "Test mode")
}

// TestCheckoutUnverified: a store that asks for verified emails refuses an
// unverified shopper's order with a link to the verification page.
func TestCheckoutUnverified(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := otpStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	b.post("/account/register/", "/account/register/", registerForm("ann@example.com")).expect(t, 303)
	add(b, s.hammer.ID, 0, 1)
	co := b.get("/checkout/").expect(t, 200)
	b.do("POST", "/checkout/", checkoutForm(co.Body, app.WalletA)).
		expect(t, 403, "Verify your email address before placing an order.", `<a href="/account/verify/">`, `value="ann@example.com"`)
}
