package storage

import (
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// TestSchemaFive: a schema-4 file opens as schema 5, its orders (no tax
// part) read with no tax, and one given an invoice is stored and read back
// with it.
func TestSchemaFive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "storefront.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	o := &app.Order{StoreID: 1, Status: app.OrderPending, PaymentStatus: app.PaymentUnpaid, Currency: "USD",
		Items: []app.OrderItem{{ProductID: 1, Name: "Mug", UnitPrice: 1000, Quantity: 1, LineTotal: 1000}}, Subtotal: 1000, Total: 1000,
		CreatedAt: at, UpdatedAt: at}
	if err := db.Update(func(tx app.Tx) error { return tx.CreateOrder(o) }); err != nil {
		t.Fatal(err)
	}
	err = db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put([]byte("schema_version"), []byte("4")) })
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, Options{BackupDir: filepath.Join(t.TempDir(), "bk")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx app.Tx) error {
		got, err := tx.Order(1, o.ID)
		if err != nil {
			return err
		}
		if got.TaxTotal != 0 || got.TaxLines != nil || got.InvoiceNumber != "" || got.Items[0].TaxRate != "" {
			t.Errorf("a schema-4 order reads with tax: %+v", got.OrderTax)
		}
		got.InvoiceNumber, got.InvoicedAt = "INV-1", at
		return tx.PutOrder(got)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Verify(); err != nil {
		t.Fatalf("after the migration: %v", err)
	}
	_ = db.View(func(tx app.Tx) error {
		got, err := tx.Order(1, o.ID)
		if err != nil || got.InvoiceNumber != "INV-1" || !got.InvoicedAt.Equal(at) {
			t.Errorf("read back %+v, %v", got, err)
		}
		return nil
	})
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bMeta).Get([]byte("schema_version")); string(v) != "5" {
			t.Errorf("schema %q, want 5", v)
		}
		return nil
	})
}
