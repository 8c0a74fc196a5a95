package shop_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"storefront/app"
	"storefront/shop"
)

// TestCartCount: the header's count is the sf_count cookie (readable by
// shop.js, not HttpOnly), written whenever the cart changes, for a guest
// and a signed-in shopper; a cached page never carries anybody's count.
func TestCartCount(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	other := newCartStore(t, e, "Bolt")
	e.Shopper(s.id, "ann@example.com")
	b := newBrowser(t, e, s.host)
	home := b.get("/").expect(t, 200, `<span class="cart-count" data-cart-count hidden></span>`)
	if b.cookie("sf_count") != "" {
		t.Fatal("a count before any cart")
	}
	p := add(b, s.hammer.ID, 0, 2).expect(t, 303)
	if ck := strings.Join(p.Header.Values("Set-Cookie"), "\n"); !strings.Contains(ck, "sf_count=2;") ||
		strings.Contains(strings.ToLower(lineOf(ck, "sf_count=")), "httponly") {
		t.Fatalf("count cookie: %s", ck)
	}
	add(b, s.shirt.ID, s.small, 1)
	steps := []struct {
		name string
		do   func() *page
		want string
	}{
		{"update", func() *page { return b.post("/cart/", "/cart/update", line(s.hammer.ID, 0, 4)) }, "5"},
		{"refused update keeps it", func() *page { return b.post("/cart/", "/cart/update", line(s.hammer.ID, 0, 1001)) }, "5"},
		{"remove", func() *page { return b.post("/cart/", "/cart/remove", line(s.shirt.ID, s.small, 0)) }, "4"},
		{"sign in: the API cart's", func() *page { return signIn(t, e, b, s.id, "ann@example.com") }, "4"},
		{"signed-in add", func() *page { return add(b, s.shirt.ID, s.medium, 2) }, "6"},
		{"signed-in remove", func() *page { return b.post("/cart/", "/cart/update", line(s.hammer.ID, 0, 0)) }, "2"},
		{"sign out: the guest's (empty)", func() *page { return b.do("POST", "/test/sign-out", url.Values{"csrf": {b.token()}}) }, ""},
	}
	for _, st := range steps {
		st.do()
		if got := b.cookie("sf_count"); got != st.want {
			t.Fatalf("%s: count %q, want %q", st.name, got, st.want)
		}
	}
	// the page cache served the same bytes before and after: no count in it
	newBrowser(t, e, s.host).get("/").expect(t, 200, `data-cart-count hidden></span>`)
	if home.Body == "" {
		t.Fatal("empty home")
	}
	// another store's shop keeps its own count
	ob := newBrowser(t, e, other.host)
	add(ob, other.hammer.ID, 0, 3)
	if ob.cookie("sf_count") != "3" || b.cookie("sf_count") != "" {
		t.Fatalf("counts %q %q", ob.cookie("sf_count"), b.cookie("sf_count"))
	}
}

// lineOf is the line of s that holds sub.
func lineOf(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// TestCartForms: the cart's forms as shop.js sends them (the same routes):
// every answer is the cart page (#cart-view, its data-say for the live
// region), the delivery option chosen survives a change, and each error
// row answers with the cart and its message.
func TestCartForms(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	patchConfig(t, e, s.id, `{"delivery_options": [
		{"id": "standard", "name": "Standard", "fee": "4.99"},
		{"id": "pickup", "name": "Pick up in store", "fee": "0.00", "needs_address": false}]}`)
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 2)
	c := b.get("/cart/?delivery=pickup").expect(t, 200, `action="/cart/update?delivery=pickup"`, `action="/cart/remove?delivery=pickup"`,
		`action="/cart/coupon?delivery=pickup"`, `id="delivery-pickup" name="delivery" value="pickup" checked`,
		`data-say="Total: $25.00"`, `aria-label`, `data-less="Decrease quantity of Acme Hammer"`, `data-more="Increase quantity of Acme Hammer"`,
		`id="cart-live"`, `href="/checkout/?delivery=pickup"`)
	tok := csrfOf(t, c.Body)
	form := func(f url.Values) url.Values { f.Set("csrf", tok); return f }
	rows := []struct {
		name, path string
		form       url.Values
		status     int
		want       []string
		location   string
	}{
		{"quantity", "/cart/update?delivery=pickup", line(s.hammer.ID, 0, 3), 303, nil, "/cart/?m=updated&delivery=pickup"},
		{"bad quantity", "/cart/update?delivery=pickup", line(s.hammer.ID, 0, 1001), 400, []string{"Quantity:", `id="cart-view"`}, ""},
		{"not a number", "/cart/update", url.Values{"product_id": {"1"}, "quantity": {"two"}}, 400, []string{"Quantity:"}, ""},
		{"unknown line", "/cart/update", line(s.shirt.ID, s.small, 1), 404, []string{"That item is not in your cart.", `id="cart-view"`}, ""},
		{"unknown product", "/cart/update", line(999, 0, 1), 404, []string{"That item is not in your cart."}, ""},
		{"coupon", "/cart/coupon?delivery=pickup", url.Values{"coupon": {"nope"}}, 400, []string{"This code is not a valid coupon.", `value="nope"`}, ""},
		{"remove", "/cart/remove?delivery=pickup", line(s.hammer.ID, 0, 0), 303, nil, "/cart/?m=removed&delivery=pickup"},
		{"a long delivery id is not kept", "/cart/update?delivery=" + strings.Repeat("x", 101), line(s.hammer.ID, 0, 1), 404, nil, ""},
	}
	for _, r := range rows {
		p := b.do("POST", r.path, form(r.form))
		if p.Status != r.status {
			t.Fatalf("%s: status %d, want %d", r.name, p.Status, r.status)
		}
		p.expect(t, r.status, r.want...)
		if p.Location != r.location {
			t.Fatalf("%s: location %q, want %q", r.name, p.Location, r.location)
		}
	}
	// the cart after its last line went: no stale notice above "empty"
	b.get("/cart/?m=updated&delivery=pickup").expect(t, 200, "Your cart is empty", `data-say="Your cart is empty."`).lacks(t, "Your cart was updated")
	b.get("/cart/?m=added").lacks(t, "Added to your cart")
	b.get("/cart/?m=removed").expect(t, 200, "The item was removed", `data-say="The item was removed. Your cart is empty."`)
	// a foreign cart: store B's cookie at store A is an empty cart
	ob := newBrowser(t, e, hostOf("Bolt"))
	bolt := newCartStore(t, e, "Bolt")
	add(ob, bolt.hammer.ID, 0, 1)
	b.setCookie("sf_cart", ob.cookie("sf_cart"))
	b.do("POST", "/cart/update", form(line(bolt.hammer.ID, 0, 2))).expect(t, 404, "That item is not in your cart.")
	b.get("/cart/").expect(t, 200, "Your cart is empty")
}

// TestFormsShownAgain: a form whose CSRF token no longer holds (an expired
// session, a page left open, cookies cleared) comes back as the same form
// with what was typed, a fresh token and a note, status 403; nothing is
// done with it.
func TestFormsShownAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 2)
	const note = "Your session expired; please check and send again."
	stale := "0123456789abcdef0123456789abcdef"
	rows := []struct {
		name, path string
		form       url.Values
		want       []string
		lacks      []string
	}{
		{"cart update", "/cart/update", line(s.hammer.ID, 0, 4), []string{note, `value="4" data-stepper`, "$25.00"}, nil},
		{"cart remove", "/cart/remove", line(s.hammer.ID, 0, 0), []string{note, "Acme Hammer"}, nil},
		{"coupon", "/cart/coupon", url.Values{"coupon": {"SPRING"}}, []string{note, `value="SPRING"`}, nil},
		{"add", "/cart/add", url.Values{"product_id": {itoa(s.shirt.ID)}, "variant_id": {itoa(s.small)}, "quantity": {"3"}},
			[]string{note, "Add 3 × Acme Shirt - Small to your cart", `name="quantity" value="3"`}, nil},
		{"add, unknown product", "/cart/add", url.Values{"product_id": {"999"}}, []string{note}, []string{"to your cart</button>"}},
		{"checkout", "/checkout/", url.Values{"email": {"ann@example.com"}, "receiver_name": {"Ann Lee"}, "address": {"1 Main St"}},
			[]string{note, `value="ann@example.com"`, `value="Ann Lee"`, "1 Main St"}, nil},
		{"contact", "/contact/", url.Values{"name": {"Ann"}, "email": {"ann@example.com"}, "message": {"Hello there"}},
			[]string{note, `value="Ann"`, "Hello there"}, nil},
		{"login", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"secret-pass"}},
			[]string{note, `value="ann@example.com"`}, []string{"secret-pass"}},
		{"register", "/account/register/", url.Values{"email": {"bo@example.com"}, "first_name": {"Bo"}, "password": {"secret-pass"}},
			[]string{note, `value="bo@example.com"`, `value="Bo"`}, []string{"secret-pass"}},
		{"forgot", "/account/password/forgot/", url.Values{"email": {"ann@example.com"}}, []string{note, `value="ann@example.com"`}, nil},
	}
	for _, r := range rows {
		r.form.Set("csrf", stale)
		p := b.do("POST", r.path, r.form).expect(t, 403, r.want...).lacks(t, r.lacks...)
		if tok := csrfOf(t, p.Body); tok == stale {
			t.Fatalf("%s: the stale token came back", r.name)
		}
	}
	// nothing was done: the cart as before, no message sent, nobody registered
	b.get("/cart/").expect(t, 200, `value="2" data-stepper`).lacks(t, "Shirt", "SPRING")
	if st, err := e.Svc.Stores.Get(s.id); err != nil {
		t.Fatal(err)
	} else if _, err := e.Svc.Customers.Login(st, "bo@example.com", "secret-pass"); err == nil {
		t.Fatal("registered by a stale form")
	}
	// the form's fresh token works: the add button adds
	p := b.do("POST", "/cart/add", url.Values{"csrf": {stale}, "product_id": {itoa(s.shirt.ID)}, "variant_id": {itoa(s.small)}, "quantity": {"3"}})
	b.do("POST", "/cart/add", url.Values{"csrf": {csrfOf(t, p.Body)}, "product_id": {itoa(s.shirt.ID)}, "variant_id": {itoa(s.small)},
		"quantity": {"3"}}).expect(t, 303)
	b.get("/cart/").expect(t, 200, "Acme Shirt - Small", `value="3" data-stepper`)
}

// TestSignedInFormsShownAgain: the signed-in shopper's forms (review, new
// address, new ticket) come back as typed, with the note, after a token
// that no longer holds; nothing is saved.
func TestSignedInFormsShownAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	e.Shopper(s.id, "ann@example.com")
	b := newBrowser(t, e, s.host)
	signIn(t, e, b, s.id, "ann@example.com").expect(t, 303)
	const note = "Your session expired; please check and send again."
	stale := "0123456789abcdef0123456789abcdef"
	review := "/products/" + s.hammer.Slug + "/reviews"
	rows := []struct {
		path string
		form url.Values
		want []string
	}{
		{review, url.Values{"rating": {"4"}, "title": {"Solid head"}, "content": {"Drives nails well."}},
			[]string{note, `value="Solid head"`, "Drives nails well.", `value="4" required checked`}},
		{"/account/addresses/new", url.Values{"receiver_name": {"Ann Lee"}, "address_line1": {"9 Oak Ave"}}, []string{note, `value="Ann Lee"`, `value="9 Oak Ave"`}},
		{"/account/tickets/new", url.Values{"subject": {"Late parcel"}, "description": {"Where is it?"}}, []string{note, `value="Late parcel"`, "Where is it?"}},
	}
	for _, r := range rows {
		r.form.Set("csrf", stale)
		b.do("POST", r.path, r.form).expect(t, 403, r.want...)
	}
	b.get("/products/"+s.hammer.Slug+"/").lacks(t, "Solid head")
	b.get("/account/addresses/").lacks(t, "9 Oak Ave")
	b.get("/account/tickets/").lacks(t, "Late parcel")
	// signed out meanwhile: a review form is not a guest's, the error page says to reload
	guest := newBrowser(t, e, s.host)
	guest.do("POST", review, url.Values{"csrf": {stale}, "title": {"x"}}).expect(t, 403, "Your session expired. Please go back")
}

// TestCheckoutKeptAfterFailedPayment: after a failed payment the checkout
// form comes back with what the shopper typed (from the unpaid order this
// browser placed); another browser, or a paid order, fills nothing.
func TestCheckoutKeptAfterFailedPayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 1)
	co := b.get("/checkout/").lacks(t, `value="ann@example.com"`)
	f := checkoutForm(co.Body, app.WalletB)
	f.Set("phone", "+1 555 0199")
	p := b.do("POST", "/checkout/", f).expect(t, 303)
	pay(t, b, p.Location, app.OutcomeFailure).expect(t, 200, "Payment not completed")
	again := b.get("/checkout/").expect(t, 200, `value="ann@example.com"`, `value="Ann Lee"`, `value="&#43;1 555 0199"`, "1 Main St, Springfield")
	if !strings.Contains(again.Body, `value="`+app.WalletB+`" checked`) {
		t.Fatalf("the payment method chosen is not kept:\n%s", again.Body)
	}
	// another browser's checkout is empty
	o := newBrowser(t, e, s.host)
	add(o, s.hammer.ID, 0, 1)
	o.get("/checkout/").expect(t, 200).lacks(t, "ann@example.com", "Ann Lee")
	// paid: the next checkout starts empty
	p = b.do("POST", "/checkout/", checkoutForm(again.Body, app.WalletA)).expect(t, 303)
	pay(t, b, p.Location, app.OutcomeSuccess).expect(t, 200, "Thank you")
	add(b, s.hammer.ID, 0, 1)
	b.get("/checkout/").expect(t, 200).lacks(t, "ann@example.com")
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }
