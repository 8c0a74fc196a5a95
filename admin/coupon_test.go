package admin_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

const sitePath = "/api/v1/business/website"

type couponData struct {
	ID          uint64  `json:"id"`
	Code        string  `json:"code"`
	Type        string  `json:"type"`
	Value       string  `json:"value"`
	MinSubtotal string  `json:"min_subtotal"`
	MaxUses     *int64  `json:"max_uses"`
	Uses        int64   `json:"uses"`
	EndsAt      *string `json:"ends_at"`
}

type initiated struct {
	OrderID          uint64 `json:"order_id"`
	PaymentSessionID string `json:"payment_session_id"`
}

type orderData struct {
	ID            uint64  `json:"id"`
	Status        string  `json:"status"`
	PaymentStatus string  `json:"payment_status"`
	Subtotal      string  `json:"subtotal"`
	Discount      string  `json:"discount"`
	Total         string  `json:"total"`
	CouponCode    string  `json:"coupon_code"`
	CustomerID    *uint64 `json:"customer_id"`
	Email         string  `json:"email"`
}

func checkout(p *app.Product, qty int64, coupon string) map[string]any {
	return map[string]any{
		"receiver_name": "Ada", "phone": "+15550100", "address": "1 Main St", "email": "ada@example.com",
		"items":          []map[string]any{{"product_id": p.ID, "quantity": qty}},
		"payment_method": "WALLET_A", "callback_url": "https://shop.example/return", "coupon_code": coupon,
	}
}

func coupons(sid uint64) string { return fmt.Sprintf("/api/v1/admin/stores/%d/coupons/", sid) }

func TestCoupons(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 2000, 100)
	mk := func(body map[string]any) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: coupons(sid), Token: e.OwnerToken, Body: body})
	}
	var c couponData
	mk(map[string]any{"code": "save10", "type": "percent", "value": "10"}).Expect(t, 201, "").Decode(t, &c)
	if c.Code != "SAVE10" || c.Value != "10.00" || c.MaxUses != nil || c.Uses != 0 {
		t.Fatalf("created: got %+v", c)
	}
	pct := c.ID
	mk(map[string]any{"code": "FIVE", "type": "fixed", "value": "5.00", "min_subtotal": "30.00"}).Expect(t, 201, "")
	end := e.Now().Add(time.Hour).Format(time.RFC3339)
	mk(map[string]any{"code": "SOON", "type": "fixed", "value": 1, "ends_at": end}).Expect(t, 201, "")
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
		field  string
	}{
		{"ErrDuplicateCaseInsensitive", map[string]any{"code": "Save10", "type": "fixed", "value": "1"}, 409, "conflict", "code"},
		{"ErrNoCode", map[string]any{"type": "fixed", "value": "1"}, 400, "validation_failed", "code"},
		{"ErrBadType", map[string]any{"code": "X", "type": "bogo", "value": "1"}, 400, "validation_failed", "type"},
		{"ErrPercentOver100", map[string]any{"code": "X", "type": "percent", "value": "101"}, 400, "validation_failed", "value"},
		{"ErrZeroValue", map[string]any{"code": "X", "type": "fixed", "value": "0"}, 400, "validation_failed", "value"},
		{"ErrBadTime", map[string]any{"code": "X", "type": "fixed", "value": "1", "ends_at": "tomorrow"}, 400, "validation_failed", "ends_at"},
		{"ErrNegativeMaxUses", map[string]any{"code": "X", "type": "fixed", "value": "1", "max_uses": -1}, 400, "validation_failed", "max_uses"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mk(tc.body).Expect(t, tc.status, tc.code)
			if r.Body.Errors[tc.field] == "" {
				t.Fatalf("errors: got %v, want %s", r.Body.Errors, tc.field)
			}
		})
	}
	var list struct {
		Items   []couponData `json:"items"`
		HasMore bool         `json:"has_more"`
	}
	e.Do(testenv.Req{Method: "GET", Path: coupons(sid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &list)
	if len(list.Items) != 3 {
		t.Fatalf("list: got %d, want 3", len(list.Items))
	}
	// Cross-store and unauthenticated.
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s%d/", coupons(sidB), pct), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "GET", Path: coupons(sid)}).Expect(t, 401, "unauthorized")

	place := func(qty int64, code string) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: sitePath + "/payment/initiate/", Key: key, Body: checkout(p, qty, code)})
	}
	order := func(r *testenv.Response) orderData {
		var in initiated
		r.Expect(t, 200, "").Decode(t, &in)
		var o orderData
		e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/%d/", sid, in.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
		return o
	}
	if o := order(place(3, "save10")); o.Subtotal != "60.00" || o.Discount != "6.00" || o.Total != "54.00" || o.CouponCode != "SAVE10" {
		t.Fatalf("percent coupon: got %+v", o)
	}
	if o := order(place(2, " five ")); o.Discount != "5.00" || o.Total != "35.00" {
		t.Fatalf("fixed coupon: got %+v", o)
	}
	if r := place(1, "FIVE").Expect(t, 400, "validation_failed"); r.Body.Errors["coupon_code"] == "" {
		t.Fatalf("below min_subtotal: got %v", r.Body.Errors)
	}
	e.Advance(2 * time.Hour)
	place(1, "SOON").Expect(t, 400, "validation_failed")
	// PATCH deactivates; DELETE removes.
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s%d/", coupons(sid), pct), Token: e.OwnerToken, Body: map[string]any{"is_active": false}}).Expect(t, 200, "")
	place(1, "SAVE10").Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s%d/", coupons(sid), pct), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &c)
	if c.Uses != 1 {
		t.Fatalf("uses: got %d, want 1", c.Uses)
	}
	e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s%d/", coupons(sid), pct), Token: e.OwnerToken}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s%d/", coupons(sid), pct), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	// The code is free again.
	mk(map[string]any{"code": "SAVE10", "type": "fixed", "value": "1"}).Expect(t, 201, "")
}

func TestCouponMaxUsesConcurrent(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 2000, 1000)
	var c couponData
	e.Do(testenv.Req{Method: "POST", Path: coupons(sid), Token: e.OwnerToken, Body: map[string]any{"code": "THREE", "type": "fixed", "value": "1.00", "max_uses": 3}}).Expect(t, 201, "").Decode(t, &c)
	var wg sync.WaitGroup
	var okN, refused atomic.Int32
	var first atomic.Value
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.Do(testenv.Req{Method: "POST", Path: sitePath + "/payment/initiate/", Key: key, Body: checkout(p, 1, "three")})
			switch {
			case r.Status == 200:
				okN.Add(1)
				var in initiated
				r.Decode(t, &in)
				first.CompareAndSwap(nil, in)
			case r.Status == 400 && r.Body.Errors["coupon_code"] != "":
				refused.Add(1)
			}
		}()
	}
	wg.Wait()
	if okN.Load() != 3 || refused.Load() != 27 {
		t.Fatalf("got %d ok and %d refused, want 3 and 27", okN.Load(), refused.Load())
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s%d/", coupons(sid), c.ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &c)
	if c.Uses != 3 {
		t.Fatalf("uses: got %d, want 3", c.Uses)
	}
	// An order that expires gives its use back.
	e.Advance(31 * time.Minute)
	if n, err := e.Svc.Orders.ExpirePending(); n != 3 || err != nil {
		t.Fatalf("ExpirePending: got %d, %v", n, err)
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s%d/", coupons(sid), c.ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &c)
	if c.Uses != 0 {
		t.Fatalf("uses after expiry: got %d, want 0", c.Uses)
	}
	e.Do(testenv.Req{Method: "POST", Path: sitePath + "/payment/initiate/", Key: key, Body: checkout(p, 1, "three")}).Expect(t, 200, "")
}

// An approved cancellation gives the coupon use back, like an expiry does.
func TestCancelledOrderGivesCouponBack(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, tok := e.Shopper(sid, "ada@example.com")
	p := e.Product(sid, 0, "Mug", 2000, 10)
	var c couponData
	e.Do(testenv.Req{Method: "POST", Path: coupons(sid), Token: e.OwnerToken, Body: map[string]any{"code": "ONCE", "type": "percent", "value": "10", "max_uses": 1}}).Expect(t, 201, "").Decode(t, &c)
	var in initiated
	e.Do(testenv.Req{Method: "POST", Path: sitePath + "/payment/initiate/", Key: key, Token: tok, Body: checkout(p, 1, "once")}).Expect(t, 200, "").Decode(t, &in)
	e.Do(testenv.Req{Method: "POST", Path: sitePath + "/payment/initiate/", Key: key, Token: tok, Body: checkout(p, 1, "once")}).Expect(t, 400, "validation_failed")
	var req struct {
		ID uint64 `json:"id"`
	}
	e.Do(testenv.Req{Method: "POST", Path: sitePath + "/orders/cancel/", Key: key, Token: tok, Body: map[string]any{"order_id": in.OrderID, "reason": "changed my mind"}}).Expect(t, 200, "").Decode(t, &req)
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/cancellation-requests/%d/approve/", sid, req.ID), Token: e.OwnerToken, Body: map[string]any{}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s%d/", coupons(sid), c.ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &c)
	if c.Uses != 0 {
		t.Fatalf("uses after an approved cancellation: got %d, want 0", c.Uses)
	}
	e.Do(testenv.Req{Method: "POST", Path: sitePath + "/payment/initiate/", Key: key, Token: tok, Body: checkout(p, 1, "once")}).Expect(t, 200, "")
}
