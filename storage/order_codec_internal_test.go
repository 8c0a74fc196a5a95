package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// codecOrders are realistic orders for the codec's tests and fuzz seeds:
// every field set (nested ones too), a guest's one line, a customer's
// variants with a coupon, refunds and notes, unicode, empty and nil lists.
func codecOrders() map[string]*app.Order {
	at := time.Date(2026, 11, 23, 14, 5, 6, 123456789, time.UTC)
	full := &app.Order{ID: 7, StoreID: 1, CustomerID: 3, Status: app.OrderDelivered, PaymentStatus: app.PaymentPartiallyRefunded,
		PaymentMethod: app.WalletA, PaymentSessionID: app.SessionID(1, 7, "9f9f9f9f9f9f9f9f9f9f9f9f"),
		ReceiverName: `"id":"x" \"status\": \u0001 é 🙂`, Phone: "+1 555 0100", Address: "line 1\nline 2\t\\ Straße 5, 東京",
		Email: "a@example.com",
		Items: []app.OrderItem{{ProductID: 1, VariantID: 2, Name: `Trail "Runner" – EU 42`, UnitPrice: 1250, Quantity: 2, LineTotal: 2500, TaxRate: "19", Tax: 399},
			{ProductID: 1 << 40, VariantID: math.MaxUint64, Name: "Mug ☕", UnitPrice: 1_000_000_00, Quantity: 1 << 40, LineTotal: -5, TaxRate: "7.25", Tax: -1}},
		Subtotal: 2500, Discount: 100, DeliveryFee: 300, Total: 2700, Currency: "USD", CouponCode: "SAVE10", CouponID: 9,
		RefundedAmount: 500, CallbackURL: "https://shop.example/return?a=1&b=2", Test: true, GuestCartID: 4, TrackingNumber: "1Z999AA10123456784",
		Carrier: "UPS", TrackingURL: "https://track.example/1Z999AA10123456784", ShippedAt: at.Add(30 * time.Minute),
		DeliveredAt: at.Add(2 * time.Hour), DeliveredBy: "owner@example.com",
		Notes: []app.OrderNote{{At: at.Add(time.Hour), AdminID: 1, Author: "ann", Text: "{\"id\":1} called the shopper"},
			{At: at.Add(2 * time.Hour), AdminID: 2, Author: "Zoë", Text: "ok"}},
		ProviderRefunds: []app.ProviderRefundRecord{{ID: "re_1", Amount: 300, RequestKind: "refund", RequestID: 4, At: at.Add(3 * time.Hour)},
			{ID: "re_2", Amount: 200, RequestKind: "admin", RequestID: 5, At: at.Add(4 * time.Hour)}},
		CreatedAt: at, UpdatedAt: at.Add(5 * time.Hour),
		OrderTax: app.OrderTax{Country: "DE", Region: "BY", PricesIncludeTax: true, TaxTotal: 431,
			TaxLines: []app.TaxLine{{Name: "MwSt.", Rate: "19", Amount: 431}, {Name: "ermäßigt", Rate: "7", Amount: 12}}, DeliveryTaxRate: "19",
			InvoiceNumber: "RE-2026-17", InvoicedAt: at.Add(time.Minute),
			CreditNotes: []app.CreditNote{{Number: "GS-1", Invoice: "RE-2026-17", Amount: 500,
				TaxLines: []app.TaxLine{{Name: "MwSt.", Rate: "19", Amount: 80}}, At: at.Add(3 * time.Hour)}}}}
	guest := benchOrder(1, 8)
	customer := &app.Order{ID: 1 << 33, StoreID: 1 << 20, CustomerID: 12, Status: app.OrderConfirmed, PaymentStatus: app.PaymentPaid,
		PaymentMethod: "CARD", PaymentSessionID: "ps_legacy", ReceiverName: "Ада Лавлейс", Phone: "", Address: "",
		Email: "ada@example.com",
		Items: []app.OrderItem{{ProductID: 4, VariantID: 40, Name: "Shirt S", UnitPrice: 2000, Quantity: 1, LineTotal: 2000},
			{ProductID: 4, VariantID: 41, Name: "Shirt M", UnitPrice: 2000, Quantity: 3, LineTotal: 6000}},
		Subtotal: 8000, Discount: 800, Total: 7200, Currency: "EUR", CouponCode: "WELCOME", CouponID: 1,
		CallbackURL: "http://localhost:3000/done", Notes: []app.OrderNote{}, ProviderRefunds: []app.ProviderRefundRecord{},
		CreatedAt: at, UpdatedAt: at}
	empty := &app.Order{Items: []app.OrderItem{}}
	return map[string]*app.Order{"full": full, "guest": guest, "customer": customer, "empty": empty, "zero": {}}
}

// zeroFields names the fields of v (nested structs and slice elements too;
// a time is one value) that are zero.
func zeroFields(v reflect.Value, path string) []string {
	if v.Type() == reflect.TypeOf(time.Time{}) || v.Kind() != reflect.Struct && v.Kind() != reflect.Slice {
		if v.IsZero() {
			return []string{path}
		}
		return nil
	}
	var out []string
	if v.Kind() == reflect.Slice {
		if v.Len() == 0 {
			return []string{path}
		}
		for i := 0; i < v.Len(); i++ {
			out = append(out, zeroFields(v.Index(i), path+"[]")...)
		}
		return out
	}
	for i := 0; i < v.NumField(); i++ {
		out = append(out, zeroFields(v.Field(i), path+"."+v.Type().Field(i).Name)...)
	}
	return out
}

// TestOrderCodec: orders round-trip through the compact form exactly (every
// field of app.Order and of its lines, notes and refunds: a field added
// there without the codec fails here), null and empty lists kept apart;
// a time not in UTC reads back in UTC, one outside Unix nanoseconds is
// refused; Export hands JSON on; a damaged record is an error.
func TestOrderCodec(t *testing.T) {
	orders := codecOrders()
	if zero := zeroFields(reflect.ValueOf(*orders["full"]), "Order"); len(zero) > 0 {
		t.Fatalf("the sample leaves %v zero: set them, and store them in appendOrder", zero)
	}
	for name, o := range orders {
		b, err := encodeOrder(o)
		if err != nil {
			t.Fatal(err)
		}
		if b[0] != orderCompact {
			t.Fatalf("%s: not compact: %q", name, b)
		}
		got, err := decodeOrder(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, o) {
			t.Errorf("%s: read back as\n%+v\nwant\n%+v", name, got, o)
		}
		js, _ := json.Marshal(o)
		if exp, err := orderJSON(nil, b); err != nil || !bytes.Equal(exp, js) {
			t.Errorf("%s: exported %s, %v; want %s", name, exp, err, js)
		}
		if name == "guest" && len(b)*10 > len(js)*3 {
			t.Errorf("%s: %d bytes compact, %d as JSON: more than 30%%", name, len(b), len(js))
		}
	}

	local := *orders["guest"]
	local.CreatedAt = local.CreatedAt.In(time.FixedZone("X", 3600))
	b, _ := encodeOrder(&local)
	if got, err := decodeOrder(b); err != nil || got.CreatedAt != local.CreatedAt.UTC() {
		t.Errorf("a time not in UTC read back as %v, %v; want %v", got.CreatedAt, err, local.CreatedAt.UTC())
	}
	far := *orders["guest"]
	far.UpdatedAt = time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)
	noted := *orders["full"]
	noted.Notes = []app.OrderNote{{At: time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), Text: "before Unix nanoseconds"}}
	for name, o := range map[string]*app.Order{"after 2262": &far, "note in year 1": &noted} {
		if _, err := encodeOrder(o); !errors.Is(err, errTimeRange) {
			t.Errorf("%s: %v, want errTimeRange", name, err)
		}
	}

	// damaged: every cut of a record, and a count larger than the record
	b, _ = encodeOrder(orders["full"])
	for n := 1; n < len(b); n++ {
		if _, err := decodeOrder(b[:n]); err == nil {
			t.Fatalf("a record cut to %d of %d bytes read without an error", n, len(b))
		}
	}
	if _, err := decodeOrder(append(bytes.Clone(b), 0)); err == nil {
		t.Error("a record with a byte too many read without an error")
	}
	huge := []byte{orderCompact, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}
	if _, err := decodeOrder(huge); err == nil {
		t.Error("a count of 4 billion lines read without an error")
	}

	// through the database: written compact, listed, exported, verified
	db, err := Open(filepath.Join(t.TempDir(), "o.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(atx app.Tx) error {
		tx := atx.(*Tx)
		for _, o := range []*app.Order{orders["full"], orders["guest"], &local} {
			if err := tx.putOrder(nil, o); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(atx app.Tx) error {
		if v := atx.(*Tx).b(bOrders).Get(keyOf(1).id(7)); v[0] != orderCompact {
			t.Errorf("stored as %q, want compact", v[:1])
		}
		page, err := atx.Orders(1, app.OrderDelivered, app.ListParams{Limit: 10})
		if err != nil || len(page.Items) != 1 || !reflect.DeepEqual(page.Items[0], orders["full"]) {
			t.Errorf("listed %+v, %v", page.Items, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	exported := 0
	err = db.Export(func(r Record) error {
		if r.Bucket == string(bOrders) && r.Key != nil {
			if !json.Valid(r.Value) || !strings.HasPrefix(string(r.Value), "{") {
				t.Errorf("exported %q", r.Value)
			}
			exported++
		}
		return nil
	})
	if err != nil || exported != 2 {
		t.Errorf("export: %v, %d orders, want 2", err, exported)
	}
	if err := db.Verify(); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// FuzzOrderCodec: an order built from the fuzzer's values reads back deep
// equal from its compact form (or is refused for a time out of range), and
// any bytes decode to an order or an error, never a panic.
func FuzzOrderCodec(f *testing.F) {
	for _, o := range codecOrders() {
		var it app.OrderItem
		if len(o.Items) > 0 {
			it = o.Items[0]
		}
		b, _ := encodeOrder(o)
		f.Add(o.ID, o.CustomerID, o.ReceiverName, o.Address, it.Name, int64(it.UnitPrice), it.Quantity, uint8(len(o.Items)),
			o.CouponCode, int64(o.RefundedAmount), o.CreatedAt.UnixNano(), int64(len(o.Notes)), o.Test, b)
	}
	f.Fuzz(func(t *testing.T, id, customer uint64, name, address, line string, price, qty int64, lines uint8,
		coupon string, refunded, created, notes int64, test bool, raw []byte) {
		if o, err := decodeOrder(raw); err == nil && len(raw) > 0 && raw[0] == orderCompact {
			b, _ := encodeOrder(o)
			if again, err := decodeOrder(b); err != nil || !reflect.DeepEqual(again, o) {
				t.Fatalf("%q read as %+v, written and read again as %+v, %v", raw, o, again, err)
			}
		}
		at := time.Unix(0, created).UTC()
		o := &app.Order{ID: id, StoreID: 1, CustomerID: customer, Status: app.OrderPending, PaymentStatus: app.PaymentUnpaid,
			ReceiverName: name, Address: address, Email: name + "@example.com", Currency: "USD", CouponCode: coupon,
			RefundedAmount: app.Money(refunded), Total: app.Money(price * qty), Test: test, CreatedAt: at, UpdatedAt: at.Add(time.Second)}
		if lines > 0 {
			o.Items = []app.OrderItem{}
		}
		for i := 1; i < int(lines%8); i++ {
			o.Items = append(o.Items, app.OrderItem{ProductID: uint64(i), VariantID: id, Name: line, UnitPrice: app.Money(price),
				Quantity: qty, LineTotal: app.Money(price * qty)})
		}
		if notes != 0 {
			o.Notes = []app.OrderNote{{At: time.Unix(notes, notes).UTC(), AdminID: customer, Author: line, Text: address}}
			o.ProviderRefunds = []app.ProviderRefundRecord{{ID: coupon, Amount: app.Money(refunded), RequestKind: "refund", At: at}}
		}
		b, err := encodeOrder(o)
		if orderFits(o) != nil {
			if !errors.Is(err, errTimeRange) {
				t.Fatalf("%+v: written with a time out of range: %v", o, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeOrder(b)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if !reflect.DeepEqual(got, o) {
			t.Fatalf("read back as\n%+v\nwant\n%+v", got, o)
		}
	})
}

// TestCorruptOrderRecord: a damaged order record is refused wherever it is
// read (Tx.Order, Verify, the export), naming its key.
func TestCorruptOrderRecord(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "t.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := keyOf(1).id(5)
	if err := db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bOrders).Put(k, []byte{orderCompact, 0, 1}) }); err != nil {
		t.Fatal(err)
	}
	wantCorrupt := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, errOrderCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("%x", k)) {
			t.Fatalf("%s: %v, want errOrderCorrupt naming key %x", what, err, k)
		}
	}
	wantCorrupt("Tx.Order", db.View(func(tx app.Tx) error { _, err := tx.Order(1, 5); return err }))
	wantCorrupt("Verify", db.Verify())
	wantCorrupt("Export", db.Export(func(Record) error { return nil }))
}
