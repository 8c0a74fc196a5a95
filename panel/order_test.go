package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

func TestPanelOrders(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	cid, _ := e.Shopper(sid, "ann@example.com")
	pr := e.Product(sid, 0, "Blue Mug", 1250, 10)
	confirmed := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: pr, Qty: 2})
	pending := e.PlaceOrder(sid, 0, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: pr, Qty: 1})
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/orders/", sid)
	path := fmt.Sprintf("%s%d/", base, confirmed.ID)
	pendingPath := fmt.Sprintf("%s%d/", base, pending.ID)
	status := func(id uint64) string {
		o, err := e.Svc.Orders.Order(sid, id)
		if err != nil {
			t.Fatal(err)
		}
		return o.Status
	}

	b.get(base).expect(t, 200, fmt.Sprintf("#%d", confirmed.ID), fmt.Sprintf("#%d", pending.ID), "25.00 USD", "guest")
	p := b.get(base+"?status=CONFIRMED").expect(t, 200, fmt.Sprintf(`%d/">#%d`, confirmed.ID, confirmed.ID))
	if strings.Contains(p.Body, fmt.Sprintf(`%d/">#%d`, pending.ID, pending.ID)) {
		t.Fatalf("a PENDING order is listed as CONFIRMED")
	}
	b.get(base+"?status=SHIPPED").expect(t, 400, "status")
	b.get(path).expect(t, 200, "Blue Mug", "ann@example.com", "1 Main St", "Mark as DELIVERED")

	t.Run("ErrNoCSRF", func(t *testing.T) {
		b.do("POST", path+"status/", url.Values{"status": {"DELIVERED"}}).expect(t, 403)
		if got := status(confirmed.ID); got != app.OrderConfirmed {
			t.Fatalf("got %s, want CONFIRMED", got)
		}
	})
	t.Run("Moves", func(t *testing.T) {
		// Delivered asks first (the shopper is mailed): a confirm page, nothing moved yet.
		b.submit(path, path+"status/", url.Values{"status": {"DELIVERED"}}).redirectsTo(t, path+"status/?status=DELIVERED")
		if got := status(confirmed.ID); got != app.OrderConfirmed {
			t.Fatalf("moved before confirming: %s", got)
		}
		b.get(path+"status/?status=DELIVERED").expect(t, 200, "as delivered?", "not shipped through the panel", `name="confirm" value="yes"`)
		b.submit(path, path+"status/", url.Values{"status": {"DELIVERED"}, "confirm": {"yes"}}).redirectsTo(t, path)
		if got := status(confirmed.ID); got != app.OrderDelivered {
			t.Fatalf("got %s, want DELIVERED", got)
		}
		b.get(path).expect(t, 200, "is now DELIVERED.", "Mark as COMPLETED")
		b.submit(path, path+"status/", url.Values{"status": {"COMPLETED"}}).redirectsTo(t, path)
		if got := status(confirmed.ID); got != app.OrderCompleted {
			t.Fatalf("got %s, want COMPLETED", got)
		}
		p := b.get(path).expect(t, 200, "no move to make by hand")
		if strings.Contains(p.Body, "/status/") {
			t.Fatalf("a completed order offers a move")
		}
	})
	t.Run("ErrInvalidMove", func(t *testing.T) {
		b.submit(pendingPath, pendingPath+"status/", url.Values{"status": {"DELIVERED"}}).expect(t, 409, "cannot move from PENDING to DELIVERED")
		b.submit(path, path+"status/", url.Values{"status": {"CONFIRMED"}}).expect(t, 409)
		b.submit(path, path+"status/", url.Values{"status": {"LOST"}}).expect(t, 400, "status")
		if got := status(pending.ID); got != app.OrderPending {
			t.Fatalf("got %s, want PENDING", got)
		}
		b.get(base+"999/").expect(t, 404)
	})
	t.Run("StaffScope", func(t *testing.T) {
		staffBrowser(t, e, sid).get(pendingPath).expect(t, 200, "Blue Mug")
		other := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: pr, Qty: 1})
		otherPath := fmt.Sprintf("%s%d/", base, other.ID)
		expectForeign(t, staffBrowser(t, e, sidB), []string{base, otherPath}, []string{otherPath + "status/"}, url.Values{"status": {"DELIVERED"}})
		if got := status(other.ID); got != app.OrderConfirmed {
			t.Fatalf("staff of B moved A's order to %s", got)
		}
	})
}
