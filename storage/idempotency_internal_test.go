package storage

import (
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"storefront/app"
)

// TestIdempotencyRecordForms: records round-trip through the compact form
// exactly (a time not in UTC reads back as the same instant in UTC), records
// it cannot hold are refused, records are pruned and exported as JSON, and a
// damaged record is an error, never a panic.
func TestIdempotencyRecordForms(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "i.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hash := strings.Repeat("0123456789abcdef", 4)
	at := time.Date(2026, 11, 23, 14, 5, 6, 123456789, time.UTC)
	sess := "ps_1_2a_" + strings.Repeat("9f", 12)
	sess3 := "ps_3_2a_" + strings.Repeat("9f", 12)
	recs := map[string]*app.IdempotencyRecord{
		"guest": {StoreID: 1, CustomerID: 0, Key: "order-1\x00" + hash, BodyHash: hash, OrderID: 42, SessionID: sess,
			RedirectURL: "https://shop.example.com/pay/sandbox?session=" + sess + "&x=1", CreatedAt: at},
		"customer": {StoreID: 1, CustomerID: 7, Key: "order-1", BodyHash: hash, OrderID: 1 << 40, SessionID: sess,
			RedirectURL: "https://checkout.stripe.com/c/pay/cs_test_a1", CreatedAt: at.Add(time.Hour)},
		"empty redirect": {StoreID: 2, CustomerID: 3, Key: "k", BodyHash: hash, OrderID: 1, CreatedAt: at},
		"guest key with a NUL": {StoreID: 3, CustomerID: 0, Key: "a\x00b\x00" + hash, BodyHash: hash, OrderID: 43, SessionID: sess3,
			RedirectURL: "https://shop.example.com/pay/" + sess3, CreatedAt: at},
		"another store's session": {StoreID: 2, CustomerID: 0, Key: "order-2\x00" + hash, BodyHash: hash, OrderID: 44, SessionID: sess,
			RedirectURL: "https://shop.example.com/pay/" + sess, CreatedAt: at},
		"other session ids": {StoreID: 3, CustomerID: 6, Key: "k", BodyHash: hash, OrderID: 45, SessionID: "ps_3_2A_" + strings.Repeat("9f", 12),
			RedirectURL: "https://x", CreatedAt: at},
		"not UTC": {StoreID: 2, CustomerID: 5, Key: "k", BodyHash: hash, OrderID: 1, SessionID: sess, RedirectURL: sess,
			CreatedAt: at.In(time.FixedZone("X", 3600))},
	}
	// the flags of the shorter forms: key and hash read from the bbolt key
	// (guests whose key has no NUL), the standard session id as seq + 12 bytes
	flags := map[string]byte{"guest": idemGuestKey | idemKeyInKey | idemStdSession, "customer": idemStdSession,
		"empty redirect": 0, "guest key with a NUL": idemGuestKey | idemStdSession, "another store's session": idemGuestKey | idemKeyInKey,
		"other session ids": 0}
	for name, r := range recs {
		v, err := encodeIdempotency(r)
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(r)
		if v[0] != idemCompact {
			t.Errorf("%s: not compact: %q", name, v)
		}
		if f, ok := flags[name]; ok && v[1] != f {
			t.Errorf("%s: flags %b, want %b", name, v[1], f)
		}
		if len(v)*2 > len(js) {
			t.Errorf("%s: %d bytes compact, %d as JSON: not half", name, len(v), len(js))
		}
		k := idempotencyKey(r.StoreID, r.CustomerID, r.Key)
		got, err := decodeIdempotency(k, v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !got.CreatedAt.Equal(r.CreatedAt) {
			t.Errorf("%s: created_at %v, want %v", name, got.CreatedAt, r.CreatedAt)
		}
		want := *r
		want.CreatedAt, got.CreatedAt = time.Time{}, time.Time{}
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%s: got %+v\nwant %+v", name, *got, want)
		}
		for i := range v { // every truncation is an error
			if _, err := decodeIdempotency(k, v[:i]); err == nil {
				t.Errorf("%s: %d of %d bytes decoded", name, i, len(v))
			}
		}
	}
	for name, r := range map[string]*app.IdempotencyRecord{
		"upper-case hash": {StoreID: 2, CustomerID: 4, Key: "k", BodyHash: strings.ToUpper(hash), OrderID: 1, CreatedAt: at},
		"no time":         {StoreID: 2, CustomerID: 4, Key: "k", BodyHash: hash, OrderID: 1},
	} {
		if _, err := encodeIdempotency(r); !errors.Is(err, errIdemForm) {
			t.Errorf("%s: %v, want errIdemForm", name, err)
		}
	}

	// Through the database: read, exported and pruned.
	old := &app.IdempotencyRecord{StoreID: 1, CustomerID: 9, Key: "old", BodyHash: hash, OrderID: 5, SessionID: sess, RedirectURL: "u", CreatedAt: at.Add(-48 * time.Hour)}
	err = db.Update(func(tx app.Tx) error {
		for _, r := range append([]*app.IdempotencyRecord{old}, slices.Collect(maps.Values(recs))...) {
			if err := tx.PutIdempotencyRecord(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]*app.IdempotencyRecord{"old": old}
	for name, r := range recs {
		all[name] = r
	}
	err = db.View(func(tx app.Tx) error {
		for name, r := range all {
			got, err := tx.IdempotencyRecord(r.StoreID, r.CustomerID, r.Key)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got.OrderID != r.OrderID || got.RedirectURL != r.RedirectURL || got.SessionID != r.SessionID || got.BodyHash != r.BodyHash {
				t.Errorf("%s: read %+v, want %+v", name, got, r)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	exported := 0
	err = db.Export(func(rec Record) error {
		if rec.Bucket != string(bIdempotency) || rec.Key == nil {
			return nil
		}
		var r app.IdempotencyRecord
		if err := json.Unmarshal(rec.Value, &r); err != nil {
			t.Fatalf("exported %q: %v", rec.Value, err)
		}
		for _, want := range all {
			if want.StoreID == r.StoreID && want.CustomerID == r.CustomerID && want.Key == r.Key {
				if want.OrderID != r.OrderID || want.RedirectURL != r.RedirectURL || !want.CreatedAt.Equal(r.CreatedAt) {
					t.Errorf("exported %+v, want %+v", r, want)
				}
				exported++
			}
		}
		return nil
	})
	if err != nil || exported != len(all) {
		t.Fatalf("export: %v, %d of %d records", err, exported, len(all))
	}
	prune := func(before time.Time) (n int, err error) { // as the sweep does: found in a read, deleted in a write
		var old []*app.IdempotencyRecord
		if err := db.View(func(tx app.Tx) (err error) { old, err = tx.IdempotencyRecordsBefore(1, before, 100); return }); err != nil {
			return 0, err
		}
		return n, db.Update(func(tx app.Tx) (err error) {
			n, err = tx.DeleteIdempotencyRecords(1, old, before)
			return err
		})
	}
	if n, err := prune(at); err != nil || n != 1 {
		t.Fatalf("prune store 1: %d, %v; want the old record only", n, err)
	}
	if n, err := prune(at.Add(2 * time.Hour)); err != nil || n != 2 {
		t.Fatalf("prune store 1 later: %d, %v; want 2", n, err)
	}
}
