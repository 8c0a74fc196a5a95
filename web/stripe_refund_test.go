package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// paidStripeOrder places and pays a shopper's order through Stripe.
func paidStripeOrder(t *testing.T, e *testenv.Env, f *fakeStripe, sid uint64, key, tok string, p *app.Product, qty int64) initiated {
	t.Helper()
	in := stripeInitiate(t, e, f, key, tok, order(qty, p), nil)
	f.pay(f.sessionOf(in.PaymentSessionID).ID)
	if v := verify(t, e, key, in.PaymentSessionID, nil); !v.Success {
		t.Fatalf("verify: got %+v", v)
	}
	return in
}

func adminPath(sid uint64, format string, args ...any) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d", sid) + fmt.Sprintf(format, args...)
}

func TestStripeRefundOnceUnderConcurrentApprovals(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	_, tok := e.Shopper(sid, "ann@example.com")
	in := paidStripeOrder(t, e, f, sid, key, tok, p, 2) // 50.00
	e.Do(testenv.Req{Method: "PATCH", Path: adminPath(sid, "/orders/%d/", in.OrderID), Token: e.OwnerToken, Body: map[string]any{"status": "DELIVERED"}}).Expect(t, 200, "")
	var req struct{ ID uint64 }
	e.Do(testenv.Req{Method: "POST", Path: api + "/orders/refund/", Key: key, Token: tok,
		Body: map[string]any{"order_id": in.OrderID, "reason": "broken", "amount": "20.00"}}).Expect(t, 200, "").Decode(t, &req)

	const n = 20
	var wg sync.WaitGroup
	statuses := make([]int, n)
	codes := make([]string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := e.With(t).Do(testenv.Req{Method: "POST", Path: adminPath(sid, "/refund-requests/%d/approve/", req.ID), Token: e.OwnerToken, Body: map[string]any{}})
			statuses[i], codes[i] = r.Status, r.Body.ErrorCode
		}(i)
	}
	wg.Wait()
	okN := 0
	for i := range statuses {
		switch {
		case statuses[i] == 200:
			okN++
		case statuses[i] == 409 && codes[i] == "conflict":
		default:
			t.Errorf("approval %d: got %d %s", i, statuses[i], codes[i])
		}
	}
	// One approval makes the refund; one that comes after it answers the
	// request approved (a double submit is no error, issue 11), one that
	// comes while the provider call is under way is 409 conflict. Either
	// way Stripe refunds once.
	if okN < 1 {
		t.Fatalf("approvals that succeeded: got %d, want at least 1", okN)
	}
	if made, calls := f.refundsMade.Load(), f.refundCalls.Load(); made != 1 || calls != 1 {
		t.Fatalf("refunds at Stripe: %d made in %d calls, want 1 in 1", made, calls)
	}
	var o struct {
		PaymentStatus   string `json:"payment_status"`
		RefundedAmount  string `json:"refunded_amount"`
		ProviderRefunds []struct {
			ID        string `json:"id"`
			Amount    string `json:"amount"`
			RequestID uint64 `json:"request_id"`
		} `json:"provider_refunds"`
	}
	e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/orders/%d/", in.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
	if o.PaymentStatus != "PARTIALLY_REFUNDED" || o.RefundedAmount != "20.00" || len(o.ProviderRefunds) != 1 ||
		o.ProviderRefunds[0].Amount != "20.00" || o.ProviderRefunds[0].RequestID != req.ID || !strings.HasPrefix(o.ProviderRefunds[0].ID, "re_") {
		t.Fatalf("order after the refund: got %+v", o)
	}
	var rv struct {
		Status           string `json:"status"`
		ProviderRefundID string `json:"provider_refund_id"`
	}
	e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/refund-requests/%d/", req.ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &rv)
	if rv.Status != "APPROVED" || rv.ProviderRefundID != o.ProviderRefunds[0].ID {
		t.Fatalf("request: got %+v", rv)
	}

	// Stripe's charge.refunded for that refund, arriving late or twice, changes nothing.
	s := f.sessionOf(in.PaymentSessionID)
	ch := fmt.Sprintf(`{"id":"ch_1","object":"charge","amount":5000,"amount_refunded":2000,"currency":"usd","payment_intent":%q,"refunded":false}`, s.PI)
	payload, header := signedEvent(t, testWebhookSecret, "charge.refunded", []byte(ch))
	postWebhook(e, sid, payload, header).Expect(t, 200, "")
	postWebhook(e, sid, payload, header).Expect(t, 200, "")
	if got := e.Order(sid, in.OrderID); got.RefundedAmount != 2000 || got.PaymentStatus != app.PaymentPartiallyRefunded {
		t.Fatalf("after charge.refunded: got %s %s", got.RefundedAmount, got.PaymentStatus)
	}
	// A refund made in the Stripe dashboard for the rest is recorded from the event.
	ch = fmt.Sprintf(`{"id":"ch_1","object":"charge","amount":5000,"amount_refunded":5000,"currency":"usd","payment_intent":%q,"refunded":true}`, s.PI)
	payload, header = signedEvent(t, testWebhookSecret, "charge.refunded", []byte(ch))
	postWebhook(e, sid, payload, header).Expect(t, 200, "")
	if got := e.Order(sid, in.OrderID); got.RefundedAmount != 5000 || got.PaymentStatus != app.PaymentRefunded {
		t.Fatalf("after the dashboard refund: got %s %s", got.RefundedAmount, got.PaymentStatus)
	}
}

func TestStripeRefundWebhookBeforeRecord(t *testing.T) {
	t.Parallel()
	// charge.refunded for our own refund arrives before the approval records
	// it: the refunded amount is not counted twice.
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	_, tok := e.Shopper(sid, "ann@example.com")
	in := paidStripeOrder(t, e, f, sid, key, tok, p, 2)
	e.Do(testenv.Req{Method: "PATCH", Path: adminPath(sid, "/orders/%d/", in.OrderID), Token: e.OwnerToken, Body: map[string]any{"status": "DELIVERED"}}).Expect(t, 200, "")
	r, err := e.Svc.Requests.RequestRefund(app.Shopper{StoreID: sid, CustomerID: e.Order(sid, in.OrderID).CustomerID}, app.RefundInput{OrderID: in.OrderID, Reason: "x", Amount: ptrMoney(1000)})
	if err != nil {
		t.Fatal(err)
	}
	f.onRefund = func(pi string) {
		ch := fmt.Sprintf(`{"id":"ch_1","object":"charge","amount":5000,"amount_refunded":1000,"currency":"usd","payment_intent":%q}`, pi)
		payload, header := signedEvent(t, testWebhookSecret, "charge.refunded", []byte(ch))
		postWebhook(e, sid, payload, header).Expect(t, 200, "")
		if got := e.Order(sid, in.OrderID); got.RefundedAmount != 1000 {
			t.Errorf("refunded after the early webhook: got %s, want 10.00", got.RefundedAmount)
		}
	}
	if _, err := e.Svc.Requests.Decide(sid, app.KindRefund, r.ID, 1, true, app.DecisionInput{}); err != nil {
		t.Fatal(err)
	}
	if got := e.Order(sid, in.OrderID); got.RefundedAmount != 1000 {
		t.Fatalf("refunded: got %s, want 10.00", got.RefundedAmount)
	}
}

func ptrMoney(m app.Money) *app.Money { return &m }

func TestStripeRefundProviderDown(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	_, tok := e.Shopper(sid, "ann@example.com")
	in := paidStripeOrder(t, e, f, sid, key, tok, p, 1)
	var req struct{ ID uint64 }
	e.Do(testenv.Req{Method: "POST", Path: api + "/orders/cancel/", Key: key, Token: tok,
		Body: map[string]any{"order_id": in.OrderID, "reason": "changed my mind"}}).Expect(t, 200, "").Decode(t, &req)
	f.down.Store(true)
	r := e.Do(testenv.Req{Method: "POST", Path: adminPath(sid, "/cancellation-requests/%d/approve/", req.ID), Token: e.OwnerToken, Body: map[string]any{}}).Expect(t, 502, "payment_provider_unavailable")
	if !strings.Contains(r.Body.Message, "stays pending") {
		t.Fatalf("message: got %q", r.Body.Message)
	}
	o := e.Order(sid, in.OrderID)
	if o.Status != app.OrderConfirmed || o.PaymentStatus != app.PaymentPaid || o.RefundedAmount != 0 || stock(t, e, sid, p.ID) != 9 {
		t.Fatalf("order after a failed refund: got %s/%s refunded %s stock %d", o.Status, o.PaymentStatus, o.RefundedAmount, stock(t, e, sid, p.ID))
	}
	var rv struct {
		Status        string `json:"status"`
		ProviderError string `json:"provider_error"`
	}
	e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/cancellation-requests/%d/", req.ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &rv)
	if rv.Status != "PENDING" || rv.ProviderError == "" {
		t.Fatalf("request after a failed refund: got %+v", rv)
	}
	// The store cannot move the order meanwhile; once Stripe is back the approval goes through.
	f.down.Store(false)
	e.Do(testenv.Req{Method: "POST", Path: adminPath(sid, "/cancellation-requests/%d/approve/", req.ID), Token: e.OwnerToken, Body: map[string]any{}}).Expect(t, 200, "")
	o = e.Order(sid, in.OrderID)
	if o.Status != app.OrderCancelled || o.PaymentStatus != app.PaymentRefunded || o.RefundedAmount != 2500 || len(o.ProviderRefunds) != 1 || stock(t, e, sid, p.ID) != 10 {
		t.Fatalf("order after the refund: got %s/%s refunded %s, %d refunds, stock %d", o.Status, o.PaymentStatus, o.RefundedAmount, len(o.ProviderRefunds), stock(t, e, sid, p.ID))
	}
	if made := f.refundsMade.Load(); made != 1 {
		t.Fatalf("refunds at Stripe: got %d, want 1", made)
	}
}

func TestStoreRefundOrder(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	in := paidStripeOrder(t, e, f, sid, key, "", p, 2)
	r, err := e.Svc.Requests.StoreRefund(sid, in.OrderID, &app.AdminUser{ID: 1, Role: app.RoleOwner}, app.StoreActionInput{Amount: ptrMoney(500)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != app.RequestApproved || !r.ByStore || r.ProviderRefundID == "" {
		t.Fatalf("request: got %+v", r)
	}
	if _, err := e.Svc.Requests.StoreRefund(sid, in.OrderID, &app.AdminUser{ID: 1, Role: app.RoleOwner}, app.StoreActionInput{Amount: ptrMoney(5000)}); app.ErrorCode(err) != app.EValidation {
		t.Fatalf("over the rest: got %v", err)
	}
	if _, err := e.Svc.Requests.StoreRefund(sid+1, in.OrderID, &app.AdminUser{ID: 1, Role: app.RoleOwner}, app.StoreActionInput{}); app.ErrorCode(err) != app.ENotFound {
		t.Fatalf("other store: got %v", err)
	}
	f.down.Store(true)
	if _, err := e.Svc.Requests.StoreRefund(sid, in.OrderID, &app.AdminUser{ID: 1, Role: app.RoleOwner}, app.StoreActionInput{}); app.ErrorCode(err) != app.EProviderUnavailable {
		t.Fatalf("provider down: got %v", err)
	}
	// The failed refund waits as a pending request; a second refund is refused until it is decided.
	if _, err := e.Svc.Requests.StoreRefund(sid, in.OrderID, &app.AdminUser{ID: 1, Role: app.RoleOwner}, app.StoreActionInput{}); app.ErrorCode(err) != app.EConflict {
		t.Fatalf("second refund while one is pending: got %v", err)
	}
	f.down.Store(false)
	page, _ := e.Svc.Requests.List(sid, app.KindRefund, app.RequestPending, app.ListParams{Limit: 10})
	if len(page.Items) != 1 {
		t.Fatalf("pending: got %d", len(page.Items))
	}
	if _, err := e.Svc.Requests.Decide(sid, app.KindRefund, page.Items[0].ID, 1, true, app.DecisionInput{}); err != nil {
		t.Fatal(err)
	}
	if o := e.Order(sid, in.OrderID); o.PaymentStatus != app.PaymentRefunded || o.RefundedAmount != 5000 || len(o.ProviderRefunds) != 2 {
		t.Fatalf("order: got %s %s %d", o.PaymentStatus, o.RefundedAmount, len(o.ProviderRefunds))
	}
}

func TestAdminPaymentSettings(t *testing.T) {
	t.Parallel()
	e, f := stripeEnv(t)
	sid, key, p := stripeShop(t, e)
	other, _ := e.Store("Other")
	staff := e.Staff(other, "staff@example.com")
	path := adminPath(sid, "/payments/")
	e.Do(testenv.Req{Method: "GET", Path: path}).Expect(t, 401, "unauthorized")
	e.Do(testenv.Req{Method: "GET", Path: path, Token: staff}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "PATCH", Path: path, Token: staff, Body: map[string]any{"payments_live": true}}).Expect(t, 404, "not_found")

	var v app.PaymentSettingsView
	e.Do(testenv.Req{Method: "GET", Path: path, Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &v)
	if v.PaymentsLive || !v.TakesTestPayments || v.StripeWebhookURL != fmt.Sprintf("http://shop.test/api/v1/payments/stripe/webhook/%d/", sid) ||
		len(v.Methods) != 2 || v.Methods[0].Provider != "stripe" || v.Methods[0].Credentials != "server" || v.Methods[1].Provider != "sandbox" || !v.Methods[1].Test {
		t.Fatalf("settings: got %+v", v)
	}

	for name, body := range map[string]any{
		"bad key":     map[string]any{"methods": map[string]any{"WALLET_A": map[string]any{"secret_key": "pk_live_publishable"}}},
		"bad secret":  map[string]any{"methods": map[string]any{"WALLET_A": map[string]any{"webhook_secret": "nope"}}},
		"bad method":  map[string]any{"methods": map[string]any{"WALLET_C": map[string]any{"secret_key": "sk_test_000000000000"}}},
		"bad live":    map[string]any{"payments_live": "yes"},
		"malformed":   "{",
		"not objects": []int{1},
	} {
		r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: body})
		if r.Status != 400 || r.Body.ErrorCode != "validation_failed" {
			t.Errorf("%s: got %d %s", name, r.Status, r.Raw)
		}
	}

	const storeKey, storeHook = "sk_live_storesecret1234WXYZ", "whsec_storehooksecretABCD"
	r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: map[string]any{
		"methods": map[string]any{"WALLET_A": map[string]any{"secret_key": storeKey, "webhook_secret": storeHook}}}}).Expect(t, 200, "")
	r.Decode(t, &v)
	if strings.Contains(string(r.Raw), storeKey) || strings.Contains(string(r.Raw), storeHook) {
		t.Fatalf("a secret came back: %s", r.Raw)
	}
	if v.Methods[0].Credentials != "store" || v.Methods[0].SecretKey != "sk_live_…WXYZ" || v.Methods[0].WebhookSecret != "whsec_…ABCD" {
		t.Fatalf("masked: got %+v", v.Methods[0])
	}
	// No other read shows them either.
	for _, pth := range []string{adminPath(sid, "/"), adminPath(sid, "/config/"), path} {
		raw := e.Do(testenv.Req{Method: "GET", Path: pth, Token: e.OwnerToken}).Expect(t, 200, "").Raw
		if strings.Contains(string(raw), "storesecret") || strings.Contains(string(raw), "storehook") {
			t.Fatalf("%s shows a secret: %s", pth, raw)
		}
	}
	cfg := e.Do(testenv.Req{Method: "GET", Path: api + "/config/", Key: key}).Expect(t, 200, "").Raw
	if strings.Contains(string(cfg), "storesecret") {
		t.Fatalf("storefront config shows a secret: %s", cfg)
	}
	// Checkout now uses the store's own key.
	stripeInitiate(t, e, f, key, "", order(1, p), nil)
	f.mu.Lock()
	auth := f.lastAuth
	f.mu.Unlock()
	if auth != "Bearer "+storeKey {
		t.Fatalf("Authorization: got %q, want the store's key", auth)
	}
	// Clearing falls back to the server default.
	e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: map[string]any{
		"methods": map[string]any{"WALLET_A": map[string]any{"secret_key": "", "webhook_secret": ""}}}}).Expect(t, 200, "").Decode(t, &v)
	if v.Methods[0].Credentials != "server" {
		t.Fatalf("after clearing: got %+v", v.Methods[0])
	}
}

func TestSandboxOrdersAreTest(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Test Shop")
	p := e.Product(sid, 0, "Mug", 1000, 5)
	_, tok := e.Shopper(sid, "ann@example.com")
	in := initiate(t, e, key, tok, order(1, p))
	verify(t, e, key, in.PaymentSessionID, sandbox(t, e, in, "success"))
	var o struct {
		Test *bool `json:"test"`
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf(api+"/orders/%d/", in.OrderID), Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &o)
	if o.Test == nil || !*o.Test {
		t.Fatalf("storefront order test: got %v, want true", o.Test)
	}
	o.Test = nil
	e.Do(testenv.Req{Method: "GET", Path: adminPath(sid, "/orders/%d/", in.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
	if o.Test == nil || !*o.Test {
		t.Fatalf("admin order test: got %v, want true", o.Test)
	}
	st, _ := e.Svc.Stores.Get(sid)
	if !e.Svc.Payments.TakesTestPayments(st) {
		t.Fatal("TakesTestPayments: got false for a sandbox store")
	}
}

func TestLiveStoreRefusesSandbox(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Live Shop")
	p := e.Product(sid, 0, "Mug", 1000, 5)
	// A sandbox order placed before going live.
	before := initiate(t, e, key, "", order(1, p))
	var v app.PaymentSettingsView
	e.Do(testenv.Req{Method: "PATCH", Path: adminPath(sid, "/payments/"), Token: e.OwnerToken, Body: map[string]any{"payments_live": true}}).Expect(t, 200, "").Decode(t, &v)
	if !v.PaymentsLive || v.TakesTestPayments {
		t.Fatalf("settings: got %+v", v)
	}
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p)}).Expect(t, 409, "test_payments_refused")
	if r.Body.Errors["payment_method"] == "" {
		t.Fatalf("errors: got %v", r.Body.Errors)
	}
	if got := stock(t, e, sid, p.ID); got != 4 {
		t.Fatalf("stock: got %d, want 4", got)
	}
	// The sandbox page of the earlier order no longer pays.
	path := strings.TrimPrefix(before.RedirectURL, "http://shop.test")
	e.Do(testenv.Req{Method: "POST", Path: path, Body: "outcome=success", Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}).Expect(t, 409, "")
	// The public config says so.
	var cfg map[string]json.RawMessage
	e.Do(testenv.Req{Method: "GET", Path: api + "/config/", Key: key}).Expect(t, 200, "").Decode(t, &cfg)
	if string(cfg["payments_live"]) != "true" {
		t.Fatalf("config payments_live: got %s", cfg["payments_live"])
	}
	// A new store starts in test mode.
	sid2, key2 := e.Store("New Shop")
	p2 := e.Product(sid2, 0, "Cup", 500, 5)
	initiate(t, e, key2, "", order(1, p2))
}
