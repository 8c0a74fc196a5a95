package web_test

import (
	"fmt"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// An approved cancellation gives the coupon use back (as expiry does, and as
// Medusa and Saleor do): a single-use coupon can be used again afterwards.
func TestApprovedCancellationGivesCouponUseBack(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, tok := e.Shopper(sid, "ada@example.com")
	mug := e.Product(sid, 0, "Mug", 1000, 10)
	code, typ, one := "ONCE", app.CouponFixed, int64(1)
	val := app.Money(100)
	cp, err := e.Svc.Coupons.Save(sid, 0, app.CouponInput{Code: &code, Type: &typ, Value: &val, MaxUses: &one})
	if err != nil {
		t.Fatal(err)
	}
	uses := func() int64 {
		t.Helper()
		all, err := e.Svc.Coupons.List(sid)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range all {
			if c.ID == cp.ID {
				return c.Uses
			}
		}
		t.Fatal("coupon gone")
		return 0
	}
	body := order(1, mug)
	body["coupon_code"] = "ONCE"
	first := initiate(t, e, key, tok, body)
	if n := uses(); n != 1 {
		t.Fatalf("got %d uses after the order, want 1", n)
	}
	// Used up: a second order with it is refused.
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: body}).Expect(t, 400, "validation_failed")

	var req struct {
		ID uint64 `json:"id"`
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/orders/cancel/", Key: key, Token: tok,
		Body: map[string]any{"order_id": first.OrderID, "reason": "changed my mind"}}).Expect(t, 200, "").Decode(t, &req)
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/cancellation-requests/%d/approve/", sid, req.ID),
		Token: e.OwnerToken}).Expect(t, 200, "")
	if n := uses(); n != 0 {
		t.Fatalf("got %d uses after the approved cancellation, want 0 (given back)", n)
	}
	initiate(t, e, key, tok, body) // usable again
	if n := uses(); n != 1 {
		t.Fatalf("got %d uses after the new order, want 1", n)
	}
}
