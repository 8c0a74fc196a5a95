package admin_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

// deliveredMails returns the store's "delivered" mails of order id.
func deliveredMails(e *testenv.Env, sid, id uint64) []*app.Mail {
	var out []*app.Mail
	for _, m := range e.Outbox(sid) {
		if m.Kind == app.MailOrderDelivered && strings.Contains(m.Subject, fmt.Sprintf("#%d", id)) {
			out = append(out, m)
		}
	}
	return out
}

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

// The order page offers Undo after Mark as DELIVERED, within the window only.
func TestPanelUndoDelivered(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 100)
	o := placeAs(e, sid, 0, app.OrderConfirmed, app.PaymentPaid, "zed@example.com", "Zed Zulu", "555 0101", p, 1)
	other := placeAs(e, sid, 0, app.OrderConfirmed, app.PaymentPaid, "amy@example.com", "Amy", "555 0102", p, 1)
	b := owner(t, e)
	op := fmt.Sprintf("/admin/stores/%d/orders/%d/", sid, o.ID)
	if pg := b.get(op); strings.Contains(pg.Body, `id="undo-delivered"`) {
		t.Fatal("a CONFIRMED order offers Undo")
	}
	b.submit(op, op+"status/", url.Values{"status": {"DELIVERED"}, "confirm": {"yes"}}).redirectsTo(t, op)
	b.get(op).expect(t, 200, "You can undo this for 5 minutes", `id="undo-delivered"`, "Marked delivered by owner@example.com")
	b.submit(op, op+"undo-delivered/", url.Values{}).redirectsTo(t, op)
	pg := b.get(op).expect(t, 200, "Delivery undone: order #", "Mark as DELIVERED")
	if strings.Contains(pg.Body, `id="undo-delivered"`) {
		t.Fatal("Undo still offered after undoing")
	}
	b.submit(op, op+"undo-delivered/", url.Values{}).expect(t, 409, "cannot be undone")
	// After the window the button is gone and the server refuses.
	oop := fmt.Sprintf("/admin/stores/%d/orders/%d/", sid, other.ID)
	b.submit(oop, oop+"status/", url.Values{"status": {"DELIVERED"}, "confirm": {"yes"}}).redirectsTo(t, oop)
	e.Advance(app.DeliveryUndoWindow + time.Second)
	if pg := b.get(oop); strings.Contains(pg.Body, `id="undo-delivered"`) {
		t.Fatal("Undo offered after the window")
	}
	b.submit(oop, oop+"undo-delivered/", url.Values{}).expect(t, 409, "cannot be undone")
	if len(deliveredMails(e, sid, other.ID)) != 1 {
		t.Fatal("the delivered mail of the order not undone is missing")
	}
}

// The order page's timeline (issue 28 point 1): placed, shipped, the mails,
// the admin's moves from the audit log, a note, an undo, oldest first.
func TestPanelOrderTimeline(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 100)
	o := placeAs(e, sid, 0, app.OrderConfirmed, app.PaymentPaid, "zed@example.com", "Zed Zulu", "555 0101", p, 1)
	b := owner(t, e)
	op := fmt.Sprintf("/admin/stores/%d/orders/%d/", sid, o.ID)
	b.get(op).expect(t, 200, `id="timeline"`, "Order placed (12.50 USD")
	b.submit(op, op+"ship/", url.Values{"carrier": {"UPS"}, "tracking_number": {"1Z999"}}).redirectsTo(t, op)
	e.Advance(time.Minute)
	b.submit(op, op+"status/", url.Values{"status": {"DELIVERED"}, "confirm": {"yes"}}).redirectsTo(t, op)
	e.Advance(time.Minute)
	b.submit(op, op+"undo-delivered/", url.Values{}).redirectsTo(t, op)
	b.submit(op, op+"notes/", url.Values{"note": {"Called the shopper"}}).redirectsTo(t, op+"#notes")
	pg := b.get(op).expect(t, 200, "Shipped with UPS, tracking 1Z999", "Mail order_shipped to zed@example.com: ",
		"Mail order_delivered to zed@example.com: failed", "Note: Called the shopper", "Note: Delivery undone",
		"by owner@example.com", "Admin action orders.status (panel, HTTP 303)")
	tl := pg.Body[strings.Index(pg.Body, `id="timeline"`):]
	if i, j := strings.Index(tl, "Order placed"), strings.Index(tl, "Note: Called the shopper"); i < 0 || j < i {
		t.Fatal("the timeline is not oldest first")
	}
}
