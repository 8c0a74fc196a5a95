package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"storefront/app"
	"storefront/app/i18n"
)

// TestMailGerman: a store whose locale is de sends its shoppers German
// mails, amounts as 1.234,56 €; its owner's mails stay English.
func TestMailGerman(t *testing.T) {
	st := &app.Store{ID: 4, Name: "Laden", Currency: "EUR", Config: json.RawMessage(`{"locale":"de","store":{"url":"https://laden.example"}}`)}
	d := app.SampleMailData(app.MailOrderConfirmation, app.Brand{Name: "Laden"})
	d.Order.Currency = "EUR"
	d.Order.Items[0].UnitPrice, d.Order.Items[0].LineTotal, d.Order.Total = 123456, 246912, 251911
	m, err := app.RenderMail(st, app.MailOrderConfirmation, "a@example.com", d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Bestellung #1042 bestätigt"} {
		if !strings.Contains(m.Subject, want) {
			t.Errorf("subject %q lacks %q", m.Subject, want)
		}
	}
	for _, want := range []string{"Hallo Ann,", "Vielen Dank für Ihre Bestellung.", "die Bestellung #1042 ist bestätigt",
		"2 x Blue mug @ 1.234,56\u00a0€ = 2.469,12\u00a0€", "Summe: 2.519,11\u00a0€", "Lieferung an: Ann Example"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	for _, want := range []string{"<p>Hallo Ann,</p>", "die Bestellung <b>#1042</b> ist bestätigt", "<th align=\"left\">Artikel</th>",
		"<b>2.519,11\u00a0€</b>", "Zurück zu Laden</a>"} {
		if !strings.Contains(m.HTML, want) {
			t.Errorf("HTML lacks %q:\n%s", want, m.HTML)
		}
	}
	d.Order.Test = true
	if m, err = app.RenderMail(st, app.MailOrderConfirmation, "a@example.com", d); err != nil || !strings.HasPrefix(m.Text, "TESTBESTELLUNG:") {
		t.Errorf("a test order's mail: %v %.40q", err, m.Text)
	}
	d.Order.Test = false
	owner, err := app.RenderMail(st, app.MailOwnerOrderPaid, "owner@example.com", d)
	if err != nil || !strings.Contains(owner.Text, "Order #1042 was paid") || !strings.Contains(owner.Text, "Subtotal:") {
		t.Errorf("owner mail: %v\n%s", err, owner.Text)
	}
}

// TestMailEveryLanguage: every shopper mail renders in every language with
// no text missing (no key shows, no format error), whatever the request's
// kind and decision.
func TestMailEveryLanguage(t *testing.T) {
	for _, lang := range app.Locales {
		st := &app.Store{ID: 4, Name: "Shop", Currency: "EUR", Config: json.RawMessage(`{"locale":"` + lang + `"}`)}
		for _, kind := range app.MailKinds() {
			for _, v := range mailVariants(kind) {
				m, err := app.RenderMail(st, kind, "a@example.com", v)
				if err != nil {
					t.Fatalf("%s %s: %v", lang, kind, err)
				}
				all := m.Subject + m.Text + m.HTML
				if strings.Contains(all, "mail.") || strings.Contains(all, "%!") {
					t.Errorf("%s %s: a text is missing:\n%s\n%s", lang, kind, m.Subject, m.Text)
				}
			}
		}
	}
}

// mailVariants are kind's sample data, one per branch of its template.
func mailVariants(kind string) []app.MailData {
	var out []app.MailData
	for _, by := range []string{"request", "expired", "store"} {
		for _, k := range []string{"cancellation", "refund"} {
			for _, s := range []string{app.RequestApproved, app.RequestRejected} {
				d := app.SampleMailData(kind, app.Brand{Name: "Shop"})
				d.Cancelled, d.Request.Kind, d.Request.Status = by, k, s
				out = append(out, d)
			}
		}
	}
	d := app.SampleMailData(kind, app.Brand{Name: "Shop"})
	d.Request.ByStore, d.Name, d.Order.Pickup = true, "", true
	return append(out, d)
}

// TestLocalesHaveCatalogues: every locale a store may choose has a
// catalogue, and no catalogue is for a locale it may not choose.
func TestLocalesHaveCatalogues(t *testing.T) {
	if strings.Join(app.Locales, ",") != strings.Join(i18n.Langs, ",") {
		t.Fatalf("app.Locales %v, i18n.Langs %v", app.Locales, i18n.Langs)
	}
}
