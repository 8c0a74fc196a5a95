package storage

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// Verify checks every index against its records: each record's index keys
// exist with the right values, and no index key is left without its record.
// Tests run it after mutating; it reads the whole database.
func (db *DB) Verify() error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		t := &Tx{tx: btx}
		want := map[string]map[string][]byte{
			string(bIdxProducts): {}, string(bIdxCatProducts): {}, string(bProductSlugs): {},
			string(bIdxOrdersStatus): {}, string(bIdxOrdersCust): {},
		}
		err := t.b(bProducts).ForEach(func(_, v []byte) error {
			var p app.Product
			if err := getJSONBytes(v, &p, "product"); err != nil {
				return err
			}
			want[string(bProductSlugs)][string(key(p.StoreID, p.Slug))] = u64(p.ID)
			if t.b(bProductDocs).Get(key(p.StoreID, p.ID)) == nil {
				return fmt.Errorf("verify: product %d/%d has no doc", p.StoreID, p.ID)
			}
			if !p.IsActive {
				return nil
			}
			entry := encodeIndexEntry(&p)
			global, inCat := productIndexKeysOf(&p)
			for _, k := range global {
				want[string(bIdxProducts)][string(k)] = entry
			}
			for _, k := range inCat {
				want[string(bIdxCatProducts)][string(k)] = entry
			}
			return nil
		})
		if err != nil {
			return err
		}
		err = t.b(bOrders).ForEach(func(_, v []byte) error {
			var o app.Order
			if err := getJSONBytes(v, &o, "order"); err != nil {
				return err
			}
			want[string(bIdxOrdersStatus)][string(orderStatusKey(&o))] = nil
			want[string(bIdxOrdersCust)][string(orderCustomerKey(&o))] = nil
			return nil
		})
		if err != nil {
			return err
		}
		for name, keys := range want {
			seen := 0
			err := t.b([]byte(name)).ForEach(func(k, v []byte) error {
				wv, ok := keys[string(k)]
				if !ok {
					return fmt.Errorf("verify: %s has a stray key %x", name, k)
				}
				if !bytes.Equal(wv, v) && !(len(wv) == 0 && len(v) == 0) {
					return fmt.Errorf("verify: %s key %x has value %x, want %x", name, k, v, wv)
				}
				seen++
				return nil
			})
			if err != nil {
				return err
			}
			if seen != len(keys) {
				return fmt.Errorf("verify: %s has %d keys, want %d", name, seen, len(keys))
			}
		}
		return nil
	})
}
