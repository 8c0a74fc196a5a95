package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"storefront/app"
	"storefront/app/payment/stripe"
	"storefront/testenv"
)

func TestPanelPayments(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	var calls atomic.Int64
	e.Svc.Payments.SetGateway(stripe.New(app.WalletA, stripeAPI(t, &calls)), app.GatewayAccount{})
	sid, key := e.Store("Pay Shop")
	b := owner(t, e)
	home := fmt.Sprintf("/admin/stores/%d/", sid)
	b.get(home).expect(t, 200, "Payments", "takes <b>test payments</b>", fmt.Sprintf("/api/v1/payments/stripe/webhook/%d/", sid), "WALLET_A_secret_key")
	// The stores list says which stores take test payments.
	b.get("/admin/").expect(t, 200, "Pay Shop", "takes test payments", ">TEST</span>")

	const secret, hook = "sk_live_panelsecret9876", "whsec_panelhook5432"
	b.submit(home, home+"payments/", url.Values{"WALLET_A_secret_key": {secret}, "WALLET_A_webhook_secret": {hook}, "payments_live": {"on"}}).redirectsTo(t, home)
	p := b.get(home).expect(t, 200, "sk_live_…9876", "whsec_…5432", "Payment settings saved.")
	if strings.Contains(p.Body, secret) || strings.Contains(p.Body, hook) {
		t.Fatalf("the panel shows a secret")
	}
	if strings.Contains(p.Body, "takes <b>test payments</b>") {
		t.Fatalf("a live store still shows the test banner")
	}
	if d := b.get("/admin/").expect(t, 200, "Pay Shop"); strings.Contains(d.Body, ">TEST</span>") {
		t.Fatalf("the stores list marks a live store TEST")
	}
	st, _ := e.Svc.Stores.Get(sid)
	if st.Gateways[app.WalletA].SecretKey != secret || !st.Settings().PaymentsLive {
		t.Fatalf("stored: got %+v live=%v", st.Gateways, st.Settings().PaymentsLive)
	}
	// A bad key is shown as a field error; an empty field keeps the stored key.
	b.submit(home, home+"payments/", url.Values{"WALLET_A_secret_key": {"pk_live_nope"}}).expect(t, 400, "must be a Stripe secret key")
	b.submit(home, home+"payments/", url.Values{}).redirectsTo(t, home)
	if st, _ = e.Svc.Stores.Get(sid); st.Gateways[app.WalletA].SecretKey != secret || st.Settings().PaymentsLive {
		t.Fatalf("after an empty save: got %+v live=%v", st.Gateways, st.Settings().PaymentsLive)
	}
	b.submit(home, home+"payments/", url.Values{"WALLET_A_clear": {"on"}}).redirectsTo(t, home)
	if st, _ = e.Svc.Stores.Get(sid); len(st.Gateways) != 0 {
		t.Fatalf("after clearing: got %+v", st.Gateways)
	}

	// Sandbox orders carry the TEST badge in the order list and page.
	p2 := e.Product(sid, 0, "Mug", 1000, 5)
	var res struct {
		OrderID uint64 `json:"order_id"`
	}
	e.Do(testenv.Req{Method: "POST", Path: "/api/v1/business/website/payment/initiate/", Key: key, Body: map[string]any{
		"receiver_name": "Ada", "phone": "+15550100", "address": "1 Main St", "email": "ada@example.com",
		"items": []map[string]any{{"product_id": p2.ID, "quantity": 1}}, "payment_method": "WALLET_B", "callback_url": "https://shop.example/r"}}).Expect(t, 200, "").Decode(t, &res)
	b.get(home+"orders/").expect(t, 200, ">TEST</span>")
	b.get(fmt.Sprintf("%sorders/%d/", home, res.OrderID)).expect(t, 200, ">TEST</span>")
}
