package browser_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"storefront/app"
	"storefront/e2e/browser"
	"storefront/storage"
)

// The operations side of the panel (issue 11 points 1, 2, 6, 7) in a real
// browser: dashboard figures against the orders made, the order desk
// (search, CSV export, detail, notes, tracking, store cancel and refund,
// invoice, packing slip), request decisions with a double click, reviews,
// tickets and messages, the audit log and staff limits, with 300-character
// unbroken strings in the data and no console error. Every page's fit at
// both widths is the sweep's (sweep_test.go).

// longWord is a 300-character unbroken string (it must wrap, not widen
// pages); fields the API caps lower get long(prefix, cap).
func longWord(prefix string) string { return long(prefix, 300) }

type opsShop struct {
	srv           *browser.Server
	sid           uint64
	key           string
	shopperTok    string
	cid           uint64
	mug, low      uint64 // products: plenty of stock, low on stock
	paid1, paid2  uint64 // today, the shopper's: CONFIRMED and DELIVERED
	guestLong     uint64 // today, guest, long strings everywhere
	days3, days10 uint64 // paid 3 and 10 days ago
	pendingGuest  uint64 // today, unpaid
	shopperEmail  string
}

// storefront sends a storefront API request with the store key and the
// shopper's token and decodes data.
func (s *opsShop) storefront(t *testing.T, method, path string, body any, want int, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, s.srv.URL+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Service-Key", s.key)
	if s.shopperTok != "" {
		req.Header.Set("Authorization", "Bearer "+s.shopperTok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, resp.StatusCode, want, raw)
	}
	if out != nil {
		var env struct{ Data json.RawMessage }
		if err := json.Unmarshal(raw, &env); err != nil || json.Unmarshal(env.Data, out) != nil {
			t.Fatalf("%s %s: %s", method, path, raw)
		}
	}
}

// newOpsShop starts a server, makes a store, two products and a shopper
// through the APIs, stops it, writes orders straight into its database (at
// chosen days), and starts it again on the same data.
func newOpsShop(t *testing.T) *opsShop {
	s := &opsShop{shopperEmail: "ada@example.com"}
	first := browser.StartServer(t, browser.ServerOptions{})
	st := first.CreateStore(t, long("Shop", 100), "ops-shop")
	s.sid, s.key, s.srv = st.ID, st.APIKey, first
	tok := first.OwnerToken(t)
	var p struct{ ID uint64 }
	first.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", s.sid), tok, map[string]any{"name": "Mug", "price": "12.50", "stock": 100}, 201, &p)
	s.mug = p.ID
	first.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", s.sid), tok, map[string]any{"name": long("Lamp", 200), "price": "40.00", "stock": 2, "low_stock_threshold": 3}, 201, &p)
	s.low = p.ID
	var reg struct {
		AccessToken string              `json:"access_token"`
		Customer    struct{ ID uint64 } `json:"customer"`
	}
	s.storefront(t, "POST", "/api/v1/customer/auth/register/", map[string]any{"email": s.shopperEmail, "password": "correct horse",
		"password_confirm": "correct horse", "first_name": "Ada", "last_name": long("L", 100), "phone": "+15550100"}, 200, &reg)
	s.cid = reg.Customer.ID
	first.Stop()

	now := time.Now().UTC()
	db, err := storage.Open(first.DataDir+"/storefront.db", storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	place := func(cid uint64, status, pay string, qty int64, at time.Time, email, name, addr string) uint64 {
		o := &app.Order{StoreID: s.sid, CustomerID: cid, Status: status, PaymentStatus: pay, PaymentMethod: app.WalletA,
			ReceiverName: name, Phone: "+1 555 0100", Address: addr, Email: email, Currency: "USD",
			Items:     []app.OrderItem{{ProductID: s.mug, Name: "Mug", UnitPrice: 1250, Quantity: qty, LineTotal: 1250 * app.Money(qty)}},
			CreatedAt: at, UpdatedAt: at}
		o.Subtotal, o.Total = o.Items[0].LineTotal, o.Items[0].LineTotal
		if err := db.Update(func(tx app.Tx) error { return tx.CreateOrder(o) }); err != nil {
			t.Fatal(err)
		}
		return o.ID
	}
	today := now.Add(-time.Second)
	if app.StatsDay(today) != app.StatsDay(now) {
		today = now
	}
	s.paid1 = place(s.cid, app.OrderConfirmed, app.PaymentPaid, 2, today, s.shopperEmail, "Ada Lovelace", "1 Main St")                      // 25.00
	s.paid2 = place(s.cid, app.OrderDelivered, app.PaymentPaid, 1, today, s.shopperEmail, "Ada Lovelace", "1 Main St")                      // 12.50
	s.guestLong = place(0, app.OrderCompleted, app.PaymentPaid, 3, today, longWord("g")+"@example.com", longWord("Name"), longWord("Addr")) // 37.50
	s.days3 = place(s.cid, app.OrderCompleted, app.PaymentPaid, 1, now.AddDate(0, 0, -3), s.shopperEmail, "Ada Lovelace", "1 Main St")      // 12.50
	s.days10 = place(0, app.OrderCompleted, app.PaymentPaid, 4, now.AddDate(0, 0, -10), "bob@example.com", "Bob Stone", "2 High St")        // 50.00
	s.pendingGuest = place(0, app.OrderPending, app.PaymentUnpaid, 1, today, "carl@example.com", "Carl Mint", "3 Low St")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s.srv = browser.StartServer(t, browser.ServerOptions{DataDir: first.DataDir})
	s.storefront(t, "POST", "/api/v1/customer/auth/login/", map[string]any{"email": s.shopperEmail, "password": "correct horse"}, 200, &reg)
	s.shopperTok = reg.AccessToken
	return s
}

func (s *opsShop) path(rest string, args ...any) string {
	return fmt.Sprintf("/admin/stores/%d/", s.sid) + fmt.Sprintf(rest, args...)
}

// figure reads one figure of the dashboard: period 1, 7 or 30, key orders, revenue or aov.
func figure(p *browser.Page, days int, k string) string {
	return strings.TrimSpace(p.Text(fmt.Sprintf(`.figure[data-period="%d"] [data-k=%s]`, days, k)))
}

// clearField empties an input (chromedp's SetValue cannot tell "" from a failure).
func clearField(p *browser.Page, sel string) {
	p.T.Helper()
	if !browser.Eval[bool](p, fmt.Sprintf(`(function(){var e=document.querySelector(%q); if(!e) return false; e.value=""; return true})()`, sel)) {
		p.T.Fatalf("clear %s: no such element", sel)
	}
}

func wantText(t *testing.T, what, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Fatalf("%s: got %q, want it to contain %q", what, got, want)
	}
}

// shopperActivity makes the work of the desk through the storefront API:
// the shopper asks to cancel the confirmed order and to refund the delivered
// one, opens a ticket and reviews the mug; a visitor writes a message.
func (s *opsShop) shopperActivity(t *testing.T) {
	t.Helper()
	s.storefront(t, "POST", "/api/v1/business/website/orders/cancel/", map[string]any{"order_id": s.paid1, "reason": longWord("Wrong size")}, 200, nil)
	s.storefront(t, "POST", "/api/v1/business/website/orders/refund/", map[string]any{"order_id": s.paid2, "reason": "Broken"}, 200, nil)
	s.storefront(t, "POST", "/api/v1/business/website/tickets/", map[string]any{"subject": long("Where", 200), "description": longWord("Desc"),
		"category": "ORDER", "priority": "HIGH", "order_id": s.paid2}, 200, nil)
	s.storefront(t, "POST", "/api/v1/business/website/reviews/", map[string]any{"product_id": s.mug, "rating": 4, "title": long("T", 200), "content": longWord("C")}, 200, nil)
	tok := s.shopperTok
	s.shopperTok = ""
	s.storefront(t, "POST", "/api/v1/business/website/contact/", map[string]any{"name": long("Vis", 100), "email": "vis@example.com", "subject": long("S", 200), "message": longWord("M")}, 200, nil)
	s.shopperTok = tok
}

func TestPanelOpsBrowser(t *testing.T) {
	t.Parallel()
	s := newOpsShop(t)
	s.shopperActivity(t)

	p := browser.NewPage(t, s.srv)
	p.LoginOwner()

	// Dashboard: today 3 paid orders 75.00; 7 days 4 (87.50); 30 days 5 (137.50).
	p.Go(s.path(""))
	for _, f := range []struct {
		days            int
		orders, revenue string
	}{{1, "3", "75.00"}, {7, "4", "87.50"}, {30, "5", "137.50"}} {
		wantText(t, fmt.Sprintf("%d-day orders", f.days), figure(p, f.days, "orders"), f.orders)
		wantText(t, fmt.Sprintf("%d-day revenue", f.days), figure(p, f.days, "revenue"), f.revenue)
	}
	wantText(t, "today's average", figure(p, 1, "aov"), "25.00")
	if n := p.Count(`figure.chartbox svg`); n != 1 {
		t.Fatalf("dashboard chart: %d svg", n)
	}
	for k, want := range map[string]string{"cancellations": "1", "refunds": "1", "reviews": "1", "tickets": "1", "messages": "1", "low_stock": "1"} {
		wantText(t, "to-do "+k, p.Text(fmt.Sprintf(`.todo li[data-k=%s] .badge`, k)), want)
	}

	// Orders: all six, then a search by email, by phone digits and a status filter.
	p.Go(s.path("orders/"))
	wantText(t, "order count", p.Text(`#order-count`), "6 orders")
	p.Fill(`input[name=q]`, "ADA@example")
	p.Submit(`form.search button[type=submit]`)
	wantText(t, "search by email", p.Text(`#order-count`), "3 orders")
	clearField(p, `input[name=q]`)
	p.Fill(`select[name=status]`, app.OrderCompleted)
	p.Fill(`select[name=sort]`, app.OrderSortTotalDesc)
	p.Submit(`form.search button[type=submit]`)
	wantText(t, "completed orders", p.Text(`#order-count`), "3 orders")
	if first := p.Text(`table.cards tbody tr:first-child td[data-label=Order]`); first != fmt.Sprintf("#%d", s.days10) {
		t.Fatalf("biggest completed order first: got %s, want #%d", first, s.days10)
	}

	// The export link carries the filters; the CSV is parsed and checked.
	href := p.Attr(`a[download]`, "href")
	wantText(t, "export link", href, "status=COMPLETED")
	body, err := chromedp.Run(p.Context(), chromedp.Evaluate[string](fmt.Sprintf(`fetch(%q).then(r => r.ok ? r.text() : "HTTP " + r.status)`, href), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("export is not CSV: %v\n%s", err, body)
	}
	if len(recs) != 4 || recs[0][0] != "id" || recs[0][2] != "status" {
		t.Fatalf("export: %d lines, header %v; want the header and 3 orders", len(recs), recs[0])
	}
	var ids []string
	for _, r := range recs[1:] {
		if r[2] != app.OrderCompleted {
			t.Fatalf("export row of status %s", r[2])
		}
		ids = append(ids, r[0])
	}
	if want := []string{fmt.Sprint(s.days10), fmt.Sprint(s.guestLong), fmt.Sprint(s.days3)}; !slices.Equal(ids, want) {
		t.Fatalf("export order %v, want %v (total, biggest first)", ids, want)
	}

	// The long guest order's invoice (every page's fit: sweep_test.go).
	p.Go(s.path("orders/%d/invoice/", s.guestLong))
	wantText(t, "invoice", p.Text(`main`), "37.50")

	// Detail of a shopper's order: history, a note, tracking the shopper sees.
	p.Go(s.path("orders/%d/", s.days3))
	wantText(t, "history", p.Text(`#history`), fmt.Sprintf("#%d", s.paid1))
	p.Fill(`#note`, longWord("Called"))
	p.Submit(`#notes button[type=submit]`)
	wantText(t, "notes", p.Text(`#notes`), "Called")
	p.Fill(`input[name=tracking_number]`, "1Z999AA10123456784")
	p.Fill(`input[name=carrier]`, "UPS")
	p.Submit(`form[action$="/tracking/"] button[type=submit]`)
	var shopperView struct {
		TrackingNumber string `json:"tracking_number"`
		Carrier        string `json:"carrier"`
	}
	s.storefront(t, "GET", fmt.Sprintf("/api/v1/business/website/orders/%d/", s.days3), nil, 200, &shopperView)
	if shopperView.TrackingNumber != "1Z999AA10123456784" || shopperView.Carrier != "UPS" {
		t.Fatalf("the shopper sees %+v", shopperView)
	}

	// The store refunds 5.00 of it, behind a confirm page.
	p.Fill(`form[action$="/refund/"] input[name=amount]`, "5.00")
	p.Submit(`form[action$="/refund/"] button[type=submit]`)
	p.WaitVisible(`section.confirm`)
	p.CheckNoOverflow()
	p.Submit(`section.confirm button[type=submit]`)
	wantText(t, "refunded", p.Text(`main`), "PARTIALLY_REFUNDED")

	// The store cancels the unpaid guest order.
	p.Go(s.path("orders/%d/", s.pendingGuest))
	p.Submit(`form[action$="/cancel/"] button[type=submit]`)
	p.WaitVisible(`section.confirm`)
	p.Submit(`section.confirm button[type=submit]`)
	wantText(t, "cancelled", p.Text(`h1`), app.OrderCancelled)

	// Requests: a double click on Approve ends on the approved request, not a 409.
	p.Go(s.path("cancellations/"))
	p.Submit(`table a[href*="/cancellations/"]`)
	resp, err := chromedp.RunResponse(p.Context(), chromedp.DoubleClick(`form[action$="/approve/"] button[type=submit]`, chromedp.NodeVisible))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status >= 400 {
		t.Fatalf("double click on Approve: %d", resp.Status)
	}
	wantText(t, "approved", p.Text(`main`), app.RequestApproved)
	p.Go(s.path("refunds/"))
	p.Submit(`table a[href*="/refunds/"]`)
	p.Fill(`form[action$="/reject/"] textarea, form[action$="/reject/"] input[name=admin_note]`, "Not broken on the photo")
	p.Submit(`form[action$="/reject/"] button[type=submit]`)
	wantText(t, "rejected", p.Text(`main`), app.RequestRejected)

	// Reviews, tickets, messages.
	p.Go(s.path("reviews/"))
	p.Submit(`form[action$="/approve/"] button[type=submit]`)
	p.Go(s.path("tickets/"))
	p.Submit(`table a[href*="/tickets/"]`)
	p.Fill(`form[action$="/reply/"] textarea`, longWord("Reply"))
	p.Submit(`form[action$="/reply/"] button[type=submit]`)
	wantText(t, "ticket reply", p.Text(`main`), "Reply")
	p.Go(s.path("messages/"))
	p.Submit(`form[action$="/read/"] button[type=submit]`)

	// After the decisions: today's revenue lost the cancelled order (25.00
	// refunded), the 7 days also the 5.00; the to-do list is empty.
	p.Go(s.path(""))
	wantText(t, "today's revenue after", figure(p, 1, "revenue"), "50.00")
	wantText(t, "today's orders after", figure(p, 1, "orders"), "3")
	wantText(t, "7-day revenue after", figure(p, 7, "revenue"), "57.50")
	for _, k := range []string{"cancellations", "refunds", "reviews", "messages"} {
		wantText(t, "to-do "+k+" after", p.Text(fmt.Sprintf(`.todo li[data-k=%s] .badge`, k)), "0")
	}

	// The audit log shows what was done, by whom, through the panel.
	p.Go("/admin/audit/")
	log := p.Text(`main`)
	for _, want := range []string{"orders.refund", "orders.cancel", "cancellations.approve", "refunds.reject", "notes.create", "tracking.create",
		"reviews.approve", "tickets.reply", "messages.read", browser.OwnerEmail, "panel"} {
		wantText(t, "audit log", log, want)
	}
	p.Fill(`input[name=action]`, "orders.cancel")
	p.Submit(`form.search button[type=submit]`)
	if n := p.Count(`table.audit tbody tr`); n != 1 {
		t.Fatalf("audit filtered by orders.cancel: %d rows, want 1", n)
	}

	// Staff: runs the desk, cannot rotate the key, deactivate or see the audit log.
	s.srv.CreateStaff(t, "staff@example.com", "staff-password", s.sid)
	staff := browser.NewPage(t, s.srv)
	staff.Login("staff@example.com", "staff-password")
	staff.Go(s.path("orders/"))
	for _, path := range []string{s.path("rotate-key/"), s.path("active/"), "/admin/audit/", "/admin/users/"} {
		staff.GoStatus(path, 403)
	}
}
