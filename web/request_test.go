package web_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

const (
	rqPathOrders   = "/api/v1/business/website/orders/"
	rqPathCancel   = "/api/v1/business/website/orders/cancel/"
	rqPathRefund   = "/api/v1/business/website/orders/refund/"
	rqPathRequests = "/api/v1/business/website/orders/%d/requests/"
)

// rqEnv is the request tests' testenv (testenv verifies every index after the test).
func rqEnv(t *testing.T) *testenv.Env {
	e := testenv.New(t)
	return e
}

// rqPayStatus is the payment status an order of a status has in real life.
func rqPayStatus(status string) string {
	if status == app.OrderPending {
		return app.PaymentUnpaid
	}
	return app.PaymentPaid
}

func TestRequestGatesByOrderStatus(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 100)
	statuses := []string{app.OrderPending, app.OrderConfirmed, app.OrderDelivered, app.OrderCompleted, app.OrderCancelled}
	ops := []struct {
		name    string
		method  string
		path    string
		body    func(orderID uint64) any
		allowed map[string]bool
	}{
		{"delivery", "PATCH", rqPathOrders, func(id uint64) any {
			return map[string]any{"order_id": id, "receiver_name": "Bo Chan", "phone": "+44 20 7946 0000", "address": "2 High St"}
		}, map[string]bool{app.OrderPending: true, app.OrderConfirmed: true}},
		{"cancel", "POST", rqPathCancel, func(id uint64) any {
			return map[string]any{"order_id": id, "reason": "changed my mind"}
		}, map[string]bool{app.OrderPending: true, app.OrderConfirmed: true}},
		{"refund", "POST", rqPathRefund, func(id uint64) any {
			return map[string]any{"order_id": id, "reason": "broken", "proof_files": []string{"https://img.example/1.jpg"}}
		}, map[string]bool{app.OrderDelivered: true, app.OrderCompleted: true}},
	}
	for _, op := range ops {
		for _, st := range statuses {
			t.Run(op.name+"/"+st, func(t *testing.T) {
				o := e.PlaceOrder(sid, cid, st, rqPayStatus(st), testenv.Line{Product: p, Qty: 1})
				r := e.Do(testenv.Req{Method: op.method, Path: op.path, Key: key, Token: tok, Body: op.body(o.ID)})
				if op.allowed[st] {
					r.Expect(t, 200, "")
				} else {
					r.Expect(t, 409, "invalid_order_state")
				}
			})
		}
	}
}

func TestUpdateDelivery(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 10)
	o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})

	t.Run("OK", func(t *testing.T) {
		r := e.Do(testenv.Req{Method: "PATCH", Path: rqPathOrders, Key: key, Token: tok,
			Body: map[string]any{"order_id": o.ID, "receiver_name": " Bo Chan ", "phone": "+44 20 7946 0000", "address": "2 High St"}}).Expect(t, 200, "")
		var got map[string]any
		r.Decode(t, &got)
		want := map[string]any{"id": float64(o.ID), "receiver_name": "Bo Chan", "phone": "+44 20 7946 0000", "address": "2 High St"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		if s := e.Order(sid, o.ID); s.ReceiverName != "Bo Chan" || s.Address != "2 High St" {
			t.Fatalf("stored %q %q, want the new details", s.ReceiverName, s.Address)
		}
	})
	t.Run("OKPartial", func(t *testing.T) {
		e.Do(testenv.Req{Method: "PATCH", Path: "/api/v1/business/website/orders", Key: key, Token: tok,
			Body: map[string]any{"order_id": o.ID, "address": "3 Low St"}}).Expect(t, 200, "")
		if s := e.Order(sid, o.ID); s.ReceiverName != "Bo Chan" || s.Address != "3 Low St" {
			t.Fatalf("stored %q %q, want only the address changed", s.ReceiverName, s.Address)
		}
	})
	for _, c := range []struct {
		name  string
		body  any
		field string
	}{
		{"ErrNoOrderID", map[string]any{"address": "x"}, "order_id"},
		{"ErrOrderIDType", map[string]any{"order_id": "one", "address": "x"}, "order_id"},
		{"ErrNothingToChange", map[string]any{"order_id": o.ID}, "body"},
		{"ErrBlankName", map[string]any{"order_id": o.ID, "receiver_name": "  "}, "receiver_name"},
		{"ErrBadPhone", map[string]any{"order_id": o.ID, "phone": "call me"}, "phone"},
		{"ErrLongAddress", map[string]any{"order_id": o.ID, "address": strings.Repeat("a", 501)}, "address"},
		{"ErrMalformed", "{", "body"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "PATCH", Path: rqPathOrders, Key: key, Token: tok, Body: c.body}).Expect(t, 400, "validation_failed")
			if _, ok := r.Body.Errors[c.field]; !ok {
				t.Fatalf("got errors %v, want one for %s", r.Body.Errors, c.field)
			}
		})
	}
}

func TestCancellationRequest(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 10)
	o := e.PlaceOrder(sid, cid, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: p, Qty: 2})

	e.Do(testenv.Req{Method: "POST", Path: rqPathCancel, Key: key, Token: tok, Body: map[string]any{"order_id": o.ID}}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "POST", Path: rqPathCancel, Key: key, Token: tok, Body: map[string]any{"order_id": o.ID, "reason": strings.Repeat("r", 1001)}}).Expect(t, 400, "validation_failed")

	r := e.Do(testenv.Req{Method: "POST", Path: rqPathCancel, Key: key, Token: tok, Body: map[string]any{"order_id": o.ID, "reason": "too slow"}}).Expect(t, 200, "")
	var got map[string]any
	r.Decode(t, &got)
	if got["id"] != float64(1) || got["order_id"] != float64(o.ID) || got["status"] != "PENDING" || got["reason"] != "too slow" || got["created_at"] != "2026-11-21T10:00:00Z" || len(got) != 5 {
		t.Fatalf("got %v", got)
	}
	e.Do(testenv.Req{Method: "POST", Path: rqPathCancel, Key: key, Token: tok, Body: map[string]any{"order_id": o.ID, "reason": "again"}}).Expect(t, 409, "conflict")

	// The order is untouched until the store decides.
	if s := e.Order(sid, o.ID); s.Status != app.OrderPending {
		t.Fatalf("order status %s, want PENDING", s.Status)
	}

	r = e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf(rqPathRequests, o.ID), Key: key, Token: tok}).Expect(t, 200, "")
	var lists struct {
		Cancellations []map[string]any `json:"cancellation_requests"`
		Refunds       []map[string]any `json:"refund_requests"`
	}
	r.Decode(t, &lists)
	if len(lists.Cancellations) != 1 || lists.Refunds == nil || len(lists.Refunds) != 0 {
		t.Fatalf("got %s, want one cancellation and an empty refund list", r.Raw)
	}
	c := lists.Cancellations[0]
	for _, f := range []string{"id", "status", "reason", "admin_note", "reviewed_at", "created_at"} {
		if _, ok := c[f]; !ok {
			t.Fatalf("cancellation request lacks %s: %v", f, c)
		}
	}
	if c["reviewed_at"] != nil || c["admin_note"] != "" || c["status"] != "PENDING" {
		t.Fatalf("got %v, want PENDING, no note, reviewed_at null", c)
	}
}

func TestRefundRequest(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	p := e.Product(sid, 0, "Mug", 2500, 10)
	o := e.PlaceOrder(sid, cid, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: p, Qty: 2}) // total 50.00
	body := func(kv ...any) map[string]any {
		m := map[string]any{"order_id": o.ID, "reason": "broken"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	files := make([]string, 11)
	for i := range files {
		files[i] = fmt.Sprintf("https://img.example/%d.jpg", i)
	}
	for _, c := range []struct {
		name  string
		body  any
		field string
	}{
		{"ErrOverRemaining", body("amount", "50.01"), "amount"},
		{"ErrZero", body("amount", 0), "amount"},
		{"ErrNegative", body("amount", "-1.00"), "amount"},
		{"ErrThreeDecimals", body("amount", 1.234), "amount"},
		{"ErrAmountType", body("amount", true), "amount"},
		{"ErrNoReason", map[string]any{"order_id": o.ID}, "reason"},
		{"ErrProofNotURL", body("proof_files", []string{"ftp://x.example/a"}), "proof_files"},
		{"ErrTooManyProofs", body("proof_files", files), "proof_files"},
		{"ErrProofType", body("proof_files", "https://img.example/1.jpg"), "proof_files"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: rqPathRefund, Key: key, Token: tok, Body: c.body}).Expect(t, 400, "validation_failed")
			if _, ok := r.Body.Errors[c.field]; !ok {
				t.Fatalf("got errors %v, want one for %s", r.Body.Errors, c.field)
			}
		})
	}

	t.Run("OKAmountOmittedIsEverything", func(t *testing.T) {
		r := e.Do(testenv.Req{Method: "POST", Path: rqPathRefund, Key: key, Token: tok,
			Body: body("proof_files", files[:10])}).Expect(t, 200, "")
		var got map[string]any
		r.Decode(t, &got)
		if got["amount"] != "50.00" || got["status"] != "PENDING" || got["order_id"] != float64(o.ID) || len(got["proof_files"].([]any)) != 10 || got["created_at"] != "2026-11-21T10:00:00Z" {
			t.Fatalf("got %v, want a PENDING refund of 50.00 with 10 proofs", got)
		}
	})
	t.Run("ErrSecondPending", func(t *testing.T) {
		e.Do(testenv.Req{Method: "POST", Path: rqPathRefund, Key: key, Token: tok, Body: body("amount", 1)}).Expect(t, 409, "conflict")
	})
	t.Run("OKAmountAsNumber", func(t *testing.T) {
		o2 := e.PlaceOrder(sid, cid, app.OrderCompleted, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
		r := e.Do(testenv.Req{Method: "POST", Path: rqPathRefund, Key: key, Token: tok,
			Body: map[string]any{"order_id": o2.ID, "reason": "late", "amount": 12.5}}).Expect(t, 200, "")
		var got map[string]any
		r.Decode(t, &got)
		if got["amount"] != "12.50" || got["id"] != float64(2) {
			t.Fatalf("got %v, want refund 2 of 12.50", got)
		}
		if pf, ok := got["proof_files"].([]any); !ok || len(pf) != 0 {
			t.Fatalf("proof_files %v, want []", got["proof_files"])
		}
	})
	t.Run("StatusShowsRefund", func(t *testing.T) {
		r := e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf(rqPathRequests, o.ID), Key: key, Token: tok}).Expect(t, 200, "")
		var lists struct {
			Refunds []map[string]any `json:"refund_requests"`
		}
		r.Decode(t, &lists)
		if len(lists.Refunds) != 1 {
			t.Fatalf("got %s", r.Raw)
		}
		f := lists.Refunds[0]
		for _, k := range []string{"id", "status", "reason", "amount", "admin_note", "refund_method", "reviewed_at", "created_at", "proof_files"} {
			if _, ok := f[k]; !ok {
				t.Fatalf("refund request lacks %s: %v", k, f)
			}
		}
		if f["refund_method"] != nil || f["reviewed_at"] != nil {
			t.Fatalf("got %v, want refund_method and reviewed_at null before review", f)
		}
	})
}

func TestRequestsAccess(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	_, otherTok := e.Shopper(sid, "bob@example.com")
	sidB, keyB := e.Store("Shop B")
	_, tokB := e.Shopper(sidB, "ann@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 20)
	open := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	done := e.PlaceOrder(sid, cid, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	guestOpen := e.PlaceOrder(sid, 0, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	guestDone := e.PlaceOrder(sid, 0, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})

	type call struct {
		name, method, path string
		body               any
	}
	calls := func(openID, doneID uint64) []call {
		return []call{
			{"delivery", "PATCH", rqPathOrders, map[string]any{"order_id": openID, "address": "9 Elm St"}},
			{"cancel", "POST", rqPathCancel, map[string]any{"order_id": openID, "reason": "x"}},
			{"refund", "POST", rqPathRefund, map[string]any{"order_id": doneID, "reason": "x"}},
			{"status", "GET", fmt.Sprintf(rqPathRequests, openID), nil},
		}
	}
	for _, c := range []struct {
		name       string
		key, token string
		open, done uint64
		status     int
		code       string
	}{
		{"ErrNoToken", key, "", open.ID, done.ID, 401, "unauthorized"},
		{"ErrBadToken", key, "garbage", open.ID, done.ID, 401, "unauthorized"},
		{"ErrNoKey", "", tok, open.ID, done.ID, 401, "invalid_api_key"},
		{"ErrTokenOfAnotherStore", key, tokB, open.ID, done.ID, 401, "unauthorized"},
		{"ErrOtherShopper", key, otherTok, open.ID, done.ID, 404, "not_found"},
		{"ErrStoreBKey", keyB, tokB, open.ID, done.ID, 404, "not_found"},
		{"ErrGuestOrder", key, tok, guestOpen.ID, guestDone.ID, 404, "not_found"},
		{"ErrUnknownOrder", key, tok, 9999, 9999, 404, "not_found"},
	} {
		for _, k := range calls(c.open, c.done) {
			t.Run(c.name+"/"+k.name, func(t *testing.T) {
				e.Do(testenv.Req{Method: k.method, Path: k.path, Key: c.key, Token: c.token, Body: k.body}).Expect(t, c.status, c.code)
			})
		}
	}
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/orders/abc/requests/", Key: key, Token: tok}).Expect(t, 404, "not_found")

	// Nothing above changed any order or filed any request.
	for _, o := range []*app.Order{open, done, guestOpen, guestDone} {
		if s := e.Order(sid, o.ID); s.Address != "1 Main St" {
			t.Fatalf("order %d address %q, want unchanged", o.ID, s.Address)
		}
	}
	if err := e.DB.View(func(tx app.Tx) error {
		for _, kind := range []string{app.KindCancellation, app.KindRefund} {
			pg, err := tx.Requests(sid, kind, "", app.ListParams{Limit: 10})
			if err != nil {
				return err
			}
			if len(pg.Items) != 0 {
				return fmt.Errorf("%d %s requests filed, want 0", len(pg.Items), kind)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// The owner still works.
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf(rqPathRequests, open.ID), Key: key, Token: tok}).Expect(t, 200, "")
}
