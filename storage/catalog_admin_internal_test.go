package storage

import (
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"storefront/storage/storagetest"
)

// TestAdminProductsScanPath runs the admin list case with every search word
// too common for its postings, so searches scan the stored words, then
// checks the indexes, and that a database opened before them gets them.
func TestAdminProductsScanPath(t *testing.T) {
	defer func(n int) { adminCandidates = n }(adminCandidates)
	adminCandidates = 1
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	storagetest.AdminProductsCase(t, db)
	if err := db.Verify(); err != nil {
		t.Fatal(err)
	}
	// Drop the indexes and their mark: opening again rebuilds them.
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bIdxAdminProducts, bAdminSearch} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
			if _, err := tx.CreateBucket(b); err != nil {
				return err
			}
		}
		return tx.Bucket(bMeta).Delete([]byte("built:admin_products_v1"))
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Verify(); err != nil {
		t.Fatal(err)
	}
}
