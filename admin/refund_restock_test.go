package admin_test

import (
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// A partial refund on a paid order not yet shipped (CONFIRMED) or after
// delivery, with the stock given back per line as chosen.
func TestRefundRestock(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	cid, _ := e.Shopper(sid, "s@example.com")
	mug := e.Product(sid, 0, "Mug", 1000, 10)
	cup := e.Product(sid, 0, "Cup", 500, 10)
	paid := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: mug, Qty: 3}, testenv.Line{Product: cup, Qty: 2})
	// paid after it was cancelled (the money arrived late): refundable, its stock back already
	cancelled := e.PlaceOrder(sid, cid, app.OrderCancelled, app.PaymentPaid, testenv.Line{Product: cup, Qty: 1})
	refund := func(o *app.Order) string { return opsPath(sid, "orders/%d/refund/", o.ID) }
	mugBefore, cupBefore := e.Stock(sid, mug.ID), e.Stock(sid, cup.ID)
	for _, tc := range []struct {
		name   string
		o      *app.Order
		body   any
		status int
		code   string
	}{
		{"ErrLineZero", paid, `{"amount":"1.00","restock":[{"line":0,"quantity":1}]}`, 400, "validation_failed"},
		{"ErrLineTooHigh", paid, `{"amount":"1.00","restock":[{"line":3,"quantity":1}]}`, 400, "validation_failed"},
		{"ErrTooMany", paid, `{"amount":"1.00","restock":[{"line":1,"quantity":4}]}`, 400, "validation_failed"},
		{"ErrZeroQty", paid, `{"amount":"1.00","restock":[{"line":1,"quantity":0}]}`, 400, "validation_failed"},
		{"ErrTwice", paid, `{"amount":"1.00","restock":[{"line":1,"quantity":1},{"line":1,"quantity":1}]}`, 400, "validation_failed"},
		{"ErrCancelledOrder", cancelled, `{"restock":[{"line":1,"quantity":1}]}`, 400, "validation_failed"},
		{"PartialBeforeShipping", paid, `{"amount":"10.00","restock":[{"line":1,"quantity":1}]}`, 200, ""},
		{"ErrMoreThanLeft", paid, `{"amount":"1.00","restock":[{"line":1,"quantity":3}]}`, 400, "validation_failed"},
		{"SecondPartial", paid, `{"amount":"5.00","restock":[{"line":1,"quantity":2},{"line":2,"quantity":1}]}`, 200, ""},
		{"NoRestock", paid, `{"amount":"1.00"}`, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: refund(tc.o), Token: e.OwnerToken, Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}
	o := e.Order(sid, paid.ID)
	if o.Status != app.OrderConfirmed || o.PaymentStatus != app.PaymentPartiallyRefunded || o.RefundedAmount != 1600 {
		t.Fatalf("order %s/%s refunded %s", o.Status, o.PaymentStatus, o.RefundedAmount)
	}
	if s := e.Stock(sid, mug.ID); s != mugBefore+3 {
		t.Fatalf("mug stock %d, want %d (3 given back)", s, mugBefore+3)
	}
	if s := e.Stock(sid, cup.ID); s != cupBefore+1 {
		t.Fatalf("cup stock %d, want %d (1 given back)", s, cupBefore+1)
	}
}
