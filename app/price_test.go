package app

import (
	"testing"
	"time"
)

// TestPriceAt: the regular price, the compare-at price and the lowest deal
// running on the unit (a deal of the whole product covers every variant; a
// deal of one variant only that one; a deal at or above the price none),
// and the price struck through beside it.
func TestPriceAt(t *testing.T) {
	p := &Product{ID: 7, Price: 1000, CompareAtPrice: 1200, Variants: []Variant{{ID: 1, Price: 800}, {ID: 2, Price: 1500}}}
	deal := func(variant uint64, price Money, from, to time.Duration) *FlashDeal {
		return &FlashDeal{ProductID: 7, VariantID: variant, DealPrice: price, StartsAt: pt0.Add(from), EndsAt: pt0.Add(to)}
	}
	for _, c := range []struct {
		name    string
		variant uint64
		deals   []*FlashDeal
		unit    Money
		ends    time.Duration // 0: no deal
		was     Money         // struck through (Price.Was)
	}{
		{"NoDeal", 0, nil, 1000, 0, 1200},
		{"Running", 0, []*FlashDeal{deal(0, 900, -time.Hour, time.Hour)}, 900, time.Hour, 1000},
		{"NotStarted", 0, []*FlashDeal{deal(0, 900, time.Minute, time.Hour)}, 1000, 0, 1200},
		{"EndedAtNow", 0, []*FlashDeal{deal(0, 900, -time.Hour, 0)}, 1000, 0, 1200},
		{"StartsAtNow", 0, []*FlashDeal{deal(0, 900, 0, time.Hour)}, 900, time.Hour, 1000},
		{"Lowest", 0, []*FlashDeal{deal(0, 900, -time.Hour, time.Hour), deal(0, 700, -time.Hour, 2*time.Hour)}, 700, 2 * time.Hour, 1000},
		{"WholeCoversVariant", 2, []*FlashDeal{deal(0, 900, -time.Hour, time.Hour)}, 900, time.Hour, 1500},
		{"NeverRaises", 1, []*FlashDeal{deal(0, 900, -time.Hour, time.Hour)}, 800, 0, 1200},
		{"OtherVariant", 1, []*FlashDeal{deal(2, 100, -time.Hour, time.Hour)}, 800, 0, 1200},
		{"OwnVariant", 2, []*FlashDeal{deal(2, 100, -time.Hour, time.Hour)}, 100, time.Hour, 1500},
		{"Free", 0, []*FlashDeal{deal(0, 0, -time.Hour, time.Hour)}, 0, time.Hour, 1000},
		{"CompareBelow", 2, nil, 1500, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr := PriceAt(p, c.variant, c.deals, pt0)
			if pr.Unit() != c.unit || pr.OnDeal != (c.ends != 0) || (c.ends != 0 && !pr.DealEnds.Equal(pt0.Add(c.ends))) || pr.CompareAt != 1200 {
				t.Fatalf("got %+v, want unit %s ending %v", pr, c.unit, c.ends)
			}
			if got := DealPrice(p.UnitPrice(c.variant), c.variant, c.deals, pt0); got != c.unit {
				t.Fatalf("DealPrice %s, want %s", got, c.unit)
			}
			if pr.Was() != c.was {
				t.Fatalf("Was %s, want %s", pr.Was(), c.was)
			}
		})
	}
}

// TestLiveDeals: the view's Until is the next start or end, and AppendDeal
// writes the deal members a field set names (null without a deal).
func TestLiveDeals(t *testing.T) {
	deals := []*FlashDeal{
		{ProductID: 1, DealPrice: 500, StartsAt: pt0.Add(-time.Hour), EndsAt: pt0.Add(2 * time.Hour)},
		{ProductID: 2, DealPrice: 100, StartsAt: pt0.Add(time.Hour), EndsAt: pt0.Add(3 * time.Hour)},
		{ProductID: 3, DealPrice: 100, StartsAt: pt0.Add(-3 * time.Hour), EndsAt: pt0}, // ended
	}
	l := newLiveDeals(deals, pt0)
	if !l.Until.Equal(pt0.Add(time.Hour)) || !l.validAt(pt0.Add(59*time.Minute)) || l.validAt(pt0.Add(time.Hour)) {
		t.Fatalf("until %v", l.Until)
	}
	if got := l.Expires(pt0.Add(5 * time.Minute)); !got.Equal(pt0.Add(5 * time.Minute)) {
		t.Fatalf("expires %v", got)
	}
	doc := func(id uint64) Doc {
		d, err := NewDoc(DocMember{Name: "id", Value: id}, DocMember{Name: "price", Value: Money(1000)})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	ends := `"` + pt0.Add(2*time.Hour).UTC().Format(time.RFC3339) + `"`
	for _, c := range []struct {
		name   string
		id     uint64
		fields FieldSet
		want   string
	}{
		{"Running", 1, nil, `{"id":1,"price":"10.00","deal_price":"5.00","deal_ends_at":` + ends + `}`},
		{"NotStarted", 2, nil, `{"id":2,"price":"10.00","deal_price":null,"deal_ends_at":null}`},
		{"Ended", 3, nil, `{"id":3,"price":"10.00","deal_price":null,"deal_ends_at":null}`},
		{"NoDeal", 4, nil, `{"id":4,"price":"10.00","deal_price":null,"deal_ends_at":null}`},
		{"PriceOnly", 1, FieldSet{"deal_price": {}}, `{"id":1,"deal_price":"5.00"}`},
		{"EndsOnly", 4, FieldSet{"deal_ends_at": {}}, `{"id":4,"deal_ends_at":null}`},
		{"Neither", 1, FieldSet{"price": {}}, `{"id":1,"price":"10.00"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := doc(c.id)
			b, err := d.AppendJSON([]byte("[x,"), c.fields)
			if err == nil {
				b, err = l.AppendDeal(b, 3, d, c.fields)
			}
			if err != nil || string(b[3:]) != c.want {
				t.Fatalf("got %s (%v), want %s", b, err, c.want)
			}
		})
	}
	if _, err := l.AppendDeal([]byte(`{"name":"x"}`), 0, doc(1), nil); err == nil {
		t.Fatal("an object without its id first: no error")
	}
}
