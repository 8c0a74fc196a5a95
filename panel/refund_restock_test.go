package panel_test

import (
	"fmt"
	"net/url"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// The panel offers a refund on a paid order not yet shipped, beside
// cancelling it, with units back into stock per line behind the confirm page.
func TestPanelRefundRestock(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	cid, _ := e.Shopper(sid, "s@example.com")
	mug := e.Product(sid, 0, "Mug", 1000, 10)
	o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: mug, Qty: 3})
	b := owner(t, e)
	op := fmt.Sprintf("/admin/stores/%d/orders/%d/", sid, o.ID)
	b.get(op).expect(t, 200, "Cancel order…", "Refund…", `name="restock_1"`, "Line 1 back into stock")
	before := e.Stock(sid, mug.ID)
	form := url.Values{"amount": {"10.00"}, "restock_1": {"1"}}
	b.submit(op, op+"refund/", form).redirectsTo(t, op+"refund/?")
	b.get(op+"refund/?amount=10.00&restock_1=1").expect(t, 200, "Refund 10.00 USD on order", "Line 1: 1 back into stock.", `name="restock_1" value="1"`)
	form.Set("confirm", "yes")
	b.submit(op, op+"refund/", form).redirectsTo(t, op)
	if got := e.Order(sid, o.ID); got.RefundedAmount != 1000 || got.Status != app.OrderConfirmed || e.Stock(sid, mug.ID) != before+1 {
		t.Fatalf("order %s refunded %s, stock %d (want %d)", got.Status, got.RefundedAmount, e.Stock(sid, mug.ID), before+1)
	}
	t.Run("ErrTooMany", func(t *testing.T) {
		b.submit(op, op+"refund/", url.Values{"amount": {"1.00"}, "restock_1": {"3"}, "confirm": {"yes"}}).expect(t, 400, "at most 2 more can be given back")
	})
	t.Run("ErrNotANumber", func(t *testing.T) {
		b.submit(op, op+"refund/", url.Values{"amount": {"1.00"}, "restock_1": {"x"}, "confirm": {"yes"}}).expect(t, 400, "must be a whole number")
	})
}
