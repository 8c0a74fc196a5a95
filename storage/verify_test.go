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
