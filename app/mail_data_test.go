package app_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

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

// TestMailDataKeepsEveryField: a MailData with every field set (nested ones
// too, the brand aside: it is never stored) comes back from the outbox
// record's JSON whole, so a field the templates read cannot be lost on the
// way (the samples leave some zero).
func TestMailDataKeepsEveryField(t *testing.T) {
	var d app.MailData
	fillAll(reflect.ValueOf(&d).Elem())
	d.Store = app.Brand{}
	raw, err := json.Marshal(app.Mail{Kind: app.MailOrderConfirmation, Data: &d})
	if err != nil {
		t.Fatal(err)
	}
	var back app.Mail
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*back.Data, d) {
		t.Fatalf("data came back as %+v\nwant %+v", *back.Data, d)
	}
}

// fillAll sets every settable field of v to a non-zero value.
func fillAll(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillAll(v.Field(i))
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillAll(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fillAll(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillAll(k)
		fillAll(e)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
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

// TestMailOfTestOrderMarked: a mail about a test order says so in its
// subject and above its body, with the built-in template or a store's own.
func TestMailOfTestOrderMarked(t *testing.T) {
	st := &app.Store{ID: 1, Name: "Shop", Config: app.DefaultConfig("Shop"),
		MailTemplates: map[string]app.MailTemplate{app.MailOrderDelivered: {Subject: "Sent", HTML: "<p>sent</p>", Text: "sent"}}}
	for _, kind := range []string{app.MailOrderConfirmation, app.MailOrderDelivered} {
		d := app.SampleMailData(kind, app.BrandOf(st, "http://shop.test"))
		live, err := app.RenderMail(st, kind, "a@example.com", d)
		if err != nil {
			t.Fatal(err)
		}
		test := *d.Order
		test.Test = true
		d.Order = &test
		m, err := app.RenderMail(st, kind, "a@example.com", d)
		if err != nil {
			t.Fatal(err)
		}
		if m.Subject != "[Shop] [TEST] "+strings.TrimPrefix(live.Subject, "[Shop] ") || !strings.HasPrefix(m.Text, "TEST ORDER") || !strings.Contains(m.HTML, "TEST ORDER") {
			t.Fatalf("%s of a test order: subject %q text %.40q, want it marked TEST", kind, m.Subject, m.Text)
		}
		if strings.Contains(live.Subject+live.Text, "TEST") {
			t.Fatalf("%s of a live order: got %q, want no TEST mark", kind, live.Subject)
		}
	}
}
