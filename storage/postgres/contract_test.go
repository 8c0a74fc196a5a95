package postgres_test

import (
	"testing"
	"time"

	"storefront/app"
	"storefront/storage/postgres/pgtest"
	"storefront/storage/storagetest"
)

// TestContract runs the storage contract (storage/storagetest) on
// PostgreSQL, a fresh database per case.
func TestContract(t *testing.T) {
	storagetest.Run(t, func(t *testing.T, now func() time.Time) app.DB {
		db := pgtest.Open(t)
		db.Now = now
		return db
	})
}
