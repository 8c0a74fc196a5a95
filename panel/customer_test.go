package panel_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

func TestPanelCustomerDetail(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	mug := e.Product(sid, 0, "Mug <i>", 1250, 50)
	plate := e.Product(sid, 0, "Plate", 900, 50)
	cid, _ := e.Shopper(sid, "ann@example.com")
	other, _ := e.Shopper(sid, "bob@example.com")
	sh := app.Shopper{StoreID: sid, CustomerID: cid}
	o1 := e.PlaceOrder(sid, cid, app.OrderDelivered, "PAID", testenv.Line{Product: mug, Qty: 2})
	e.PlaceOrder(sid, other, app.OrderConfirmed, "PAID", testenv.Line{Product: plate, Qty: 1})
	e.PlaceOrder(sid, 0, app.OrderConfirmed, "PAID", testenv.Line{Product: plate, Qty: 1}) // a guest
	s := func(v string) *string { return &v }
	yes := true
	if _, err := e.Svc.Customers.CreateAddress(&sh, app.AddressInput{ReceiverName: s("Ann <b>Lee</b>"), Phone: s("+1 555"), AddressLine1: s("1 Main St"),
		City: s("Springfield"), PostalCode: s("12345"), IsDefault: &yes}); err != nil {
		t.Fatal(err)
	}
	tk, err := e.Svc.Tickets.Create(sh, app.TicketInput{Subject: "Where is my " + strings.Repeat("x", 180), Description: "Please help"})
	if err != nil {
		t.Fatal(err)
	}
	rating := 4.0
	if _, err := e.Svc.Reviews.Submit(sh, app.ReviewInput{ProductID: &mug.ID, Rating: &rating, Title: "Nice mug", Content: "Holds tea"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Reviews.Submit(sh, app.ReviewInput{Rating: &rating, Title: "Good shop", Content: "Fast"}); err != nil {
		t.Fatal(err)
	}
	b := owner(t, e)
	page := fmt.Sprintf("/admin/stores/%d/customers/%d/", sid, cid)
	p := b.get(page).expect(t, 200, "ann@example.com",
		fmt.Sprintf(`href="/admin/stores/%d/orders/%d/">#%d</a>`, sid, o1.ID, o1.ID), "25.00 USD", "delivered",
		"Ann &lt;b&gt;Lee&lt;/b&gt;", "Springfield", "badge ok\">default",
		fmt.Sprintf(`href="/admin/stores/%d/tickets/%s/">TKT-`, sid, tk.ID), "Where is my xxx",
		"Nice mug", "Mug &lt;i&gt;", "the store", "Good shop", "badge warn\">pending")
	if n := len(regexp.MustCompile(`/orders/[0-9]+/`).FindAllString(p.Body, -1)); n != 1 {
		t.Fatalf("another customer's or a guest's order is on the page: %s", p.Body)
	}
	// A customer with nothing yet.
	b.get(fmt.Sprintf("/admin/stores/%d/customers/%d/", sid, other)).expect(t, 200, "bob@example.com", "No saved addresses.", "No tickets.", "No reviews.")
	// Unknown, another store's, and staff of another store: the 404 page.
	b.get(fmt.Sprintf("/admin/stores/%d/customers/%d/", sid, 999)).expect(t, 404)
	b.get(fmt.Sprintf("/admin/stores/%d/customers/%d/", sidB, cid)).expect(t, 404)
	staff := newBrowser(t, e)
	e.Svc.Admins.Create(app.NewAdmin{Email: "b@example.com", Password: "staff-password", Role: app.RoleStaff, StoreID: sidB})
	staff.login("b@example.com", "staff-password")
	staff.get(page).expect(t, 404)
}

// TestPanelCustomerOrdersPaging: the customer page lists the customer's
// orders 20 at a time, newest first, with links to older pages and back to
// the newest; a cursor that does not decode, or of another customer, is a 400.
func TestPanelCustomerOrdersPaging(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	mug := e.Product(sid, 0, "Mug", 100, 1000)
	cid, _ := e.Shopper(sid, "ann@example.com")
	other, _ := e.Shopper(sid, "bob@example.com")
	e.PlaceOrder(sid, other, app.OrderConfirmed, "PAID", testenv.Line{Product: mug, Qty: 1})
	var ids []uint64
	for range 45 {
		ids = append(ids, e.PlaceOrder(sid, cid, app.OrderConfirmed, "PAID", testenv.Line{Product: mug, Qty: 1}).ID)
	}
	b := owner(t, e)
	page := fmt.Sprintf("/admin/stores/%d/customers/%d/", sid, cid)
	orderRE := regexp.MustCompile(`/orders/([0-9]+)/">#`)
	nextRE := regexp.MustCompile(`href="([^"]*\?orders=[^"]*)">Older orders`)
	var seen []string
	path := page
	for i, want := range []int{20, 20, 5} {
		p := b.get(path).expect(t, 200, "ann@example.com")
		var got []string
		for _, m := range orderRE.FindAllStringSubmatch(p.Body, -1) {
			got = append(got, m[1])
		}
		if len(got) != want {
			t.Fatalf("page %d: %d orders, want %d", i+1, len(got), want)
		}
		seen = append(seen, got...)
		if i > 0 && !strings.Contains(p.Body, `#orders">« Newest orders`) {
			t.Fatalf("page %d: no link back to the newest", i+1)
		}
		m := nextRE.FindStringSubmatch(p.Body)
		if i < 2 && m == nil || i == 2 && m != nil {
			t.Fatalf("page %d: next link %v", i+1, m)
		}
		if m != nil {
			path = strings.ReplaceAll(m[1], "&amp;", "&")
		}
	}
	var want []string
	for i := len(ids) - 1; i >= 0; i-- {
		want = append(want, fmt.Sprint(ids[i]))
	}
	if strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Fatalf("orders over the pages: got %v, want %v", seen, want)
	}
	if strings.Contains(b.get(page).Body, "Newest orders") {
		t.Fatal("the first page links to itself")
	}
	b.get(page+"?orders=garbage").expect(t, 400)
	// A cursor of Ann's list on Bob's page.
	cur := nextRE.FindStringSubmatch(b.get(page).Body)[1]
	_, q, _ := strings.Cut(strings.ReplaceAll(cur, "&amp;", "&"), "?")
	b.get(fmt.Sprintf("/admin/stores/%d/customers/%d/?%s", sid, other, strings.TrimSuffix(q, "#orders"))).expect(t, 400)
}
