package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"storefront/app"
)

// TestMailTaxLines: the order table of a mail lists the tax lines ("incl."
// for inclusive prices) and the invoice number, in the HTML and the text.
func TestMailTaxLines(t *testing.T) {
	st := &app.Store{ID: 4, Name: "Tea", Config: json.RawMessage(`{"store":{"url":"https://tea.example"}}`)}
	d := app.SampleMailData(app.MailOrderConfirmation, app.Brand{})
	inv := "INV-12"
	d.Order.PricesIncludeTax, d.Order.InvoiceNumber = true, &inv
	d.Order.TaxLines = []app.TaxLine{{Name: "VAT", Rate: "20", Amount: 833}}
	m, err := app.RenderMail(st, app.MailOrderConfirmation, "a@example.com", d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"incl. VAT 20%: $8.33", "Invoice: INV-12"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	for _, want := range []string{"incl. VAT 20%</td><td align=\"right\">$8.33", "<b>Invoice:</b> INV-12"} {
		if !strings.Contains(m.HTML, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	d.Order.PricesIncludeTax = false
	if m, _ = app.RenderMail(st, app.MailOrderConfirmation, "a@example.com", d); !strings.Contains(m.Text, "\nVAT 20%: $8.33") {
		t.Errorf("exclusive: text lacks the tax line:\n%s", m.Text)
	}
}
