package admin_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"storefront/app"
	"storefront/app/payment/stripe"
	"storefront/testenv"
)

// stripeAPI is a minimal Stripe API: the balance (a key containing
// "revoked" is refused with 401, as Stripe refuses a bad key) and Checkout
// Session creation. It counts the balance calls.
func stripeAPI(t *testing.T, balanceCalls *atomic.Int64) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		auth := r.Header.Get("Authorization")
		switch {
		case strings.Contains(auth, "revoked"):
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"type":"invalid_request_error","message":"Invalid API Key provided: sk_test_****oked"}}`)
		case r.Method == "GET" && r.URL.Path == "/v1/balance":
			balanceCalls.Add(1)
			fmt.Fprint(w, `{"object":"balance","available":[],"pending":[],"livemode":false}`)
		case r.Method == "POST" && r.URL.Path == "/v1/checkout/sessions":
			_ = r.ParseForm()
			page := "https://checkout.stripe.com/c/pay/cs_test_1"
			if strings.Contains(auth, "elsewhere") { // an account whose pages are not Stripe's
				page = "https://pay.elsewhere.test/c/pay/cs_test_1"
			}
			b, _ := json.Marshal(map[string]any{"id": "cs_test_1", "object": "checkout.session", "mode": "payment",
				"status": "open", "payment_status": "unpaid", "url": page,
				"client_reference_id": r.PostForm.Get("client_reference_id")})
			w.Write(b)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":{"type":"invalid_request_error","message":"unknown route %s"}}`, r.URL.Path)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// providerEnv is a server that allows the sandbox and Stripe for WALLET_A
// (the sandbox by default) and only the sandbox for WALLET_B.
func providerEnv(t *testing.T, balanceCalls *atomic.Int64) *testenv.Env {
	e := testenv.New(t)
	e.Svc.Payments.RegisterGateway(stripe.New(app.WalletA, stripeAPI(t, balanceCalls)), app.GatewayAccount{})
	e.Svc.Payments.AllowProviders(app.WalletA, []string{app.ProviderSandbox, app.ProviderStripe}, app.ProviderSandbox)
	e.Svc.Payments.AllowProviders(app.WalletB, []string{app.ProviderSandbox}, "")
	return e
}

type paySetup struct{ Data app.PaymentSettingsView }

func patchPayments(e *testenv.Env, sid uint64, methods map[string]any) *testenv.Response {
	return e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/payments/", sid), Token: e.OwnerToken,
		Body: map[string]any{"methods": methods}})
}

func TestAdminPaymentProviderChoice(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	e := providerEnv(t, &calls)
	sid, _ := e.Store("Provider Shop")
	var got paySetup
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/payments/", sid), Token: e.OwnerToken}).
		Expect(t, 200, "").Decode(t, &got.Data)
	if m := got.Data.Methods[0]; m.Provider != "sandbox" || strings.Join(m.Providers, ",") != "sandbox,stripe" || !m.Test {
		t.Fatalf("WALLET_A before any choice: %+v", m)
	}
	if m := got.Data.Methods[1]; strings.Join(m.Providers, ",") != "sandbox" {
		t.Fatalf("WALLET_B allows: %+v", m)
	}

	// Stripe with a good test key: one call to Stripe, the method in test mode.
	patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"provider": "stripe", "secret_key": "sk_test_goodkey12345"}}).
		Expect(t, 200, "").Decode(t, &got.Data)
	if m := got.Data.Methods[0]; m.Provider != "stripe" || !m.Test || m.Credentials != "store" || m.SecretKey != "sk_test_…2345" {
		t.Fatalf("WALLET_A after choosing Stripe: %+v", m)
	}
	if calls.Load() != 1 {
		t.Fatalf("balance calls: got %d, want 1", calls.Load())
	}
	// A key Stripe refuses: 400 on the key's field, nothing saved.
	rawHas(t, patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"secret_key": "sk_live_revoked12345"}}).
		Expect(t, 400, "validation_failed").Raw, "methods.WALLET_A.secret_key", "Stripe refused this key")
	if st, _ := e.Svc.Stores.Get(sid); st.Gateways[app.WalletA].SecretKey != "sk_test_goodkey12345" {
		t.Fatalf("a refused key was saved: %+v", st.Gateways)
	}
	// Providers the server does not allow, or does not know: 400 on the provider's field.
	rawHas(t, patchPayments(e, sid, map[string]any{"WALLET_B": map[string]any{"provider": "stripe"}}).
		Expect(t, 400, "validation_failed").Raw, "methods.WALLET_B.provider", "must be one of: sandbox")
	rawHas(t, patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"provider": "paypal"}}).
		Expect(t, 400, "validation_failed").Raw, "methods.WALLET_A.provider")
	// Back to the server's default.
	patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"provider": ""}}).Expect(t, 200, "").Decode(t, &got.Data)
	if m := got.Data.Methods[0]; m.Provider != "sandbox" {
		t.Fatalf("WALLET_A back to the default: %+v", m)
	}
	// Keys are checked with Stripe whichever provider the method has now.
	rawHas(t, patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"secret_key": "sk_test_revoked00001"}}).
		Expect(t, 400, "validation_failed").Raw, "Stripe refused this key")
	// A choice the server no longer allows falls back to its default.
	patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"provider": "stripe"}}).Expect(t, 200, "")
	e.Svc.Payments.AllowProviders(app.WalletA, []string{app.ProviderSandbox}, "")
	st, _ := e.Svc.Stores.Get(sid)
	if p := e.Svc.Payments.ProviderOf(st, app.WalletA); p != "sandbox" {
		t.Fatalf("a disallowed choice: got %q", p)
	}
}

func TestPanelPaymentProviderAndTestOrder(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	e := providerEnv(t, &calls)
	sid, _ := e.Store("Panel Provider Shop")
	e.Product(sid, 0, "Sticker", 150, 3)
	b := owner(t, e)
	home := fmt.Sprintf("/admin/stores/%d/", sid)
	b.get(home).expect(t, 200, `name="WALLET_A_provider"`, `<option value="stripe"`, "Pay a test order with WALLET_B")

	// A bad key is a field error on the page; a good one is saved.
	// the select keeps the choice beside its error (issue 38 point 8)
	b.submit(home, home+"payments/", url.Values{"WALLET_A_provider": {"stripe"}, "WALLET_A_secret_key": {"sk_test_revoked12345"}}).
		expect(t, 400, "Stripe refused this key", `<option value="stripe" selected>`)
	b.submit(home, home+"payments/", url.Values{"WALLET_B_provider": {"stripe"}}).expect(t, 400, "must be one of: sandbox")
	b.submit(home, home+"payments/", url.Values{"WALLET_A_provider": {"stripe"}, "WALLET_A_secret_key": {"sk_test_paneltest9876"}}).
		redirectsTo(t, home)
	b.get(home).expect(t, 200, "sk_test_…9876", "Pay a test order with WALLET_A")

	// The sandbox test order is placed through checkout and paid; its page is shown.
	r := b.submit(home, home+"payments/test-order/", url.Values{"method": {"WALLET_B"}})
	r.redirectsTo(t, home+"orders/")
	loc := r.Header.Get("Location")
	b.get(loc).expect(t, 200, "Test order paid with the sandbox", ">TEST</span>")
	var id uint64
	fmt.Sscanf(strings.TrimPrefix(loc, home+"orders/"), "%d", &id)
	if o := e.Order(sid, id); o.Status != app.OrderConfirmed || o.PaymentStatus != app.PaymentPaid || !o.Test || o.PaymentMethod != app.WalletB {
		t.Fatalf("the test order: %+v", o)
	}
	// With Stripe in test mode the browser goes to Stripe's Checkout page.
	// The panel's CSP lets the browser follow the form's redirect to Stripe
	// Checkout (form-action applies to it): before, the click went nowhere
	// and left an unpaid order each time (issue 38 point 8).
	r = b.submit(home, home+"payments/test-order/", url.Values{"method": {"WALLET_A"}})
	r.redirectsTo(t, app.StripeCheckoutOrigin+"/")
	if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' "+app.StripeCheckoutOrigin+";") {
		t.Fatalf("CSP %q: form-action does not allow Stripe Checkout", csp)
	}
	// A page the browser could not go to: no order is placed.
	count := func() int {
		pg, err := e.Svc.Orders.Orders(sid, "", app.ListParams{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return len(pg.Items)
	}
	orders := count()
	b.submit(home, home+"payments/", url.Values{"WALLET_A_provider": {"stripe"}, "WALLET_A_secret_key": {"sk_test_elsewhere9876"}}).redirectsTo(t, home)
	b.submit(home, home+"payments/test-order/", url.Values{"method": {"WALLET_A"}}).redirectsTo(t, home)
	b.get(home).expect(t, 200, "Test order not placed", "no order placed")
	if got := count(); got != orders {
		t.Fatalf("orders: %d after the refused test order, want %d", got, orders)
	}

	// Live mode: no test order.
	e.Svc.Payments.SetPaymentSettings(sid, app.PaymentSettingsInput{Methods: map[string]app.CredentialsInput{"WALLET_A": {Provider: ptr("")}}})
	live := true
	if _, err := e.Svc.Payments.SetPaymentSettings(sid, app.PaymentSettingsInput{PaymentsLive: &live}); err != nil {
		t.Fatal(err)
	}
	b.submit(home, home+"payments/test-order/", url.Values{"method": {"WALLET_B"}}).redirectsTo(t, home)
	b.get(home).expect(t, 200, "Test order not placed: WALLET_B is not in test mode")
}

func rawHas(t *testing.T, raw []byte, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(string(raw), w) {
			t.Fatalf("answer lacks %q: %s", w, raw)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestPanelSendTestWebhook(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Hook Shop")
	rcv := testenv.NewHookReceiver(t)
	u, events := rcv.URL, []string{app.EvOrderPaid}
	w, err := e.Svc.Webhooks.Create(sid, app.WebhookInput{URL: &u, Events: &events})
	if err != nil {
		t.Fatal(err)
	}
	rcv.Secret = w.Secret
	b := owner(t, e)
	list := fmt.Sprintf("/admin/stores/%d/webhooks/", sid)
	ep := fmt.Sprintf("%s%d/", list, w.ID)
	b.get(list).expect(t, 200, "Send test webhook")
	b.submit(list, ep+"test/", url.Values{}).redirectsTo(t, ep)
	b.get(ep).expect(t, 200, "Test webhook sent: the endpoint answered HTTP 200")
	got := rcv.WaitFor(t, 1, 5*time.Second)
	if got[0].Type != app.EvWebhookTest || !got[0].SignatureOK {
		t.Fatalf("received: %+v", got[0])
	}
	// An error answer is shown as such.
	rcv.Answer(500)
	b.submit(ep, ep+"test/", url.Values{}).redirectsTo(t, ep)
	b.get(ep).expect(t, 200, "answered HTTP 500", "Only a 2xx acknowledges")
	// Another store's endpoint is not found.
	other, _ := e.Store("Other Shop")
	b.submit(list, fmt.Sprintf("/admin/stores/%d/webhooks/%d/test/", other, w.ID), url.Values{}).expect(t, 404)
}
