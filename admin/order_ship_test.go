package admin_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// Issue 28 point 1: POST .../orders/{id}/ship/ marks a paid, confirmed order
// shipped with its tracking link (given, or built from the carrier's
// template), mails the shopper the link, records order.shipped, and the
// shopper's order detail shows the fulfilment.
func TestAdminOrderShip(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staffB := e.Staff(sidB, "staffb@example.com")
	cid, tok := e.Shopper(sid, "s@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 10)
	var hook struct {
		ID uint64 `json:"id"`
	}
	e.Do(testenv.Req{Method: "POST", Path: opsPath(sid, "webhooks/"), Token: e.OwnerToken,
		Body: map[string]any{"url": "https://hooks.example/x", "events": []string{"order.shipped"}}}).Expect(t, 201, "").Decode(t, &hook)
	e.Do(testenv.Req{Method: "PATCH", Path: opsPath(sid, "config/"), Token: e.OwnerToken,
		Body: map[string]any{"tracking_urls": map[string]string{"Zed Post": "https://zed.example/t/{tracking_number}"}}}).Expect(t, 200, "")
	o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	o2 := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	pending := e.PlaceOrder(sid, cid, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: p, Qty: 1})
	ship := func(id uint64) string { return opsPath(sid, "orders/%d/ship/", id) }
	ok := map[string]any{"carrier": "Zed Post", "tracking_number": "ZP 42/7"}

	for _, tc := range []struct {
		name, path, tok string
		body            any
		status          int
		code            string
	}{
		{"ErrNoCredentials", ship(o.ID), "", ok, 401, "unauthorized"},
		{"ErrOtherStoreStaff", ship(o.ID), staffB, ok, 404, "not_found"},
		{"ErrOtherStoreOrder", opsPath(sidB, "orders/%d/ship/", o.ID), e.OwnerToken, ok, 404, "not_found"},
		{"ErrNoCarrier", ship(o.ID), e.OwnerToken, map[string]any{"tracking_number": "1"}, 400, "validation_failed"},
		{"ErrNoNumber", ship(o.ID), e.OwnerToken, map[string]any{"carrier": "UPS"}, 400, "validation_failed"},
		{"ErrBadURL", ship(o.ID), e.OwnerToken, map[string]any{"carrier": "UPS", "tracking_number": "1", "tracking_url": "javascript:alert(1)"}, 400, "validation_failed"},
		{"ErrBadJSON", ship(o.ID), e.OwnerToken, "{", 400, "validation_failed"},
		{"ErrNotPaid", ship(pending.ID), e.OwnerToken, ok, 409, "invalid_order_state"},
		{"Ship", ship(o.ID), e.OwnerToken, ok, 200, ""},
		{"ErrShippedTwice", ship(o.ID), e.OwnerToken, ok, 409, "invalid_order_state"},
		{"ShipGivenURL", ship(o2.ID), e.OwnerToken, map[string]any{"carrier": "UPS", "tracking_number": "1Z9", "tracking_url": "https://carrier.example/x?1Z9"}, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: tc.path, Token: tc.tok, Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}

	var shop struct {
		Status      string `json:"status"`
		Fulfillment struct {
			Status         string  `json:"status"`
			Carrier        string  `json:"carrier"`
			TrackingNumber string  `json:"tracking_number"`
			TrackingURL    string  `json:"tracking_url"`
			ShippedAt      *string `json:"shipped_at"`
		} `json:"fulfillment"`
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/orders/%d/", sitePath, o.ID), Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &shop)
	f := shop.Fulfillment
	if shop.Status != app.OrderConfirmed || f.Status != "shipped" || f.Carrier != "Zed Post" || f.ShippedAt == nil ||
		f.TrackingURL != "https://zed.example/t/ZP+42%2F7" {
		t.Fatalf("shopper's order: %+v", shop)
	}
	var mail *app.Mail
	for _, m := range e.Outbox(sid) {
		if m.Kind == app.MailOrderShipped && strings.Contains(m.Subject, fmt.Sprintf("#%d", o.ID)) {
			mail = m
		}
	}
	if mail == nil || mail.To != o.Email || !strings.Contains(mail.Subject, "on its way") ||
		!strings.Contains(mail.Text, "https://zed.example/t/ZP+42%2F7") || !strings.Contains(mail.HTML, `href="https://zed.example/t/ZP&#43;42%2F7"`) {
		t.Fatalf("the shopper's mail: %+v", mail)
	}
	r := e.Do(testenv.Req{Method: "GET", Path: opsPath(sid, "webhooks/%d/deliveries/", hook.ID), Token: e.OwnerToken}).Expect(t, 200, "")
	if !strings.Contains(string(r.Raw), `"order.shipped"`) {
		t.Fatalf("no order.shipped delivery: %s", r.Raw)
	}
	// Delivered after shipped: the fulfilment says so.
	e.Do(testenv.Req{Method: "PATCH", Path: opsPath(sid, "orders/%d/", o.ID), Token: e.OwnerToken, Body: map[string]any{"status": "DELIVERED"}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/orders/%d/", sitePath, o.ID), Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &shop)
	if shop.Fulfillment.Status != "delivered" || shop.Fulfillment.TrackingNumber != "ZP 42/7" {
		t.Fatalf("after delivery: %+v", shop.Fulfillment)
	}
}
