package panel_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

func TestPanelDashboard(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1000, 100)
	rare := e.Product(sid, 0, "Rare", 500, 2)
	threshold := int64(5) // stock 2, threshold 5: low on stock
	if _, err := e.Svc.Catalog.SaveProduct(sid, rare.ID, app.ProductInput{LowStockThreshold: &threshold}); err != nil {
		t.Fatal(err)
	}
	e.Product(sid, 0, "Plenty", 500, 2) // no threshold: never low
	// Today: two paid orders (30.00 and 10.00), one unpaid about to expire.
	e.PlaceOrder(sid, 0, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 3})
	e.PlaceOrder(sid, 0, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	old := e.PlaceOrder(sid, 0, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: p, Qty: 1})
	old.CreatedAt = old.CreatedAt.Add(-25 * time.Minute)
	// Five days ago: one paid 20.00, later refunded 5.00.
	week := e.PlaceOrder(sid, 0, app.OrderDelivered, app.PaymentPartiallyRefunded, testenv.Line{Product: p, Qty: 2})
	week.CreatedAt, week.RefundedAmount = week.CreatedAt.AddDate(0, 0, -5), 500
	// Forty days ago: outside every period.
	ancient := e.PlaceOrder(sid, 0, app.OrderCompleted, app.PaymentPaid, testenv.Line{Product: p, Qty: 9})
	ancient.CreatedAt = ancient.CreatedAt.AddDate(0, 0, -40)
	if err := e.DB.Update(func(tx app.Tx) error {
		for _, o := range []*app.Order{old, week, ancient} {
			if err := tx.PutOrder(o); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	d, err := e.Svc.Orders.Dashboard(sid)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		orders       int64
		revenue, aov app.Money
	}{{2, 4000, 2000}, {3, 5500, 2000}, {3, 5500, 2000}}
	for i, w := range want {
		g := d.Periods[i]
		if g.Orders != w.orders || g.Revenue() != w.revenue || g.AverageOrder() != w.aov {
			t.Errorf("%s: got %d orders %s revenue %s average, want %d %s %s", g.Label, g.Orders, g.Revenue(), g.AverageOrder(), w.orders, w.revenue, w.aov)
		}
	}
	todo := map[string]int{}
	for _, x := range d.Todos {
		todo[x.Key] = x.Count
	}
	if todo["low_stock"] != 1 || todo["expiring"] != 1 || todo["cancellations"] != 0 {
		t.Errorf("to do %v, want 1 low on stock, 1 expiring", todo)
	}
	b := owner(t, e)
	home := fmt.Sprintf("/admin/stores/%d/", sid)
	pg := b.get(home).expect(t, 200, "Test mode", "40.00 USD", "55.00 USD", "<svg class=\"chart\"", "Products low on stock",
		"Unpaid orders about to expire", "refunded 5.00 USD of 60.00 USD")
	if strings.Contains(pg.Body, "style=") {
		t.Fatalf("inline style on the dashboard (the CSP forbids it)")
	}
	// Cancelling a paid order takes its money off the day at once.
	e.Do(testenv.Req{Method: "POST", Path: opsPath(sid, "orders/1/cancel/"), Token: e.OwnerToken}).Expect(t, 200, "")
	if d, _ := e.Svc.Orders.Dashboard(sid); d.Periods[0].Revenue() != 1000 || d.Periods[0].Orders != 2 {
		t.Fatalf("after a cancellation: today %d orders %s, want 2 and 10.00", d.Periods[0].Orders, d.Periods[0].Revenue())
	}
}

func TestPanelOrderDesk(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 1000, 500)
	long := strings.Repeat("x", 300)
	for i := 1; i <= 60; i++ {
		placeAs(e, sid, 0, app.OrderConfirmed, app.PaymentPaid, fmt.Sprintf("buyer%02d@example.com", i), "Buyer "+long, "555 01"+fmt.Sprintf("%02d", i), p, 1)
	}
	target := placeAs(e, sid, 0, app.OrderDelivered, app.PaymentPaid, "zed@example.com", "Zed Zulu", "+1 999 888 7777", p, 4)
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/orders/", sid)

	t.Run("List", func(t *testing.T) {
		pg := b.get(base).expect(t, 200, "<b>61</b> orders", "page 1 of 2", `data-label="Status"`, `data-label="Total"`, "Export CSV",
			`name="lines" value="true"`, `name="bom" value="true"`)
		if n := strings.Count(pg.Body, `data-label="Order"`); n != 50 {
			t.Fatalf("got %d rows, want 50", n)
		}
		pg = b.get(base+"?page=2").expect(t, 200, "page 2 of 2")
		if n := strings.Count(pg.Body, `data-label="Order"`); n != 11 {
			t.Fatalf("page 2 has %d rows, want 11", n)
		}
		b.get(base+"?page=0").expect(t, 400, "page")
		b.get(base+"?status=LOST").expect(t, 400, "status")
	})
	t.Run("Search", func(t *testing.T) {
		for _, q := range []string{"zed", "ZULU", "9998887777", fmt.Sprintf("%%23%d", target.ID)} {
			pg := b.get(base+"?q="+q).expect(t, 200, "<b>1</b> order", "Zed Zulu")
			if !strings.Contains(pg.Body, fmt.Sprintf(">#%d<", target.ID)) {
				t.Fatalf("?q=%s: order not listed", q)
			}
		}
		b.get(base+"?status=DELIVERED&sort=total_desc").expect(t, 200, "<b>1</b> order")
		b.get(base+"?from=2026-11-22").expect(t, 200, "<b>0</b> orders", "No orders match")
	})
	t.Run("Export", func(t *testing.T) {
		pg := b.get(base + "export/?payment_status=PAID&q=buyer0")
		if pg.Status != 200 || !strings.HasPrefix(pg.Header.Get("Content-Type"), "text/csv") {
			t.Fatalf("got %d %s", pg.Status, pg.Header.Get("Content-Type"))
		}
		rows, err := csv.NewReader(bytes.NewReader([]byte(pg.Body))).ReadAll()
		if err != nil || len(rows) != 10 {
			t.Fatalf("got %d rows (%v), want header + 9 (buyer01..09)", len(rows), err)
		}
	})
	t.Run("Detail", func(t *testing.T) {
		op := fmt.Sprintf("%s%d/", base, target.ID)
		b.get(op).expect(t, 200, "Invoice", "Packing slip", "Internal notes", "Save tracking", "Refund…", "No other guest orders")
		b.submit(op, op+"tracking/", url.Values{"tracking_number": {"1Z42"}, "carrier": {"UPS"}}).redirectsTo(t, op)
		b.submit(op, op+"tracking/", url.Values{"carrier": {"UPS"}}).expect(t, 400, "is required with a carrier")
		b.submit(op, op+"notes/", url.Values{"note": {"Fragile <b>glass</b> " + long}}).redirectsTo(t, op)
		b.get(op).expect(t, 200, `value="1Z42"`, "Fragile &lt;b&gt;glass&lt;/b&gt;", "owner@example.com")
		b.get(op+"packing-slip/").expect(t, 200, "Packing slip", "1Z42", "Zed Zulu")
		b.get(op+"invoice/").expect(t, 200, "Invoice", "$40.00", "Bill to")
		// Refund: the form leads to a confirm page; only confirming refunds.
		b.submit(op, op+"refund/", url.Values{"amount": {"15.00"}, "refund_method": {"CASH"}}).redirectsTo(t, op+"refund/?")
		if o := e.Order(sid, target.ID); o.RefundedAmount != 0 {
			t.Fatal("refunded before confirming")
		}
		conf := op + "refund/?amount=15.00&refund_method=CASH"
		b.get(conf).expect(t, 200, "Refund 15.00 USD on order", `name="amount" value="15.00"`)
		b.submit(conf, op+"refund/", url.Values{"amount": {"15.00"}, "refund_method": {"CASH"}, "confirm": {"yes"}}).redirectsTo(t, op)
		b.submit(conf, op+"refund/", url.Values{"amount": {"99.00"}, "confirm": {"yes"}}).expect(t, 400, "at most 25.00")
		// more than can be refunded, or no amount: the form says so at once,
		// never a confirm page that offers it (issue 38 point 8)
		for _, amount := range []string{"99.00", "0", "-1", "lots"} {
			p := b.submit(op, op+"refund/", url.Values{"amount": {amount}, "refund_method": {"CASH"}})
			if p.Status != 400 || strings.Contains(p.Body, "Refund "+amount+" USD on order") {
				t.Fatalf("refund %s before confirming: %d, want 400 on the order page: %s", amount, p.Status, p.Body)
			}
		}
		b.get(op+"refund/?amount=99.00").redirectsTo(t, fmt.Sprintf("/admin/stores/%d/", sid))
		if o := e.Order(sid, target.ID); o.RefundedAmount != 1500 || o.PaymentStatus != app.PaymentPartiallyRefunded {
			t.Fatalf("refunded %s (%s), want 15.00", o.RefundedAmount, o.PaymentStatus)
		}
		// Cancel a confirmed order (confirm page), stock comes back.
		first := fmt.Sprintf("%s1/", base)
		stock := e.Stock(sid, p.ID)
		b.submit(first, first+"cancel/", url.Values{}).redirectsTo(t, first+"cancel/")
		b.get(first+"cancel/").expect(t, 200, "Cancel order #1?", "refunded")
		b.submit(first+"cancel/", first+"cancel/", url.Values{"confirm": {"yes"}}).redirectsTo(t, first)
		if o := e.Order(sid, 1); o.Status != app.OrderCancelled || e.Stock(sid, p.ID) != stock+1 {
			t.Fatalf("order %s, stock %d, want CANCELLED and %d", o.Status, e.Stock(sid, p.ID), stock+1)
		}
		b.submit(first+"cancel/", first+"cancel/", url.Values{"confirm": {"yes"}}).expect(t, 409, "cannot be cancelled")
		// The other store's order and a missing one are not found.
		b.get(fmt.Sprintf("/admin/stores/%d/orders/%d/invoice/", sidB, target.ID)).expect(t, 404)
		b.get(base+"999/packing-slip/").expect(t, 404)
	})
	t.Run("History", func(t *testing.T) {
		cid, _ := e.Shopper(sid, "h@example.com")
		a := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
		bb := e.PlaceOrder(sid, cid, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: p, Qty: 1})
		pg := b.get(fmt.Sprintf("%s%d/", base, bb.ID)).expect(t, 200, "other orders")
		if !strings.Contains(pg.Body, fmt.Sprintf(`href="%s%d/">#%d<`, base, a.ID, a.ID)) {
			t.Fatalf("the shopper's other order #%d is not listed", a.ID)
		}
	})
	t.Run("Audit", func(t *testing.T) {
		pg := b.get("/admin/audit/").expect(t, 200, "orders.cancel", "orders.refund", "notes.create", "tracking.create", "panel")
		if strings.Contains(pg.Body, "orders.export") {
			t.Fatalf("a read was recorded")
		}
		b.get(fmt.Sprintf("/admin/audit/?store_id=%d&action=orders.cancel", sid)).expect(t, 200, "orders/1")
		b.get("/admin/audit/?from=nope").expect(t, 400)
		b.get("/admin/audit/?from=2026-01-02&to=2099-12-31").expect(t, 200, `name="from" value="2026-01-02"`, `name="to" value="2099-12-31"`)
	})
}

func TestPanelStaffLimits(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	e.Staff(sid, "staff@example.com")
	s := newBrowser(t, e)
	s.login("staff@example.com", "staff-password").redirectsTo(t, "/admin/")
	home := fmt.Sprintf("/admin/stores/%d/", sid)
	pg := s.get(home).expect(t, 200, "Only an owner may rotate")
	if strings.Contains(pg.Body, "rotate-key/") || strings.Contains(pg.Body, "Deactivate") || strings.Contains(pg.Body, "/admin/audit/") {
		t.Fatalf("staff see owner-only actions")
	}
	token := csrfRE.FindStringSubmatch(pg.Body)[1]
	s.get(home+"rotate-key/").expect(t, 403)
	s.get(home+"active/?active=false").expect(t, 403)
	s.do("POST", home+"rotate-key/", url.Values{"csrf": {token}, "confirm": {"yes"}}).expect(t, 403)
	s.do("POST", home+"active/", url.Values{"csrf": {token}, "active": {"false"}, "confirm": {"yes"}}).expect(t, 403)
	s.get("/admin/audit/").expect(t, 403)
	s.get("/admin/users/").expect(t, 403)
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/config/", Key: key}).Expect(t, 200, "")
	if st, _ := e.Svc.Stores.Get(sid); !st.IsActive {
		t.Fatal("staff deactivated the store")
	}
	// The refusals are in the audit log.
	o := owner(t, e)
	o.get("/admin/audit/").expect(t, 200, "stores.rotate-key", "stores.active", "refused", "staff@example.com")
}

func TestPanelSmallThings(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	b := owner(t, e)
	sid, _ := e.Store("Shop A")
	pg := b.get("/favicon.ico")
	if pg.Status != 200 || pg.Header.Get("Content-Type") != "image/x-icon" || len(pg.Body) < 100 {
		t.Fatalf("favicon: %d %s %d bytes", pg.Status, pg.Header.Get("Content-Type"), len(pg.Body))
	}
	home := b.get(fmt.Sprintf("/admin/stores/%d/", sid)).expect(t, 200, `class="skip" href="#main"`, `id="main"`,
		`<label for="config-json">`, `id="config-json"`, `rel="icon"`, `<script src="/admin/static/panel.`)
	if strings.Contains(home.Body, "<script>") {
		t.Fatal("inline script")
	}
	js := b.get(b.asset("panel.js"))
	if js.Status != 200 || !strings.HasPrefix(js.Header.Get("Content-Type"), "text/javascript") || !strings.Contains(js.Body, "disabled") {
		t.Fatalf("panel.js: %d %s", js.Status, js.Header.Get("Content-Type"))
	}
	css := b.get(b.asset("panel.css")).Body
	for _, want := range []string{"overflow-wrap: anywhere", "max-width: 600px", "@media print", ".skip"} {
		if !strings.Contains(css, want) {
			t.Errorf("panel.css lacks %q", want)
		}
	}
}

func TestPanelChangePassword(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	staffTok := e.Staff(sid, "staff@example.com")
	s := newBrowser(t, e)
	s.login("staff@example.com", "staff-password").redirectsTo(t, "/admin/")
	other := newBrowser(t, e)
	other.login("staff@example.com", "staff-password").redirectsTo(t, "/admin/")
	s.get("/admin/").expect(t, 200, `href="/admin/password/"`)
	s.get("/admin/password/").expect(t, 200, "Current password")
	s.submit("/admin/password/", "/admin/password/", url.Values{"old_password": {"wrong-password"}, "password": {"new-password-1"}, "password_confirm": {"new-password-1"}}).expect(t, 400, "is not the current password")
	s.submit("/admin/password/", "/admin/password/", url.Values{"old_password": {"staff-password"}, "password": {"new-password-1"}, "password_confirm": {"other"}}).expect(t, 400, "does not match")
	s.submit("/admin/password/", "/admin/password/", url.Values{"old_password": {"staff-password"}, "password": {"short"}, "password_confirm": {"short"}}).expect(t, 400, "at least 8")
	s.submit("/admin/password/", "/admin/password/", url.Values{"old_password": {"staff-password"}, "password": {"new-password-1"}, "password_confirm": {"new-password-1"}}).redirectsTo(t, "/admin/")
	// This browser stays in; the other session and the API token have ended.
	s.get("/admin/").expect(t, 200, "Password changed")
	other.get("/admin/").redirectsTo(t, "/admin/login/")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/me/", Token: staffTok}).Expect(t, 401, "unauthorized")
	newBrowser(t, e).login("staff@example.com", "new-password-1").redirectsTo(t, "/admin/")
	owner(t, e).get("/admin/audit/").expect(t, 200, "auth.password", "staff@example.com")
}

// The invoice and packing slip carry the seller block from the store's
// identity settings and a Print button run by panel.js (no inline script).
func TestPanelPrintSheets(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 100)
	o := placeAs(e, sid, 0, app.OrderConfirmed, app.PaymentPaid, "zed@example.com", "Zed Zulu", "555 0101", p, 1)
	b := owner(t, e)
	op := fmt.Sprintf("/admin/stores/%d/orders/%d/", sid, o.ID)
	// Without identity settings: the panel's store name, no empty lines.
	b.get(op+"invoice/").expect(t, 200, `<address class="seller right"><b>Shop A</b></address>`, `data-print`)
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/config/", sid), Token: e.OwnerToken,
		Body: `{"store":{"name":"Zulu <Goods>","address":"1 High St\nLeeds","email":"sales@zulu.example","phone":"+44 113 000"}}`}).Expect(t, 200, "")
	for _, sheet := range []string{"invoice/", "packing-slip/"} {
		pg := b.get(op+sheet).expect(t, 200, "<b>Zulu &lt;Goods&gt;</b>", "1 High St\nLeeds", "sales@zulu.example", "44 113 000",
			`<button type="button" class="primary print-button" data-print>Print</button>`)
		if strings.Contains(pg.Body, "<script>") || strings.Contains(pg.Body, "onclick") {
			t.Fatalf("%s: inline script", sheet)
		}
	}
	js := b.get(b.asset("panel.js")).Body
	for _, want := range []string{"window.print()", "[data-print]", ".flash[tabindex]"} {
		if !strings.Contains(js, want) {
			t.Errorf("panel.js lacks %q", want)
		}
	}
}

// TestDashboardTestModeOnlyWhenTesting: the overview's "Test mode" banner
// shows only for a store that takes test payments. A live store (new
// stores outside the demo) has no banner; turning test mode on brings it.
// It showed on every store before (the check answered true).
func TestDashboardTestModeOnlyWhenTesting(t *testing.T) {
	t.Parallel()
	e := testenv.NewWith(t, testenv.Options{App: app.Options{NewStoresLive: true}})
	sid, _ := e.Store("Real Shop")
	b := owner(t, e)
	home := fmt.Sprintf("/admin/stores/%d/", sid)
	if pg := b.get(home).expect(t, 200, "Sales"); strings.Contains(pg.Body, "Test mode.") {
		t.Fatal("a live store's overview says Test mode")
	}
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/payments/", sid), Token: e.OwnerToken,
		Body: map[string]any{"payments_live": false}}).Expect(t, 200, "")
	b.get(home).expect(t, 200, "Test mode.")
}
