package storage

import (
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

func TestVerifyCatchesBrokenIndexes(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "t.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var p *app.Product
	err = db.Update(func(tx app.Tx) error {
		st := &app.Store{Name: "S", Subdomain: "s", Currency: "USD", IsActive: true, APIKeyHash: app.HashAPIKey("k")}
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		p = &app.Product{StoreID: st.ID, Name: "Mug", Slug: "mug", Price: 100, Stock: 1, IsActive: true}
		return tx.PutProduct(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Verify(); err != nil {
		t.Fatalf("clean database: %v", err)
	}
	global, _ := productIndexKeysOf(p)
	for name, corrupt := range map[string]func(tx *bolt.Tx) error{
		"Missing": func(tx *bolt.Tx) error { return tx.Bucket(bIdxProducts).Delete(global[1]) },
		"Stray": func(tx *bolt.Tx) error {
			return tx.Bucket(bIdxProducts).Put(keyOf(p.StoreID).code(sortNewest).id(99), nil)
		},
		"Value": func(tx *bolt.Tx) error { return tx.Bucket(bIdxProducts).Put(global[0], []byte("x")) },
	} {
		t.Run(name, func(t *testing.T) {
			if err := db.bolt.Update(corrupt); err != nil {
				t.Fatal(err)
			}
			if err := db.Verify(); err == nil {
				t.Fatal("Verify passed a broken index")
			}
			// repair for the next case
			err := db.bolt.Update(func(tx *bolt.Tx) error {
				b := tx.Bucket(bIdxProducts)
				_ = b.Delete(keyOf(p.StoreID).code(sortNewest).id(99))
				for _, k := range global {
					if err := b.Put(k, encodeIndexEntry(p)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Verify(); err != nil {
				t.Fatalf("after repair: %v", err)
			}
		})
	}
}

// TestVerifyCatchesBrokenOrderData: one walk over the orders checks their
// status and customer keys, their rows and their day's stats.
func TestVerifyCatchesBrokenOrderData(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "t.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	o := benchOrder(1, 0)
	o.Status, o.PaymentStatus = app.OrderConfirmed, app.PaymentPaid
	if err := db.update(func(tx *Tx) error { return tx.CreateOrder(o) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Verify(); err != nil {
		t.Fatalf("clean database: %v", err)
	}
	other := *o
	other.ID, other.Status, other.CustomerID = 99, app.OrderPending, 4
	stats := statsKey(o.StoreID, o.CreatedAt, o.Currency)
	for name, c := range map[string]struct{ bucket, key, value []byte }{
		"StatusMissing":   {bIdxOrdersStatus, orderStatusKey(o), nil},
		"StatusStray":     {bIdxOrdersStatus, orderStatusKey(&other), []byte{}},
		"CustomerMissing": {bIdxOrdersCust, orderCustomerKey(o), nil},
		"CustomerStray":   {bIdxOrdersCust, orderCustomerKey(&other), []byte{}},
		"RowMissing":      {bOrderRows, keyOf(o.StoreID).id(o.ID), nil},
		"RowValue":        {bOrderRows, keyOf(o.StoreID).id(o.ID), encodeRow(&other)},
		"StatsMissing":    {bOrderStats, stats, nil},
		"StatsValue":      {bOrderStats, stats, encodeStats([3]int64{1, int64(o.Total), 1})},
		"StatsStray":      {bOrderStats, statsKey(o.StoreID, o.CreatedAt.AddDate(0, 0, 1), o.Currency), encodeStats([3]int64{1, 1, 0})},
	} {
		t.Run(name, func(t *testing.T) {
			var was []byte
			set := func(v []byte) {
				t.Helper()
				err := db.bolt.Update(func(tx *bolt.Tx) error {
					b := tx.Bucket(c.bucket)
					if v == nil {
						return b.Delete(c.key)
					}
					return b.Put(c.key, v)
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			_ = db.bolt.View(func(tx *bolt.Tx) error {
				if v := tx.Bucket(c.bucket).Get(c.key); v != nil {
					was = append([]byte{}, v...)
				}
				return nil
			})
			set(c.value)
			if err := db.Verify(); err == nil {
				t.Fatal("Verify passed broken order data")
			}
			set(was) // repair for the next case
			if err := db.Verify(); err != nil {
				t.Fatalf("after repair: %v", err)
			}
		})
	}
}
