package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"storefront/app"
	"storefront/app/payment/stripe"
	"storefront/testenv"
)

// stripeInitiate places a WALLET_A order through Stripe and checks what
// was sent to Stripe.
func stripeInitiate(t *testing.T, e *testenv.Env, f *fakeStripe, key, tok string, body map[string]any, hdr map[string]string) initiated {
	t.Helper()
	var out initiated
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: body, Header: hdr}).Expect(t, 200, "").Decode(t, &out)
	s := f.sessionOf(out.PaymentSessionID)
	if out.RedirectURL != "https://checkout.stripe.test/c/pay/"+s.ID {
		t.Fatalf("redirect_url: got %q, want the Checkout Session URL of %s", out.RedirectURL, s.ID)
	}
	return out
}

func stripeShop(t *testing.T, e *testenv.Env) (uint64, string, *app.Product) {
	sid, key := e.Store("Stripe Shop")
	p := e.Product(sid, 0, "Lamp", 2500, 10)
	return sid, key, p
}

func TestStripeCheckoutPaidThroughVerify(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	in := stripeInitiate(t, e, f, key, "", order(2, p), nil)

	// What Stripe was asked for: a payment-mode session for our total, linked to our session.
	f.mu.Lock()
	form, auth := f.lastForm, f.lastAuth
	f.mu.Unlock()
	for k, want := range map[string]string{"mode": "payment", "client_reference_id": in.PaymentSessionID,
		"line_items[0][price_data][unit_amount]": "5000", "line_items[0][price_data][currency]": "usd",
		"line_items[0][quantity]": "1", "metadata[payment_session_id]": in.PaymentSessionID} {
		if form[k] != want {
			t.Errorf("Stripe form %s: got %q, want %q", k, form[k], want)
		}
	}
	for _, k := range []string{"success_url", "cancel_url"} {
		u, err := url.Parse(form[k])
		if err != nil || !strings.HasPrefix(form[k], "https://shop.example/return?") || u.Query().Get("payment_session_id") != in.PaymentSessionID || u.Query().Get("from") != "test" {
			t.Errorf("%s: got %q", k, form[k])
		}
	}
	if auth != "Bearer "+testSecretKey {
		t.Errorf("Authorization: got %q, want the server default key", auth)
	}
	if stock(t, e, sid, p.ID) != 8 {
		t.Fatalf("stock: got %d, want 8 reserved", stock(t, e, sid, p.ID))
	}

	// Query parameters claiming success are not trusted: Stripe says unpaid.
	v := verify(t, e, key, in.PaymentSessionID, map[string]string{"outcome": "success", "payment_status": "paid"})
	if v.Success || v.Status != "PENDING" {
		t.Fatalf("verify before paying: got %+v", v)
	}
	if o := adminOrder(t, e, sid, in.OrderID); o.PaymentStatus != "FAILED" || o.Status != "PENDING" {
		t.Fatalf("after an unpaid verify: got %s/%s", o.Status, o.PaymentStatus)
	}

	f.pay(f.sessionOf(in.PaymentSessionID).ID)
	v = verify(t, e, key, in.PaymentSessionID, nil)
	if !v.Success || v.Status != "CONFIRMED" || v.OrderID != in.OrderID {
		t.Fatalf("verify after paying: got %+v", v)
	}
	again := verify(t, e, key, in.PaymentSessionID, nil)
	if again != v {
		t.Fatalf("second verify: got %+v, want %+v", again, v)
	}
	var o struct {
		orderData
		Test bool `json:"test"`
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/%d/", sid, in.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
	if o.Status != "CONFIRMED" || o.PaymentStatus != "PAID" || !o.Test { // the server default key is a test key
		t.Fatalf("order: got %s/%s test=%v, want CONFIRMED/PAID test=true (sk_test_ key)", o.Status, o.PaymentStatus, o.Test)
	}
	if stock(t, e, sid, p.ID) != 8 {
		t.Fatalf("stock after paying: got %d, want 8", stock(t, e, sid, p.ID))
	}
}

func TestStripeVerifyChecksAmountAndLink(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	in := stripeInitiate(t, e, f, key, "", order(1, p), nil)
	s := f.sessionOf(in.PaymentSessionID)
	f.pay(s.ID)
	f.mu.Lock()
	f.sessions[s.ID].Amount = 1 // Stripe says another amount
	f.mu.Unlock()
	if v := verify(t, e, key, in.PaymentSessionID, nil); v.Success || !strings.Contains(v.Message, "amount") {
		t.Fatalf("other amount: got %+v", v)
	}
	f.mu.Lock()
	f.sessions[s.ID].Amount = 2500
	f.sessions[s.ID].Reference = "ps_someone_else"
	f.mu.Unlock()
	if v := verify(t, e, key, in.PaymentSessionID, nil); v.Success || !strings.Contains(v.Message, "another session") {
		t.Fatalf("other reference: got %+v", v)
	}
	f.mu.Lock()
	f.sessions[s.ID].Reference = in.PaymentSessionID
	f.sessions[s.ID].Currency = "eur"
	f.mu.Unlock()
	if v := verify(t, e, key, in.PaymentSessionID, nil); v.Success || !strings.Contains(v.Message, "currency") {
		t.Fatalf("other currency: got %+v", v)
	}
	if o := adminOrder(t, e, sid, in.OrderID); o.Status != "PENDING" {
		t.Fatalf("order: got %s, want PENDING", o.Status)
	}
	// Another store's key cannot verify it.
	_, otherKey := e.Store("Other")
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/verify/", Key: otherKey, Body: map[string]any{"payment_session_id": in.PaymentSessionID}}).Expect(t, 404, "not_found")
}

func TestStripeWebhookAbandonedThenPaid(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	_, tok := e.Shopper(sid, "ann@example.com")
	in := stripeInitiate(t, e, f, key, tok, order(1, p), nil)
	s := f.sessionOf(in.PaymentSessionID)
	f.pay(s.ID) // the shopper pays and never comes back
	f.mu.Lock()
	obj := f.sessionJSON(f.sessions[s.ID])
	f.mu.Unlock()
	payload, header := signedEvent(t, testWebhookSecret, "checkout.session.completed", obj)
	r := postWebhook(e, sid, payload, header).Expect(t, 200, "")
	if !strings.Contains(string(r.Raw), "CONFIRMED") {
		t.Fatalf("webhook: got %s", r.Raw)
	}
	// The same event again (Stripe retries), and verification after it: one transition.
	postWebhook(e, sid, payload, header).Expect(t, 200, "")
	if v := verify(t, e, key, in.PaymentSessionID, nil); !v.Success || v.Status != "CONFIRMED" {
		t.Fatalf("verify after the webhook: got %+v", v)
	}
	// A stale expired event after the payment changes nothing.
	payload2, header2 := signedEvent(t, testWebhookSecret, "checkout.session.expired", obj)
	postWebhook(e, sid, payload2, header2).Expect(t, 200, "")
	o := e.Order(sid, in.OrderID)
	if o.Status != app.OrderConfirmed || o.PaymentStatus != app.PaymentPaid {
		t.Fatalf("order: got %s/%s", o.Status, o.PaymentStatus)
	}
	if stock(t, e, sid, p.ID) != 9 {
		t.Fatalf("stock: got %d, want 9", stock(t, e, sid, p.ID))
	}
}

func TestStripeWebhookVerifyRace(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	in := stripeInitiate(t, e, f, key, "", order(1, p), nil)
	s := f.sessionOf(in.PaymentSessionID)
	f.pay(s.ID)
	f.mu.Lock()
	obj := f.sessionJSON(f.sessions[s.ID])
	f.mu.Unlock()
	payload, header := signedEvent(t, testWebhookSecret, "checkout.session.completed", obj)
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			r := postWebhook(e.With(t), sid, payload, header)
			if r.Status != 200 {
				t.Errorf("webhook: got %d %s", r.Status, r.Raw)
			}
		}()
		go func() {
			defer wg.Done()
			var v verified
			r := e.With(t).Do(testenv.Req{Method: "POST", Path: api + "/payment/verify/", Key: key, Body: map[string]any{"payment_session_id": in.PaymentSessionID}})
			if r.Status != 200 {
				t.Errorf("verify: got %d %s", r.Status, r.Raw)
				return
			}
			r.Decode(t, &v)
			if !v.Success {
				t.Errorf("verify: got %+v", v)
			}
		}()
	}
	wg.Wait()
	o := e.Order(sid, in.OrderID)
	if o.Status != app.OrderConfirmed || o.PaymentStatus != app.PaymentPaid {
		t.Fatalf("order: got %s/%s", o.Status, o.PaymentStatus)
	}
	var attempts int
	_ = e.DB.View(func(tx app.Tx) error {
		var seq uint64
		fmt.Sscanf(strings.Split(in.PaymentSessionID, "_")[2], "%x", &seq)
		ps, err := tx.PaymentSession(sid, seq)
		if err != nil {
			t.Fatal(err)
		}
		attempts = len(ps.Attempts)
		return nil
	})
	if attempts != 1 {
		t.Fatalf("attempts recorded: got %d, want 1 (one transition, once)", attempts)
	}
}

func TestStripeWebhookExpired(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	in := stripeInitiate(t, e, f, key, "", order(3, p), nil)
	s := f.sessionOf(in.PaymentSessionID)
	f.expire(s.ID)
	f.mu.Lock()
	obj := f.sessionJSON(f.sessions[s.ID])
	f.mu.Unlock()
	payload, header := signedEvent(t, testWebhookSecret, "checkout.session.expired", obj)
	postWebhook(e, sid, payload, header).Expect(t, 200, "")
	postWebhook(e, sid, payload, header).Expect(t, 200, "") // duplicate
	o := e.Order(sid, in.OrderID)
	if o.Status != app.OrderCancelled {
		t.Fatalf("order: got %s, want CANCELLED", o.Status)
	}
	if got := stock(t, e, sid, p.ID); got != 10 {
		t.Fatalf("stock: got %d, want 10 (released once)", got)
	}
	// A late verification says so and changes nothing.
	if v := verify(t, e, key, in.PaymentSessionID, nil); v.Success || v.Status != "CANCELLED" {
		t.Fatalf("verify: got %+v", v)
	}
}

func TestStripeAbandonedExpiresByJob(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	in := stripeInitiate(t, e, f, key, "", order(2, p), nil)
	e.Advance(31 * 60e9)
	if n, err := e.Svc.Orders.ExpirePending(); err != nil || n != 1 {
		t.Fatalf("ExpirePending: got %d, %v", n, err)
	}
	if o := e.Order(sid, in.OrderID); o.Status != app.OrderCancelled || stock(t, e, sid, p.ID) != 10 {
		t.Fatalf("order %s, stock %d", o.Status, stock(t, e, sid, p.ID))
	}
}

func TestStripeWebhookForged(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	in := stripeInitiate(t, e, f, key, "", order(1, p), nil)
	s := f.sessionOf(in.PaymentSessionID)
	f.pay(s.ID)
	f.mu.Lock()
	obj := f.sessionJSON(f.sessions[s.ID])
	f.mu.Unlock()
	payload, _ := signedEvent(t, "whsec_not_the_store_secret", "checkout.session.completed", obj)
	postWebhook(e, sid, payload, "").Expect(t, 400, "validation_failed")
	_, badHeader := signedEvent(t, "whsec_not_the_store_secret", "checkout.session.completed", obj)
	postWebhook(e, sid, payload, badHeader).Expect(t, 400, "validation_failed")
	// A good signature over another body.
	good, goodHeader := signedEvent(t, testWebhookSecret, "checkout.session.completed", obj)
	tampered := []byte(strings.Replace(string(good), `"paid"`, `"paid" `, 1))
	postWebhook(e, sid, tampered, goodHeader).Expect(t, 400, "validation_failed")
	postWebhook(e, sid, []byte("not json"), "t=1,v1=00").Expect(t, 400, "validation_failed")
	// Unknown store.
	postWebhook(e, 999, good, goodHeader).Expect(t, 404, "not_found")
	if o := e.Order(sid, in.OrderID); o.Status != app.OrderPending || o.PaymentStatus != app.PaymentUnpaid {
		t.Fatalf("order after forged webhooks: got %s/%s", o.Status, o.PaymentStatus)
	}
	// A store with its own webhook secret does not accept the server default's.
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/payments/", sid), Token: e.OwnerToken,
		Body: map[string]any{"methods": map[string]any{"WALLET_A": map[string]any{"secret_key": "sk_test_storeown00001", "webhook_secret": "whsec_storeown00001"}}}}).Expect(t, 200, "")
	postWebhook(e, sid, good, goodHeader).Expect(t, 400, "validation_failed")
	own, ownHeader := signedEvent(t, "whsec_storeown00001", "checkout.session.completed", obj)
	postWebhook(e, sid, own, ownHeader).Expect(t, 200, "")
	if o := e.Order(sid, in.OrderID); o.Status != app.OrderConfirmed {
		t.Fatalf("order after the store-signed webhook: got %s", o.Status)
	}
}

func TestStripeProviderDownAtInitiation(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	hdr := map[string]string{"Idempotency-Key": "checkout-1"}
	f.down.Store(true)
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(2, p), Header: hdr}).Expect(t, 502, "payment_provider_unavailable")
	if strings.Contains(string(r.Raw), testSecretKey) {
		t.Fatalf("the secret key leaked: %s", r.Raw)
	}
	if got := stock(t, e, sid, p.ID); got != 10 {
		t.Fatalf("stock after 502: got %d, want 10", got)
	}
	page, err := e.Svc.Orders.Orders(sid, "", app.ListParams{Limit: 10})
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("orders after 502: got %d, %v; want none", len(page.Items), err)
	}
	f.down.Store(false)
	first := stripeInitiate(t, e, f, key, "", order(2, p), hdr)
	again := stripeInitiate(t, e, f, key, "", order(2, p), hdr)
	if first != again {
		t.Fatalf("retry with the same key: got %+v, want %+v", again, first)
	}
	if got := stock(t, e, sid, p.ID); got != 8 {
		t.Fatalf("stock: got %d, want 8", got)
	}
	if n := f.sessionCreate.Load(); n != 1 {
		t.Fatalf("Checkout Sessions created: got %d, want 1", n)
	}
}

func TestStripeNoCredentials(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	f := newFakeStripe(t)
	e.Svc.Payments.SetGateway(stripe.New(app.WalletA, f.srv.URL), app.GatewayAccount{})
	_, key := e.Store("No Keys")
	p := e.Product(1, 0, "Lamp", 2500, 10)
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p)}).Expect(t, 502, "payment_provider_unavailable")
	if got := stock(t, e, 1, p.ID); got != 10 {
		t.Fatalf("stock: got %d", got)
	}
}
