package panel_test

import (
	"fmt"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestPanelInvoiceGerman: the invoice of a store whose locale is de is in
// German, its amounts as 1.234,56 €; the panel around it stays English.
func TestPanelInvoiceGerman(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Laden")
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/config/", sid), Token: e.OwnerToken,
		Body: `{"locale":"de","store":{"name":"Tee GmbH"},"taxes":{"prices_include_tax":true,"tax_id":"DE123456789","rates":[{"name":"MwSt.","rate":"19","country":"DE"}]}}`}).Expect(t, 200, "")
	p := e.Product(sid, 0, "Teekanne", 123456, 100)
	o := e.PlaceOrder(sid, 0, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})
	o.Currency = "EUR"
	o.OrderTax = app.OrderTax{Country: "DE", PricesIncludeTax: true, TaxTotal: 19711, TaxLines: []app.TaxLine{{Name: "MwSt.", Rate: "19", Amount: 19711}},
		InvoiceNumber: "RE-7", InvoicedAt: e.Now()}
	if err := e.DB.Update(func(tx app.Tx) error { return tx.PutOrder(o) }); err != nil {
		t.Fatal(err)
	}
	b := owner(t, e)
	op := fmt.Sprintf("/admin/stores/%d/orders/%d/", sid, o.ID)
	b.get(op+"invoice/").expect(t, 200, `<article class="sheet" lang="de">`, "<h1>Rechnung RE-7</h1>", "USt-IdNr.: DE123456789",
		"Rechnungsempfänger", "Einzelpreis", "1.234,56\u00a0€", "inkl. MwSt. 19 %", "197,11\u00a0€", "Gesamtbetrag", "Zahlung:", "Bezahlt",
		"Print") // the panel's own button
}
