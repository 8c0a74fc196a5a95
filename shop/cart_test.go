package shop_test

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"storefront/app"
	"storefront/shop"
	"storefront/testenv"
)

// cartStore is a store with a plain product and one with variants.
type cartStore struct {
	id            uint64
	host          string
	hammer, shirt *app.Product
	small, medium uint64 // the shirt's variants
}

func newCartStore(t *testing.T, e *testenv.Env, name string) cartStore {
	t.Helper()
	id, _ := e.Store(name)
	cat := e.Category(id, "Goods")
	cs := cartStore{id: id, host: hostOf(name), hammer: e.Product(id, cat.ID, name+" Hammer", 1250, 5)}
	shirt, price := name+" Shirt", app.Money(2000)
	p, err := e.Svc.Catalog.SaveProduct(id, 0, app.ProductInput{Name: &shirt, Price: &price, CategoryID: &cat.ID,
		Variants: &[]app.VariantInput{{Name: "Small", Stock: 3}, {Name: "Medium", Stock: 2, Price: ptrTo(app.Money(2100))}}})
	if err != nil {
		t.Fatal(err)
	}
	cs.shirt, cs.small, cs.medium = p, p.Variants[0].ID, p.Variants[1].ID
	return cs
}

func ptrTo[T any](v T) *T { return &v }

// add posts the product page's form to /cart/add.
func add(b *browser, productID, variantID uint64, qty int) *page {
	b.t.Helper()
	f := url.Values{"product_id": {fmt.Sprint(productID)}, "quantity": {fmt.Sprint(qty)}}
	if variantID != 0 {
		f.Set("variant_id", fmt.Sprint(variantID))
	}
	f.Set("csrf", b.token()) // the product page's form carries the browser's token
	return b.do("POST", "/cart/add", f)
}

// line is a cart form for one line.
func line(productID, variantID uint64, qty int) url.Values {
	return url.Values{"product_id": {fmt.Sprint(productID)}, "variant_id": {fmt.Sprint(variantID)}, "quantity": {fmt.Sprint(qty)}}
}

func TestGuestCart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	code, typ, val := "SAVE10", app.CouponPercent, app.Money(1000) // 10.00 percent
	if _, err := e.Svc.Coupons.Save(s.id, 0, app.CouponInput{Code: &code, Type: &typ, Value: &val, IsActive: ptrTo(true)}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e, s.host)
	b.get("/cart/").expect(t, 200, "Your cart is empty", `<meta name="robots" content="noindex">`)

	if p := add(b, s.hammer.ID, 0, 2); p.Status != 303 || p.Location != "/cart/?m=added" {
		t.Fatalf("add: %d %q", p.Status, p.Location)
	}
	add(b, s.shirt.ID, s.medium, 1)
	b.get("/cart/?m=added").expect(t, 200, "Added to your cart", "Acme Hammer", "$25.00", "Acme Shirt - Medium", "$21.00",
		"$46.00")
	// a product with variants needs one; bad quantities and products are refused
	add(b, s.shirt.ID, 0, 1).expect(t, 400, "Variant:", "this product has variants", "Acme Hammer")
	add(b, s.hammer.ID, 0, 0).expect(t, 400, "Quantity:")
	add(b, 999, 0, 1).expect(t, 400, "unknown product")
	b.post("/cart/", "/cart/add", url.Values{"product_id": {"x"}}).expect(t, 400, "Product:")

	b.post("/cart/", "/cart/update", line(s.hammer.ID, 0, 3)).expect(t, 303)
	b.get("/cart/").expect(t, 200, "$37.50", "$58.50")
	b.post("/cart/", "/cart/update", line(s.hammer.ID, 0, 6)).expect(t, 303)
	b.get("/cart/").expect(t, 200, "Only 5 left")
	b.post("/cart/", "/cart/update", line(s.hammer.ID, 0, 1001)).expect(t, 400, "Quantity:")
	b.post("/cart/", "/cart/update", line(s.hammer.ID, 0, 2)).expect(t, 303)
	b.post("/cart/", "/cart/remove", line(s.shirt.ID, s.medium, 0)).expect(t, 303)
	b.get("/cart/?m=removed").expect(t, 200, "The item was removed", "$25.00").lacks(t, "Shirt")
	// quantity 0 removes too
	add(b, s.shirt.ID, s.small, 1)
	b.post("/cart/", "/cart/update", line(s.shirt.ID, s.small, 0)).expect(t, 303)
	b.get("/cart/").lacks(t, "Shirt")

	b.post("/cart/", "/cart/coupon", url.Values{"coupon": {"nope"}}).expect(t, 400, "This code is not a valid coupon.", `value="nope"`, `aria-invalid="true"`)
	b.post("/cart/", "/cart/coupon", url.Values{"coupon": {""}}).expect(t, 400, "Enter a coupon code")
	b.post("/cart/", "/cart/coupon", url.Values{"coupon": {"save10"}}).expect(t, 303)
	b.get("/cart/").expect(t, 200, "Coupon SAVE10", "−$2.50", "$22.50")
	b.post("/cart/", "/cart/coupon", url.Values{"remove": {"1"}}).expect(t, 303)
	b.get("/cart/?m=nocoupon").expect(t, 200, "The coupon was removed").lacks(t, "−$2.50")

	// a form without the CSRF token changes nothing
	b.do("POST", "/cart/add", line(s.hammer.ID, 0, 1)).expect(t, 403)
	b.get("/cart/").expect(t, 200, "$25.00")
}

func TestGuestCheckout(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 2)
	add(b, s.shirt.ID, s.small, 1)

	co := b.get("/checkout/").expect(t, 200, "Checkout", `name="idempotency_key"`, "Wallet A", "$45.00", "Test mode", `<meta name="robots" content="noindex">`)
	// missing fields: the messages next to them, the values kept
	p := b.do("POST", "/checkout/", url.Values{"csrf": {csrfOf(t, co.Body)}, "email": {"not-an-email"}, "receiver_name": {"Ann <b>Lee</b>"},
		"payment_method": {app.WalletA}, "idempotency_key": {keyOf(t, co.Body)}})
	p.expect(t, 400, "Please correct the highlighted fields", `id="email-err"`, `id="phone-err"`, `id="address-err"`,
		`value="not-an-email"`, `value="Ann &lt;b&gt;Lee&lt;/b&gt;"`).lacks(t, "<b>Lee")
	// a payment method the store does not offer
	p = b.do("POST", "/checkout/", checkoutForm(co.Body, "WALLET_Z"))
	p.expect(t, 400, `id="payment_method-err"`, `value="ann@example.com"`)

	p = b.do("POST", "/checkout/", checkoutForm(co.Body, app.WalletA))
	if p.Status != 303 || !strings.Contains(p.Location, "/sandbox/pay/ps_") {
		t.Fatalf("place: %d %q\n%s", p.Status, p.Location, p.Body)
	}
	conf := pay(t, b, p.Location, app.OutcomeSuccess)
	conf.expect(t, 200, "Thank you for your order", "Acme Hammer × 2", "Acme Shirt - Small × 1", "$45.00", "Ann Lee", "1 Main St",
		"What happens next")
	o := e.Order(s.id, orderIDOf(t, conf.Body))
	if o.Status != app.OrderConfirmed || o.PaymentStatus != app.PaymentPaid || o.Total != 4500 || o.Email != "ann@example.com" {
		t.Fatalf("order %+v", o)
	}
	if got := e.Stock(s.id, s.hammer.ID); got != 3 {
		t.Fatalf("hammer stock %d, want 3", got)
	}
	// the cart is empty once paid; the confirmation reloads
	b.get("/cart/").expect(t, 200, "Your cart is empty")
	b.get("/checkout/").expect(t, 303)
	b.visit(b.lastReturn).expect(t, 200, "Thank you for your order", "Acme Hammer × 2")
	// another browser with the return URL sees the number, not the details
	newBrowser(t, e, s.host).visit(b.lastReturn).expect(t, 200, "Thank you").lacks(t, "Ann Lee", "1 Main St")
}

func TestCheckoutPaymentFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 1)
	co := b.get("/checkout/")
	p := b.do("POST", "/checkout/", checkoutForm(co.Body, app.WalletB)).expect(t, 303)
	failed := pay(t, b, p.Location, app.OutcomeFailure)
	failed.expect(t, 200, "Payment not completed", "the payment failed", "Try the payment again", "/sandbox/pay/ps_")
	b.get("/cart/").expect(t, 200, "Acme Hammer") // the cart is kept
	// trying again with the link pays the same order
	retry := regexp.MustCompile(`href="([^"]*/sandbox/pay/[^"]+)"`).FindStringSubmatch(failed.Body)[1]
	pay(t, b, strings.ReplaceAll(retry, "&amp;", "&"), app.OutcomeSuccess).expect(t, 200, "Thank you for your order")
	// a forged return is a failure, never a confirmation
	b.get("/checkout/return/?payment_session_id=ps_1_1_forged&outcome=success").expect(t, 404)
	b.get("/checkout/return/").expect(t, 400)
}

// TestCheckoutNoPaymentMethod: a live store whose only methods are the
// sandbox accepts none: the cart and the checkout page say so before any
// form (with a hint for the owner), and a checkout posted anyway is 409.
func TestCheckoutNoPaymentMethod(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 1)
	co := b.get("/checkout/").expect(t, 200, "Place order and pay")
	if _, err := e.Svc.Stores.PatchConfig(s.id, []byte(`{"payments_live": true}`)); err != nil {
		t.Fatal(err)
	}
	b.get("/cart/").expect(t, 200, "cannot take payments yet", "Shop owner: set up a payment method").lacks(t, `href="/checkout/`)
	b.get("/checkout/").expect(t, 200, "cannot take payments yet", "Shop owner").lacks(t, "<form class=\"checkout-form\"", "Place order and pay")
	b.do("POST", "/checkout/", checkoutForm(co.Body, app.WalletA)).expect(t, 409, "cannot take payments yet").lacks(t, "Place order and pay")
}

// TestCheckoutDoubleSubmit: the same checkout page posted N times at once
// places one order, and every answer sends the shopper to its payment.
func TestCheckoutDoubleSubmit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 1)
	form := checkoutForm(b.get("/checkout/").Body, app.WalletA)
	const n = 8
	locs := make([]string, n)
	testenv.Burst(n, func(i int) {
		p := b.do("POST", "/checkout/", form)
		if p.Status == 303 {
			locs[i] = p.Location
		}
	})
	for i, l := range locs {
		if l == "" || l != locs[0] {
			t.Fatalf("answer %d: %q, want %q", i, l, locs[0])
		}
	}
	page, err := e.Svc.Orders.Orders(s.id, "", app.ListParams{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 {
		t.Fatalf("%d orders, want 1", len(page.Items))
	}
	if got := e.Stock(s.id, s.hammer.ID); got != 4 {
		t.Fatalf("stock %d, want 4", got)
	}
}

// TestCartCookieBound: a tampered cart cookie, and one another store's shop
// signed, read as an empty cart, never an error; two stores' carts never
// mix. A browser keeps cookies per host; here Acme's cookie is also carried
// to Bravo's host by hand, to show the store-bound signature refuses it.
func TestCartCookieBound(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a := newCartStore(t, e, "Acme")
	bv := newCartStore(t, e, "Bravo")
	b := newBrowser(t, e, a.host)
	add(b, a.hammer.ID, 0, 2)
	signed := b.cookie("sf_cart")
	if signed == "" {
		t.Fatal("no cart cookie")
	}
	// at Bravo the same browser has an empty cart, even with Acme's cookie
	b.host = bv.host
	b.get("/cart/").expect(t, 200, "Your cart is empty").lacks(t, "Acme Hammer")
	b.setCookie("sf_cart", signed)
	b.get("/cart/").expect(t, 200, "Your cart is empty").lacks(t, "Acme Hammer")
	b.get("/checkout/").expect(t, 303)
	b.host = a.host
	b.get("/cart/").expect(t, 200, "Acme Hammer")
	// tampered: a quantity changed, the signature kept
	b.setCookie("sf_cart", strings.Replace(signed, "-0-2", "-0-9", 1))
	b.get("/cart/").expect(t, 200, "Your cart is empty")
	for _, bad := range []string{"garbage", "1~1-0-1~~.x", "", strings.Repeat("a", 5000), signed + "x"} {
		b.setCookie("sf_cart", bad)
		b.get("/cart/").expect(t, 200, "Your cart is empty")
	}
}

// checkoutForm is the checkout page's form filled in, with payment method m.
func checkoutForm(body, m string) url.Values {
	return url.Values{"csrf": {csrfRE.FindStringSubmatch(body)[1]}, "idempotency_key": {keyRE.FindStringSubmatch(body)[1]},
		"email": {"ann@example.com"}, "receiver_name": {"Ann Lee"}, "phone": {"+1 555 0100"}, "address": {"1 Main St, Springfield"},
		"delivery": {"standard"}, "payment_method": {m}}
}

var keyRE = regexp.MustCompile(`name="idempotency_key" value="([0-9a-f]+)"`)

func keyOf(t *testing.T, body string) string {
	t.Helper()
	m := keyRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no idempotency key in the page:\n%s", body)
	}
	return m[1]
}

// pay answers the sandbox page at loc with outcome, as a shopper's browser
// does (the Pay or Fail button), and follows the gateway back to the shop.
func pay(t *testing.T, b *browser, loc, outcome string) *page {
	t.Helper()
	b.visit(loc).expect(t, 200, "Pay")
	back := b.submit(loc, url.Values{"outcome": {outcome}}).expect(t, 303)
	if !strings.Contains(back.Location, "/checkout/return/?") {
		t.Fatalf("the sandbox returned to %q", back.Location)
	}
	b.lastReturn = back.Location
	return b.visit(back.Location)
}

var orderNoRE = regexp.MustCompile(`Order number: (\d+)`)

func orderIDOf(t *testing.T, body string) uint64 {
	t.Helper()
	m := orderNoRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no order number:\n%s", body)
	}
	var id uint64
	fmt.Sscan(m[1], &id)
	return id
}

// TestCheckoutCallbackOrigins: a store whose callback_origins name only its
// headless front-end still takes its own shop's checkout; no other origin
// is added to its allow list.
func TestCheckoutCallbackOrigins(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	if _, err := e.Svc.Stores.PatchConfig(s.id, []byte(`{"callback_origins": ["https://headless.example"]}`)); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 1)
	p := b.do("POST", "/checkout/", checkoutForm(b.get("/checkout/").Body, app.WalletA)).expect(t, 303)
	pay(t, b, p.Location, app.OutcomeSuccess).expect(t, 200, "Thank you for your order")

	in := func(cb string) app.CheckoutInput {
		return app.CheckoutInput{ReceiverName: "A", Phone: "1", Address: "x", Email: "a@example.com", PaymentMethod: app.WalletA,
			CallbackURL: cb, Items: []app.CheckoutItem{{ProductID: s.hammer.ID, Quantity: 1}}}
	}
	for cb, ok := range map[string]bool{
		"https://headless.example/done":       true,
		"http://acme.shops.test/anything":     true,  // the store's own shop host
		"https://acme.shops.test:8443/x":      true,  // any scheme and port of it
		"http://bravo.shops.test/x":           false, // another store's shop host
		"http://acme.shops.test.evil.com/x":   false,
		"http://shop.test/checkout/return/":   false, // the public origin: only the default store's
		"https://elsewhere.example/callback/": false,
	} {
		_, err := e.Svc.Orders.Initiate(s.id, 0, in(cb), app.Idempotency{})
		if (err == nil) != ok {
			t.Errorf("callback %s: err %v, want accepted %v", cb, err, ok)
		}
	}
}

// TestCheckoutCallbackDefaultStore: the shop's default store (served on
// the server's public URL, as the demo is) may return there.
func TestCheckoutCallbackDefaultStore(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{Host: app.ShopHost{Domain: shopDomain, DefaultStore: 1}})
	s := newCartStore(t, e, "Acme")
	other := newCartStore(t, e, "Bravo")
	for _, st := range []cartStore{s, other} {
		if _, err := e.Svc.Stores.PatchConfig(st.id, []byte(`{"callback_origins": ["https://headless.example"]}`)); err != nil {
			t.Fatal(err)
		}
	}
	b := newBrowser(t, e, "shop.test")
	add(b, s.hammer.ID, 0, 1)
	p := b.do("POST", "/checkout/", checkoutForm(b.get("/checkout/").Body, app.WalletA)).expect(t, 303)
	pay(t, b, p.Location, app.OutcomeSuccess).expect(t, 200, "Thank you for your order")
	in := app.CheckoutInput{ReceiverName: "A", Phone: "1", Address: "x", Email: "a@example.com", PaymentMethod: app.WalletA,
		CallbackURL: "http://shop.test/checkout/return/", Items: []app.CheckoutItem{{ProductID: other.hammer.ID, Quantity: 1}}}
	if _, err := e.Svc.Orders.Initiate(other.id, 0, in, app.Idempotency{}); app.ErrorCode(err) != app.EValidation {
		t.Fatalf("another store returning to the public origin: %v", err)
	}
}
