package shop_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

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
