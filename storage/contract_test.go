package storage_test

import (
	"path/filepath"
	"testing"
	"time"

	"storefront/app"
	"storefront/storage"
	"storefront/storage/storagetest"
)

// TestContract runs the storage contract (storage/storagetest) on bbolt.
func TestContract(t *testing.T) {
	storagetest.Run(t, func(t *testing.T, now func() time.Time) app.DB {
		db, err := storage.Open(filepath.Join(t.TempDir(), "contract.db"), storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		db.Now = now
		return db
	})
}
