package storage

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"storefront/app"
)

// TestPaymentSessionForms: sessions round-trip through the compact form
// exactly (every field of app.PaymentSession: a field added there without
// the codec fails here), sessions it cannot hold stay JSON, sessions stored
// as JSON before it are read and exported, a damaged one is an error.
func TestPaymentSessionForms(t *testing.T) {
	at := time.Date(2026, 11, 23, 14, 5, 6, 123456789, time.UTC)
	id := app.SessionID(3, 0x2a, "a01435ecfd02201f1538c74d")
	full := &app.PaymentSession{ID: id, StoreID: 3, Seq: 0x2a, OrderID: 99, Method: "WALLET_A", Amount: 1250, Currency: "USD",
		CallbackURL: "https://shop.example/return", Status: app.SessionOpen, PaidTxID: "tx_1", Provider: "stripe", Test: true,
		ProviderRef: "cs_test_1", RedirectURL: "https://pay.example/" + id + "/",
		Attempts:  []app.PaymentAttempt{{TransactionID: "tx_0", Success: false, Message: "declined", At: at.Add(time.Minute)}},
		CreatedAt: at, UpdatedAt: at.Add(2 * time.Minute)}
	v := reflect.ValueOf(*full)
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsZero() {
			t.Fatalf("the sample leaves %s zero: set it, and store it in encodeSession", v.Type().Field(i).Name)
		}
	}
	sandbox := &app.PaymentSession{ID: id, StoreID: 3, Seq: 0x2a, OrderID: 42, Method: "WALLET_A", Amount: 1250, Currency: "USD",
		CallbackURL: "https://shop.example/return", Status: app.SessionOpen, Provider: "sandbox", Test: true, ProviderRef: id,
		RedirectURL: "http://127.0.0.1:8080/sandbox/pay/" + id + "/", Attempts: []app.PaymentAttempt{}, CreatedAt: at, UpdatedAt: at}
	odd := *sandbox
	odd.ID, odd.ProviderRef, odd.RedirectURL, odd.Attempts, odd.Amount = "legacy-id", "", "", nil, -5
	local := *sandbox
	local.CreatedAt = at.In(time.FixedZone("X", 3600))
	cases := map[string]struct {
		ps      *app.PaymentSession
		compact bool
	}{"full": {full, true}, "sandbox": {sandbox, true}, "odd id, null attempts": {&odd, true}, "not UTC": {&local, false}}
	for name, c := range cases {
		b, err := encodeSession(c.ps)
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(c.ps)
		if got := b[0] == sessCompact; got != c.compact {
			t.Errorf("%s: compact %v, want %v", name, got, c.compact)
		}
		if name == "sandbox" && len(b)*3 > len(js) {
			t.Errorf("%s: %d bytes compact, %d as JSON: not a third", name, len(b), len(js))
		}
		k := keyOf(c.ps.StoreID).id(c.ps.Seq)
		got, err := decodeSession(k, b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		gotJS, _ := json.Marshal(got)
		if string(gotJS) != string(js) {
			t.Errorf("%s:\n got %s\nwant %s", name, gotJS, js)
		}
		if c.compact {
			if !reflect.DeepEqual(got, c.ps) {
				t.Errorf("%s: got %+v\nwant %+v", name, got, c.ps)
			}
			for i := range b {
				if _, err := decodeSession(k, b[:i]); err == nil {
					t.Errorf("%s: %d of %d bytes decoded", name, i, len(b))
				}
			}
		}
	}

	// An old JSON session beside a new one: read and exported alike.
	db, err := Open(filepath.Join(t.TempDir(), "s.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old := *sandbox
	old.Seq, old.ID = 7, app.SessionID(3, 7, "00112233445566778899aabb")
	err = db.Update(func(tx app.Tx) error {
		raw, _ := json.Marshal(&old)
		if err := tx.(*Tx).b(bPaymentSessions).Put(keyOf(3).id(7), raw); err != nil {
			return err
		}
		return tx.PutPaymentSession(full)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []*app.PaymentSession{&old, full} {
		var got *app.PaymentSession
		if err := db.View(func(tx app.Tx) (err error) { got, err = tx.PaymentSession(3, want.Seq); return }); err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(want)
		if string(a) != string(b) {
			t.Errorf("read %s\nwant %s", a, b)
		}
	}
	n := 0
	err = db.Export(func(r Record) error {
		if r.Bucket != string(bPaymentSessions) || r.Key == nil {
			return nil
		}
		var ps app.PaymentSession
		if err := json.Unmarshal(r.Value, &ps); err != nil {
			t.Fatalf("exported %q: %v", r.Value, err)
		}
		n++
		return nil
	})
	if err != nil || n != 2 {
		t.Fatalf("export: %v, %d sessions", err, n)
	}
}
