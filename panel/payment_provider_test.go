package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

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
	if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' "+app.StripeCheckoutOrigin) {
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
