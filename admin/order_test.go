package admin_test

import (
	"fmt"
	"net/url"
	"testing"

	"storefront/app"

	"storefront/testenv"
)

func TestAdminOrders(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 2000, 100)
	cid, tok := e.Shopper(sid, "a@example.com")
	var guest, mine initiated
	e.Do(testenv.Req{Method: "POST", Path: sitePath + "/payment/initiate/", Key: key, Body: checkout(p, 1, "")}).Expect(t, 200, "").Decode(t, &guest)
	e.Do(testenv.Req{Method: "POST", Path: sitePath + "/payment/initiate/", Key: key, Token: tok, Body: checkout(p, 2, "")}).Expect(t, 200, "").Decode(t, &mine)
	path := func(s uint64, o uint64) string { return fmt.Sprintf("/api/v1/admin/stores/%d/orders/%d/", s, o) }

	var o orderData
	e.Do(testenv.Req{Method: "GET", Path: path(sid, guest.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
	if o.CustomerID != nil || o.Status != "PENDING" || o.Email != "ada@example.com" {
		t.Fatalf("guest order: got %+v", o)
	}
	e.Do(testenv.Req{Method: "GET", Path: path(sid, mine.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
	if o.CustomerID == nil || *o.CustomerID != cid {
		t.Fatalf("shopper order: got %+v", o)
	}

	// Pay the shopper's order through the sandbox, then move it by hand.
	r := e.Do(testenv.Req{Method: "POST", Path: "/sandbox/pay/" + mine.PaymentSessionID + "/", Body: "outcome=success", Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}})
	loc, _ := url.Parse(r.Header.Get("Location"))
	params := map[string]string{}
	for k, v := range loc.Query() {
		params[k] = v[0]
	}
	e.Do(testenv.Req{Method: "POST", Path: sitePath + "/payment/verify/", Key: key, Body: map[string]any{"payment_session_id": mine.PaymentSessionID, "provider_params": params}}).Expect(t, 200, "")

	for _, tc := range []struct {
		name   string
		oid    uint64
		status string
		want   int
		code   string
	}{
		{"ErrPendingToDelivered", guest.OrderID, "DELIVERED", 409, "invalid_order_state"},
		{"ErrPendingToConfirmed", guest.OrderID, "CONFIRMED", 409, "invalid_order_state"},
		{"ErrUnknownStatus", mine.OrderID, "SHIPPED", 400, "validation_failed"},
		{"ErrSkipToCompleted", mine.OrderID, "COMPLETED", 409, "invalid_order_state"},
		{"Delivered", mine.OrderID, "DELIVERED", 200, ""},
		{"Completed", mine.OrderID, "COMPLETED", 200, ""},
		{"ErrBackwards", mine.OrderID, "CONFIRMED", 409, "invalid_order_state"},
		{"ErrUnknownOrder", 999, "DELIVERED", 404, "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "PATCH", Path: path(sid, tc.oid), Token: e.OwnerToken, Body: map[string]any{"status": tc.status}}).Expect(t, tc.want, tc.code)
		})
	}

	type list struct {
		Items      []orderData `json:"items"`
		NextCursor *string     `json:"next_cursor"`
		HasMore    bool        `json:"has_more"`
	}
	var l list
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/", sid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 2 || l.Items[0].ID != mine.OrderID {
		t.Fatalf("all orders newest first: got %+v", l.Items)
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/?status=COMPLETED", sid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 1 || l.Items[0].Status != "COMPLETED" {
		t.Fatalf("completed orders: got %+v", l.Items)
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/?status=PENDING&limit=1", sid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 1 || l.HasMore {
		t.Fatalf("pending orders: got %+v", l)
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/?status=nope", sid), Token: e.OwnerToken}).Expect(t, 400, "validation_failed")

	// Paging with a cursor, and a cursor of another status list refused.
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/?limit=1", sid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if !l.HasMore || l.NextCursor == nil {
		t.Fatalf("first page: got %+v", l)
	}
	cur := url.QueryEscape(*l.NextCursor)
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/?limit=1&cursor=%s", sid, cur), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 1 || l.Items[0].ID != guest.OrderID || l.HasMore {
		t.Fatalf("second page: got %+v", l)
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/?status=PENDING&cursor=%s", sid, cur), Token: e.OwnerToken}).Expect(t, 400, "validation_failed")

	// Cross-store, staff of another store, no token, a shopper token.
	e.Do(testenv.Req{Method: "GET", Path: path(sidB, guest.OrderID), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "PATCH", Path: path(sidB, mine.OrderID), Token: e.OwnerToken, Body: map[string]any{"status": "DELIVERED"}}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "GET", Path: path(sid, guest.OrderID)}).Expect(t, 401, "unauthorized")
	e.Do(testenv.Req{Method: "GET", Path: path(sid, guest.OrderID), Token: tok}).Expect(t, 401, "unauthorized")
	st := e.Staff(sidB, "staff@example.com")
	e.Do(testenv.Req{Method: "GET", Path: path(sid, guest.OrderID), Token: st}).Expect(t, 404, "not_found")
}

// A pending cancellation request is decided before the order moves on.
func TestMoveWaitsForPendingCancellation(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ada@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 5)
	o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	var req struct {
		ID uint64 `json:"id"`
	}
	e.Do(testenv.Req{Method: "POST", Path: sitePath + "/orders/cancel/", Key: key, Token: tok, Body: map[string]any{"order_id": o.ID, "reason": "too late"}}).Expect(t, 200, "").Decode(t, &req)
	move := testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/%d/", sid, o.ID), Token: e.OwnerToken, Body: map[string]any{"status": "DELIVERED"}}
	e.Do(move).Expect(t, 409, "conflict")
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/cancellation-requests/%d/reject/", sid, req.ID), Token: e.OwnerToken, Body: map[string]any{"admin_note": "already shipped"}}).Expect(t, 200, "")
	e.Do(move).Expect(t, 200, "")
	if got := e.Order(sid, o.ID).Status; got != app.OrderDelivered {
		t.Fatalf("status: got %s, want DELIVERED", got)
	}
}
