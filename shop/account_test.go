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

// The account pages through HTTP: a shopper's whole life in one test, and
// the error rows of each form.

var codeRE = regexp.MustCompile(`\b(\d{6})\b`)

// mailedCode is the code of the newest mail of kind to email.
func mailedCode(t *testing.T, e *testenv.Env, storeID uint64, kind, email string) string {
	t.Helper()
	for _, m := range e.Outbox(storeID) { // newest first
		if m.Kind == kind && m.To == email {
			if c := codeRE.FindStringSubmatch(m.Text); c != nil {
				return c[1]
			}
		}
	}
	t.Fatalf("no %s mail with a code to %s", kind, email)
	return ""
}

// otpStore is a store that asks for verified emails.
func otpStore(t *testing.T, e *testenv.Env, name string) cartStore {
	t.Helper()
	s := newCartStore(t, e, name)
	if _, err := e.Svc.Stores.PatchConfig(s.id, []byte(`{"email_otp_enabled":true}`)); err != nil {
		t.Fatal(err)
	}
	return s
}

func registerForm(email string) url.Values {
	return url.Values{"first_name": {"Ann"}, "last_name": {"Lee"}, "email": {email}, "phone": {"+1 555 0100"},
		"password": {"password123"}, "password_confirm": {"password123"}}
}

// noindexed fails unless p is an account page as it must be: noindex and
// never cached.
func noindexed(t *testing.T, p *page) *page {
	t.Helper()
	if !strings.Contains(p.Body, `<meta name="robots" content="noindex">`) || p.Header.Get("Cache-Control") != "private, no-store" {
		t.Fatalf("not a private page: %q\n%s", p.Header.Get("Cache-Control"), p.Body)
	}
	return p.lacks(t, "account.", "account_") // every string is found
}

func TestAccountJourney(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := otpStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)

	// register: signed in, sent to enter the mailed code
	noindexed(t, b.get("/account/register/").expect(t, 200, `autocomplete="new-password"`, `autocomplete="email"`, `for="f-email"`))
	b.post("/account/register/", "/account/register/", registerForm("ann@example.com")).expect(t, 303)
	p := b.get("/account/verify/?m=registered").expect(t, 200, "Welcome!", "ann@example.com", `autocomplete="one-time-code"`)
	noindexed(t, p)
	b.post("/account/verify/", "/account/verify/", url.Values{"code": {"000000x"}}).expect(t, 400, "Code from the email")
	b.post("/account/verify/", "/account/verify/resend", nil).expect(t, 303)
	code := mailedCode(t, e, s.id, app.MailVerifyCode, "ann@example.com")
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	b.post("/account/verify/", "/account/verify/", url.Values{"code": {wrong}}).expect(t, 400, `id="f-code-err"`)
	b.post("/account/verify/", "/account/verify/", url.Values{"code": {code}}).expect(t, 303)
	b.get("/account/?m=verified").expect(t, 200, "is verified", `value="Ann"`).lacks(t, "not verified yet")

	// profile
	b.post("/account/", "/account/profile", url.Values{"first_name": {"Annie"}, "last_name": {"Lee"}, "phone": {"+1 555 0101"}}).expect(t, 303)
	noindexed(t, b.get("/account/?m=saved")).expect(t, 200, "Saved.", `value="Annie"`)
	b.post("/account/", "/account/profile", url.Values{"first_name": {""}, "phone": {"x"}}).
		expect(t, 400, "Please correct", `id="f-first_name-err"`, `aria-invalid="true"`)
	journeyAddresses(t, b)
	orderID := journeyOrder(t, e, s, b)
	journeyTicket(t, b, orderID)

	// sign out: the account is gone from this browser
	b.post("/account/", "/account/logout/", nil).expect(t, 303)
	b.get("/account/").expect(t, 303)
	b.get("/account/login/?m=loggedout").expect(t, 200, "signed out")

	// an unverified shopper signing in is sent to the code page
	b2 := newBrowser(t, e, s.host)
	b2.post("/account/register/", "/account/register/", registerForm("bob@example.com")).expect(t, 303)
	b2.post("/account/", "/account/logout/", nil).expect(t, 303)
	p = b2.post("/account/login/", "/account/login/", url.Values{"email": {"bob@example.com"}, "password": {"password123"}})
	if p.expect(t, 303); p.Location != "/account/verify/" {
		t.Fatalf("unverified sign-in went to %q", p.Location)
	}
}

// journeyAddresses adds two addresses, edits one, makes the other the
// default and deletes it.
func journeyAddresses(t *testing.T, b *browser) {
	t.Helper()
	addr := url.Values{"label": {"HOME"}, "receiver_name": {"Ann Lee"}, "phone": {"+1 555 0100"}, "address_line1": {"1 Main St"},
		"city": {"Springfield"}, "postal_code": {"12345"}}
	b.get("/account/addresses/new").expect(t, 200, `autocomplete="address-line1"`, `autocomplete="postal-code"`)
	b.post("/account/addresses/new", "/account/addresses/new", addr).expect(t, 303)
	addr.Set("address_line1", "2 Oak Ave")
	addr.Set("label", "WORK")
	b.post("/account/addresses/new", "/account/addresses/new", addr).expect(t, 303)
	list := noindexed(t, b.get("/account/addresses/?m=saved")).expect(t, 200, "1 Main St", "2 Oak Ave", "Saved.")
	ids := regexp.MustCompile(`/account/addresses/([0-9a-f-]{36})/"`).FindAllStringSubmatch(list.Body, -1)
	if len(ids) != 2 {
		t.Fatalf("address links %v", ids)
	}
	first := ids[0][1]
	edit := b.get("/account/addresses/"+first+"/").expect(t, 200, "Address")
	work := "/account/addresses/" + ids[1][1] + "/"
	if strings.Contains(edit.Body, "2 Oak Ave") {
		first, work = ids[1][1], "/account/addresses/"+ids[0][1]+"/"
	}
	addr.Set("address_line1", "")
	b.post(work, work, addr).expect(t, 400, `id="f-address_line1-err"`, `value="Ann Lee"`)
	addr.Set("address_line1", "3 Elm Rd")
	b.post(work, work, addr).expect(t, 303)
	b.post("/account/addresses/", "/account/addresses/"+first+"/default", nil).expect(t, 303)
	b.post("/account/addresses/", "/account/addresses/"+first+"/delete", nil).expect(t, 303)
	b.get("/account/addresses/?m=deleted").expect(t, 200, "3 Elm Rd", "was deleted").lacks(t, "1 Main St")
}

// journeyOrder: an order shows in the list and its page; its delivery
// details change; a cancellation is requested and its status shows.
func journeyOrder(t *testing.T, e *testenv.Env, s cartStore, b *browser) uint64 {
	t.Helper()
	me := customerID(t, e, s.id, "ann@example.com")
	o := e.PlaceOrder(s.id, me, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: s.hammer, Qty: 2})
	op := fmt.Sprintf("/account/orders/%d/", o.ID)
	noindexed(t, b.get("/account/orders/")).expect(t, 200, fmt.Sprintf(`href="%s"`, op), "Confirmed", "$25.00")
	noindexed(t, b.get(op).expect(t, 200, "Acme Hammer", "Request cancellation", "Change the delivery details"))
	b.post(op, op+"delivery", url.Values{"receiver_name": {"Ann Lee"}, "phone": {"+1 555 0100"}, "address": {"9 New St"}}).expect(t, 303)
	b.get(op+"?m=delivery").expect(t, 200, "9 New St", "were changed")
	b.post(op, op+"cancel", url.Values{"reason": {""}}).expect(t, 400, `id="f-reason-err"`)
	b.post(op, op+"cancel", url.Values{"reason": {"Changed my mind"}}).expect(t, 303)
	b.get(op+"?m=cancel").lacks(t, "Request cancellation").expect(t, 200, "Cancellation", "Waiting for the shop")
	b.post(op, op+"cancel", url.Values{"reason": {"again"}}).expect(t, 409)
	return o.ID
}

// journeyTicket: a ticket about the order is opened, read and replied to.
func journeyTicket(t *testing.T, b *browser, orderID uint64) {
	t.Helper()
	o := struct{ ID uint64 }{orderID}
	b.get("/account/tickets/new?order_id="+fmt.Sprint(o.ID)).expect(t, 200, `value="`+fmt.Sprint(o.ID)+`"`)
	b.post("/account/tickets/new", "/account/tickets/new", url.Values{"subject": {""}, "description": {"x"}}).
		expect(t, 400, `id="f-subject-err"`, ">x</textarea>")
	tp := b.post("/account/tickets/new", "/account/tickets/new", url.Values{"subject": {"Where is it?"}, "category": {"ORDER"},
		"order_id": {fmt.Sprint(o.ID)}, "description": {"It has not come."}}).expect(t, 303)
	tpath := strings.TrimSuffix(tp.Location, "?m=opened")
	noindexed(t, b.get(tp.Location)).expect(t, 200, "Where is it?", "It has not come.", "was opened", "Open")
	b.post(tpath, tpath+"reply", url.Values{"message": {"Any news?"}}).expect(t, 303)
	b.get(tpath).expect(t, 200, "Any news?")
	noindexed(t, b.get("/account/tickets/")).expect(t, 200, "TKT-", "Where is it?")
}

// customerID is the id of the customer of email.
func customerID(t *testing.T, e *testenv.Env, storeID uint64, email string) uint64 {
	t.Helper()
	st, err := e.Svc.Stores.Get(storeID)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Svc.Customers.Login(st, email, "password123")
	if err != nil {
		t.Fatal(err)
	}
	return res.Customer.ID
}

func TestAccountLogin(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	e.Shopper(s.id, "ann@example.com")
	b := newBrowser(t, e, s.host)

	// a signed-out visit goes to the login page, which comes back after
	p := b.get("/account/orders/?x=1").expect(t, 303)
	if p.Location != "/account/login/?next="+url.QueryEscape("/account/orders/?x=1") {
		t.Fatalf("redirect to %q", p.Location)
	}
	noindexed(t, b.get(p.Location).expect(t, 200, `autocomplete="current-password"`, `name="next" value="/account/orders/?x=1"`))
	for _, row := range []struct {
		form   url.Values
		status int
		want   string
	}{
		{url.Values{"email": {""}, "password": {""}}, 400, `id="f-email-err"`},
		{url.Values{"email": {"ann@example.com"}, "password": {"wrong-password"}}, 401, "Wrong email or password."},
		{url.Values{"email": {"nobody@example.com"}, "password": {"password123"}}, 401, "Wrong email or password."},
		{url.Values{"email": {strings.Repeat("a", 300)}, "password": {"x"}}, 400, "too long"},
	} {
		r := b.post("/account/login/", "/account/login/", row.form).expect(t, row.status, row.want)
		if pw := row.form.Get("password"); pw != "" && strings.Contains(r.Body, `value="`+pw+`"`) {
			t.Fatal("the password was written back")
		}
	}
	// only a local path is accepted as next
	for next, want := range map[string]string{"/account/orders/": "/account/orders/", "//evil.example/": "/account/",
		"https://evil.example/": "/account/", `/\evil.example`: "/account/"} {
		b2 := newBrowser(t, e, s.host)
		r := b2.post("/account/login/", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"password123"}, "next": {next}})
		if r.expect(t, 303); r.Location != want {
			t.Fatalf("next %q went to %q", next, r.Location)
		}
	}
	// signed in, the login page sends the shopper on
	b.post("/account/login/", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"password123"}}).expect(t, 303)
	b.get("/account/login/").expect(t, 303)
	// register errors: values kept, never the password
	b3 := newBrowser(t, e, s.host)
	f := registerForm("ann@example.com")
	b3.post("/account/register/", "/account/register/", f).expect(t, 409, `value="Ann"`).lacks(t, `value="password123"`)
	f.Set("password_confirm", "other-password")
	f.Set("email", "new@example.com")
	b3.post("/account/register/", "/account/register/", f).expect(t, 400, `id="f-password_confirm-err"`, `value="new@example.com"`)
	b3.post("/account/register/", "/account/register/", url.Values{}).expect(t, 400, `id="f-email-err"`, `id="f-first_name-err"`)
	// a form without its CSRF token is refused
	b3.do("POST", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"password123"}}).expect(t, 403)
}

func TestAccountForgotReset(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	e.Shopper(s.id, "ann@example.com")
	b := newBrowser(t, e, s.host)

	b.post("/account/password/forgot/", "/account/password/forgot/", url.Values{"email": {"not-an-email"}}).expect(t, 400, `id="f-email-err"`)
	// an unknown email answers alike
	p := b.post("/account/password/forgot/", "/account/password/forgot/", url.Values{"email": {"nobody@example.com"}}).expect(t, 303)
	if !strings.HasPrefix(p.Location, "/account/password/reset/?m=codesent") {
		t.Fatalf("went to %q", p.Location)
	}
	p = b.post("/account/password/forgot/", "/account/password/forgot/", url.Values{"email": {"Ann@Example.com"}}).expect(t, 303)
	b.get(p.Location).expect(t, 200, "If this email address", `value="ann@example.com"`, `autocomplete="one-time-code"`)
	code := mailedCode(t, e, s.id, app.MailPasswordReset, "ann@example.com")
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	reset := url.Values{"email": {"ann@example.com"}, "code": {wrong}, "password": {"new-password-1"}, "password_confirm": {"new-password-1"}}
	b.post("/account/password/reset/", "/account/password/reset/", reset).expect(t, 400, `id="f-code-err"`)
	reset.Set("code", code)
	b.post("/account/password/reset/", "/account/password/reset/", reset).expect(t, 303)
	b.post("/account/login/", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"password123"}}).expect(t, 401)
	b.post("/account/login/", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"new-password-1"}}).expect(t, 303)
}

func TestAccountOthersAre404(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	ann, _ := e.Shopper(s.id, "ann@example.com")
	bob, _ := e.Shopper(s.id, "bob@example.com")
	o := e.PlaceOrder(s.id, ann, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: s.hammer, Qty: 1})
	annSh := app.Shopper{StoreID: s.id, CustomerID: ann}
	a, err := e.Svc.Customers.CreateAddress(&annSh, app.AddressInput{ReceiverName: ptrTo("Ann"), Phone: ptrTo("+1 555 0100"),
		AddressLine1: ptrTo("1 Main St"), City: ptrTo("Springfield")})
	if err != nil {
		t.Fatal(err)
	}
	tk, err := e.Svc.Tickets.Create(annSh, app.TicketInput{Subject: "Help", Description: "Please"})
	if err != nil {
		t.Fatal(err)
	}
	_ = bob
	b := newBrowser(t, e, s.host)
	b.post("/account/login/", "/account/login/", url.Values{"email": {"bob@example.com"}, "password": {"password123"}}).expect(t, 303)
	op := fmt.Sprintf("/account/orders/%d/", o.ID)
	for _, path := range []string{op, "/account/orders/999999/", "/account/orders/abc/", "/account/addresses/" + a.ID + "/",
		"/account/addresses/nope/", "/account/tickets/" + tk.ID + "/", "/account/tickets/nope/", "/account/orders/?cursor=forged"} {
		noindexed(t, b.get(path).expect(t, 404, "Page not found"))
	}
	for _, path := range []string{op + "cancel", op + "delivery", "/account/addresses/" + a.ID + "/",
		"/account/addresses/" + a.ID + "/delete", "/account/addresses/" + a.ID + "/default", "/account/tickets/" + tk.ID + "/reply"} {
		b.post("/account/", path, url.Values{"reason": {"x"}, "message": {"x"}}).expect(t, 404, "Page not found")
	}
	if got := e.Order(s.id, o.ID); got.Status != app.OrderPending {
		t.Fatalf("bob changed ann's order: %s", got.Status)
	}
}

func TestAccountSessionsPerStore(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	acme := newCartStore(t, e, "Acme")
	other := newCartStore(t, e, "Other")
	e.Shopper(acme.id, "ann@example.com")
	b := newBrowser(t, e, acme.host)
	b.post("/account/login/", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"password123"}}).expect(t, 303)
	b.get("/account/").expect(t, 200, "ann@example.com")
	// the same cookie sent to the other store's shop is worthless there
	sess := b.cookie("sf_session")
	b2 := newBrowser(t, e, other.host)
	b2.setCookie("sf_session", sess)
	b2.get("/account/").expect(t, 303)
	// and the account does not exist there
	b2.post("/account/login/", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"password123"}}).expect(t, 401)
}

func TestAccountRateLimited(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{AuthPerMinute: 2})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	form := url.Values{"email": {"ann@example.com"}, "password": {"wrong"}}
	b.post("/account/login/", "/account/login/", form).expect(t, 401)
	b.post("/account/login/", "/account/login/", form).expect(t, 401)
	p := b.post("/account/login/", "/account/login/", form).expect(t, 429, "Too many attempts")
	if p.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
}

func FuzzAccountForm(f *testing.F) {
	f.Add([]byte("email=a%40b.c&password=x&code=123456"))
	f.Add([]byte("first_name=%ff%fe&last_name=" + strings.Repeat("x", 300)))
	f.Add([]byte("%zz"))
	f.Fuzz(func(t *testing.T, body []byte) {
		vals, err := shop.DecodeAccountForm(body)
		if err == nil && len(vals) == 0 {
			t.Fatal("no values and no error")
		}
		if err != nil && app.ErrorCode(err) != app.EValidation {
			t.Fatalf("error %v", err)
		}
	})
}

func TestAccountRefundAndTracking(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	ann, _ := e.Shopper(s.id, "ann@example.com")
	o := e.PlaceOrder(s.id, ann, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: s.hammer, Qty: 2})
	o.TrackingNumber, o.Carrier = "1Z999", "UPS"
	if err := e.DB.Update(func(tx app.Tx) error { return tx.PutOrder(o) }); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e, s.host)
	b.post("/account/login/", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"password123"}}).expect(t, 303)
	op := fmt.Sprintf("/account/orders/%d/", o.ID)
	noindexed(t, b.get(op).expect(t, 200, "UPS 1Z999", "Delivered", "Ask for a refund").lacks(t, "Request cancellation", "Change the delivery"))
	b.post(op, op+"refund", url.Values{"reason": {"Broken"}, "amount": {"abc"}}).expect(t, 400, `id="f-amount-err"`, ">Broken</textarea>")
	b.post(op, op+"refund", url.Values{"reason": {"Broken"}, "amount": {"999"}}).expect(t, 400, "Amount")
	b.post(op, op+"refund", url.Values{"reason": {"Broken"}, "amount": {"5.00"}}).expect(t, 303)
	b.get(op+"?m=refund").expect(t, 200, "refund request was sent", "Refund $5.00", "Waiting for the shop").lacks(t, "Ask for a refund")
	// a delivered order's delivery details no longer change
	b.post(op, op+"delivery", url.Values{"receiver_name": {"X"}, "phone": {"+1 555 0100"}, "address": {"1 Main St"}}).expect(t, 409)
}

func TestAccountMailLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{LoginFailures: 1})
	s := newCartStore(t, e, "Acme")
	e.Shopper(s.id, "ann@example.com")
	b := newBrowser(t, e, s.host)
	form := url.Values{"email": {"ann@example.com"}}
	b.post("/account/password/forgot/", "/account/password/forgot/", form).expect(t, 303)
	b.post("/account/password/forgot/", "/account/password/forgot/", form).expect(t, 429, "Too many attempts", `value="ann@example.com"`)
}
