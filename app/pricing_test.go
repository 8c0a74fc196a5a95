package app

import (
	"fmt"
	"testing"
	"time"
)

var pt0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func money(m Money) *Money { return &m }

func TestDealPrice(t *testing.T) {
	deal := func(variant uint64, price Money, from, to time.Duration) *FlashDeal {
		return &FlashDeal{VariantID: variant, DealPrice: price, StartsAt: pt0.Add(from), EndsAt: pt0.Add(to)}
	}
	for _, c := range []struct {
		name    string
		variant uint64
		deals   []*FlashDeal
		want    Money
	}{
		{"no deals", 0, nil, 1000},
		{"running deal", 0, []*FlashDeal{deal(0, 700, -time.Hour, time.Hour)}, 700},
		{"lowest of two", 0, []*FlashDeal{deal(0, 700, -time.Hour, time.Hour), deal(0, 600, -time.Hour, time.Hour)}, 600},
		{"not started", 0, []*FlashDeal{deal(0, 700, time.Second, time.Hour)}, 1000},
		{"starts now", 0, []*FlashDeal{deal(0, 700, 0, time.Hour)}, 700},
		{"ended now", 0, []*FlashDeal{deal(0, 700, -time.Hour, 0)}, 1000},
		{"deal above price", 0, []*FlashDeal{deal(0, 1200, -time.Hour, time.Hour)}, 1000},
		{"other variant", 2, []*FlashDeal{deal(3, 500, -time.Hour, time.Hour)}, 1000},
		{"this variant", 3, []*FlashDeal{deal(3, 500, -time.Hour, time.Hour)}, 500},
		{"whole product covers variants", 3, []*FlashDeal{deal(0, 500, -time.Hour, time.Hour)}, 500},
	} {
		if got := DealPrice(1000, c.variant, c.deals, pt0); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
}

func TestLineOf(t *testing.T) {
	p := &Product{ID: 4, Name: "Shirt", Variants: []Variant{{ID: 2, Name: "Large"}}}
	if got := LineOf(p, 2, 3, 1999); got != (OrderItem{ProductID: 4, VariantID: 2, Name: "Shirt - Large", UnitPrice: 1999, Quantity: 3, LineTotal: 5997}) {
		t.Errorf("variant line: %+v", got)
	}
	if got := LineOf(p, 0, 1, 10); got.Name != "Shirt" || got.LineTotal != 10 {
		t.Errorf("product line: %+v", got)
	}
}

func TestPriceOrder(t *testing.T) {
	at := func(d time.Duration) *time.Time { x := pt0.Add(d); return &x }
	percent := func(hundredths Money) *Coupon {
		return &Coupon{Code: "P", Type: CouponPercent, Value: hundredths, IsActive: true}
	}
	fixed := func(v Money) *Coupon { return &Coupon{Code: "F", Type: CouponFixed, Value: v, IsActive: true} }
	line := func(unit Money, qty int64) PricedLine {
		return PricedLine{Product: &Product{ID: 1, Name: "P"}, Quantity: qty, UnitPrice: unit}
	}
	sent := func(l PricedLine, m Money) PricedLine { l.Sent = &m; return l }
	opts := []DeliveryOption{{ID: "std", Fee: 500}}
	type want struct {
		subtotal, discount, fee, total Money
		code                           string
		fields                         string // the error's fields, printed
	}
	for _, c := range []struct {
		name string
		q    Quote
		want want
	}{
		{"one line", Quote{Lines: []PricedLine{line(1000, 2)}}, want{subtotal: 2000, total: 2000}},
		{"lines add up", Quote{Lines: []PricedLine{line(1000, 2), line(250, 3)}}, want{subtotal: 2750, total: 2750}},
		{"delivery default", Quote{Lines: []PricedLine{line(1000, 1)}, Delivery: opts}, want{subtotal: 1000, fee: 500, total: 1500}},
		{"percent coupon", Quote{Lines: []PricedLine{line(1000, 1)}, CouponCode: "P", Coupon: percent(1000)}, want{subtotal: 1000, discount: 100, total: 900}},
		{"percent rounds half up", Quote{Lines: []PricedLine{line(5, 1)}, CouponCode: "P", Coupon: percent(1000)}, want{subtotal: 5, discount: 1, total: 4}},
		{"percent rounds down below half", Quote{Lines: []PricedLine{line(4, 1)}, CouponCode: "P", Coupon: percent(1000)}, want{subtotal: 4, discount: 0, total: 4}},
		{"percent of a fraction", Quote{Lines: []PricedLine{line(999, 1)}, CouponCode: "P", Coupon: percent(1250)}, want{subtotal: 999, discount: 125, total: 874}},
		{"fixed coupon", Quote{Lines: []PricedLine{line(1000, 1)}, CouponCode: "F", Coupon: fixed(300), Delivery: opts}, want{subtotal: 1000, discount: 300, fee: 500, total: 1200}},
		{"fixed coupon over the subtotal", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "F", Coupon: fixed(300), Delivery: opts}, want{subtotal: 200, discount: 200, fee: 500, total: 500}},
		{"100% coupon", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "P", Coupon: percent(10000)}, want{subtotal: 200, discount: 200, total: 0}},
		{"unknown coupon", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "NOPE"}, want{code: EValidation, fields: "map[coupon_code:unknown coupon]"}},
		{"inactive coupon", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "F", Coupon: &Coupon{Type: CouponFixed, Value: 1}},
			want{code: EValidation, fields: "map[coupon_code:this coupon is not valid]"}},
		{"coupon not started", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "F", Coupon: &Coupon{Type: CouponFixed, Value: 1, IsActive: true, StartsAt: at(time.Second)}, Now: pt0},
			want{code: EValidation, fields: "map[coupon_code:this coupon is not valid yet]"}},
		{"coupon starts now", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "F", Coupon: &Coupon{Type: CouponFixed, Value: 1, IsActive: true, StartsAt: at(0)}, Now: pt0},
			want{subtotal: 200, discount: 1, total: 199}},
		{"coupon ends now", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "F", Coupon: &Coupon{Type: CouponFixed, Value: 1, IsActive: true, EndsAt: at(0)}, Now: pt0},
			want{code: EValidation, fields: "map[coupon_code:this coupon has expired]"}},
		{"coupon used up", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "F", Coupon: &Coupon{Type: CouponFixed, Value: 1, IsActive: true, MaxUses: 2, Uses: 2}},
			want{code: EValidation, fields: "map[coupon_code:this coupon has been used up]"}},
		{"coupon one use left", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "F", Coupon: &Coupon{Type: CouponFixed, Value: 1, IsActive: true, MaxUses: 2, Uses: 1}},
			want{subtotal: 200, discount: 1, total: 199}},
		{"coupon under its minimum", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "F", Coupon: &Coupon{Type: CouponFixed, Value: 1, IsActive: true, MinSubtotal: 201}},
			want{code: EValidation, fields: "map[coupon_code:this coupon needs a subtotal of at least 2.01]"}},
		{"coupon at its minimum", Quote{Lines: []PricedLine{line(200, 1)}, CouponCode: "F", Coupon: &Coupon{Type: CouponFixed, Value: 1, IsActive: true, MinSubtotal: 200}},
			want{subtotal: 200, discount: 1, total: 199}},
		{"sent unit price matches", Quote{Lines: []PricedLine{sent(line(200, 1), 200)}}, want{subtotal: 200, total: 200}},
		{"sent unit price changed", Quote{Lines: []PricedLine{line(100, 1), sent(line(200, 1), 150)}},
			want{code: EPriceChanged, fields: "map[items[1].unit_price:2.00]"}},
		{"sent fee not offered", Quote{Lines: []PricedLine{line(200, 1)}, Delivery: opts, SentFee: money(100)},
			want{code: EPriceChanged, fields: "map[delivery_fee:5.00]"}},
		{"sent currency differs", Quote{Lines: []PricedLine{line(200, 1)}, Currency: "USD", SentCurrency: "EUR"},
			want{code: EPriceChanged, fields: "map[currency:USD]"}},
		{"sent currency same", Quote{Lines: []PricedLine{line(200, 1)}, Currency: "USD", SentCurrency: "USD"}, want{subtotal: 200, total: 200}},
		{"every change at once", Quote{Lines: []PricedLine{sent(line(200, 1), 1)}, Delivery: opts, SentFee: money(1), Currency: "USD", SentCurrency: "EUR"},
			want{code: EPriceChanged, fields: "map[currency:USD delivery_fee:5.00 items[0].unit_price:2.00]"}},
		{"coupon checked before price changes", Quote{Lines: []PricedLine{sent(line(200, 1), 1)}, CouponCode: "NOPE"},
			want{code: EValidation, fields: "map[coupon_code:unknown coupon]"}},
		{"subtotal at the limit", Quote{Lines: []PricedLine{line(MaxMoney, 1)}}, want{subtotal: MaxMoney, total: MaxMoney}},
		{"subtotal over the limit", Quote{Lines: []PricedLine{line(MaxMoney/2+1, 2)}},
			want{code: EValidation, fields: "map[items:the order is over the largest total accepted (" + MaxMoney.String() + ")]"}},
		{"over the limit before an unknown coupon", Quote{Lines: []PricedLine{line(MaxMoney, 2)}, CouponCode: "NOPE"},
			want{code: EValidation, fields: "map[items:the order is over the largest total accepted (" + MaxMoney.String() + ")]"}},
		{"total over the limit by the fee", Quote{Lines: []PricedLine{line(MaxMoney, 1)}, Delivery: opts},
			want{code: EValidation, fields: "map[items:the order is over the largest total accepted (" + MaxMoney.String() + ")]"}},
		{"discount keeps the total in", Quote{Lines: []PricedLine{line(MaxMoney, 1)}, Delivery: opts, CouponCode: "F", Coupon: fixed(500)},
			want{subtotal: MaxMoney, discount: 500, fee: 500, total: MaxMoney}},
	} {
		pr, err := PriceOrder(c.q)
		got := want{subtotal: pr.Subtotal, discount: pr.Discount, fee: pr.DeliveryFee, total: pr.Total}
		if err != nil {
			got = want{code: ErrorCode(err), fields: fmt.Sprint(err.(*Error).Fields)}
		}
		if got != c.want {
			t.Errorf("%s:\ngot  %+v\nwant %+v", c.name, got, c.want)
		}
		if err == nil && len(pr.Items) != len(c.q.Lines) {
			t.Errorf("%s: %d items for %d lines", c.name, len(pr.Items), len(c.q.Lines))
		}
	}
}

func TestReserveStock(t *testing.T) {
	shared := &Product{ID: 1, Stock: 5}
	withVariants := &Product{ID: 2, Variants: []Variant{{ID: 7, Stock: 2}}}
	for _, c := range []struct {
		name   string
		lines  []PricedLine
		fields string
	}{
		{"enough", []PricedLine{{Product: &Product{Stock: 3}, Quantity: 3}}, ""},
		{"short", []PricedLine{{Product: &Product{Stock: 2}, Quantity: 3}}, "map[items[0].quantity:only 2 left]"},
		{"lines share a product", []PricedLine{{Product: shared, Quantity: 3}, {Product: shared, Quantity: 3}}, "map[items[1].quantity:only 2 left]"},
		{"variant short", []PricedLine{{Product: withVariants, VariantID: 7, Quantity: 3}}, "map[items[0].quantity:only 2 left]"},
		{"negative count shows 0", []PricedLine{{Product: &Product{Stock: -4}, Quantity: 1}}, "map[items[0].quantity:only 0 left]"},
	} {
		err := ReserveStock(c.lines)
		got := ""
		if err != nil {
			if ErrorCode(err) != EOutOfStock {
				t.Fatalf("%s: %v", c.name, err)
			}
			got = fmt.Sprint(err.(*Error).Fields)
		}
		if got != c.fields {
			t.Errorf("%s: got %q, want %q", c.name, got, c.fields)
		}
	}
	if shared.Stock != 2 {
		t.Errorf("shared product: %d left, want 2", shared.Stock)
	}
}
