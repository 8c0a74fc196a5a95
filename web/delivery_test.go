package web_test

import (
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// deliveryStore is a store whose options are standard (4.99, free from
// 50.00), express (14.99, US only) and pickup (no address), with a 10.00
// product.
func deliveryStore(t *testing.T, e *testenv.Env) (uint64, string, *app.Product) {
	t.Helper()
	sid, key := e.Store("Acme")
	if _, err := e.Svc.Stores.PatchConfig(sid, []byte(`{"delivery_options": [
		{"id": "standard", "name": "Standard", "fee": "4.99", "free_over": "50.00"},
		{"id": "express", "name": "Express", "fee": "14.99", "countries": ["us"]},
		{"id": "pickup", "name": "Pick up in store", "fee": "0.00", "needs_address": false}]}`)); err != nil {
		t.Fatal(err)
	}
	code, typ, val := "TEN", app.CouponFixed, app.Money(1000)
	active := true
	if _, err := e.Svc.Coupons.Save(sid, 0, app.CouponInput{Code: &code, Type: &typ, Value: &val, IsActive: &active}); err != nil {
		t.Fatal(err)
	}
	return sid, key, e.Product(sid, 0, "Lamp", 1000, 100)
}

// TestDeliveryRules: POST payment/quote/ applies the option named: free_over
// below, at and above the threshold (after the coupon), countries, and the
// fee sent checked against the rule; without an option the fee sent must be
// one an offered option charges for this cart.
func TestDeliveryRules(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	_, key, p := deliveryStore(t, e)
	for _, c := range []struct {
		name   string
		qty    int64
		extra  map[string]any
		status int
		code   string
		fee    string // the quote's delivery_fee, or the errors' value of field
		field  string
	}{
		{"BelowFreeOver", 4, map[string]any{"delivery_option": "standard"}, 200, "", "4.99", ""},
		{"AtFreeOver", 5, map[string]any{"delivery_option": "standard"}, 200, "", "0.00", ""},
		{"AboveFreeOver", 6, map[string]any{"delivery_option": "standard", "delivery_fee": "0.00"}, 200, "", "0.00", ""},
		{"CouponTakesItBelow", 5, map[string]any{"delivery_option": "standard", "coupon_code": "TEN"}, 200, "", "4.99", ""},
		{"NoOption: the first, by its rule", 5, nil, 200, "", "0.00", ""},
		{"ExpressInItsCountry", 1, map[string]any{"delivery_option": "express", "country": "us"}, 200, "", "14.99", ""},
		{"ErrFeeBeforeThreshold", 5, map[string]any{"delivery_option": "standard", "delivery_fee": "4.99"}, 409, "price_changed", "0.00", "delivery_fee"},
		{"ErrFeeNotChargedForThisCart", 5, map[string]any{"delivery_fee": "4.99"}, 409, "price_changed", "0.00, 14.99, 0.00", "delivery_fee"},
		{"ErrExpressElsewhere", 1, map[string]any{"delivery_option": "express", "country": "DE"}, 400, "validation_failed", "Express is not offered in DE", "delivery_option"},
		{"ErrUnknownOption", 1, map[string]any{"delivery_option": "drone"}, 400, "validation_failed", "unknown delivery option", "delivery_option"},
		{"ErrCountry", 1, map[string]any{"country": "USA"}, 400, "validation_failed", `must be an ISO 3166-1 alpha-2 code such as "US"`, "country"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := map[string]any{"items": []map[string]any{{"product_id": p.ID, "quantity": c.qty}}}
			for k, v := range c.extra {
				body[k] = v
			}
			r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/quote/", Key: key, Body: body}).Expect(t, c.status, c.code)
			if c.field != "" {
				if r.Body.Errors[c.field] != c.fee {
					t.Fatalf("errors[%s] = %q, want %q", c.field, r.Body.Errors[c.field], c.fee)
				}
				return
			}
			var q struct {
				DeliveryFee    string `json:"delivery_fee"`
				DeliveryOption string `json:"delivery_option"`
			}
			r.Decode(t, &q)
			if q.DeliveryFee != c.fee || q.DeliveryOption == "" {
				t.Fatalf("delivery_fee %s (%s), want %s", q.DeliveryFee, q.DeliveryOption, c.fee)
			}
		})
	}
}

// TestDeliveryPickup: initiation with a pickup option takes an empty
// address and says so on the order; another option, or none named, needs
// one; the fee is the option's rule.
func TestDeliveryPickup(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key, p := deliveryStore(t, e)
	body := func(option, address string, qty int64) map[string]any {
		b := order(qty, p)
		delete(b, "delivery_fee")
		b["address"] = address
		if option != "" {
			b["delivery_option"] = option
		}
		return b
	}
	for _, c := range []struct {
		name    string
		body    map[string]any
		status  int
		pickup  bool
		fee     app.Money
		address string
	}{
		{"PickupNoAddress", body("pickup", "", 1), 200, true, 0, ""},
		{"StandardAtThreshold", body("standard", "1 Main St", 5), 200, false, 0, "1 Main St"},
		{"StandardBelow", body("standard", "1 Main St", 1), 200, false, 499, "1 Main St"},
		{"ErrStandardNoAddress", body("standard", "", 1), 400, false, 0, ""},
		{"ErrNoOptionNoAddress", body("", "", 1), 400, false, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: c.body})
			if c.status != 200 {
				r.Expect(t, c.status, "validation_failed")
				if r.Body.Errors["address"] == "" {
					t.Fatalf("no address error: %s", r.Raw)
				}
				return
			}
			var out initiated
			r.Expect(t, 200, "").Decode(t, &out)
			o := e.Order(sid, out.OrderID)
			if o.Pickup != c.pickup || o.DeliveryFee != c.fee || o.Address != c.address || o.DeliveryOption != c.body["delivery_option"] {
				t.Fatalf("order %+v", o)
			}
		})
	}
}

// TestNoPaymentMethod: a live store whose methods are all the sandbox
// accepts none: every checkout is 409 no_payment_method, whatever else is
// wrong with it; the same store with test mode on takes the order.
func TestNoPaymentMethod(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Acme")
	p := e.Product(sid, 0, "Lamp", 1000, 5)
	if _, err := e.Svc.Stores.PatchConfig(sid, []byte(`{"payments_live": true}`)); err != nil {
		t.Fatal(err)
	}
	noMethod := order(1, p)
	delete(noMethod, "payment_method")
	noAddress := order(1, p)
	delete(noAddress, "address")
	for name, body := range map[string]map[string]any{"Sandbox": order(1, p), "NoMethod": noMethod, "NoAddress": noAddress} {
		t.Run(name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: body}).Expect(t, 409, "no_payment_method")
		})
	}
	if got := e.Stock(sid, p.ID); got != 5 {
		t.Fatalf("stock %d, want 5", got)
	}
	if _, err := e.Svc.Stores.PatchConfig(sid, []byte(`{"payments_live": false}`)); err != nil {
		t.Fatal(err)
	}
	initiate(t, e, key, "", order(1, p))
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: noAddress}).Expect(t, 400, "validation_failed")
}

// TestQuoteShortLine: a line over the stock left is flagged short and left
// out of the quote's totals; initiation refuses it (out_of_stock).
func TestQuoteShortLine(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Acme")
	lamp := e.Product(sid, 0, "Lamp", 1000, 2)
	mug := e.Product(sid, 0, "Mug", 500, 9)
	var q struct {
		Items []struct {
			Name  string `json:"name"`
			Short bool   `json:"short"`
		} `json:"items"`
		Subtotal string `json:"subtotal"`
	}
	items := []map[string]any{{"product_id": lamp.ID, "quantity": 3}, {"product_id": mug.ID, "quantity": 1}}
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/quote/", Key: key, Body: map[string]any{"items": items}}).Expect(t, 200, "").Decode(t, &q)
	if len(q.Items) != 2 || !q.Items[0].Short || q.Items[1].Short || q.Subtotal != "5.00" {
		t.Fatalf("quote %+v", q)
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(3, lamp)}).Expect(t, 409, "out_of_stock")
}
