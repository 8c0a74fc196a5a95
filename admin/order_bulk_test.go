package admin_test

import (
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

type bulkShipAnswer struct {
	Shipped int              `json:"shipped"`
	Errors  int              `json:"errors"`
	Results []app.ShipResult `json:"results"`
}

// Issue 28 points 1 and 6: POST .../orders/bulk-ship/ ships many orders from
// CSV or JSON rows, each row reported (shipped, or error with why), never
// all or nothing; other stores' orders are errors, not shipped.
func TestAdminOrderBulkShip(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staffB := e.Staff(sidB, "staffb@example.com")
	cid, _ := e.Shopper(sid, "s@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 10)
	a := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	b := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	c := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	pending := e.PlaceOrder(sid, cid, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: p, Qty: 1})
	path := opsPath(sid, "orders/bulk-ship/")
	csvHdr := map[string]string{"Content-Type": "text/csv"}
	file := fmt.Sprintf("order_number,carrier,tracking_number,tracking_url\n%d,UPS,1Z1\n#%d,DHL,JD2,https://dhl.example/JD2\n%d,UPS,1Z3\n999999,UPS,1Z4\nnope,UPS,1\n%d,UPS\n%d,,1Z5\n",
		a.ID, b.ID, pending.ID, a.ID, c.ID)

	for _, tc := range []struct {
		name, tok string
		body      any
		header    map[string]string
		status    int
		code      string
	}{
		{"ErrNoCredentials", "", file, csvHdr, 401, "unauthorized"},
		{"ErrOtherStoreStaff", staffB, file, csvHdr, 404, "not_found"},
		{"ErrEmptyCSV", e.OwnerToken, "order_number,carrier,tracking_number\n", csvHdr, 400, "validation_failed"},
		{"ErrNotCSV", e.OwnerToken, "1,\"UPS,x\n", csvHdr, 400, "validation_failed"},
		{"ErrNoRows", e.OwnerToken, map[string]any{"rows": []any{}}, nil, 400, "validation_failed"},
		{"ErrBadJSON", e.OwnerToken, "{", nil, 400, "validation_failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: path, Token: tc.tok, Body: tc.body, Header: tc.header}).Expect(t, tc.status, tc.code)
		})
	}
	var got bulkShipAnswer
	// OffContract: the document's checker reads text/csv with a fixed
	// number of fields, and this file has a short row on purpose.
	e.Do(testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken, Body: file, Header: csvHdr, OffContract: true}).Expect(t, 200, "").Decode(t, &got)
	want := []string{"shipped", "shipped", "only a paid, confirmed order", "no order #999999", "must be an order number", "needs 3 or 4 columns", "carrier"}
	if got.Shipped != 2 || got.Errors != 5 || len(got.Results) != len(want) {
		t.Fatalf("results: %+v", got)
	}
	for i, w := range want {
		r := got.Results[i]
		if r.Row != i+1 || (w == "shipped") != (r.Status == "shipped") || (w != "shipped" && !strings.Contains(r.Error, w)) {
			t.Errorf("row %d: %+v, want %q", i+1, r, w)
		}
	}
	// JSON rows: a shipped order again is that row's error; c ships.
	e.Do(testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken, Body: map[string]any{"rows": []map[string]string{
		{"order_number": fmt.Sprint(a.ID), "carrier": "UPS", "tracking_number": "X"},
		{"order_number": fmt.Sprint(c.ID), "carrier": "UPS", "tracking_number": "1Z6"}}}}).Expect(t, 200, "").Decode(t, &got)
	if got.Shipped != 1 || got.Results[0].Status != "error" || !strings.Contains(got.Results[0].Error, "was shipped on") || got.Results[1].Status != "shipped" {
		t.Fatalf("json rows: %+v", got)
	}
	// Another store's order number is not found there.
	e.Do(testenv.Req{Method: "POST", Path: opsPath(sidB, "orders/bulk-ship/"), Token: e.OwnerToken, Body: map[string]any{"rows": []map[string]string{
		{"order_number": fmt.Sprint(b.ID), "carrier": "UPS", "tracking_number": "X"}}}}).Expect(t, 200, "").Decode(t, &got)
	if got.Shipped != 0 || !strings.Contains(got.Results[0].Error, "no order #") {
		t.Fatalf("other store: %+v", got)
	}
	// Export of a selection: exactly these orders.
	r := e.Do(testenv.Req{Method: "GET", Path: opsPath(sid, "orders/export/?ids=%d,%d", c.ID, a.ID), Token: e.OwnerToken})
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(r.Raw), "\uFEFF"))).ReadAll()
	if err != nil || len(recs) != 3 || recs[1][0] != fmt.Sprint(c.ID) || recs[2][0] != fmt.Sprint(a.ID) {
		t.Fatalf("export ids (%v): %v", err, recs)
	}
	e.Do(testenv.Req{Method: "GET", Path: opsPath(sid, "orders/export/?ids=x"), Token: e.OwnerToken}).Expect(t, 400, "validation_failed")
}
