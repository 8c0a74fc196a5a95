package web_test

import (
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestPaymentQuote: POST payment/quote/ prices lines as payment/initiate
// would (coupon, delivery fee), leaves unsellable lines out, and writes
// nothing; every error row and the missing key.
func TestPaymentQuote(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Acme")
	_, otherKey := e.Store("Bravo")
	p := e.Product(sid, 0, "Hammer", 1250, 5)
	code, typ, val := "SAVE10", app.CouponPercent, app.Money(1000)
	active := true
	if _, err := e.Svc.Coupons.Save(sid, 0, app.CouponInput{Code: &code, Type: &typ, Value: &val, IsActive: &active}); err != nil {
		t.Fatal(err)
	}
	var q struct {
		Items []struct {
			ProductID uint64 `json:"product_id"`
			Name      string `json:"name"`
			LineTotal string `json:"line_total"`
			Stock     int64  `json:"stock"`
		} `json:"items"`
		Dropped  int    `json:"dropped"`
		Subtotal string `json:"subtotal"`
		Discount string `json:"discount"`
		Total    string `json:"total"`
		Currency string `json:"currency"`
	}
	body := map[string]any{"items": []map[string]any{{"product_id": p.ID, "quantity": 2}, {"product_id": 999, "quantity": 1}},
		"coupon_code": "save10"}
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/quote/", Key: key, Body: body}).Expect(t, 200, "").Decode(t, &q)
	if len(q.Items) != 1 || q.Items[0].LineTotal != "25.00" || q.Items[0].Stock != 5 || q.Dropped != 1 ||
		q.Subtotal != "25.00" || q.Discount != "2.50" || q.Total != "22.50" || q.Currency != "USD" {
		t.Fatalf("quote %+v", q)
	}
	if got := e.Stock(sid, p.ID); got != 5 {
		t.Fatalf("stock %d after a quote, want 5", got)
	}
	for _, c := range []struct {
		name   string
		key    string
		body   any
		status int
		code   string
	}{
		{"ErrNoKey", "", body, 401, ""},
		{"ErrCoupon", key, map[string]any{"items": body["items"], "coupon_code": "NOPE"}, 400, "validation_failed"},
		{"ErrDeliveryFee", key, map[string]any{"items": body["items"], "delivery_fee": "9.99"}, 409, "price_changed"},
		{"ErrBody", key, "[1]", 400, "validation_failed"},
		// another store's key: its catalog has no such product
		{"OtherStore", otherKey, body, 200, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/quote/", Key: c.key, Body: c.body})
			if r.Status != c.status || (c.code != "" && r.Body.ErrorCode != c.code) {
				t.Fatalf("got %d %s, want %d %s: %s", r.Status, r.Body.ErrorCode, c.status, c.code, r.Raw)
			}
		})
	}
}
