package app

import (
	"reflect"
	"testing"
)

func TestComputeTax(t *testing.T) {
	uk := TaxSettings{PricesIncludeTax: true, Rates: []TaxRate{{Name: "VAT", Rate: "20", Country: "GB"}}}
	de := TaxSettings{PricesIncludeTax: true, TaxDelivery: true, Rates: []TaxRate{
		{Name: "MwSt.", Rate: "19", Country: "DE"}, {Name: "MwSt. ermäßigt", Rate: "7", Country: "DE", Class: "reduced"}}}
	us := TaxSettings{Rates: []TaxRate{{Name: "CA sales tax", Rate: "7.25", Country: "US", Region: "CA"},
		{Name: "Zero", Rate: "0", Class: "zero"}}}
	line := func(a Money, class string) TaxableLine { return TaxableLine{Amount: a, Class: class} }
	for _, c := range []struct {
		name      string
		in        TaxInput
		lines     []LineTax
		delivery  LineTax
		taxLines  []TaxLine
		wantTotal Money
	}{
		{"no rates: nothing", TaxInput{Lines: []TaxableLine{line(1000, "")}, DeliveryFee: 499},
			[]LineTax{{}}, LineTax{}, []TaxLine{}, 0},
		{"inclusive: extracted", TaxInput{Settings: uk, Country: "GB", Lines: []TaxableLine{line(12000, "")}},
			[]LineTax{{"20", 2000}}, LineTax{}, []TaxLine{{"VAT", "20", 2000}}, 2000},
		{"exclusive: added", TaxInput{Settings: us, Country: "US", Region: "CA", Lines: []TaxableLine{line(10000, "")}},
			[]LineTax{{"7.25", 725}}, LineTax{}, []TaxLine{{"CA sales tax", "7.25", 725}}, 725},
		{"other country: no rate", TaxInput{Settings: uk, Country: "FR", Lines: []TaxableLine{line(12000, "")}},
			[]LineTax{{}}, LineTax{}, []TaxLine{}, 0},
		{"region must match", TaxInput{Settings: us, Country: "US", Region: "NY", Lines: []TaxableLine{line(10000, "")}},
			[]LineTax{{}}, LineTax{}, []TaxLine{}, 0},
		{"class picks the reduced rate, delivery taxed at the standard one",
			TaxInput{Settings: de, Country: "DE", Lines: []TaxableLine{line(11900, ""), line(1070, "reduced")}, DeliveryFee: 595},
			[]LineTax{{"19", 1900}, {"7", 70}}, LineTax{"19", 95},
			[]TaxLine{{"MwSt.", "19", 1995}, {"MwSt. ermäßigt", "7", 70}}, 2065},
		{"untaxed delivery", TaxInput{Settings: uk, Country: "GB", Lines: []TaxableLine{line(1200, "")}, DeliveryFee: 600},
			[]LineTax{{"20", 200}}, LineTax{}, []TaxLine{{"VAT", "20", 200}}, 200},
		{"class rate without country beats the region's", TaxInput{Settings: us, Country: "US", Region: "CA",
			Lines: []TaxableLine{line(10000, ""), line(500, "zero")}},
			[]LineTax{{"7.25", 725}, {"0", 0}}, LineTax{}, []TaxLine{{"CA sales tax", "7.25", 725}, {"Zero", "0", 0}}, 725},
		{"coupon before tax, shared in proportion", TaxInput{Settings: us, Country: "US", Region: "CA",
			Lines: []TaxableLine{line(3000, ""), line(1000, "")}, Discount: 1000},
			[]LineTax{{"7.25", 163}, {"7.25", 54}}, LineTax{}, []TaxLine{{"CA sales tax", "7.25", 217}}, 217},
		{"coupon over the lines: no tax", TaxInput{Settings: uk, Country: "GB", Lines: []TaxableLine{line(500, "")}, Discount: 900},
			[]LineTax{{}}, LineTax{}, []TaxLine{}, 0},
		{"half a cent rounds up, per line", TaxInput{Settings: TaxSettings{Rates: []TaxRate{{Name: "T", Rate: "5"}}},
			Lines: []TaxableLine{line(10, ""), line(10, ""), line(9, "")}},
			[]LineTax{{"5", 1}, {"5", 1}, {"5", 0}}, LineTax{}, []TaxLine{{"T", "5", 2}}, 2},
		{"inclusive half a cent", TaxInput{Settings: TaxSettings{PricesIncludeTax: true, Rates: []TaxRate{{Name: "T", Rate: "25"}}},
			Lines: []TaxableLine{line(1, ""), line(2, ""), line(3, "")}},
			[]LineTax{{"25", 0}, {"25", 0}, {"25", 1}}, LineTax{}, []TaxLine{{"T", "25", 1}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ComputeTax(c.in)
			if !reflect.DeepEqual(got.Lines, c.lines) || got.Delivery != c.delivery || !reflect.DeepEqual(got.TaxLines, c.taxLines) || got.Total != c.wantTotal {
				t.Errorf("got lines %v delivery %v tax lines %v total %d,\nwant %v %v %v %d", got.Lines, got.Delivery, got.TaxLines, got.Total,
					c.lines, c.delivery, c.taxLines, c.wantTotal)
			}
		})
	}
}

// TestPriceOrderTax: the order's total adds exclusive tax, leaves inclusive
// tax in, and stays as it was without rates.
func TestPriceOrderTax(t *testing.T) {
	p := &Product{ID: 1, Name: "Mug", Price: 1000, Stock: 10}
	book := &Product{ID: 2, Name: "Book", Price: 2000, Stock: 10, TaxClass: "reduced",
		Variants: []Variant{{ID: 7, Name: "Paperback", Price: 1000, Stock: 5, TaxClass: "zero"}}}
	rates := []TaxRate{{Name: "VAT", Rate: "20"}, {Name: "Reduced", Rate: "5", Class: "reduced"}, {Name: "Zero", Rate: "0", Class: "zero"}}
	for _, c := range []struct {
		name              string
		tax               TaxSettings
		total, tax_, item Money
	}{
		{"no rates", TaxSettings{}, 5000 + 499, 0, 0},
		{"exclusive", TaxSettings{Rates: rates}, 5000 + 499 + 500, 500, 200},
		{"inclusive", TaxSettings{PricesIncludeTax: true, Rates: rates}, 5000 + 499, 167 + 95 + 167, 167},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr, err := PriceOrder(Quote{Now: pt0, Currency: "USD", Tax: c.tax, Delivery: []DeliveryOption{{ID: "std", Fee: 499}},
				Lines: []PricedLine{{Product: p, Quantity: 1, UnitPrice: 1000}, {Product: book, Quantity: 1, UnitPrice: 2000},
					{Product: book, VariantID: 7, Quantity: 1, UnitPrice: 1000}, {Product: p, Quantity: 1, UnitPrice: 1000}}})
			if err != nil {
				t.Fatal(err)
			}
			if pr.Total != c.total || pr.TaxTotal != c.tax_ || pr.Items[0].Tax != c.item {
				t.Errorf("total %d tax %d first line's tax %d, want %d %d %d", pr.Total, pr.TaxTotal, pr.Items[0].Tax, c.total, c.tax_, c.item)
			}
			if c.tax.Rates != nil && (pr.Items[2].TaxRate != "0" || pr.Items[1].TaxRate != "5") {
				t.Errorf("the variant's class %q, the product's %q", pr.Items[2].TaxRate, pr.Items[1].TaxRate)
			}
		})
	}
}

func TestRefundTax(t *testing.T) {
	lines := []TaxLine{{"VAT", "20", 2000}, {"Reduced", "5", 33}}
	for _, c := range []struct {
		name          string
		total, amount Money
		want          []Money
	}{
		{"full refund: as invoiced", 12693, 12693, []Money{2000, 33}},
		{"half", 12000, 6000, []Money{1000, 17}},
		{"a cent", 12000, 1, []Money{0, 0}},
		{"a third, half up", 3, 1, []Money{667, 11}},
	} {
		got := RefundTax(lines, c.total, c.amount)
		for i, w := range c.want {
			if got[i].Amount != w || got[i].Name != lines[i].Name {
				t.Errorf("%s: line %d %v, want %d", c.name, i, got[i], w)
			}
		}
	}
}

func TestParseTaxRate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
		back string
	}{
		{"20", 200000, true, "20"}, {"7.25", 72500, true, "7.25"}, {"8.875", 88750, true, "8.875"}, {"0", 0, true, "0"},
		{"100", 1000000, true, "100"}, {"7.50", 75000, true, "7.5"}, {"0.0001", 1, true, "0.0001"},
		{"100.01", 0, false, ""}, {"-1", 0, false, ""}, {"7.12345", 0, false, ""}, {"", 0, false, ""}, {"20%", 0, false, ""}, {"1e2", 0, false, ""},
	} {
		got, ok := ParseTaxRate(c.in)
		if ok != c.ok || (ok && (got != c.want || FormatTaxRate(got) != c.back)) {
			t.Errorf("%q: %d %v (%q), want %d %v %q", c.in, got, ok, FormatTaxRate(got), c.want, c.ok, c.back)
		}
	}
}

// BenchmarkComputeTax: an order of three lines, a coupon and a taxed
// delivery against two rates (what the loadbench's taxed checkout adds).
func BenchmarkComputeTax(b *testing.B) {
	in := TaxInput{Settings: TaxSettings{TaxDelivery: true, Rates: []TaxRate{{Name: "CA sales tax", Rate: "7.25", Country: "US", Region: "CA"},
		{Name: "Reduced", Rate: "5", Country: "US", Class: "reduced"}}}, Country: "US", Region: "CA",
		Lines: []TaxableLine{{Amount: 1250}, {Amount: 2000, Class: "reduced"}, {Amount: 999}}, Discount: 300, DeliveryFee: 499}
	b.ReportAllocs()
	for b.Loop() {
		ComputeTax(in)
	}
}
