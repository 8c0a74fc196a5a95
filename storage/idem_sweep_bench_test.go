package storage_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/storage"
)

// BenchmarkIdempotencySweep: the search of the minute job's sweep of a
// store's idempotency records (sweepIdempotency's read transaction) when none
// is old yet, with 200,000 kept (a busy week). It held the write transaction
// for as long before the sweep searched in a read one.
func BenchmarkIdempotencySweep(b *testing.B) {
	db, err := storage.Open(filepath.Join(b.TempDir(), "storefront.db"), storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	const n = 200000
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	hash := strings.Repeat("0123456789abcdef", 4)
	for i := 0; i < n; i += 10000 {
		if err := db.Update(func(tx app.Tx) error {
			for j := i; j < i+10000; j++ {
				sid := app.SessionID(1, uint64(j+1), "9f9f9f9f9f9f9f9f9f9f9f9f")
				r := &app.IdempotencyRecord{StoreID: 1, Key: fmt.Sprintf("checkout-%08d\x00%s", j, hash), BodyHash: hash,
					OrderID: uint64(j + 1), SessionID: sid, RedirectURL: "http://127.0.0.1:8080/sandbox/pay/" + sid + "/", CreatedAt: at}
				if err := tx.PutIdempotencyRecord(r); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		if err := db.View(func(tx app.Tx) error {
			old, err := tx.IdempotencyRecordsBefore(1, at.Add(-time.Hour), 1000)
			if err == nil && len(old) != 0 {
				err = fmt.Errorf("found %d", len(old))
			}
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
}
