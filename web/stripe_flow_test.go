package web_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

// storeRefunded is the answer of the store's own refund: the order and the
// request, approved at once.
type storeRefunded struct {
	Order struct {
		ID            uint64 `json:"id"`
		PaymentStatus string `json:"payment_status"`
	} `json:"order"`
	Request adminRefund `json:"request"`
}

// adminRefund is the admin's view of a refund request.
type adminRefund struct {
	ID               uint64 `json:"id"`
	OrderID          uint64 `json:"order_id"`
	Status           string `json:"status"`
	Amount           string `json:"amount"`
	RefundMethod     string `json:"refund_method"`
	ByStore          bool   `json:"by_store"`
	ProviderRefundID string `json:"provider_refund_id"`
	ProviderError    string `json:"provider_error"`
}

func refundPath(sid, oid uint64) string { return adminPath(sid, "/orders/%d/refund/", oid) }

// pendingRefunds counts the refund requests of an order still PENDING.
func pendingRefunds(t *testing.T, e *testenv.Env, sid, oid uint64) int {
	t.Helper()
	page, err := e.Svc.Requests.List(sid, app.KindRefund, app.RequestPending, app.ListParams{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range page.Items {
		if r.OrderID == oid {
			n++
		}
	}
	return n
}

// The expiry job cancels an order while its Checkout Session is still open
// at Stripe (Stripe keeps it a minute longer); the shopper pays and the
// completed event arrives after the cancellation: the order stays CANCELLED
// with its stock released, is marked PAID so the store sees it owes the
// money, and the store refunds it at Stripe through the admin API.
func TestStripePaidAfterExpiryThenStoreRefund(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	in := stripeInitiate(t, e, f, key, "", order(1, p), nil)
	e.Advance(31 * time.Minute)
	if n, err := e.Svc.Orders.ExpirePending(); err != nil || n != 1 {
		t.Fatalf("ExpirePending: got %d, %v", n, err)
	}
	s := f.sessionOf(in.PaymentSessionID)
	f.pay(s.ID)
	f.mu.Lock()
	obj := f.sessionJSON(f.sessions[s.ID])
	f.mu.Unlock()
	payload, header := signedEvent(t, testWebhookSecret, "checkout.session.completed", obj)
	postWebhook(e, sid, payload, header).Expect(t, 200, "")
	postWebhook(e, sid, payload, header).Expect(t, 200, "") // Stripe retries: nothing more
	o := e.Order(sid, in.OrderID)
	if o.Status != app.OrderCancelled || o.PaymentStatus != app.PaymentPaid {
		t.Fatalf("order: got %s/%s, want CANCELLED/PAID", o.Status, o.PaymentStatus)
	}
	if got := stock(t, e, sid, p.ID); got != 10 {
		t.Fatalf("stock: got %d, want 10 (released once, not taken again)", got)
	}
	if v := verify(t, e, key, in.PaymentSessionID, nil); v.Success || v.Status != "CANCELLED" {
		t.Fatalf("verify: got %+v", v)
	}

	var (
		r  adminRefund
		rr storeRefunded
	)
	e.Do(testenv.Req{Method: "POST", Path: refundPath(sid, in.OrderID), Token: e.OwnerToken,
		Body: map[string]any{"reason": "paid after the order expired"}}).Expect(t, 200, "").Decode(t, &rr)
	r = rr.Request
	if r.Status != "APPROVED" || !r.ByStore || r.Amount != "25.00" || r.RefundMethod != "ORIGINAL_METHOD" || !strings.HasPrefix(r.ProviderRefundID, "re_") {
		t.Fatalf("refund: got %+v", r)
	}
	o = e.Order(sid, in.OrderID)
	if o.Status != app.OrderCancelled || o.PaymentStatus != app.PaymentRefunded || o.RefundedAmount != 2500 || len(o.ProviderRefunds) != 1 {
		t.Fatalf("order after the refund: got %s/%s refunded %s, %d provider refunds", o.Status, o.PaymentStatus, o.RefundedAmount, len(o.ProviderRefunds))
	}
	if made := f.refundsMade.Load(); made != 1 {
		t.Fatalf("refunds at Stripe: got %d, want 1", made)
	}
	// Nothing is left to refund.
	e.Do(testenv.Req{Method: "POST", Path: refundPath(sid, in.OrderID), Token: e.OwnerToken}).Expect(t, 409, "invalid_order_state")
	if got := stock(t, e, sid, p.ID); got != 10 {
		t.Fatalf("stock after the refund: got %d, want 10", got)
	}
}

// POST stores/{id}/orders/{oid}/refund/: every error row, then a partial
// and a full refund, a provider outage that leaves the request PENDING, and
// a sandbox order (nothing at a provider).
func TestAdminRefundOrder(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	other, _ := e.Store("Other")
	otherStaff := e.Staff(other, "other@example.com")
	ownStaff := e.Staff(sid, "staff@example.com")
	manager := e.Admin(sid, "manager@example.com", app.RoleManager)
	paid := paidStripeOrder(t, e, f, sid, key, "", p, 2) // 50.00
	pending := stripeInitiate(t, e, f, key, "", order(1, p), nil)
	path := refundPath(sid, paid.OrderID)

	for _, c := range []struct {
		name   string
		req    testenv.Req
		status int
		code   string
	}{
		{"ErrNoCredentials", testenv.Req{Method: "POST", Path: path}, 401, "unauthorized"},
		{"ErrOtherStoreStaff", testenv.Req{Method: "POST", Path: path, Token: otherStaff}, 404, "not_found"},
		{"ErrOrderOfOtherStore", testenv.Req{Method: "POST", Path: refundPath(other, paid.OrderID), Token: e.OwnerToken}, 404, "not_found"},
		{"ErrUnknownOrder", testenv.Req{Method: "POST", Path: refundPath(sid, 999), Token: e.OwnerToken}, 404, "not_found"},
		{"ErrBadOrderID", testenv.Req{Method: "POST", Path: adminPath(sid, "/orders/x/refund/"), Token: e.OwnerToken}, 404, "not_found"},
		{"ErrZeroAmount", testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken, Body: map[string]any{"amount": "0.00"}}, 400, "validation_failed"},
		{"ErrAmountNotMoney", testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken, Body: map[string]any{"amount": "lots"}}, 400, "validation_failed"},
		{"ErrAmountOverTotal", testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken, Body: map[string]any{"amount": "50.01"}}, 400, "validation_failed"},
		{"ErrRefundMethod", testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken, Body: map[string]any{"refund_method": "GOLD"}}, 400, "validation_failed"},
		{"ErrNoteTooLong", testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken, Body: map[string]any{"admin_note": strings.Repeat("n", 1001)}}, 400, "validation_failed"},
		{"ErrMalformed", testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken, Body: "{"}, 400, "validation_failed"},
		{"ErrPendingOrder", testenv.Req{Method: "POST", Path: refundPath(sid, pending.OrderID), Token: e.OwnerToken}, 409, "invalid_order_state"},
		{"ErrStaff", testenv.Req{Method: "POST", Path: path, Token: ownStaff, Body: map[string]any{"amount": "20.00"}}, 403, "forbidden"}, // refunds: owners and managers
	} {
		t.Run(c.name, func(t *testing.T) { e.With(t).Do(c.req).Expect(t, c.status, c.code) })
	}
	if n := pendingRefunds(t, e, sid, paid.OrderID); n != 0 {
		t.Fatalf("refused refunds left %d requests behind", n)
	}

	// The store's manager may refund; a partial refund goes to Stripe once.
	var (
		r  adminRefund
		rr storeRefunded
	)
	e.Do(testenv.Req{Method: "POST", Path: path, Token: manager, Body: map[string]any{"amount": "20.00", "admin_note": "goodwill"}}).Expect(t, 200, "").Decode(t, &rr)
	r = rr.Request
	if r.Status != "APPROVED" || r.Amount != "20.00" || r.ProviderRefundID == "" || !r.ByStore {
		t.Fatalf("partial refund: got %+v", r)
	}
	if o := e.Order(sid, paid.OrderID); o.PaymentStatus != app.PaymentPartiallyRefunded || o.RefundedAmount != 2000 || o.Status != app.OrderConfirmed {
		t.Fatalf("order: got %s/%s %s", o.Status, o.PaymentStatus, o.RefundedAmount)
	}

	// Stripe down: 502, the filed request waits PENDING with the provider's message.
	f.down.Store(true)
	fail := e.Do(testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken}).Expect(t, 502, "payment_provider_unavailable")
	if strings.Contains(string(fail.Raw), testSecretKey) {
		t.Fatalf("the secret key leaked: %s", fail.Raw)
	}
	e.Do(testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken}).Expect(t, 409, "conflict")
	if n := pendingRefunds(t, e, sid, paid.OrderID); n != 1 {
		t.Fatalf("pending refund requests: got %d, want 1", n)
	}
	f.down.Store(false)
	page, _ := e.Svc.Requests.List(sid, app.KindRefund, app.RequestPending, app.ListParams{Limit: 10})
	e.Do(testenv.Req{Method: "POST", Path: adminPath(sid, "/refund-requests/%d/approve/", page.Items[0].ID), Token: e.OwnerToken}).Expect(t, 200, "")
	if o := e.Order(sid, paid.OrderID); o.PaymentStatus != app.PaymentRefunded || o.RefundedAmount != 5000 || len(o.ProviderRefunds) != 2 {
		t.Fatalf("order after the rest: got %s %s, %d provider refunds", o.PaymentStatus, o.RefundedAmount, len(o.ProviderRefunds))
	}
	if made := f.refundsMade.Load(); made != 2 {
		t.Fatalf("refunds at Stripe: got %d, want 2", made)
	}

	// A sandbox order: refunded without any provider call.
	f.refundCalls.Store(0)
	sb := initiate(t, e, key, "", func() map[string]any { b := order(1, p); b["payment_method"] = "WALLET_B"; return b }())
	verify(t, e, key, sb.PaymentSessionID, sandbox(t, e, sb, "success"))
	e.Do(testenv.Req{Method: "POST", Path: refundPath(sid, sb.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &rr)
	r = rr.Request
	if r.Status != "APPROVED" || r.ProviderRefundID != "" {
		t.Fatalf("sandbox refund: got %+v", r)
	}
	if calls := f.refundCalls.Load(); calls != 0 {
		t.Fatalf("Stripe called for a sandbox refund: %d", calls)
	}
}

// N checkouts race for the last K units through Stripe: exactly K orders,
// stock never below zero, and every refused one writes nothing.
func TestStripeLastUnitsUnderConcurrentCheckouts(t *testing.T) {
	t.Parallel()
	e, _ := stripeEnv(t)
	sid, key := e.Store("Stripe Shop")
	p := e.Product(sid, 0, "Lamp", 2500, 3)
	const n = 12
	var wg sync.WaitGroup
	statuses := make([]int, n)
	codes := make([]string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := e.With(t).Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p)})
			statuses[i], codes[i] = r.Status, r.Body.ErrorCode
		}(i)
	}
	wg.Wait()
	ok := 0
	for i := range statuses {
		switch {
		case statuses[i] == 200:
			ok++
		case statuses[i] == 409 && codes[i] == "out_of_stock":
		default:
			t.Errorf("checkout %d: got %d %s", i, statuses[i], codes[i])
		}
	}
	if ok != 3 {
		t.Fatalf("checkouts that succeeded: got %d, want 3", ok)
	}
	if got := stock(t, e, sid, p.ID); got != 0 {
		t.Fatalf("stock: got %d, want 0", got)
	}
	page, err := e.Svc.Orders.Orders(sid, "", app.ListParams{Limit: 100})
	if err != nil || len(page.Items) != 3 {
		t.Fatalf("orders: got %d, %v; want 3", len(page.Items), err)
	}
}

// The same Idempotency-Key sent 10 times at once: one order, stock taken
// once, every answer the same.
func TestStripeConcurrentInitiateSameKey(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	_, tok := e.Shopper(sid, "ann@example.com")
	hdr := map[string]string{"Idempotency-Key": "same-checkout"}
	const n = 10
	var wg sync.WaitGroup
	out := make([]initiated, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := e.With(t).Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: order(2, p), Header: hdr})
			if r.Status != 200 {
				t.Errorf("initiate %d: got %d %s", i, r.Status, r.Raw)
				return
			}
			r.Decode(t, &out[i])
		}(i)
	}
	wg.Wait()
	for i := 1; i < n; i++ {
		if out[i] != out[0] {
			t.Fatalf("answer %d: got %+v, want %+v", i, out[i], out[0])
		}
	}
	if got := stock(t, e, sid, p.ID); got != 8 {
		t.Fatalf("stock: got %d, want 8 (taken once)", got)
	}
	page, _ := e.Svc.Orders.Orders(sid, "", app.ListParams{Limit: 100})
	if len(page.Items) != 1 {
		t.Fatalf("orders: got %d, want 1", len(page.Items))
	}
	// The order's own Checkout Session pays it.
	f.pay(f.sessionOf(out[0].PaymentSessionID).ID)
	if v := verify(t, e, key, out[0].PaymentSessionID, nil); !v.Success {
		t.Fatalf("verify: got %+v", v)
	}
}

// Completed and expired events of one session, and verifications, all at
// once (Stripe delivers in any order and retries): one transition, once.
// Either the payment wins (CONFIRMED/PAID, stock taken) and the expired
// event changes nothing, or the expiry wins (CANCELLED, stock released) and
// the payment is recorded as PAID for the store to refund; never both, and
// one attempt is recorded whatever the interleaving.
func TestStripeCompletedExpiredVerifyRace(t *testing.T) {
	t.Parallel()
	for round := 0; round < 3; round++ {
		e, f := stripeEnv(t)
		sid, key, p := stripeShop(t, e)
		in := stripeInitiate(t, e, f, key, "", order(1, p), nil)
		s := f.sessionOf(in.PaymentSessionID)
		f.pay(s.ID)
		f.mu.Lock()
		paid := f.sessionJSON(f.sessions[s.ID])
		expired := *f.sessions[s.ID]
		expired.Status, expired.PaymentStatus, expired.PI = "expired", "unpaid", ""
		exp := f.sessionJSON(&expired)
		f.mu.Unlock()
		cp, ch := signedEvent(t, testWebhookSecret, "checkout.session.completed", paid)
		ep, eh := signedEvent(t, testWebhookSecret, "checkout.session.expired", exp)
		var wg sync.WaitGroup
		for i := 0; i < 5; i++ {
			wg.Add(3)
			go func() { defer wg.Done(); postWebhook(e.With(t), sid, cp, ch).Expect(t, 200, "") }()
			go func() { defer wg.Done(); postWebhook(e.With(t), sid, ep, eh).Expect(t, 200, "") }()
			go func() {
				defer wg.Done()
				e.With(t).Do(testenv.Req{Method: "POST", Path: api + "/payment/verify/", Key: key,
					Body: map[string]any{"payment_session_id": in.PaymentSessionID}}).Expect(t, 200, "")
			}()
		}
		wg.Wait()
		o := e.Order(sid, in.OrderID)
		st := stock(t, e, sid, p.ID)
		switch {
		case o.Status == app.OrderConfirmed && o.PaymentStatus == app.PaymentPaid && st == 9:
		case o.Status == app.OrderCancelled && o.PaymentStatus == app.PaymentPaid && st == 10:
		default:
			t.Fatalf("round %d: order %s/%s with stock %d", round, o.Status, o.PaymentStatus, st)
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
			t.Fatalf("round %d: attempts recorded: got %d, want 1", round, attempts)
		}
	}
}

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Secrets never appear in a response or a log line, through every payment
// flow: settings, checkout, verification, webhooks, refunds, provider down.
func TestStripeSecretsNeverShown(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	e, f := stripeEnvWith(t, testenv.Options{Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	sid, key, p := stripeShop(t, e)
	_, tok := e.Shopper(sid, "ann@example.com")
	const storeKey, storeHook = "sk_live_NEVERSHOWNkey0001", "whsec_NEVERSHOWNhook0001"
	secrets := []string{storeKey, storeHook, "NEVERSHOWN", testSecretKey, testWebhookSecret, "serverdefault"}
	var raws [][]byte
	keep := func(r *testenv.Response) *testenv.Response { raws = append(raws, r.Raw); return r }

	keep(e.Do(testenv.Req{Method: "PATCH", Path: adminPath(sid, "/payments/"), Token: e.OwnerToken, Body: map[string]any{
		"payments_live": true, "methods": map[string]any{"WALLET_A": map[string]any{"secret_key": storeKey, "webhook_secret": storeHook}}}})).Expect(t, 200, "")
	// A bad key is refused without echoing it.
	keep(e.Do(testenv.Req{Method: "PATCH", Path: adminPath(sid, "/payments/"), Token: e.OwnerToken, Body: map[string]any{
		"methods": map[string]any{"WALLET_A": map[string]any{"secret_key": "pk_NEVERSHOWN bad"}}}})).Expect(t, 400, "validation_failed")
	keep(e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/payments/"), Token: e.OwnerToken})).Expect(t, 200, "")
	keep(e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/"), Token: e.OwnerToken})).Expect(t, 200, "")
	keep(e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/config/"), Token: e.OwnerToken})).Expect(t, 200, "")
	keep(e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/stores/", Token: e.OwnerToken})).Expect(t, 200, "")
	keep(e.Do(testenv.Req{Method: "GET", Path: api + "/config/", Key: key})).Expect(t, 200, "")

	in := stripeInitiate(t, e, f, key, tok, order(2, p), nil)
	s := f.sessionOf(in.PaymentSessionID)
	f.pay(s.ID)
	f.mu.Lock()
	obj := f.sessionJSON(f.sessions[s.ID])
	f.mu.Unlock()
	payload, header := signedEvent(t, storeHook, "checkout.session.completed", obj)
	keep(postWebhook(e, sid, payload, header)).Expect(t, 200, "")
	bad, badHeader := signedEvent(t, "whsec_wrong", "checkout.session.completed", obj)
	keep(postWebhook(e, sid, bad, badHeader)).Expect(t, 400, "validation_failed")
	keep(e.Do(testenv.Req{Method: "POST", Path: api + "/payment/verify/", Key: key, Body: map[string]any{"payment_session_id": in.PaymentSessionID}})).Expect(t, 200, "")
	keep(e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/orders/%d/", in.OrderID), Token: e.OwnerToken})).Expect(t, 200, "")
	keep(e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf(api+"/orders/%d/", in.OrderID), Key: key, Token: tok})).Expect(t, 200, "")
	f.down.Store(true)
	keep(e.Do(testenv.Req{Method: "POST", Path: refundPath(sid, in.OrderID), Token: e.OwnerToken, Body: map[string]any{"amount": "5.00"}})).Expect(t, 502, "payment_provider_unavailable")
	keep(e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p)})).Expect(t, 502, "payment_provider_unavailable")
	f.down.Store(false)
	page, _ := e.Svc.Requests.List(sid, app.KindRefund, app.RequestPending, app.ListParams{Limit: 10})
	keep(e.Do(testenv.Req{Method: "POST", Path: adminPath(sid, "/refund-requests/%d/approve/", page.Items[0].ID), Token: e.OwnerToken})).Expect(t, 200, "")
	keep(e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/refund-requests/"), Token: e.OwnerToken})).Expect(t, 200, "")

	// Stripe itself got the store's key.
	f.mu.Lock()
	auth := f.lastAuth
	f.mu.Unlock()
	if auth != "Bearer "+storeKey {
		t.Fatalf("Authorization at Stripe: got %q", auth)
	}
	log := logs.String()
	if !strings.Contains(log, "store payment settings changed") {
		t.Fatalf("the log capture saw nothing: %q", log)
	}
	for _, sec := range secrets {
		for i, raw := range raws {
			if strings.Contains(string(raw), sec) {
				t.Errorf("response %d shows %q: %s", i, sec, raw)
			}
		}
		if strings.Contains(log, sec) {
			t.Errorf("the log shows %q:\n%s", sec, log)
		}
	}
}
