package storage

import (
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// TestSchemaFour: a schema-3 file (no idx_audit_object) opens, the index is
// built from the entries kept, and an order's entries are read from it.
func TestSchemaFour(t *testing.T) {
	path := filepath.Join(t.TempDir(), "storefront.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	err = db.Update(func(tx app.Tx) error {
		for _, e := range []app.AuditEntry{
			{StoreID: 1, Object: "orders/7", Action: "orders.ship"},
			{StoreID: 1, Object: "orders/8", Action: "orders.ship"},
			{StoreID: 2, Object: "orders/7", Action: "orders.ship"}, // another store's order 7
			{StoreID: 1, Object: "", Action: "products.import"},
			{StoreID: 0, Object: "stores/1", Action: "stores.create"},
			{StoreID: 1, Object: "orders/7", Action: "orders.note"},
		} {
			e.At = at
			if err := tx.CreateAuditEntry(&e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.bolt.Update(func(tx *bolt.Tx) error { // as schema 3 left it
		if err := tx.DeleteBucket(bIdxAuditObject); err != nil {
			return err
		}
		return tx.Bucket(bMeta).Put([]byte("schema_version"), []byte("3"))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	db, err = Open(path, Options{BackupDir: filepath.Join(t.TempDir(), "bk")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Verify(); err != nil {
		t.Fatalf("after the migration: %v", err)
	}
	var actions []string
	err = db.View(func(tx app.Tx) error {
		pg, err := tx.AuditEntries(app.AuditFilter{StoreID: 1, Object: "orders/7"}, app.ListParams{Limit: 10})
		for _, e := range pg.Items {
			actions = append(actions, e.Action)
		}
		return err
	})
	if err != nil || len(actions) != 2 || actions[0] != "orders.note" || actions[1] != "orders.ship" {
		t.Fatalf("store 1's order 7: %v, %v; want [orders.note orders.ship]", actions, err)
	}
}
