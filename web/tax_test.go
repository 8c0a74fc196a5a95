package web_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

type taxLine struct {
	Name   string `json:"name"`
	Rate   string `json:"rate"`
	Amount string `json:"amount"`
}

type taxedOrder struct {
	Subtotal         string    `json:"subtotal"`
	Total            string    `json:"total"`
	TaxTotal         string    `json:"tax_total"`
	Country          string    `json:"country"`
	PricesIncludeTax bool      `json:"prices_include_tax"`
	TaxLines         []taxLine `json:"tax_lines"`
	InvoiceNumber    *string   `json:"invoice_number"`
	Items            []struct {
		TaxRate string `json:"tax_rate"`
		Tax     string `json:"tax"`
	} `json:"items"`
	CreditNotes []struct {
		Number   string    `json:"number"`
		Invoice  string    `json:"invoice"`
		Amount   string    `json:"amount"`
		TaxLines []taxLine `json:"tax_lines"`
	} `json:"credit_notes"`
}

// usTaxes is a US shop's settings: California's rate, a reduced class, the
// delivery taxed, invoices numbered INV-n and credit notes CN-n.
const usTaxes = `{"store":{"country":"US","region":"CA"},"taxes":{"prices_include_tax":false,"tax_delivery":true,
 "invoice_prefix":"INV-","credit_note_prefix":"CN-",
 "rates":[{"name":"CA sales tax","rate":"7.25","country":"US","region":"CA"},{"name":"Reduced","rate":"5","country":"US","class":"reduced"}]},
 "delivery_options":[{"id":"std","name":"Standard","fee":"5.00"}]}`

// setupTaxes makes a store with usTaxes, a standard product at 10.00 and a
// reduced one at 20.00.
func setupTaxes(t *testing.T, e *testenv.Env) (sid uint64, key string, mug, book *app.Product) {
	sid, key = e.Store("Taxed")
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/config/", sid), Token: e.OwnerToken, Body: usTaxes}).Expect(t, 200, "")
	mug = e.Product(sid, 0, "Mug", 1000, 100)
	book = e.Product(sid, 0, "Book", 2000, 100)
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", sid, book.ID), Token: e.OwnerToken,
		Body: map[string]any{"tax_class": "reduced"}}).Expect(t, 200, "")
	r := e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", sid, mug.ID), Token: e.OwnerToken,
		Body: map[string]any{"variants": []map[string]any{{"name": "Big", "tax_class": "Not A Class"}}}}).Expect(t, 400, "validation_failed")
	if r.Body.Errors["variants[0].tax_class"] == "" {
		t.Fatalf("a bad variant tax class: %v", r.Body.Errors)
	}
	return sid, key, mug, book
}

// TestTaxQuoteAndOrder: with rates set, the quote, the order placed and
// paid (storefront and admin reads) carry the same tax lines; the total
// adds the tax (prices exclude it); the paid order has an invoice number;
// a partial refund gets a credit note with its share of the tax. The
// country sent picks the rate; error rows for a bad country.
func TestTaxQuoteAndOrder(t *testing.T) {
	t.Parallel()
	testenv.ForEachBackend(t, testenv.Options{}, func(t *testing.T, e *testenv.Env) {
		sid, key, mug, book := setupTaxes(t, e)
		body := order(1, mug, book)
		body["delivery_fee"] = "5.00"
		// mug 10.00 * 7.25% = 0.725 -> 0.73; book 20.00 * 5% = 1.00; delivery 5.00 * 7.25% = 0.3625 -> 0.36
		want := []taxLine{{"CA sales tax", "7.25", "1.09"}, {"Reduced", "5", "1.00"}}
		var q taxedOrder
		e.Do(testenv.Req{Method: "POST", Path: api + "/payment/quote/", Key: key, Body: map[string]any{"items": body["items"], "delivery_fee": "5.00"}}).
			Expect(t, 200, "").Decode(t, &q)
		if q.TaxTotal != "2.09" || q.Total != "37.09" || !slices.Equal(q.TaxLines, want) || q.Country != "US" || q.PricesIncludeTax {
			t.Fatalf("quote %+v", q)
		}
		var other taxedOrder
		e.Do(testenv.Req{Method: "POST", Path: api + "/payment/quote/", Key: key, Body: map[string]any{"items": body["items"], "delivery_fee": "5.00", "country": "US", "region": "NY"}}).
			Expect(t, 200, "").Decode(t, &other)
		if other.TaxTotal != "1.00" || other.Total != "36.00" {
			t.Fatalf("quote to NY: %+v, want only the reduced rate", other)
		}
		in := initiate(t, e, key, "", body)
		if v := verify(t, e, key, in.PaymentSessionID, sandbox(t, e, in, "success")); !v.Success {
			t.Fatalf("verify %+v", v)
		}
		var o taxedOrder
		e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/%d/", sid, in.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
		if o.TaxTotal != "2.09" || o.Total != "37.09" || !slices.Equal(o.TaxLines, want) || o.InvoiceNumber == nil ||
			*o.InvoiceNumber != "TEST-INV-1" || o.Items[0].TaxRate != "7.25" || o.Items[0].Tax != "0.73" || o.Items[1].Tax != "1.00" {
			t.Fatalf("order %+v", o)
		}
		e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/%d/refund/", sid, in.OrderID), Token: e.OwnerToken,
			Body: map[string]any{"amount": "18.55"}}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/%d/", sid, in.OrderID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
		if len(o.CreditNotes) != 1 || o.CreditNotes[0].Number != "TEST-CN-1" || o.CreditNotes[0].Invoice != "TEST-INV-1" ||
			o.CreditNotes[0].Amount != "18.55" || !slices.Equal(o.CreditNotes[0].TaxLines, []taxLine{{"CA sales tax", "7.25", "0.55"}, {"Reduced", "5", "0.50"}}) {
			t.Fatalf("credit notes %+v", o.CreditNotes)
		}
		for _, c := range []struct {
			name, field string
			body        map[string]any
		}{
			{"ErrCountry", "country", map[string]any{"items": body["items"], "country": "usa"}},
			{"ErrRegion", "region", map[string]any{"items": body["items"], "country": "US", "region": "new york"}},
			{"ErrRegionAlone", "region", map[string]any{"items": body["items"], "region": "CA"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/quote/", Key: key, Body: c.body}).Expect(t, 400, "validation_failed")
				if _, ok := r.Body.Errors[c.field]; !ok {
					t.Errorf("fields %v, want %s", r.Body.Errors, c.field)
				}
				bad := order(1, mug)
				bad["country"], bad["region"] = c.body["country"], c.body["region"]
				e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: bad}).Expect(t, 400, "validation_failed")
			})
		}
	})
}

// TestTaxNoRates: a store without rates answers as before: tax 0, no tax
// lines, the same total, and no invoice until paid.
func TestTaxNoRates(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	_, key := e.Store("Plain")
	p := e.Product(1, 0, "Hammer", 1250, 5)
	var q taxedOrder
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/quote/", Key: key, Body: map[string]any{"items": []map[string]any{{"product_id": p.ID, "quantity": 2}}}}).
		Expect(t, 200, "").Decode(t, &q)
	if q.TaxTotal != "0.00" || q.Total != "25.00" || q.TaxLines == nil || len(q.TaxLines) != 0 || q.PricesIncludeTax {
		t.Fatalf("quote %+v", q)
	}
}

// TestInvoiceNumbersParallel: orders paid at once get the numbers 1..n of
// the store's sequence, no gap, no duplicate, on both backends; another
// store's sequence is its own.
func TestInvoiceNumbersParallel(t *testing.T) {
	t.Parallel()
	testenv.ForEachBackend(t, testenv.Options{}, func(t *testing.T, e *testenv.Env) {
		sid, key, mug, _ := setupTaxes(t, e)
		const n = 12
		ins := make([]initiated, n)
		for i := range ins {
			body := order(1, mug)
			body["delivery_fee"] = "5.00"
			ins[i] = initiate(t, e, key, "", body)
		}
		params := make([]map[string]string, n)
		for i, in := range ins {
			params[i] = sandbox(t, e, in, "success")
		}
		var wg sync.WaitGroup
		for i, in := range ins {
			wg.Add(1)
			go func() {
				defer wg.Done()
				verify(t, e, key, in.PaymentSessionID, params[i])
			}()
		}
		wg.Wait()
		var got []string
		for _, in := range ins {
			got = append(got, e.Order(sid, in.OrderID).InvoiceNumber)
		}
		slices.Sort(got)
		var want []string
		for i := 1; i <= n; i++ {
			want = append(want, fmt.Sprintf("TEST-INV-%d", i))
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("invoice numbers %v, want %v", got, want)
		}
	})
}

// TestAddressCountry: a saved address without a country gets the store's;
// one sent is kept; a bad one is 400 naming country.
func TestAddressCountry(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key, _, _ := setupTaxes(t, e)
	_, tok := e.Shopper(sid, "ann@example.com")
	country := func(body map[string]any) string {
		var created struct {
			ID string `json:"id"`
		}
		e.Do(testenv.Req{Method: "POST", Path: pAddresses, Key: key, Token: tok, Body: body}).Expect(t, 200, "").Decode(t, &created)
		var a struct {
			Country string `json:"country"`
		}
		e.Do(testenv.Req{Method: "GET", Path: pAddresses + created.ID + "/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &a)
		return a.Country
	}
	if c := country(addressBody("Ann", true)); c != "US" {
		t.Fatalf("country %q, want the store's US", c)
	}
	body := addressBody("Ann", false)
	body["country"] = "CA"
	if c := country(body); c != "CA" {
		t.Fatalf("country %q, want CA", c)
	}
	body["country"] = "Canada"
	if r := e.Do(testenv.Req{Method: "POST", Path: pAddresses, Key: key, Token: tok, Body: body}).Expect(t, 400, "validation_failed"); r.Body.Errors["country"] == "" {
		t.Fatalf("errors %v", r.Body.Errors)
	}
}

// TestVariantTaxClassKept: a variant's tax class, set through the admin
// API, stays when the variants are sent again without it (the panel's form
// does not show it) and goes when sent empty.
func TestVariantTaxClassKept(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Classes")
	p := e.Product(sid, 0, "Book", 2000, 10)
	path := fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", sid, p.ID)
	var got struct {
		Variants []struct {
			ID       uint64 `json:"id"`
			TaxClass string `json:"tax_class"`
		} `json:"variants"`
	}
	e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: map[string]any{"variants": []map[string]any{{"name": "Paperback", "tax_class": "zero"}}}}).
		Expect(t, 200, "").Decode(t, &got)
	id := got.Variants[0].ID
	for _, c := range []struct {
		variant map[string]any
		want    string
	}{
		{map[string]any{"id": id, "name": "Paperback", "stock": 3}, "zero"},
		{map[string]any{"id": id, "name": "Paperback", "tax_class": ""}, ""},
	} {
		got.Variants = nil // an empty class is left out of the answer
		e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: map[string]any{"variants": []map[string]any{c.variant}}}).
			Expect(t, 200, "").Decode(t, &got)
		if got.Variants[0].TaxClass != c.want {
			t.Fatalf("after %v: tax class %q, want %q", c.variant, got.Variants[0].TaxClass, c.want)
		}
	}
}
