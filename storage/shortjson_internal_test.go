package storage

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"storefront/app"
)

// TestShortJSONOrders: orders round-trip through the short-key form byte for
// byte (field names inside values, escapes, every field set), take about
// half the bytes, and orders stored as plain JSON before are read, listed
// and exported like new ones.
func TestShortJSONOrders(t *testing.T) {
	at := time.Date(2026, 11, 23, 14, 5, 6, 0, time.UTC)
	full := &app.Order{ID: 7, StoreID: 1, CustomerID: 3, Status: app.OrderPending, PaymentStatus: "UNPAID", PaymentMethod: app.WalletA,
		PaymentSessionID: "ps_1_7_" + "9f9f9f9f9f9f9f9f9f9f9f9f", ReceiverName: `"id":"x" \"status\": \u0001 é 🙂`, Phone: "+1",
		Address: "line 1\nline 2\t\\", Email: "a@example.com",
		Items:    []app.OrderItem{{ProductID: 1, VariantID: 2, Name: `name":`, UnitPrice: 1250, Quantity: 2, LineTotal: 2500}, {ProductID: 3, Name: "b"}},
		Subtotal: 2500, Discount: 100, DeliveryFee: 300, Total: 2700, Currency: "USD", CouponCode: "SAVE", CouponID: 9, RefundedAmount: 5,
		CallbackURL: "https://shop.example/return?a=1&b=2", Test: true, TrackingNumber: "T1", Carrier: "UPS",
		Notes:           []app.OrderNote{{At: at, AdminID: 1, Author: "ann", Text: "{\"id\":1}"}},
		ProviderRefunds: []app.ProviderRefundRecord{{ID: "re_1", Amount: 5, RequestKind: "refund", RequestID: 4, At: at}},
		CreatedAt:       at, UpdatedAt: at.Add(time.Minute)}
	one := &app.Order{ID: 8, StoreID: 1, Status: app.OrderPending, PaymentStatus: "UNPAID", PaymentMethod: app.WalletA,
		PaymentSessionID: "ps_1_8_9f9f9f9f9f9f9f9f9f9f9f9f", ReceiverName: "Ada Lovelace", Phone: "+15550100", Address: "1 Main St",
		Email: "ada@example.com", Items: []app.OrderItem{{ProductID: 1, Name: "Mug", UnitPrice: 1250, Quantity: 1, LineTotal: 1250}},
		Subtotal: 1250, Total: 1250, Currency: "USD", CallbackURL: "https://shop.example/return", Test: true, CreatedAt: at, UpdatedAt: at}
	for _, o := range []*app.Order{full, one, {}} {
		js, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		short := shorten(js)
		if short[0] != shortJSON {
			t.Fatalf("order %d not shortened: %q", o.ID, short)
		}
		if got := expand(short); !bytes.Equal(got, js) {
			t.Errorf("order %d:\n got %s\nwant %s", o.ID, got, js)
		}
	}
	js, _ := json.Marshal(one)
	if n := len(shorten(js)); n*100 > len(js)*55 {
		t.Errorf("a one-line order: %d bytes short, %d as JSON", n, len(js))
	}
	// not written by encoding/json (a raw control byte): kept as it is
	for _, raw := range []string{"{\"id\":\n1}", `{"id":"unterminated`} {
		if got := shorten([]byte(raw)); string(got) != raw {
			t.Errorf("shorten(%q) = %q", raw, got)
		}
	}

	db, err := Open(filepath.Join(t.TempDir(), "o.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old := *one
	old.ID = 6
	err = db.Update(func(tx app.Tx) error {
		raw, _ := json.Marshal(&old) // an order stored before the short form
		if err := tx.(*Tx).b(bOrders).Put(keyOf(1).id(6), raw); err != nil {
			return err
		}
		if err := tx.(*Tx).putOrder(nil, &old); err != nil { // its indexes (and a compact copy, replaced below)
			return err
		}
		if err := tx.(*Tx).b(bOrders).Put(keyOf(1).id(6), raw); err != nil {
			return err
		}
		for _, o := range []*app.Order{full, one} {
			if err := tx.(*Tx).putOrder(nil, o); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint64]*app.Order{6: &old, 7: full, 8: one}
	err = db.View(func(tx app.Tx) error {
		if v := tx.(*Tx).b(bOrders).Get(keyOf(1).id(6)); v[0] != '{' {
			t.Errorf("the old order was rewritten: %q", v)
		}
		for id, o := range want {
			got, err := tx.Order(1, id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, o) {
				t.Errorf("order %d read back as %+v, want %+v", id, got, o)
			}
		}
		page, err := tx.Orders(1, "", app.ListParams{Limit: 10})
		if err != nil || len(page.Items) != 3 {
			t.Fatalf("list: %v, %d orders", err, len(page.Items))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	exported := 0
	err = db.Export(func(rec Record) error {
		if rec.Bucket != string(bOrders) || rec.Key == nil {
			return nil
		}
		var o app.Order
		if err := json.Unmarshal(rec.Value, &o); err != nil {
			t.Fatalf("exported %q: %v", rec.Value, err)
		}
		if !reflect.DeepEqual(&o, want[o.ID]) {
			t.Errorf("exported %+v, want %+v", o, want[o.ID])
		}
		exported++
		return nil
	})
	if err != nil || exported != 3 {
		t.Fatalf("export: %v, %d of 3 orders", err, exported)
	}
	if err := db.Verify(); err != nil {
		t.Errorf("verify: %v", err)
	}
}
