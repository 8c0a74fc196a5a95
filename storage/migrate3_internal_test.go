package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// The writers of the forms before schema 3, kept here for the fixtures.

// writeShortJSON is an order in the short-key JSON form.
func writeShortJSON(o *app.Order) []byte {
	js, _ := json.Marshal(o)
	for i, name := range oldShortNames {
		js = bytes.ReplaceAll(js, []byte(`"`+name+`":`), []byte{byte(i + 1)})
	}
	return append([]byte{oldShortJSON}, js...)
}

// writeSessionAttemptsJSON is a session in the compact form with its
// attempts as a JSON string (no sessAttempts flag).
func writeSessionAttemptsJSON(t *testing.T, ps *app.PaymentSession) []byte {
	noAttempts := *ps
	noAttempts.Attempts = nil
	b, err := encodeSession(&noAttempts)
	if err != nil {
		t.Fatal(err)
	}
	tail := binary.AppendVarint(nil, ps.CreatedAt.UnixNano())
	tail = binary.AppendVarint(tail, ps.UpdatedAt.UnixNano()-ps.CreatedAt.UnixNano())
	at := len(b) - len(tail) - 1 // the null attempts
	attempts, _ := json.Marshal(ps.Attempts)
	out := append(appendString(bytes.Clone(b[:at]), string(attempts)), tail...)
	out[1] &^= sessAttempts
	return out
}

// TestSchemaThree: a schema-2 file holding every form written before
// schema 3 (orders as plain JSON, short-key JSON and compact; sessions as
// JSON, compact with JSON attempts and compact; idempotency records as JSON
// and compact) opens, leaves a schema-2 copy, holds every record in its one
// form, reads each back as written, and verifies; the copy restores (opens
// and migrates) alike.
func TestSchemaThree(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "storefront.db")
	want := fixtureSchemaTwo(t, path)

	backups := filepath.Join(dir, "bk")
	checkMigrated(t, path, Options{BackupDir: backups}, want)
	files, _ := filepath.Glob(filepath.Join(backups, "storefront-schema2-*.db"))
	if len(files) != 1 {
		t.Fatalf("got backups %v, want one storefront-schema2-*.db", files)
	}
	restored := filepath.Join(dir, "restored.db")
	copyFile(t, files[0], restored)
	checkMigrated(t, restored, Options{BackupDir: filepath.Join(dir, "bk2")}, want)
}

// fixtureSchemaTwo writes a schema-2 database at path and returns its
// records by bucket and key, as JSON.
func fixtureSchemaTwo(t *testing.T, path string) map[string]map[string]string {
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2026, 11, 20, 9, 0, 0, 123456789, time.UTC)
	hash := strings.Repeat("0123456789abcdef", 4)
	var orders []*app.Order
	var sessions []*app.PaymentSession
	var idem []*app.IdempotencyRecord
	for i := uint64(1); i <= 3; i++ {
		o := benchOrder(1, 0)
		o.Notes = []app.OrderNote{{At: at, AdminID: 1, Author: "ann", Text: fmt.Sprint("note ", i)}}
		orders = append(orders, o)
		sid := app.SessionID(1, i, "9f9f9f9f9f9f9f9f9f9f9f9f")
		sessions = append(sessions, &app.PaymentSession{ID: sid, StoreID: 1, Seq: i, OrderID: i, Method: app.WalletA, Amount: 5911,
			Currency: "USD", Status: app.SessionPaid, PaidTxID: "sbx_1", Provider: "sandbox", ProviderRef: sid,
			RedirectURL: "http://127.0.0.1:8080/sandbox/pay/" + sid + "/",
			Attempts:    []app.PaymentAttempt{{TransactionID: "sbx_1", Success: true, Message: "paid", At: at}},
			CreatedAt:   at, UpdatedAt: at.Add(time.Minute)})
		idem = append(idem, &app.IdempotencyRecord{StoreID: 1, Key: fmt.Sprintf("key-%d\x00%s", i, hash), BodyHash: hash,
			OrderID: i, SessionID: sid, RedirectURL: sessions[i-1].RedirectURL, CreatedAt: at})
	}
	err = db.Update(func(tx app.Tx) error {
		for i := range orders {
			if err := tx.CreateOrder(orders[i]); err != nil {
				return err
			}
			if err := tx.PutPaymentSession(sessions[i]); err != nil {
				return err
			}
			if err := tx.PutIdempotencyRecord(idem[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	js := func(v any) []byte { b, _ := json.Marshal(v); return b }
	old := map[string]map[string][]byte{ // the earlier forms
		string(bOrders): {string(keyOf(1).id(1)): js(orders[0]), string(keyOf(1).id(2)): writeShortJSON(orders[1])},
		string(bPaymentSessions): {string(keyOf(1).id(1)): js(sessions[0]),
			string(keyOf(1).id(2)): writeSessionAttemptsJSON(t, sessions[1])},
		string(bIdempotency): {string(idempotencyKey(1, 0, idem[0].Key)): js(idem[0])},
	}
	for bucket, recs := range old { // the readers take the one form only
		for k, v := range recs {
			if _, err := readOneForm(bucket, []byte(k), []byte(v)); err == nil {
				t.Errorf("%s %x: the reader took the older form %q", bucket, k, v)
			}
		}
	}
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		for bucket, recs := range old {
			for k, v := range recs {
				if err := tx.Bucket([]byte(bucket)).Put([]byte(k), v); err != nil {
					return err
				}
			}
		}
		return tx.Bucket(bMeta).Put([]byte("schema_version"), []byte("2"))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{string(bOrders): {}, string(bPaymentSessions): {}, string(bIdempotency): {}}
	for i := range orders {
		want[string(bOrders)][string(keyOf(1).id(orders[i].ID))] = string(js(orders[i]))
		want[string(bPaymentSessions)][string(keyOf(1).id(sessions[i].Seq))] = string(js(sessions[i]))
		want[string(bIdempotency)][string(idempotencyKey(1, 0, idem[i].Key))] = string(js(idem[i]))
	}
	return want
}

// checkMigrated opens path (migrating it) and checks that every record of
// want is stored in its one form and reads back as want has it.
func checkMigrated(t *testing.T, path string, opt Options, want map[string]map[string]string) {
	t.Helper()
	db, err := Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := map[string]map[string]string{}
	err = db.bolt.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bMeta).Get([]byte("schema_version")); string(v) != fmt.Sprint(SchemaVersion) {
			t.Errorf("schema %q, want %d", v, SchemaVersion)
		}
		for bucket := range want {
			got[bucket] = map[string]string{}
			err := tx.Bucket([]byte(bucket)).ForEach(func(k, v []byte) error {
				r, err := readOneForm(bucket, k, v)
				if err != nil {
					return err
				}
				b, _ := json.Marshal(r)
				got[bucket][string(k)] = string(b)
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after the migration:\n%v\nwant\n%v", got, want)
	}
	if err := db.Verify(); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// readOneForm reads a record of bucket with its reader (the one form).
func readOneForm(bucket string, k, v []byte) (any, error) {
	switch bucket {
	case string(bOrders):
		return storedOrder(k, v)
	case string(bPaymentSessions):
		return decodeSession(k, v)
	default:
		return decodeIdempotency(k, v)
	}
}

func copyFile(t *testing.T, from, to string) {
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
