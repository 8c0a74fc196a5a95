package admin_test

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

const (
	rqPathCancel   = "/api/v1/business/website/orders/cancel/"
	rqPathRefund   = "/api/v1/business/website/orders/refund/"
	rqPathRequests = "/api/v1/business/website/orders/%d/requests/"
)

// rqEnv is the request tests' testenv (testenv verifies every index after the test).
func rqEnv(t *testing.T) *testenv.Env {
	e := testenv.New(t)
	return e
}

func rqAdminPath(sid uint64, format string, args ...any) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d/", sid) + fmt.Sprintf(format, args...)
}

// rqFile files a request through the storefront and returns its id.
func rqFile(t *testing.T, e *testenv.Env, key, tok, path string, body map[string]any) uint64 {
	t.Helper()
	var got struct {
		ID uint64 `json:"id"`
	}
	e.Do(testenv.Req{Method: "POST", Path: path, Key: key, Token: tok, Body: body}).Expect(t, 200, "").Decode(t, &got)
	return got.ID
}

type rqAdminView struct {
	ID           uint64  `json:"id"`
	OrderID      uint64  `json:"order_id"`
	CustomerID   uint64  `json:"customer_id"`
	Status       string  `json:"status"`
	AdminNote    string  `json:"admin_note"`
	Amount       string  `json:"amount"`
	RefundMethod *string `json:"refund_method"`
	ReviewedAt   *string `json:"reviewed_at"`
}

func TestApproveCancellation(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	mug := e.Product(sid, 0, "Mug", 1000, 10)
	cup := e.Product(sid, 0, "Cup", 250, 5)
	other := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: mug, Qty: 1})
	o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: mug, Qty: 3}, testenv.Line{Product: cup, Qty: 2})
	if got := e.Stock(sid, mug.ID); got != 6 {
		t.Fatalf("mug stock %d after orders, want 6", got)
	}
	rid := rqFile(t, e, key, tok, rqPathCancel, map[string]any{"order_id": o.ID, "reason": "found it cheaper"})

	e.Advance(10 * time.Minute)
	r := e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/approve/", rid), Token: e.OwnerToken,
		Body: map[string]any{"admin_note": "Refund on its way"}}).Expect(t, 200, "")
	var got rqAdminView
	r.Decode(t, &got)
	if got.Status != "APPROVED" || got.AdminNote != "Refund on its way" || got.ReviewedAt == nil || *got.ReviewedAt != "2026-11-21T10:10:00Z" || got.OrderID != o.ID || got.CustomerID != cid {
		t.Fatalf("got %s", r.Raw)
	}

	s := e.Order(sid, o.ID)
	if s.Status != app.OrderCancelled || s.PaymentStatus != app.PaymentRefunded || s.RefundedAmount != s.Total {
		t.Fatalf("order %s/%s refunded %s of %s, want CANCELLED/REFUNDED in full", s.Status, s.PaymentStatus, s.RefundedAmount, s.Total)
	}
	if m, c := e.Stock(sid, mug.ID), e.Stock(sid, cup.ID); m != 9 || c != 5 {
		t.Fatalf("stock mug %d cup %d, want 9 and 5 (exactly the order's units back)", m, c)
	}
	if s := e.Order(sid, other.ID); s.Status != app.OrderConfirmed {
		t.Fatalf("other order %s, want untouched", s.Status)
	}

	// Decided once: approving again (a double submit) is answered as done and
	// changes nothing; rejecting now is a conflict.
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/approve/", rid), Token: e.OwnerToken}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/reject/", rid), Token: e.OwnerToken}).Expect(t, 409, "conflict")
	if m := e.Stock(sid, mug.ID); m != 9 {
		t.Fatalf("mug stock %d after a second approval, want 9", m)
	}

	// The shopper sees the decision and got one email.
	r = e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf(rqPathRequests, o.ID), Key: key, Token: tok}).Expect(t, 200, "")
	var lists struct {
		Cancellations []rqAdminView `json:"cancellation_requests"`
	}
	r.Decode(t, &lists)
	if len(lists.Cancellations) != 1 || lists.Cancellations[0].Status != "APPROVED" || lists.Cancellations[0].ReviewedAt == nil || lists.Cancellations[0].AdminNote != "Refund on its way" {
		t.Fatalf("got %s", r.Raw)
	}
	mails := e.Outbox(sid)
	if len(mails) != 1 || mails[0].To != "ann@example.com" || !strings.Contains(mails[0].Subject, "approved") || !strings.Contains(mails[0].Text, "Refund on its way") {
		t.Fatalf("got %d mails %+v, want one approval to ann@example.com", len(mails), mails)
	}
	// A cancelled order takes no new request.
	e.Do(testenv.Req{Method: "POST", Path: rqPathCancel, Key: key, Token: tok, Body: map[string]any{"order_id": o.ID, "reason": "x"}}).Expect(t, 409, "invalid_order_state")
}

func TestApproveCancellationUnpaid(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	mug := e.Product(sid, 0, "Mug", 1000, 4)
	o := e.PlaceOrder(sid, cid, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: mug, Qty: 4})
	rid := rqFile(t, e, key, tok, rqPathCancel, map[string]any{"order_id": o.ID, "reason": "oops"})
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/approve", rid), Token: e.OwnerToken}).Expect(t, 200, "")
	s := e.Order(sid, o.ID)
	if s.Status != app.OrderCancelled || s.PaymentStatus != app.PaymentUnpaid || s.RefundedAmount != 0 {
		t.Fatalf("order %s/%s refunded %s, want CANCELLED/UNPAID with nothing refunded", s.Status, s.PaymentStatus, s.RefundedAmount)
	}
	if n := e.Stock(sid, mug.ID); n != 4 {
		t.Fatalf("stock %d, want 4", n)
	}
	// The catalog shows the stock again at once.
	r := e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/mug/", Key: key}).Expect(t, 200, "")
	var p struct {
		Stock int64 `json:"stock"`
	}
	r.Decode(t, &p)
	if p.Stock != 4 {
		t.Fatalf("storefront stock %d, want 4", p.Stock)
	}
}

func TestApproveCancellationAfterStatusChange(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	mug := e.Product(sid, 0, "Mug", 1000, 4)
	o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: mug, Qty: 1})
	rid := rqFile(t, e, key, tok, rqPathCancel, map[string]any{"order_id": o.ID, "reason": "oops"})
	if err := rqMoveOrder(e, sid, o.ID, app.OrderDelivered); err != nil {
		t.Fatal(err)
	}
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/approve/", rid), Token: e.OwnerToken}).Expect(t, 409, "invalid_order_state")
	if n := e.Stock(sid, mug.ID); n != 3 {
		t.Fatalf("stock %d, want 3 (nothing released)", n)
	}
	// Still pending: the store rejects it instead.
	var got rqAdminView
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/reject/", rid), Token: e.OwnerToken,
		Body: map[string]any{"admin_note": "already delivered"}}).Expect(t, 200, "").Decode(t, &got)
	if got.Status != "REJECTED" || got.ReviewedAt == nil {
		t.Fatalf("got %+v, want REJECTED with reviewed_at", got)
	}
}

// rqMoveOrder is the store's hand move of an order (what the admin order PATCH
// does): one transaction that checks the move against the current status.
func rqMoveOrder(e *testenv.Env, sid, id uint64, to string) error {
	return e.DB.Update(func(tx app.Tx) error {
		o, err := tx.Order(sid, id)
		if err != nil {
			return err
		}
		if !app.CanAdminMove(o.Status, to) {
			return app.Errorf(app.EInvalidOrderState, "cannot move %s to %s", o.Status, to)
		}
		o.Status = to
		return tx.PutOrder(o)
	})
}

func TestApproveRacesStatusChange(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	mug := e.Product(sid, 0, "Mug", 1000, 100)
	for i := 0; i < 10; i++ {
		o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: mug, Qty: 2})
		rid := rqFile(t, e, key, tok, rqPathCancel, map[string]any{"order_id": o.ID, "reason": "race"})
		before := e.Stock(sid, mug.ID)
		var (
			wg       sync.WaitGroup
			approved int
			moveErr  error
		)
		wg.Add(2)
		go func() {
			defer wg.Done()
			approved = e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/approve/", rid), Token: e.OwnerToken}).Status
		}()
		go func() {
			defer wg.Done()
			moveErr = rqMoveOrder(e, sid, o.ID, app.OrderDelivered)
		}()
		wg.Wait()
		s := e.Order(sid, o.ID)
		after := e.Stock(sid, mug.ID)
		switch {
		case approved == 200 && moveErr != nil && app.ErrorCode(moveErr) == app.EInvalidOrderState:
			if s.Status != app.OrderCancelled || after != before+2 {
				t.Fatalf("round %d: approval won but order %s, stock %d -> %d", i, s.Status, before, after)
			}
		case approved == 409 && moveErr == nil:
			if s.Status != app.OrderDelivered || after != before {
				t.Fatalf("round %d: move won but order %s, stock %d -> %d", i, s.Status, before, after)
			}
		default:
			t.Fatalf("round %d: approve %d, move err %v: want exactly one winner", i, approved, moveErr)
		}
	}
}

func TestRefundPartialThenFull(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	mug := e.Product(sid, 0, "Mug", 5000, 10)
	o := e.PlaceOrder(sid, cid, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: mug, Qty: 2}) // 100.00

	rid := rqFile(t, e, key, tok, rqPathRefund, map[string]any{"order_id": o.ID, "reason": "one broke", "amount": "30.00"})
	var got rqAdminView
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "refund-requests/%d/approve/", rid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &got)
	if got.Status != "APPROVED" || got.RefundMethod == nil || *got.RefundMethod != "ORIGINAL_METHOD" || got.Amount != "30.00" {
		t.Fatalf("got %+v, want APPROVED 30.00 by ORIGINAL_METHOD", got)
	}
	if s := e.Order(sid, o.ID); s.PaymentStatus != app.PaymentPartiallyRefunded || s.RefundedAmount != 3000 {
		t.Fatalf("order %s refunded %s, want PARTIALLY_REFUNDED 30.00", s.PaymentStatus, s.RefundedAmount)
	}

	// What is left is 70.00: more is 400, omitted means 70.00.
	e.Do(testenv.Req{Method: "POST", Path: rqPathRefund, Key: key, Token: tok, Body: map[string]any{"order_id": o.ID, "reason": "x", "amount": 70.01}}).Expect(t, 400, "validation_failed")
	if err := rqMoveOrder(e, sid, o.ID, app.OrderCompleted); err != nil {
		t.Fatal(err)
	}
	rid2 := rqFile(t, e, key, tok, rqPathRefund, map[string]any{"order_id": o.ID, "reason": "the other broke too"})
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "refund-requests/%d/approve/", rid2), Token: e.OwnerToken,
		Body: map[string]any{"refund_method": "bogus"}}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "refund-requests/%d/approve/", rid2), Token: e.OwnerToken,
		Body: map[string]any{"refund_method": "STORE_CREDIT", "admin_note": "sorry"}}).Expect(t, 200, "").Decode(t, &got)
	if got.Amount != "70.00" || *got.RefundMethod != "STORE_CREDIT" {
		t.Fatalf("got %+v, want 70.00 by STORE_CREDIT", got)
	}
	s := e.Order(sid, o.ID)
	if s.PaymentStatus != app.PaymentRefunded || s.RefundedAmount != 10000 || s.Status != app.OrderCompleted {
		t.Fatalf("order %s/%s refunded %s, want COMPLETED/REFUNDED 100.00", s.Status, s.PaymentStatus, s.RefundedAmount)
	}
	e.Do(testenv.Req{Method: "POST", Path: rqPathRefund, Key: key, Token: tok, Body: map[string]any{"order_id": o.ID, "reason": "more"}}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "refund-requests/%d/approve/", rid2), Token: e.OwnerToken}).Expect(t, 200, "")
	if s := e.Order(sid, o.ID); s.RefundedAmount != 10000 {
		t.Fatalf("refunded %s after a second approval, want 100.00", s.RefundedAmount)
	}
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "refund-requests/%d/reject/", rid2), Token: e.OwnerToken}).Expect(t, 409, "conflict")

	if mails := e.Outbox(sid); len(mails) != 2 || !strings.Contains(mails[0].Text, "70.00") {
		t.Fatalf("got %d mails, want 2 with the last naming 70.00", len(mails))
	}
	r := e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf(rqPathRequests, o.ID), Key: key, Token: tok}).Expect(t, 200, "")
	var lists struct {
		Refunds []rqAdminView `json:"refund_requests"`
	}
	r.Decode(t, &lists)
	if len(lists.Refunds) != 2 || lists.Refunds[0].ID != rid2 || *lists.Refunds[0].RefundMethod != "STORE_CREDIT" || lists.Refunds[1].Amount != "30.00" {
		t.Fatalf("got %s, want both refunds newest first", r.Raw)
	}
}

func TestRejectThenNewRequest(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	mug := e.Product(sid, 0, "Mug", 1000, 10)
	open := e.PlaceOrder(sid, cid, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: mug, Qty: 1})
	done := e.PlaceOrder(sid, cid, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: mug, Qty: 1})
	for _, c := range []struct {
		kind, shopPath, adminList string
		order                     *app.Order
	}{
		{"cancellation", rqPathCancel, "cancellation-requests", open},
		{"refund", rqPathRefund, "refund-requests", done},
	} {
		t.Run(c.kind, func(t *testing.T) {
			body := map[string]any{"order_id": c.order.ID, "reason": "please"}
			rid := rqFile(t, e, key, tok, c.shopPath, body)
			e.Do(testenv.Req{Method: "POST", Path: c.shopPath, Key: key, Token: tok, Body: body}).Expect(t, 409, "conflict")
			e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "%s/%d/reject/", c.adminList, rid), Token: e.OwnerToken,
				Body: map[string]any{"admin_note": strings.Repeat("n", 1001)}}).Expect(t, 400, "validation_failed")
			var got rqAdminView
			e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "%s/%d/reject/", c.adminList, rid), Token: e.OwnerToken,
				Body: map[string]any{"admin_note": "not this time"}}).Expect(t, 200, "").Decode(t, &got)
			if got.Status != "REJECTED" || got.RefundMethod != nil {
				t.Fatalf("got %+v, want REJECTED without a refund method", got)
			}
			rid2 := rqFile(t, e, key, tok, c.shopPath, body)
			if rid2 != rid+1 {
				t.Fatalf("new request id %d, want %d", rid2, rid+1)
			}
		})
	}
	if s := e.Order(sid, open.ID); s.Status != app.OrderPending {
		t.Fatalf("rejected cancellation changed the order to %s", s.Status)
	}
	if s := e.Order(sid, done.ID); s.PaymentStatus != app.PaymentPaid || s.RefundedAmount != 0 {
		t.Fatalf("rejected refund changed the order to %s %s", s.PaymentStatus, s.RefundedAmount)
	}
	mails := e.Outbox(sid)
	if len(mails) != 2 || !strings.Contains(mails[0].Subject, "rejected") || !strings.Contains(mails[0].Text, "not this time") {
		t.Fatalf("got %d mails, want 2 rejections carrying the note", len(mails))
	}
}

func TestListRequests(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	cid, tok := e.Shopper(sid, "ann@example.com")
	mug := e.Product(sid, 0, "Mug", 1000, 100)
	var ids []uint64
	for i := 0; i < 7; i++ {
		o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: mug, Qty: 1})
		ids = append(ids, rqFile(t, e, key, tok, rqPathCancel, map[string]any{"order_id": o.ID, "reason": "list"}))
	}
	for _, id := range ids[:3] {
		e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/reject/", id), Token: e.OwnerToken}).Expect(t, 200, "")
	}
	walk := func(status string) []uint64 {
		t.Helper()
		var seen []uint64
		cursor := ""
		for {
			p := rqAdminPath(sid, "cancellation-requests/?limit=2&status=%s", status)
			if cursor != "" {
				p += "&cursor=" + url.QueryEscape(cursor)
			}
			var l struct {
				Items      []rqAdminView `json:"items"`
				NextCursor *string       `json:"next_cursor"`
				HasMore    bool          `json:"has_more"`
			}
			e.Do(testenv.Req{Method: "GET", Path: p, Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
			for _, it := range l.Items {
				if status != "" && it.Status != status {
					t.Fatalf("status filter %s returned a %s request", status, it.Status)
				}
				seen = append(seen, it.ID)
			}
			if !l.HasMore {
				return seen
			}
			cursor = *l.NextCursor
		}
	}
	if got := walk(""); fmt.Sprint(got) != "[7 6 5 4 3 2 1]" {
		t.Fatalf("all: got %v, want newest first", got)
	}
	if got := walk("PENDING"); fmt.Sprint(got) != "[7 6 5 4]" {
		t.Fatalf("PENDING: got %v", got)
	}
	if got := walk("REJECTED"); fmt.Sprint(got) != "[3 2 1]" {
		t.Fatalf("REJECTED: got %v", got)
	}
	e.Do(testenv.Req{Method: "GET", Path: rqAdminPath(sid, "cancellation-requests/?status=DONE"), Token: e.OwnerToken}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "GET", Path: rqAdminPath(sid, "cancellation-requests/?cursor=abc"), Token: e.OwnerToken}).Expect(t, 400, "validation_failed")
	var l struct {
		Items []rqAdminView `json:"items"`
	}
	e.Do(testenv.Req{Method: "GET", Path: rqAdminPath(sid, "refund-requests/"), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 0 {
		t.Fatalf("got %d refund requests, want 0", len(l.Items))
	}
	var one rqAdminView
	e.Do(testenv.Req{Method: "GET", Path: rqAdminPath(sid, "cancellation-requests/%d/", ids[4]), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &one)
	if one.ID != ids[4] || one.Status != "PENDING" {
		t.Fatalf("got %+v", one)
	}
	e.Do(testenv.Req{Method: "GET", Path: rqAdminPath(sid, "refund-requests/%d/", ids[4]), Token: e.OwnerToken}).Expect(t, 404, "not_found")
}

func TestRequestReviewAccess(t *testing.T) {
	t.Parallel()
	e := rqEnv(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	cid, tok := e.Shopper(sid, "ann@example.com")
	mug := e.Product(sid, 0, "Mug", 1000, 10)
	o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: mug, Qty: 1})
	rid := rqFile(t, e, key, tok, rqPathCancel, map[string]any{"order_id": o.ID, "reason": "x"})

	if _, err := e.Svc.Admins.Create(app.NewAdmin{Email: "staff-b@example.com", Password: "staff-password", Role: app.RoleStaff, StoreID: sidB}); err != nil {
		t.Fatal(err)
	}
	var login struct {
		AccessToken string `json:"access_token"`
	}
	e.Do(testenv.Req{Method: "POST", Path: "/api/v1/admin/auth/login/", Body: map[string]any{"email": "staff-b@example.com", "password": "staff-password"}}).
		Expect(t, 200, "").Decode(t, &login)

	for _, c := range []struct {
		name, token string
		sid         uint64
		status      int
		code        string
	}{
		{"ErrNoToken", "", sid, 401, "unauthorized"},
		{"ErrShopperToken", tok, sid, 401, "unauthorized"},
		{"ErrStaffOfAnotherStore", login.AccessToken, sid, 404, "not_found"},
		{"ErrUnknownStore", e.OwnerToken, 999, 404, "not_found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "GET", Path: rqAdminPath(c.sid, "cancellation-requests/"), Token: c.token}).Expect(t, c.status, c.code)
			e.Do(testenv.Req{Method: "GET", Path: rqAdminPath(c.sid, "cancellation-requests/%d/", rid), Token: c.token}).Expect(t, c.status, c.code)
			e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(c.sid, "cancellation-requests/%d/approve/", rid), Token: c.token}).Expect(t, c.status, c.code)
			e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(c.sid, "cancellation-requests/%d/reject/", rid), Token: c.token}).Expect(t, c.status, c.code)
		})
	}
	// Store B's paths with store A's request id.
	e.Do(testenv.Req{Method: "GET", Path: rqAdminPath(sidB, "cancellation-requests/%d/", rid), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sidB, "cancellation-requests/%d/approve/", rid), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sidB, "cancellation-requests/%d/reject/", rid), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	var l struct {
		Items []rqAdminView `json:"items"`
	}
	e.Do(testenv.Req{Method: "GET", Path: rqAdminPath(sidB, "cancellation-requests/"), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 0 {
		t.Fatalf("store B lists %d requests, want 0", len(l.Items))
	}
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/999/approve/"), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/abc/approve/"), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/approve/", rid), Token: e.OwnerToken, Body: "{"}).Expect(t, 400, "validation_failed")
	if s := e.Order(sid, o.ID); s.Status != app.OrderConfirmed {
		t.Fatalf("order %s, want untouched by refused calls", s.Status)
	}
	// Staff of the right store may not approve the cancellation of a paid
	// order (its money goes back: refunds are owners' and managers'); a
	// manager may.
	staff := e.Staff(sid, "staff-a@example.com")
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/approve/", rid), Token: staff}).Expect(t, 403, "forbidden")
	if s := e.Order(sid, o.ID); s.Status != app.OrderConfirmed {
		t.Fatalf("order %s, want untouched by staff's approval", s.Status)
	}
	manager := e.Admin(sid, "manager-a@example.com", app.RoleManager)
	e.Do(testenv.Req{Method: "POST", Path: rqAdminPath(sid, "cancellation-requests/%d/approve/", rid), Token: manager}).Expect(t, 200, "")
}
