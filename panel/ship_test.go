package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// The order page's Ship form (issue 28 point 1): a paid, confirmed order
// gets the form; shipping mails the shopper and the page then shows the
// fulfilment with the tracking link instead of the form.
func TestPanelShipOrder(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 100)
	o := placeAs(e, sid, 0, app.OrderConfirmed, app.PaymentPaid, "zed@example.com", "Zed Zulu", "555 0101", p, 1)
	pending := placeAs(e, sid, 0, app.OrderPending, app.PaymentUnpaid, "amy@example.com", "Amy", "555 0102", p, 1)
	b := owner(t, e)
	op := fmt.Sprintf("/admin/stores/%d/orders/%d/", sid, o.ID)

	b.get(op).expect(t, 200, `id="ship"`, "Ship and email the shopper", `>unfulfilled<`)
	if pg := b.get(fmt.Sprintf("/admin/stores/%d/orders/%d/", sid, pending.ID)); strings.Contains(pg.Body, `id="ship"`) {
		t.Fatal("an unpaid order offers the Ship form")
	}
	b.submit(op, op+"ship/", url.Values{"carrier": {"UPS"}}).expect(t, 400, "Tracking number", `value="UPS"`)
	b.submit(op, op+"ship/", url.Values{"carrier": {"UPS"}, "tracking_number": {"1Z"}, "tracking_url": {"ftp://x"}}).expect(t, 400, "must be an http(s) URL")
	b.submit(op, op+"ship/", url.Values{"carrier": {"UPS"}, "tracking_number": {"1Z999"}}).redirectsTo(t, op)
	pg := b.get(op).expect(t, 200, "shipped: the shopper is emailed the tracking link", `>shipped<`,
		`href="https://www.ups.com/track?tracknum=1Z999"`, "Save tracking")
	if strings.Contains(pg.Body, `id="ship"`) {
		t.Fatal("a shipped order still offers the Ship form")
	}
	b.submit(op, op+"ship/", url.Values{"carrier": {"UPS"}, "tracking_number": {"1Z999"}}).expect(t, 409, "was shipped on")
	var sent bool
	for _, m := range e.Outbox(sid) {
		sent = sent || m.Kind == app.MailOrderShipped && m.To == "zed@example.com" && strings.Contains(m.Text, "https://www.ups.com/track?tracknum=1Z999")
	}
	if !sent {
		t.Fatal("no shipped mail with the tracking link")
	}
}
