package admin_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

func opsPath(sid uint64, rest string, args ...any) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d/", sid) + fmt.Sprintf(rest, args...)
}

func TestAdminOrderExport(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staff := e.Staff(sid, "staff@example.com")
	staffB := e.Staff(sidB, "staffb@example.com")
	p := e.Product(sid, 0, "Mug", 1250, 100)
	placeAs(e, sid, 0, app.OrderConfirmed, app.PaymentPaid, "zoe@example.com", "Zoë Quinn", "+44 20 7946 0958", p, 2)
	placeAs(e, sid, 0, app.OrderPending, app.PaymentUnpaid, "bob@example.com", "=HYPERLINK(\"x\")", "555-0101", p, 1)
	third := placeAs(e, sid, 0, app.OrderDelivered, app.PaymentPaid, "carl@example.com", "Carl, \"the\" buyer", "555 0102", p, 3)
	third.CreatedAt = third.CreatedAt.Add(48 * time.Hour) // placed two days later
	if err := e.DB.Update(func(tx app.Tx) error { return tx.PutOrder(third) }); err != nil {
		t.Fatal(err)
	}

	export := func(t *testing.T, tok, query string) [][]string {
		t.Helper()
		r := e.Do(testenv.Req{Method: "GET", Path: opsPath(sid, "orders/export/") + query, Token: tok}).Expect(t, 200, "")
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
			t.Fatalf("content type %q, want text/csv", ct)
		}
		if cd := r.Header.Get("Content-Disposition"); !strings.Contains(cd, "attachment") {
			t.Fatalf("content disposition %q, want an attachment", cd)
		}
		rows, err := csv.NewReader(bytes.NewReader(r.Raw)).ReadAll()
		if err != nil {
			t.Fatalf("CSV: %v: %s", err, r.Raw)
		}
		return rows
	}
	t.Run("OK", func(t *testing.T) {
		rows := export(t, e.OwnerToken, "")
		if len(rows) != 4 || rows[0][0] != "id" || rows[1][0] != fmt.Sprint(third.ID) {
			t.Fatalf("got %v, want the header and 3 orders newest first", rows)
		}
		if rows[1][7] != `Carl, "the" buyer` || rows[1][15] != "37.50" || rows[1][11] != "3" {
			t.Fatalf("got %v", rows[1])
		}
		if rows[2][7] != `'=HYPERLINK("x")` {
			t.Fatalf("name %q, want the formula defused", rows[2][7])
		}
	})
	t.Run("Filters", func(t *testing.T) {
		for _, tc := range []struct{ query, want string }{
			{"?q=zoe", "1"}, {"?q=ZOË", "1"}, {"?q=%2320207946", ""}, {"?q=7946", "1"}, {"?q=%232", "2"},
			{"?status=PENDING", "2"}, {"?payment_status=PAID&sort=total_desc", "3,1"},
			{"?payment_status=PAID&sort=oldest", "1,3"}, {"?from=2026-11-23", "3"}, {"?to=2026-11-21", "2,1"},
			{"?q=nobody", ""}, {"?status=all&payment_status=all", "3,2,1"},
		} {
			rows := export(t, e.OwnerToken, tc.query)
			var ids []string
			for _, r := range rows[1:] {
				ids = append(ids, r[0])
			}
			if got := strings.Join(ids, ","); got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.query, got, tc.want)
			}
		}
	})
	t.Run("Staff", func(t *testing.T) { export(t, staff, "?status=PENDING") })
	t.Run("TestColumn", func(t *testing.T) {
		rows := export(t, e.OwnerToken, "?q=zoe")
		if h := rows[0]; h[len(h)-5] != "test" || rows[1][len(h)-5] != "false" || h[len(h)-4] != "tax_total" || rows[1][len(h)-4] != "0.00" {
			t.Fatalf("got %v / %v, want a column test = false, then tax_total 0.00 (no rates)", h, rows[1])
		}
	})
	t.Run("Lines", func(t *testing.T) {
		rows := export(t, e.OwnerToken, "?lines=true&payment_status=PAID")
		h := rows[0]
		if len(rows) != 3 || h[len(h)-8] != "line_product_id" || h[len(h)-3] != "line_total" || h[len(h)-1] != "line_tax" {
			t.Fatalf("got %v, want the header with the line columns and one row per line", rows)
		}
		if r := rows[1]; r[0] != fmt.Sprint(third.ID) || r[len(r)-6] != "Mug" || r[len(r)-5] != "3" || r[len(r)-4] != "12.50" || r[len(r)-3] != "37.50" || r[len(r)-1] != "0.00" {
			t.Fatalf("line row %v", r)
		}
	})
	t.Run("BOM", func(t *testing.T) {
		r := e.Do(testenv.Req{Method: "GET", Path: opsPath(sid, "orders/export/?bom=1"), Token: e.OwnerToken}).Expect(t, 200, "")
		if !bytes.HasPrefix(r.Raw, []byte("\xEF\xBB\xBFid,")) {
			t.Fatalf("got %q..., want a UTF-8 BOM then the header", r.Raw[:min(10, len(r.Raw))])
		}
		r = e.Do(testenv.Req{Method: "GET", Path: opsPath(sid, "orders/export/"), Token: e.OwnerToken}).Expect(t, 200, "")
		if !bytes.HasPrefix(r.Raw, []byte("id,")) {
			t.Fatalf("without ?bom: got %q...", r.Raw[:min(10, len(r.Raw))])
		}
	})
	for _, tc := range []struct {
		name, tok, query string
		sid              uint64
		status           int
		code             string
	}{
		{"ErrNoCredentials", "", "", sid, 401, "unauthorized"},
		{"ErrOtherStoreStaff", staffB, "", sid, 404, "not_found"},
		{"ErrBadStatus", e.OwnerToken, "?status=LOST", sid, 400, "validation_failed"},
		{"ErrBadPaymentStatus", e.OwnerToken, "?payment_status=x", sid, 400, "validation_failed"},
		{"ErrBadSort", e.OwnerToken, "?sort=cheapest", sid, 400, "validation_failed"},
		{"ErrBadDate", e.OwnerToken, "?from=21.11.2026", sid, 400, "validation_failed"},
		{"ErrToBeforeFrom", e.OwnerToken, "?from=2026-11-22&to=2026-11-21", sid, 400, "validation_failed"},
		{"ErrLongQuery", e.OwnerToken, "?q=" + strings.Repeat("x", 201), sid, 400, "validation_failed"},
		{"ErrBadLines", e.OwnerToken, "?lines=maybe", sid, 400, "validation_failed"},
		{"ErrBadBOM", e.OwnerToken, "?bom=yes", sid, 400, "validation_failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "GET", Path: opsPath(tc.sid, "orders/export/") + tc.query, Token: tc.tok}).Expect(t, tc.status, tc.code)
		})
	}
	t.Run("OtherStoreEmpty", func(t *testing.T) {
		r := e.Do(testenv.Req{Method: "GET", Path: opsPath(sidB, "orders/export/"), Token: e.OwnerToken}).Expect(t, 200, "")
		if n := strings.Count(string(r.Raw), "\n"); n != 1 {
			t.Fatalf("store B export has %d lines, want the header only", n)
		}
	})
}

type opsOrder struct {
	ID             uint64 `json:"id"`
	Status         string `json:"status"`
	PaymentStatus  string `json:"payment_status"`
	RefundedAmount string `json:"refunded_amount"`
	TrackingNumber string `json:"tracking_number"`
	Carrier        string `json:"carrier"`
	Notes          []struct {
		Author string `json:"author"`
		Text   string `json:"text"`
	} `json:"notes"`
}

func TestAdminOrderTrackingAndNotes(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staff := e.Staff(sid, "staff@example.com")
	staffB := e.Staff(sidB, "staffb@example.com")
	cid, tok := e.Shopper(sid, "s@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 10)
	o := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})

	tracking := opsPath(sid, "orders/%d/tracking/", o.ID)
	notes := opsPath(sid, "orders/%d/notes/", o.ID)
	for _, tc := range []struct {
		name, method, path, tok string
		body                    any
		status                  int
		code                    string
	}{
		{"ErrNoCredentials", "PUT", tracking, "", map[string]any{"tracking_number": "1Z"}, 401, "unauthorized"},
		{"ErrOtherStoreStaff", "PUT", tracking, staffB, map[string]any{"tracking_number": "1Z"}, 404, "not_found"},
		{"ErrOtherStoreOrder", "PUT", opsPath(sidB, "orders/%d/tracking/", o.ID), e.OwnerToken, map[string]any{"tracking_number": "1Z"}, 404, "not_found"},
		{"ErrCarrierAlone", "PUT", tracking, e.OwnerToken, map[string]any{"carrier": "UPS"}, 400, "validation_failed"},
		{"ErrTooLong", "PUT", tracking, e.OwnerToken, map[string]any{"tracking_number": strings.Repeat("1", 101)}, 400, "validation_failed"},
		{"ErrBadJSON", "PUT", tracking, e.OwnerToken, "{", 400, "validation_failed"},
		{"Tracking", "PUT", tracking, staff, map[string]any{"tracking_number": " 1Z999 ", "carrier": "UPS"}, 200, ""},
		{"ErrNoteEmpty", "POST", notes, e.OwnerToken, map[string]any{"note": "  "}, 400, "validation_failed"},
		{"ErrNoteOtherStore", "POST", notes, staffB, map[string]any{"note": "x"}, 404, "not_found"},
		{"ErrNoteNoCredentials", "POST", notes, "", map[string]any{"note": "x"}, 401, "unauthorized"},
		{"ErrNoteUnknownOrder", "POST", opsPath(sid, "orders/999/notes/"), e.OwnerToken, map[string]any{"note": "x"}, 404, "not_found"},
		{"Note", "POST", notes, staff, map[string]any{"note": "Called the shopper"}, 201, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: tc.method, Path: tc.path, Token: tc.tok, Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}
	var got opsOrder
	e.Do(testenv.Req{Method: "GET", Path: opsPath(sid, "orders/%d/", o.ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &got)
	if got.TrackingNumber != "1Z999" || got.Carrier != "UPS" || len(got.Notes) != 1 || got.Notes[0].Author != "staff@example.com" {
		t.Fatalf("admin view %+v", got)
	}
	// The shopper sees the tracking, never the notes.
	r := e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/orders/%d/", sitePath, o.ID), Key: key, Token: tok}).Expect(t, 200, "")
	var shop map[string]any
	r.Decode(t, &shop)
	if shop["tracking_number"] != "1Z999" || shop["carrier"] != "UPS" {
		t.Fatalf("shopper view %s", r.Body.Data)
	}
	if _, has := shop["notes"]; has {
		t.Fatalf("the shopper sees internal notes: %s", r.Body.Data)
	}
	// Clearing.
	e.Do(testenv.Req{Method: "PUT", Path: tracking, Token: e.OwnerToken, Body: map[string]any{"tracking_number": ""}}).Expect(t, 200, "").Decode(t, &got)
	if got.TrackingNumber != "" || got.Carrier != "" {
		t.Fatalf("after clearing %+v", got)
	}
}

func TestAdminOrderCancelRefund(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staff := e.Staff(sid, "staff@example.com")
	manager := e.Admin(sid, "manager@example.com", app.RoleManager)
	staffB := e.Staff(sidB, "staffb@example.com")
	cid, tok := e.Shopper(sid, "s@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 10)
	paid := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 3})
	delivered := e.PlaceOrder(sid, cid, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: p, Qty: 2})
	pending := e.PlaceOrder(sid, 0, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: p, Qty: 1})
	if s := e.Stock(sid, p.ID); s != 4 {
		t.Fatalf("stock %d, want 4", s)
	}
	cancel := func(o *app.Order) string { return opsPath(sid, "orders/%d/cancel/", o.ID) }
	refund := func(o *app.Order) string { return opsPath(sid, "orders/%d/refund/", o.ID) }
	for _, tc := range []struct {
		name, path, tok string
		body            any
		status          int
		code            string
	}{
		{"ErrNoCredentials", cancel(paid), "", nil, 401, "unauthorized"},
		{"ErrOtherStoreStaff", cancel(paid), staffB, nil, 404, "not_found"},
		{"ErrOtherStoreOrder", opsPath(sidB, "orders/%d/cancel/", paid.ID), e.OwnerToken, nil, 404, "not_found"},
		{"ErrCancelDelivered", cancel(delivered), e.OwnerToken, nil, 409, "invalid_order_state"},
		{"ErrRefundUnpaid", refund(pending), e.OwnerToken, nil, 409, "invalid_order_state"},
		{"ErrRefundTooMuch", refund(delivered), e.OwnerToken, map[string]any{"amount": "20.01"}, 400, "validation_failed"},
		{"ErrRefundZero", refund(delivered), e.OwnerToken, map[string]any{"amount": 0}, 400, "validation_failed"},
		{"ErrBadMethod", refund(delivered), e.OwnerToken, map[string]any{"refund_method": "GOLD"}, 400, "validation_failed"},
		{"ErrBadJSON", refund(delivered), e.OwnerToken, "{", 400, "validation_failed"},
		{"ErrStaffCancelPaid", cancel(paid), staff, nil, 403, "forbidden"}, // its money would go back: staff may not refund
		{"ErrStaffRefund", refund(delivered), staff, nil, 403, "forbidden"},
		{"Cancel", cancel(paid), manager, map[string]any{"admin_note": "out of stock"}, 200, ""},
		{"ErrCancelAgain", cancel(paid), e.OwnerToken, nil, 409, "invalid_order_state"},
		{"CancelUnpaidGuest", cancel(pending), staff, nil, 200, ""}, // nothing to give back: staff may
		{"PartialRefund", refund(delivered), e.OwnerToken, map[string]any{"amount": "5.00", "refund_method": "STORE_CREDIT"}, 200, ""},
		{"RefundRest", refund(delivered), e.OwnerToken, nil, 200, ""},
		{"ErrNothingLeft", refund(delivered), e.OwnerToken, nil, 409, "invalid_order_state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: tc.path, Token: tc.tok, Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}
	if o := e.Order(sid, paid.ID); o.Status != app.OrderCancelled || o.PaymentStatus != app.PaymentRefunded || o.RefundedAmount != o.Total {
		t.Fatalf("cancelled order %s/%s refunded %s", o.Status, o.PaymentStatus, o.RefundedAmount)
	}
	if o := e.Order(sid, pending.ID); o.Status != app.OrderCancelled || o.PaymentStatus != app.PaymentUnpaid {
		t.Fatalf("cancelled unpaid order %s/%s", o.Status, o.PaymentStatus)
	}
	if o := e.Order(sid, delivered.ID); o.PaymentStatus != app.PaymentRefunded || o.RefundedAmount != 2000 || o.Status != app.OrderDelivered {
		t.Fatalf("refunded order %s/%s refunded %s", o.Status, o.PaymentStatus, o.RefundedAmount)
	}
	if s := e.Stock(sid, p.ID); s != 8 {
		t.Fatalf("stock %d, want 8 (3 + 1 given back, like an approved request)", s)
	}
	// The shopper sees the store's decisions as approved requests and was mailed.
	var reqs struct {
		Cancellations []struct{ Status, Reason string } `json:"cancellation_requests"`
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf(rqPathRequests, paid.ID), Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &reqs)
	if len(e.Outbox(sid)) < 3 {
		t.Fatalf("got %d mails, want one per decision", len(e.Outbox(sid)))
	}

	// A pending cancellation request of the shopper is the one approved.
	o2 := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	var filed struct {
		ID uint64 `json:"id"`
	}
	e.Do(testenv.Req{Method: "POST", Path: rqPathCancel, Key: key, Token: tok, Body: map[string]any{"order_id": o2.ID, "reason": "changed my mind"}}).Expect(t, 200, "").Decode(t, &filed)
	var res struct {
		Request struct {
			ID     uint64 `json:"id"`
			Status string `json:"status"`
		} `json:"request"`
	}
	e.Do(testenv.Req{Method: "POST", Path: cancel(o2), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &res)
	if res.Request.ID != filed.ID || res.Request.Status != app.RequestApproved {
		t.Fatalf("got request %+v, want the shopper's #%d approved", res.Request, filed.ID)
	}

	// A pending refund request of the shopper: a store refund of another
	// amount is refused (decide the shopper's first); one without an
	// amount approves the shopper's request, for its amount.
	o3 := e.PlaceOrder(sid, cid, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: p, Qty: 2})
	e.Do(testenv.Req{Method: "POST", Path: rqPathRefund, Key: key, Token: tok, Body: map[string]any{"order_id": o3.ID, "reason": "broken", "amount": "5.00"}}).Expect(t, 200, "").Decode(t, &filed)
	e.Do(testenv.Req{Method: "POST", Path: refund(o3), Token: e.OwnerToken, Body: map[string]any{"amount": "3.00"}}).Expect(t, 409, "conflict")
	e.Do(testenv.Req{Method: "POST", Path: refund(o3), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &res)
	if res.Request.ID != filed.ID || res.Request.Status != app.RequestApproved {
		t.Fatalf("got request %+v, want the shopper's #%d approved", res.Request, filed.ID)
	}
	if o := e.Order(sid, o3.ID); o.RefundedAmount != 500 || o.PaymentStatus != app.PaymentPartiallyRefunded {
		t.Fatalf("order after the shopper's refund: %s %s, want 5.00 PARTIALLY_REFUNDED", o.RefundedAmount, o.PaymentStatus)
	}
}

func placeAs(e *testenv.Env, sid, cid uint64, status, pay, email, name, phone string, p *app.Product, qty int64) *app.Order {
	return e.PlaceOrderAs(sid, cid, status, pay, email, name, phone, p, qty)
}
