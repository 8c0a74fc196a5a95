package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestPanelInvoiceTax: the printable invoice of a taxed, paid order shows
// its number and date, the seller's tax id, each line's rate, the tax per
// rate (inclusive: below the total) and the buyer; its credit note prints
// the same way; an unknown credit note is 404.
func TestPanelInvoiceTax(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/config/", sid), Token: e.OwnerToken,
		Body: `{"store":{"name":"Tea Ltd","address":"1 High St, Leeds","country":"GB"},"taxes":{"prices_include_tax":true,"tax_id":"GB123456789","rates":[{"name":"VAT","rate":"20","country":"GB"}]}}`}).Expect(t, 200, "")
	p := e.Product(sid, 0, "Teapot", 2400, 100)
	o := e.PlaceOrder(sid, 0, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	o.Items[0].TaxRate, o.Items[0].Tax = "20", 400
	at := e.Now()
	o.OrderTax = app.OrderTax{Country: "GB", PricesIncludeTax: true, TaxTotal: 400, TaxLines: []app.TaxLine{{Name: "VAT", Rate: "20", Amount: 400}},
		InvoiceNumber: "INV-7", InvoicedAt: at,
		CreditNotes: []app.CreditNote{{Number: "CN-2", Invoice: "INV-7", Amount: 1200, TaxLines: []app.TaxLine{{Name: "VAT", Rate: "20", Amount: 200}}, At: at}}}
	o.RefundedAmount = 1200
	if err := e.DB.Update(func(tx app.Tx) error { return tx.PutOrder(o) }); err != nil {
		t.Fatal(err)
	}
	b := owner(t, e)
	op := fmt.Sprintf("/admin/stores/%d/orders/%d/", sid, o.ID)
	b.get(op+"invoice/").expect(t, 200, "<h1>Invoice INV-7</h1>", "Tax id: GB123456789", "<b>Tea Ltd</b>", "Ann Lee",
		`<td class="num">20%</td>`, "incl. VAT 20%", "$4.00", "$24.00", "Refunded · CN-2")
	b.get(op).expect(t, 200, "Invoice INV-7", "?credit_note=CN-2", "incl. VAT 20%")
	b.get(op+"invoice/?credit_note=CN-2").expect(t, 200, "<h1>Credit note CN-2</h1>", "for invoice INV-7", "Tax id: GB123456789",
		"−$12.00", "incl. VAT 20%", "−$2.00")
	b.get(op+"invoice/?credit_note=CN-9").expect(t, 404)
	// The dashboard: the tax per rate of the last 30 days, less the credit notes.
	b.get(fmt.Sprintf("/admin/stores/%d/", sid)).expect(t, 200, "Tax collected, last 30 days",
		`<tr data-rate="VAT 20"><td>VAT 20%</td><td class="num">4.00 USD</td><td class="num">2.00 USD</td><td class="num"><b>2.00 USD</b></td></tr>`)
	other, _ := e.Store("No taxes")
	if pg := b.get(fmt.Sprintf("/admin/stores/%d/", other)).expect(t, 200, "Sales"); strings.Contains(pg.Body, "Tax collected") {
		t.Fatal("a store without rates shows a tax table")
	}
}

// TestPanelTaxSettings: the "Taxes and invoices" section sets the taxes
// object and the store's country; a bad rate line or value is refused with
// the form shown again, the configuration unchanged; the change is in the
// settings history.
func TestPanelTaxSettings(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	b := owner(t, e)
	page := fmt.Sprintf("/admin/stores/%d/settings/taxes/", sid)
	b.get(page).expect(t, 200, "Taxes and invoices", `name="taxes.rates"`, `name="store.country"`)
	form := url.Values{"taxes.prices_include_tax": {"on"}, "taxes.rates": {"VAT | 20 | GB\nReduced | 5 | GB | | reduced"},
		"store.country": {"gb"}, "taxes.invoice_prefix": {"INV-"}, "taxes.tax_id": {"GB123"}}
	for _, bad := range []struct{ rates, want string }{
		{"VAT", "line 1: write name | rate"},
		{"VAT | twenty | GB", "taxes.rates[0].rate"},
		{"VAT | 20 | Britain", "taxes.rates[0].country"},
	} {
		f := url.Values{}
		for k, v := range form {
			f[k] = v
		}
		f.Set("taxes.rates", bad.rates)
		b.submit(page, page, f).expect(t, 400, bad.want, bad.rates)
	}
	if cfg := storeConfig(t, e, sid); cfg["taxes"] != nil {
		t.Fatalf("a refused form changed the config: %v", cfg["taxes"])
	}
	b.submit(page, page, form).redirectsTo(t, page)
	cfg := storeConfig(t, e, sid)
	taxes := cfg["taxes"].(map[string]any)
	rates := taxes["rates"].([]any)
	if cfg["store"].(map[string]any)["country"] != "GB" || taxes["prices_include_tax"] != true || taxes["tax_delivery"] != false ||
		len(rates) != 2 || rates[1].(map[string]any)["class"] != "reduced" || taxes["tax_id"] != "GB123" {
		t.Fatalf("config: %v", cfg)
	}
	b.get(page).expect(t, 200, "Settings saved.", "VAT | 20 | GB\nReduced | 5 | GB |  | reduced", `value="INV-"`)
	b.get(fmt.Sprintf("/admin/stores/%d/settings/history/", sid)).expect(t, 200, "config.taxes")
}

// TestPanelProductTaxClass: the product form sets and shows the tax class;
// a bad one is refused naming the field.
func TestPanelProductTaxClass(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/products/", sid)
	form := url.Values{"name": {"Novel"}, "price": {"9.99"}, "stock": {"5"}, "is_active": {"on"}, "tax_class": {"Reduced Rate"}}
	b.submit(base+"new/", base, form).expect(t, 400, "lower-case letters")
	form.Set("tax_class", "reduced")
	if p := b.submit(base+"new/", base, form); p.Status != 303 {
		t.Fatalf("create: %d", p.Status)
	}
	page, err := e.Svc.Catalog.AllProducts(sid, app.ListParams{Sort: app.SortNewest, Limit: 1})
	if err != nil || len(page.Items) != 1 || page.Items[0].TaxClass != "reduced" {
		t.Fatalf("product %+v, %v", page.Items, err)
	}
	b.get(fmt.Sprintf("%s%d/", base, page.Items[0].ID)).expect(t, 200, `name="tax_class" value="reduced"`)
}
