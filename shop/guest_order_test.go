package shop_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/shop"
)

// TestGuestOrderPage: the thank-you page of a guest's order links to the
// order's own signed page, which any browser with the link opens (status,
// lines, totals, where it goes, tracking once shipped); a changed, foreign
// or malformed token is the 404 page, and the link of store A's order is
// nothing on store B.
func TestGuestOrderPage(t *testing.T) {
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 2)
	co := b.get("/checkout/").expect(t, 200)
	p := b.do("POST", "/checkout/", checkoutForm(co.Body, app.WalletA))
	conf := pay(t, b, p.Location, app.OutcomeSuccess).expect(t, 200, "Follow your order on its own page")
	m := regexp.MustCompile(`href="(/orders/[0-9]+-[A-Za-z0-9_-]{22}/)"`).FindStringSubmatch(conf.Body)
	if m == nil {
		t.Fatalf("no order link on the thank-you page:\n%s", conf.Body)
	}
	link := m[1]
	id := orderIDOf(t, conf.Body)
	other := newBrowser(t, e, s.host) // no cookie: the link alone
	other.get(link).expect(t, 200, "Order #", "Acme Hammer", "$25.00", "Ann Lee", "1 Main St", "Confirmed", `<meta name="robots" content="noindex">`)

	o := e.Order(s.id, id)
	o.TrackingNumber, o.Carrier = "TRK123", "PostCo"
	if err := e.DB.Update(func(tx app.Tx) error { return tx.PutOrder(o) }); err != nil {
		t.Fatal(err)
	}
	other.get(link).expect(t, 200, "PostCo TRK123")

	token := strings.TrimSuffix(strings.TrimPrefix(link, "/orders/"), "/")
	i := strings.Index(token, "-") + 1
	flip := "A"
	if token[i] == 'A' {
		flip = "B"
	}
	for _, bad := range []string{
		token[:i] + flip + token[i+1:], // a changed signature
		"1" + token,                    // another order id, the same signature
		"x-" + token, "123", "",
	} {
		other.get("/orders/"+bad+"/").expect(t, 404)
	}
	bravo := newCartStore(t, e, "Bravo")
	newBrowser(t, e, bravo.host).get(link).expect(t, 404)

	// the link's page has the forms a signed-in shopper's has: a new
	// address, then a cancellation request (the order is confirmed)
	other.get(link).expect(t, 200, "Request cancellation", `action="`+link[:len(link)-1]+`/cancel"`)
	other.post(link, link+"delivery", url.Values{"receiver_name": {"Bo Lee"}, "phone": {"+1 555 0100"}, "address": {"2 Side St"}}).expect(t, 303)
	other.post(link, link+"cancel", url.Values{"reason": {""}}).expect(t, 400, "Request cancellation")
	other.do("POST", link+"cancel", url.Values{"reason": {"no csrf"}}).expect(t, 403)
	other.post(link, "/orders/"+token[:i]+flip+token[i+1:]+"/cancel", url.Values{"reason": {"forged"}}).expect(t, 404)
	other.post(link, link+"cancel", url.Values{"reason": {"Ordered twice"}}).expect(t, 303)
	other.get(link+"?m=cancel").expect(t, 200, "Cancellation", "Waiting for the shop", "Bo Lee", "2 Side St").lacks(t, "Request cancellation")
	if o := e.Order(s.id, id); o.ReceiverName != "Bo Lee" {
		t.Fatalf("receiver %q after the link's delivery form", o.ReceiverName)
	}
	// the link's shopper reaches that order only
	if _, err := e.Svc.Requests.RequestCancellation(app.Shopper{StoreID: s.id, LinkedOrder: id}, app.CancellationInput{OrderID: id + 1, Reason: "x"}); !app.IsNotFound(err) {
		t.Fatalf("another order by the link's shopper: %v, want not_found", err)
	}
	// a refund asked on a confirmed order: the state's message
	other.post(link, link+"refund", url.Values{"reason": {"broken"}}).expect(t, 409)
}

// TestOrderMailsLinkOrderPage: every mail to the shopper about an order
// (confirmation, shipped, the decision on a request, delivered, cancelled
// by the store) carries the order's own page as an absolute address in the
// store's shop, in its text and HTML; the link opens the order in a browser
// without the buyer's cookie. The owner's mail of the same order has none.
func TestOrderMailsLinkOrderPage(t *testing.T) {
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	if _, err := e.Svc.Stores.SetSettings(s.id, app.StoreSettingsInput{NotificationEmails: &[]string{"owner@example.com"}}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 1)
	co := b.get("/checkout/").expect(t, 200)
	p := b.do("POST", "/checkout/", checkoutForm(co.Body, app.WalletA))
	conf := pay(t, b, p.Location, app.OutcomeSuccess).expect(t, 200)
	id := orderIDOf(t, conf.Body)
	link := regexp.MustCompile(`href="(/orders/[0-9]+-[A-Za-z0-9_-]{22}/)"`).FindStringSubmatch(conf.Body)[1]
	want := "http://" + s.host + link

	if _, err := e.Svc.Orders.Ship(s.id, id, app.ShipInput{Carrier: "PostCo", TrackingNumber: "TRK9"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Orders.Move(s.id, id, app.OrderDelivered, nil); err != nil {
		t.Fatal(err)
	}
	other := newBrowser(t, e, s.host)
	other.post(link, link+"refund", url.Values{"reason": {"broken"}}).expect(t, 303)
	_, refunds, err := e.Svc.Requests.OrderRequests(app.Shopper{StoreID: s.id, LinkedOrder: id}, id)
	if err != nil || len(refunds) != 1 {
		t.Fatalf("refund requests %v, %v", refunds, err)
	}
	if _, err := e.Svc.Requests.Decide(s.id, "refund", refunds[0].ID, 0, false, app.DecisionInput{AdminNote: "Not broken"}); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, m := range e.Outbox(s.id) {
		has := strings.Contains(m.Text, "See your order and its status: "+want) && strings.Contains(m.HTML, `href="`+want+`"`)
		if strings.HasPrefix(m.Kind, "owner_") {
			if strings.Contains(m.Text+m.HTML, "/orders/") {
				t.Fatalf("owner mail %s links the shopper's page:\n%s", m.Kind, m.Text)
			}
			got[m.Kind] = true
			continue
		}
		if !has {
			t.Fatalf("%s to %s without the order's link %s:\n%s\n%s", m.Kind, m.To, want, m.Text, m.HTML)
		}
		got[m.Kind] = true
	}
	for _, k := range []string{app.MailOrderConfirmation, app.MailOrderShipped, app.MailOrderDelivered, app.MailRequestDecided, app.MailOwnerOrderPaid} {
		if !got[k] {
			t.Fatalf("no %s mail: %v", k, got)
		}
	}
	other.get(strings.TrimPrefix(want, "http://"+s.host)).expect(t, 200, "Order #", "PostCo TRK9", "Ann Lee", "Not broken")
	newBrowser(t, e, newCartStore(t, e, "Bravo").host).get(link).expect(t, 404)
}

// TestOrderLinkOfExpiredOrder: an order left unpaid past its time is
// cancelled, and the mail that says so links the order's page, which still
// opens (the link does not expire) and shows it cancelled, with no request
// to make.
func TestOrderLinkOfExpiredOrder(t *testing.T) {
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 1)
	co := b.get("/checkout/").expect(t, 200)
	if p := b.do("POST", "/checkout/", checkoutForm(co.Body, app.WalletA)); p.Status != 303 {
		t.Fatalf("checkout: %d", p.Status)
	}
	e.Advance(e.Svc.Opt.PendingTTL + time.Minute)
	if n, err := e.Svc.Orders.ExpirePending(); n != 1 || err != nil {
		t.Fatalf("expired %d, %v", n, err)
	}
	link := ""
	for _, m := range e.Outbox(s.id) {
		if m.Kind == app.MailOrderCancelled {
			_, rest, _ := strings.Cut(m.Text, "See your order and its status: http://"+s.host)
			link, _, _ = strings.Cut(rest, "\n")
		}
	}
	if !strings.HasPrefix(link, "/orders/") {
		t.Fatalf("no order link in the cancellation mail: %q", link)
	}
	newBrowser(t, e, s.host).get(link).expect(t, 200, "Order #", "Cancelled", "Acme Hammer").lacks(t, "Request cancellation", "Request a refund", "Ask for a refund")
}
