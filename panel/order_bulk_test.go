package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// The orders list's selection (no JS: checkboxes in a form) prints invoices
// or packing slips on one page and exports the selection; the bulk-ship
// form takes a file or pasted rows and lists each row's result.
func TestPanelOrdersBulk(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 100)
	a := placeAs(e, sid, 0, app.OrderConfirmed, app.PaymentPaid, "zed@example.com", "Zed Zulu", "555 0101", p, 1)
	o2 := placeAs(e, sid, 0, app.OrderConfirmed, app.PaymentPaid, "amy@example.com", "Amy Adams", "555 0102", p, 2)
	b := owner(t, e)
	list := fmt.Sprintf("/admin/stores/%d/orders/", sid)
	b.get(list).expect(t, 200, `name="ids" value="`, `value="invoice"`, `id="bulk-ship"`)
	ids := url.Values{"ids": {fmt.Sprint(a.ID), fmt.Sprint(o2.ID)}}
	with := func(action string) url.Values {
		v := url.Values{"action": {action}}
		for k, vs := range ids {
			v[k] = vs
		}
		return v
	}
	pg := b.submit(list, list+"bulk/", with("invoice")).expect(t, 200, "Zed Zulu", "Amy Adams", "Print")
	if strings.Count(pg.Body, `class="sheet"`) != 2 {
		t.Fatal("not one invoice per selected order")
	}
	b.submit(list, list+"bulk/", with("packing")).expect(t, 200, "Packing slip")
	b.submit(list, list+"bulk/", with("export")).expect(t, 200, "Zed Zulu", "Amy Adams")
	b.submit(list, list+"bulk/", url.Values{"action": {"invoice"}}).expect(t, 400, "select at least one order")
	b.submit(list, list+"bulk/", with("burn")).expect(t, 400, "must be invoice, packing or export")
	b.submit(list, list+"bulk/", url.Values{"action": {"invoice"}, "ids": {"999999"}}).expect(t, 404)
	b.submit(list, list+"bulk-ship/", url.Values{"rows": {fmt.Sprintf("%d,UPS,1Z1\n999999,UPS,1Z2", a.ID)}}).
		expect(t, 200, "<b>1</b> shipped, <b>1</b> with an error", "no order #999999")
	b.submit(list, list+"bulk-ship/", url.Values{}).expect(t, 400, "choose a CSV file or paste the rows")
}
