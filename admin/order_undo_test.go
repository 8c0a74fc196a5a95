package admin_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

// Issue 28 point 1: a move to DELIVERED records when and by whom, holds the
// shopper's mail for the undo window, and POST .../undo-delivered/ takes it
// back within the window (CONFIRMED again, shipped fulfilment kept, the mail
// withdrawn, a note); after the window, or on an order not delivered by
// hand, it is refused.
func TestAdminOrderUndoDelivered(t *testing.T) {
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staffB := e.Staff(sidB, "staffb@example.com")
	cid, tok := e.Shopper(sid, "s@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 10)
	o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	late := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	undo := func(id uint64) string { return opsPath(sid, "orders/%d/undo-delivered/", id) }
	deliver := func(id uint64) {
		e.Do(testenv.Req{Method: "PATCH", Path: opsPath(sid, "orders/%d/", id), Token: e.OwnerToken, Body: map[string]any{"status": "DELIVERED"}}).Expect(t, 200, "")
	}
	e.Do(testenv.Req{Method: "POST", Path: opsPath(sid, "orders/%d/ship/", o.ID), Token: e.OwnerToken,
		Body: map[string]any{"carrier": "UPS", "tracking_number": "1Z9"}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: undo(o.ID), Token: e.OwnerToken}).Expect(t, 409, "invalid_order_state") // not delivered yet
	deliver(o.ID)
	var got struct{ Data app.AdminOrderView }
	e.Do(testenv.Req{Method: "GET", Path: opsPath(sid, "orders/%d/", o.ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &got.Data)
	if got.Data.DeliveredBy != "owner@example.com" || got.Data.DeliveredAt == nil || got.Data.UndoUntil == nil ||
		!got.Data.UndoUntil.Equal(got.Data.DeliveredAt.Add(app.DeliveryUndoWindow)) {
		t.Fatalf("delivered: %+v", got.Data)
	}
	if ms := deliveredMails(e, sid, o.ID); len(ms) != 1 || ms[0].State() != app.MailQueued || !ms[0].NextAt.After(*got.Data.UndoUntil) {
		t.Fatalf("the delivered mail is not held past the window: %+v", ms)
	}
	e.Advance(4 * time.Minute)
	for _, tc := range []struct {
		name, path, tok string
		status          int
		code            string
	}{
		{"ErrNoCredentials", undo(o.ID), "", 401, "unauthorized"},
		{"ErrOtherStoreStaff", undo(o.ID), staffB, 404, "not_found"},
		{"ErrOtherStoreOrder", opsPath(sidB, "orders/%d/undo-delivered/", o.ID), e.OwnerToken, 404, "not_found"},
		{"ErrNoOrder", undo(999999), e.OwnerToken, 404, "not_found"},
		{"ErrBadID", opsPath(sid, "orders/x/undo-delivered/"), e.OwnerToken, 404, "not_found"},
		{"Undo", undo(o.ID), e.OwnerToken, 200, ""},
		{"ErrUndoneTwice", undo(o.ID), e.OwnerToken, 409, "invalid_order_state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: tc.path, Token: tc.tok}).Expect(t, tc.status, tc.code)
		})
	}
	e.Do(testenv.Req{Method: "GET", Path: opsPath(sid, "orders/%d/", o.ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &got.Data)
	if got.Data.Status != app.OrderConfirmed || got.Data.Fulfillment.Status != app.FulfillmentShipped || got.Data.DeliveredAt != nil ||
		len(got.Data.Notes) != 1 || !strings.Contains(got.Data.Notes[0].Text, "Delivery undone") {
		t.Fatalf("after undo: %+v", got.Data)
	}
	if ms := deliveredMails(e, sid, o.ID); len(ms) != 1 || ms[0].State() != app.MailFailed || !strings.Contains(ms[0].LastError, "withdrawn") {
		t.Fatalf("the held mail was not withdrawn: %+v", ms)
	}
	var shop struct {
		Status string `json:"status"`
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/orders/%d/", sitePath, o.ID), Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &shop)
	if shop.Status != app.OrderConfirmed {
		t.Fatalf("the shopper sees %s", shop.Status)
	}
	// Delivered again, then the window runs out: no undo, the mail goes.
	deliver(o.ID)
	deliver(late.ID)
	e.Advance(app.DeliveryUndoWindow)
	e.Do(testenv.Req{Method: "POST", Path: undo(late.ID), Token: e.OwnerToken}).Expect(t, 409, "invalid_order_state")
	e.Do(testenv.Req{Method: "POST", Path: undo(o.ID), Token: e.OwnerToken}).Expect(t, 409, "invalid_order_state")
}

func deliveredMails(e *testenv.Env, sid, id uint64) []*app.Mail { return e.DeliveredMails(sid, id) }
