package app_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"storefront/app"
)

// TestMailDataRoundTrip: a mail queued as data renders after its trip
// through JSON (the outbox record) exactly as its data renders at once, for
// every kind, and every field of MailData but the brand makes the trip.
func TestMailDataRoundTrip(t *testing.T) {
	st := &app.Store{ID: 4, Name: "Round Trip", Config: json.RawMessage(`{"theme_color":"#123456","store":{"url":"https://rt.example"}}`)}
	brand := app.BrandOf(st, "https://public.example")
	for _, kind := range app.MailKinds() {
		d := app.SampleMailData(kind, app.Brand{})
		raw, err := json.Marshal(app.Mail{StoreID: st.ID, Kind: kind, To: "a@example.com", Data: &d})
		if err != nil {
			t.Fatal(err)
		}
		var back app.Mail
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*back.Data, d) {
			t.Fatalf("%s: data came back as %+v, want %+v", kind, *back.Data, d)
		}
		got, err := back.Rendered(st, "https://public.example")
		if err != nil {
			t.Fatal(err)
		}
		d.Store = brand
		want, err := app.RenderMail(st, kind, "a@example.com", d)
		if err != nil {
			t.Fatal(err)
		}
		if got.Subject != want.Subject || got.Text != want.Text || got.HTML != want.HTML || got.Data != nil || got.Subject == "" {
			t.Fatalf("%s: rendered %q / %q, want %q / %q", kind, got.Subject, got.Text, want.Subject, want.Text)
		}
	}
}

// BenchmarkRenderOrderConfirmation is what the outbox worker pays per order
// confirmation when it sends one (and the outbox view per mail shown).
func BenchmarkRenderOrderConfirmation(b *testing.B) {
	st := &app.Store{ID: 4, Name: "Bench", Config: json.RawMessage(`{"theme_color":"#123456","store":{"url":"https://b.example"}}`)}
	d := app.SampleMailData(app.MailOrderConfirmation, app.Brand{})
	m := &app.Mail{StoreID: st.ID, Kind: app.MailOrderConfirmation, To: "a@example.com", Data: &d}
	for b.Loop() {
		if _, err := m.Rendered(st, "https://public.example"); err != nil {
			b.Fatal(err)
		}
	}
}
