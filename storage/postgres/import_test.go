package postgres_test

import (
	"testing"

	"storefront/storage"
	"storefront/storage/postgres"
)

// TestImportKnowsEveryBucket: every bucket the bbolt backend exports has its
// place in PostgreSQL, so that migrate-data moves every record. A new bbolt
// bucket fails here until importSpecs (storage/postgres/import.go) knows it.
func TestImportKnowsEveryBucket(t *testing.T) {
	for _, b := range storage.ExportedBuckets() {
		if !postgres.Imports(b) {
			t.Errorf("bucket %q: migrate-data cannot move it to PostgreSQL (add it to importSpecs)", b)
		}
	}
}
