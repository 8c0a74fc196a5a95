package admin_test

import (
	"sync"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestAdminOrderCancelRefundRace: the store's cancel and refund buttons
// pressed many times at once (two tabs, two staff) decide an order once:
// one cancellation wins, the others are 409, the stock comes back once and
// the refunds never exceed what was paid.
func TestAdminOrderCancelRefundRace(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	staff := e.Admin(sid, "manager@example.com", app.RoleManager) // a paid order's cancel refunds: not staff's
	cid, _ := e.Shopper(sid, "s@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 100)
	const n = 8
	for round := 0; round < 3; round++ {
		o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 3})
		before := e.Stock(sid, p.ID)
		statuses := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tok := e.OwnerToken
				if i%2 == 1 {
					tok = staff
				}
				statuses[i] = e.Do(testenv.Req{Method: "POST", Path: opsPath(sid, "orders/%d/cancel/", o.ID), Token: tok}).Status
			}()
		}
		wg.Wait()
		won := 0
		for _, st := range statuses {
			switch st {
			case 200:
				won++
			case 409:
			default:
				t.Fatalf("round %d: cancel answered %d", round, st)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d cancellations succeeded, want 1 (%v)", round, won, statuses)
		}
		if after := e.Stock(sid, p.ID); after != before+3 {
			t.Fatalf("round %d: stock %d -> %d, want +3 once", round, before, after)
		}
		if got := e.Order(sid, o.ID); got.Status != app.OrderCancelled || got.RefundedAmount != got.Total {
			t.Fatalf("round %d: order %s refunded %s of %s", round, got.Status, got.RefundedAmount, got.Total)
		}
	}

	// Partial refunds at once, 10.00 each on a 30.00 order: every 200 is a
	// refund made (a call that meets another store refund in progress is
	// 409), and never more than was paid.
	o := e.PlaceOrder(sid, cid, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: p, Qty: 3})
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = e.Do(testenv.Req{Method: "POST", Path: opsPath(sid, "orders/%d/refund/", o.ID), Token: e.OwnerToken,
				Body: map[string]any{"amount": "10.00"}}).Status
		}()
	}
	wg.Wait()
	won := 0
	for _, st := range statuses {
		switch st {
		case 200:
			won++
		case 400, 409:
		default:
			t.Fatalf("refund answered %d", st)
		}
	}
	got := e.Order(sid, o.ID)
	if won < 1 || won > 3 || got.RefundedAmount != app.Money(won)*1000 {
		t.Fatalf("%d refunds answered 200 (%v) but the order has %s refunded", won, statuses, got.RefundedAmount)
	}
}
