package web_test

import (
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// offered is the data of GET payment-methods/.
type offered struct {
	Items []app.OfferedMethod `json:"items"`
}

func paymentMethods(t *testing.T, e *testenv.Env, key string) []app.OfferedMethod {
	t.Helper()
	var pm offered
	e.Do(testenv.Req{Method: "GET", Path: api + "/payment-methods/", Key: key}).Expect(t, 200, "").Decode(t, &pm)
	return pm.Items
}

// TestNoTestMoneyByDefault (issue 27 point 4): outside the demo a new store
// starts with test mode off: the sandbox is refused at checkout (409
// no_payment_method while it is the store's only method) and not listed,
// until the store turns test mode on.
func TestNoTestMoneyByDefault(t *testing.T) {
	t.Parallel()
	e := testenv.NewWith(t, testenv.Options{App: app.Options{NewStoresLive: true}})
	sid, key := e.Store("Real Shop")
	p := e.Product(sid, 0, "Mug", 1000, 5)

	var v app.PaymentSettingsView
	e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/payments/"), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &v)
	if !v.PaymentsLive || v.TakesTestPayments {
		t.Fatalf("a new store: got payments_live %v takes_test_payments %v, want live and no test payments", v.PaymentsLive, v.TakesTestPayments)
	}
	if got := paymentMethods(t, e, key); len(got) != 0 {
		t.Fatalf("payment-methods of a live store with only the sandbox: got %+v, want none", got)
	}
	// the sandbox was its only method: it accepts none (issue 35)
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p)}).Expect(t, 409, "no_payment_method")
	if got := stock(t, e, sid, p.ID); got != 5 {
		t.Fatalf("stock after a refused checkout: got %d, want 5", got)
	}

	// Test mode on, explicitly: the sandbox is listed as test and takes orders marked test.
	e.Do(testenv.Req{Method: "PATCH", Path: adminPath(sid, "/payments/"), Token: e.OwnerToken, Body: map[string]any{"payments_live": false}}).Expect(t, 200, "")
	got := paymentMethods(t, e, key)
	if len(got) != 2 || got[0].Code != app.WalletA || !got[0].Test || !got[1].Test {
		t.Fatalf("payment-methods in test mode: got %+v, want both, test", got)
	}
	in := initiate(t, e, key, "", order(1, p))
	var o struct {
		Test bool `json:"test"`
	}
	e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/orders/%d/", in.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
	if !o.Test {
		t.Fatal("a sandbox order: got test false, want true")
	}
}

// TestStripeTestKeyIsTestMode: a Stripe sk_test_ key puts its method in
// test mode (orders test: true, listed with test: true), live mode cannot
// be switched on with it, and a live key takes live orders.
func TestStripeTestKeyIsTestMode(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t) // WALLET_A on Stripe, the server default key sk_test_...
	sid, key, p := stripeShop(t, e)
	got := paymentMethods(t, e, key)
	if len(got) != 2 || got[0].Code != app.WalletA || !got[0].Test {
		t.Fatalf("payment-methods with a test key: got %+v, want WALLET_A test", got)
	}
	r := e.Do(testenv.Req{Method: "PATCH", Path: adminPath(sid, "/payments/"), Token: e.OwnerToken, Body: map[string]any{"payments_live": true}}).Expect(t, 400, "validation_failed")
	if !strings.Contains(r.Body.Errors["payments_live"], "test key") {
		t.Fatalf("going live with a test key: errors %v, want payments_live named", r.Body.Errors)
	}
	// Its own test key is refused as well while live... and a live key goes live.
	e.Do(testenv.Req{Method: "PATCH", Path: adminPath(sid, "/payments/"), Token: e.OwnerToken,
		Body: map[string]any{"payments_live": true, "methods": map[string]any{"WALLET_A": map[string]any{"secret_key": "sk_test_storeown000001"}}}}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "PATCH", Path: adminPath(sid, "/payments/"), Token: e.OwnerToken,
		Body: map[string]any{"payments_live": true, "methods": map[string]any{"WALLET_A": map[string]any{"secret_key": "sk_live_storeown000001"}}}}).Expect(t, 200, "")
	got = paymentMethods(t, e, key)
	if len(got) != 1 || got[0].Code != app.WalletA || got[0].Test {
		t.Fatalf("payment-methods of a live store: got %+v, want WALLET_A live only (WALLET_B is the sandbox)", got)
	}
	in := stripeInitiate(t, e, f, key, "", order(1, p), nil)
	var o struct {
		Test bool `json:"test"`
	}
	e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/orders/%d/", in.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
	if o.Test {
		t.Fatal("an order through a live key: got test true, want false")
	}
	// A live store whose key turns to a test one is refused at checkout.
	e.Do(testenv.Req{Method: "PATCH", Path: adminPath(sid, "/payments/"), Token: e.OwnerToken,
		Body: map[string]any{"payments_live": false, "methods": map[string]any{"WALLET_A": map[string]any{"secret_key": ""}}}}).Expect(t, 200, "")
	st, _ := e.Svc.Stores.Get(sid)
	if m := e.Svc.Payments.TestMethods(st); len(m) != 2 {
		t.Fatalf("test methods with the server's test key: got %v, want both", m)
	}
}
