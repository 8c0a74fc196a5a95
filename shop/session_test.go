package shop_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/shop"
	"storefront/testenv"
)

// signIn logs the shopper in through the customer service and hands the
// token pair to the shop's signIn (as the account pages will).
func signIn(t *testing.T, e *testenv.Env, b *browser, storeID uint64, email string) *page {
	t.Helper()
	st, err := e.Svc.Stores.Get(storeID)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Svc.Customers.Login(st, email, "password123")
	if err != nil {
		t.Fatal(err)
	}
	return b.do("POST", "/test/sign-in", url.Values{"csrf": {b.token()}, "access": {res.AccessToken}, "refresh": {res.RefreshToken}})
}

func TestSignInMergesCart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	cid, _ := e.Shopper(s.id, "ann@example.com")
	sh := app.Shopper{StoreID: s.id, CustomerID: cid}
	four := int64(4)
	if _, err := e.Svc.Carts.Add(app.ShopperCart(sh), app.CartInput{ProductID: s.hammer.ID, Quantity: &four}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 2)
	add(b, s.shirt.ID, s.small, 1)
	b.get("/test/who").expect(t, 200, "guest")

	p := signIn(t, e, b, s.id, "ann@example.com").expect(t, 303)
	ck := strings.Join(p.Header.Values("Set-Cookie"), "\n")
	if !strings.Contains(ck, "sf_session=") || !strings.Contains(ck, "HttpOnly") || !strings.Contains(ck, "SameSite=Lax") ||
		strings.Contains(ck, "secure") {
		t.Fatalf("session cookie: %s", ck)
	}
	b.get("/test/who").expect(t, 200, "customer ann@example.com")
	// quantities add, capped at the stock left (5); the cookie keeps no lines
	v, err := e.Svc.Carts.Cart(app.ShopperCart(sh))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Items) != 2 || v.Items[0].Quantity != 5 || v.Items[1].Quantity != 1 {
		t.Fatalf("merged cart %+v", v.Items)
	}
	b.get("/cart/").expect(t, 200, `value="5"`, "Acme Shirt - Small", ">Account<")
	if c := b.cookie("sf_cart"); c != "" {
		t.Fatalf("the cookie cart was kept: %q", c)
	}
	// the signed-in cart is the API cart: a line changed here shows there
	b.post("/cart/", "/cart/update", line(s.shirt.ID, s.small, 2)).expect(t, 303)
	if v, _ := e.Svc.Carts.Cart(app.ShopperCart(sh)); v.Items[1].Quantity != 2 {
		t.Fatalf("API cart %+v", v.Items)
	}
	b.post("/cart/", "/cart/remove", line(s.shirt.ID, s.small, 0)).expect(t, 303)
	add(b, s.shirt.ID, s.medium, 1).expect(t, 303)
	if v, _ := e.Svc.Carts.Cart(app.ShopperCart(sh)); len(v.Items) != 2 || v.Items[1].Name != "Acme Shirt - Medium" {
		t.Fatalf("API cart %+v", v.Items)
	}
}

func TestSignedInCheckout(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	cid, _ := e.Shopper(s.id, "ann@example.com")
	sh := app.Shopper{StoreID: s.id, CustomerID: cid}
	if _, err := e.Svc.Customers.CreateAddress(&sh, app.AddressInput{ReceiverName: ptrTo("Ann Home"), Phone: ptrTo("+1 555 0199"),
		AddressLine1: ptrTo("9 Elm Road"), City: ptrTo("Springfield"), PostalCode: ptrTo("12345"), IsDefault: ptrTo(true)}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e, s.host)
	signIn(t, e, b, s.id, "ann@example.com").expect(t, 303)
	add(b, s.hammer.ID, 0, 1)
	co := b.get("/checkout/").expect(t, 200, `value="ann@example.com"`, `value="Ann Home"`, `value="&#43;1 555 0199"`,
		"9 Elm Road, Springfield, 12345")
	f := checkoutForm(co.Body, app.WalletA)
	p := b.do("POST", "/checkout/", f).expect(t, 303)
	// the same page sent again with other details: no second order, and a
	// fresh key for the next submit
	f2 := checkoutForm(co.Body, app.WalletA)
	f2.Set("address", "2 Other Street")
	b.do("POST", "/checkout/", f2).expect(t, 409, "already sent with other details", `value="Ann Lee"`).
		lacks(t, "idempotency_key was used", `value="`+f.Get("idempotency_key")+`"`)
	if b.do("POST", "/checkout/", f).Location != p.Location {
		t.Fatal("the first form sent again is not its first order")
	}
	pay(t, b, p.Location, app.OutcomeSuccess).expect(t, 200, "Thank you for your order", "Acme Hammer × 1", "Ann Lee")
	// paid: the API cart lost the ordered line
	if v, _ := e.Svc.Carts.Cart(app.ShopperCart(sh)); len(v.Items) != 0 {
		t.Fatalf("API cart after payment %+v", v.Items)
	}
	page, _ := e.Svc.Orders.CustomerOrders(sh, app.ListParams{Limit: 5})
	if len(page.Items) != 1 || page.Items[0].CustomerID != cid {
		t.Fatalf("shopper's orders %+v", page.Items)
	}
}

func TestSessionRefreshAndSignOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	bravo := newCartStore(t, e, "Bravo")
	e.Shopper(s.id, "ann@example.com")
	b := newBrowser(t, e, s.host)
	signIn(t, e, b, s.id, "ann@example.com").expect(t, 303)
	first := b.cookie("sf_session")

	// the access token expires: pages loaded at once refresh it once and
	// the session lives on (a second spend of the refresh token would end it)
	e.Advance(20 * time.Minute)
	who := make([]string, 6)
	testenv.Burst(len(who), func(i int) { who[i] = b.do("GET", "/test/who", nil).Body })
	for i, w := range who {
		if w != "customer ann@example.com" {
			t.Fatalf("request %d: %q", i, w)
		}
	}
	b.get("/test/who").expect(t, 200, "customer ann@example.com")
	if b.cookie("sf_session") == first {
		t.Fatal("the session cookie was not refreshed")
	}

	// Acme's session cookie at Bravo's shop is a guest's (and is cleared)
	other := newBrowser(t, e, bravo.host)
	other.setCookie("sf_session", b.cookie("sf_session"))
	other.get("/test/who").expect(t, 200, "guest")
	if other.cookie("sf_session") != "" {
		t.Fatal("a foreign session cookie was kept")
	}
	// a tampered one too
	other.host = s.host
	other.setCookie("sf_session", b.cookie("sf_session")+"x")
	other.get("/test/who").expect(t, 200, "guest")

	// sign-out ends the session for good: the old cookie is worthless
	kept := b.cookie("sf_session")
	b.do("POST", "/test/sign-out", url.Values{"csrf": {b.token()}}).expect(t, 303)
	b.get("/test/who").expect(t, 200, "guest")
	b.setCookie("sf_session", kept)
	b.get("/test/who").expect(t, 200, "guest")
	e.Advance(20 * time.Minute) // even once its access token needs refreshing
	b.setCookie("sf_session", kept)
	b.get("/test/who").expect(t, 200, "guest")
	// a token pair of another store is refused
	bob, _ := e.Shopper(bravo.id, "bob@example.com")
	_ = bob
	bst, _ := e.Svc.Stores.Get(bravo.id)
	res, err := e.Svc.Customers.Login(bst, "bob@example.com", "password123")
	if err != nil {
		t.Fatal(err)
	}
	b.do("POST", "/test/sign-in", url.Values{"csrf": {b.token()}, "access": {res.AccessToken}, "refresh": {res.RefreshToken}}).
		expect(t, 401)
	b.get("/test/who").expect(t, 200, "guest")
}

func TestSessionCookieSecure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{SecureCookies: true})
	s := newCartStore(t, e, "Acme")
	e.Shopper(s.id, "ann@example.com")
	b := newBrowser(t, e, s.host)
	st, _ := e.Svc.Stores.Get(s.id)
	res, err := e.Svc.Customers.Login(st, "ann@example.com", "password123")
	if err != nil {
		t.Fatal(err)
	}
	// over plain http the jar would not send the Secure CSRF cookie back
	b.setCookie("sf_csrf", strings.Repeat("ab", 16))
	token := b.token()
	p := b.do("POST", "/test/sign-in", url.Values{"csrf": {token}, "access": {res.AccessToken}, "refresh": {res.RefreshToken}}).
		expect(t, 303)
	if len(p.Header.Values("Set-Cookie")) == 0 {
		t.Fatal("no cookie set")
	}
	for _, c := range p.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "sf_session=") && (!strings.Contains(c, "secure") || !strings.Contains(c, "HttpOnly")) {
			t.Fatalf("session cookie %s", c)
		}
	}
}

// TestCSRFBoundToBrowserHostAndShopper: a form's token is the HMAC of the
// host, the store, the browser's seed cookie and the signed-in shopper, so a
// token taken from another browser, host or session is refused.
func TestCSRFBoundToBrowserHostAndShopper(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, bravo := newCartStore(t, e, "Acme"), newCartStore(t, e, "Bravo")
	e.Shopper(a.id, "ann@example.com")
	ann := newBrowser(t, e, a.host)
	guestToken, seed := ann.token(), ann.cookie("sf_csrf")
	if guestToken == seed || len(guestToken) != 32 {
		t.Fatalf("token %q is the cookie's value or malformed", guestToken)
	}
	signOut := func(b *browser, token string) *page {
		return b.do("POST", "/test/sign-out", url.Values{"csrf": {token}})
	}
	// another browser (its own seed) cannot use Ann's token
	other := newBrowser(t, e, a.host)
	other.token()
	signOut(other, guestToken).expect(t, 403, "Your session expired")
	// Ann's seed and token on another store's host: refused there
	elsewhere := newBrowser(t, e, bravo.host)
	elsewhere.setCookie("sf_csrf", seed)
	signOut(elsewhere, guestToken).expect(t, 403)
	signOut(elsewhere, elsewhere.token()).expect(t, 303)
	// the guest's token is worthless once she has signed in, and a signed-in one after sign-out
	signIn(t, e, ann, a.id, "ann@example.com").expect(t, 303)
	signOut(ann, guestToken).expect(t, 403)
	shopperToken := ann.token()
	signOut(ann, shopperToken).expect(t, 303)
	ann.get("/test/who").expect(t, 200, "guest")
	signOut(ann, shopperToken).expect(t, 403)
	// no seed cookie: nothing is accepted
	ann.setCookie("sf_csrf", "")
	signOut(ann, guestToken).expect(t, 403)
}
