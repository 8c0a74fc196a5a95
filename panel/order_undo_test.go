package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

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
