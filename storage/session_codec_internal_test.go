package storage

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"storefront/app"
)

// TestPaymentSessionForms: sessions round-trip through the compact form
// exactly (every field of app.PaymentSession: a field added there without
// the codec fails here), times not in UTC read back in UTC, a session of the
// form before schema 3 is refused by the reader and rewritten by the
// migration, sessions are exported as JSON, a damaged one is an error.
func TestPaymentSessionForms(t *testing.T) {
	at := time.Date(2026, 11, 23, 14, 5, 6, 123456789, time.UTC)
	id := app.SessionID(3, 0x2a, "a01435ecfd02201f1538c74d")
	full := &app.PaymentSession{ID: id, StoreID: 3, Seq: 0x2a, OrderID: 99, Method: "WALLET_A", Amount: 1250, Currency: "USD",
		CallbackURL: "https://shop.example/return", Status: app.SessionOpen, PaidTxID: "tx_1", Provider: "stripe", Test: true,
		ProviderRef: "cs_test_1", RedirectURL: "https://pay.example/" + id + "/",
		Attempts:  []app.PaymentAttempt{{TransactionID: "tx_0", Success: true, Message: "paid", At: at.Add(time.Minute)}},
		CreatedAt: at, UpdatedAt: at.Add(2 * time.Minute)}
	if zero := zeroFields(reflect.ValueOf(*full), ""); len(zero) > 0 {
		t.Fatalf("the sample leaves %v zero: set them, and store them in encodeSession", zero)
	}
	sandbox := &app.PaymentSession{ID: id, StoreID: 3, Seq: 0x2a, OrderID: 42, Method: "WALLET_A", Amount: 1250, Currency: "USD",
		CallbackURL: "https://shop.example/return", Status: app.SessionOpen, Provider: "sandbox", Test: true, ProviderRef: id,
		RedirectURL: "http://127.0.0.1:8080/sandbox/pay/" + id + "/", Attempts: []app.PaymentAttempt{}, CreatedAt: at, UpdatedAt: at}
	odd := *sandbox
	odd.ID, odd.ProviderRef, odd.RedirectURL, odd.Attempts, odd.Amount = "legacy-id", "", "", nil, -5
	local := *sandbox
	local.CreatedAt = at.In(time.FixedZone("X", 3600))
	local.Attempts = []app.PaymentAttempt{{TransactionID: "sbx_1", Success: true, At: at.In(time.FixedZone("X", 3600))}}
	inUTC := local
	inUTC.CreatedAt, inUTC.Attempts = at, []app.PaymentAttempt{{TransactionID: "sbx_1", Success: true, At: at}}
	cases := map[string]struct{ ps, want *app.PaymentSession }{"full": {full, full}, "sandbox": {sandbox, sandbox},
		"odd id, null attempts": {&odd, &odd}, "not UTC": {&local, &inUTC}}
	for name, c := range cases {
		b, err := encodeSession(c.ps)
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(c.ps)
		if b[0] != sessCompact || b[1]&sessAttempts == 0 {
			t.Errorf("%s: not in the compact form: %q", name, b)
		}
		if name == "sandbox" && len(b)*3 > len(js) {
			t.Errorf("%s: %d bytes compact, %d as JSON: not a third", name, len(b), len(js))
		}
		k := keyOf(c.ps.StoreID).id(c.ps.Seq)
		got, err := decodeSession(k, b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v\nwant %+v", name, got, c.want)
		}
		for i := range b {
			if _, err := decodeSession(k, b[:i]); err == nil {
				t.Errorf("%s: %d of %d bytes decoded", name, i, len(b))
			}
		}
	}
	zeroTime := *sandbox
	zeroTime.CreatedAt = time.Time{}
	if _, err := encodeSession(&zeroTime); !errors.Is(err, errTimeRange) {
		t.Errorf("a session created at the zero time: %v, want errTimeRange", err)
	}

	// The attempts in the compact form; a session written before schema 3
	// (its attempts as JSON, bytes of the previous encoder) is refused by
	// the reader and rewritten by the migration.
	if b, _ := encodeSession(full); bytes.Contains(b, []byte(`"transaction_id"`)) {
		t.Errorf("full: attempts not in the compact form: %q", b)
	}
	before, _ := hex.DecodeString("0107a01435ecfd02201f1538c74d2ac4130857414c4c45545f41035553441b68747470733a2f2f73686f702e6578616d706c652f72657475726e0450414944057362785f310773616e64626f78002323687474703a2f2f3132372e302e302e313a383038302f73616e64626f782f7061792f2fd4015b7b227472616e73616374696f6e5f6964223a227362785f30222c2273756363657373223a66616c73652c226d657373616765223a226465636c696e6564222c226174223a22323032362d31312d32335431343a30353a30362e3132333435363738395a227d2c7b227472616e73616374696f6e5f6964223a227362785f31222c2273756363657373223a747275652c226d657373616765223a227061796d656e74207265636569766564222c226174223a22323032362d31312d32335431343a30363a30362e3132333435363738395a227d5daa84f0909de8d8ea3180e0ba84bf03")
	paid := *sandbox
	paid.Status, paid.PaidTxID, paid.UpdatedAt = app.SessionPaid, "sbx_1", at.Add(time.Minute)
	paid.Attempts = []app.PaymentAttempt{{TransactionID: "sbx_0", Message: "declined", At: at},
		{TransactionID: "sbx_1", Success: true, Message: "payment received", At: at.Add(time.Minute)}}
	if _, err := decodeSession(keyOf(3).id(0x2a), before); !errors.Is(err, errSessCorrupt) {
		t.Errorf("a session of the form before schema 3 read: %v", err)
	}
	b, err := oldSession(keyOf(3).id(0x2a), before)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := decodeSession(keyOf(3).id(0x2a), b); err != nil || !reflect.DeepEqual(got, &paid) {
		t.Errorf("a session written before, migrated: got %+v, %v\nwant %+v", got, err, &paid)
	}
	if len(b) >= len(before) {
		t.Errorf("paid: %d bytes, %d before", len(b), len(before))
	}
	for _, bad := range []byte{2, 0xff} { // success is a 0 or a 1
		b, _ := encodeSession(full)
		i := bytes.Index(b, []byte("\x04tx_0")) + 5
		b[i] = bad
		if _, err := decodeSession(keyOf(3).id(0x2a), b); err == nil {
			t.Errorf("success byte %d read without an error", bad)
		}
	}

	// Through the database: read and exported as JSON.
	db, err := Open(filepath.Join(t.TempDir(), "s.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old := *sandbox
	old.Seq, old.ID = 7, app.SessionID(3, 7, "00112233445566778899aabb")
	err = db.Update(func(tx app.Tx) error {
		if err := tx.PutPaymentSession(&old); err != nil {
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
