package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// expectKeys collects, per index bucket, every key (and value) that the
// records say must be there.
type expectKeys map[string]map[string][]byte

func (x expectKeys) put(bucket, k, v []byte) { x[string(bucket)][string(k)] = v }

// A verifier walks one kind of record, puts the index keys each implies, and
// checks whatever else the records promise (summaries, counters).
type verifier struct {
	indexes [][]byte
	check   func(t *Tx, want expectKeys) error
}

var (
	verifiers []verifier
	// verifyNormalize rewrites stored values of a bucket before comparing
	// (for JSON values whose encoding may differ in field order).
	verifyNormalize = map[string]func([]byte) []byte{}
)

// registerVerifier adds a verifier of the index buckets named; entity files
// call it from a package-level var (the buckets are declared in keys.go).
func registerVerifier(check func(t *Tx, want expectKeys) error, indexes ...[]byte) bool {
	verifiers = append(verifiers, verifier{indexes: indexes, check: check})
	return true
}

// Verify checks every index against its records: each record's index keys
// exist with the right values, and no index key is left without its record.
// Tests run it after mutating (testenv does after every test); it reads the
// whole database.
func (db *DB) Verify() error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		t := db.tx(btx)
		want := expectKeys{}
		for _, v := range verifiers {
			for _, b := range v.indexes {
				want[string(b)] = map[string][]byte{}
			}
		}
		for _, v := range verifiers {
			if err := v.check(t, want); err != nil {
				return err
			}
		}
		for name, keys := range want {
			norm := verifyNormalize[name]
			seen := 0
			err := t.b([]byte(name)).ForEach(func(k, v []byte) error {
				wv, ok := keys[string(k)]
				if !ok {
					return fmt.Errorf("verify: %s has a stray key %x", name, k)
				}
				if norm != nil {
					v = norm(v)
				}
				if !bytes.Equal(wv, v) && !(len(wv) == 0 && len(v) == 0) {
					return fmt.Errorf("verify: %s key %x has value %s, want %s", name, k, v, wv)
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

var _ = registerVerifier(verifyProducts, bIdxProducts, bIdxCatProducts, bProductSlugs, bIdxSearch, bSearchWords)

func verifyProducts(t *Tx, want expectKeys) error {
	return t.b(bProducts).ForEach(func(_, v []byte) error {
		var p app.Product
		if err := getJSONBytes(v, &p, "product"); err != nil {
			return err
		}
		want.put(bProductSlugs, keyOf(p.StoreID).last(p.Slug), u64(p.ID))
		if t.b(bProductDocs).Get(keyOf(p.StoreID).id(p.ID)) == nil {
			return fmt.Errorf("verify: product %d/%d has no doc", p.StoreID, p.ID)
		}
		if !p.IsActive {
			return nil
		}
		rk := u64(ratingKey(&p))
		counts := want[string(bSearchWords)]
		for _, w := range searchWordsOf(&p, t.searchStem(p.StoreID)) {
			want.put(bIdxSearch, searchKey(p.StoreID, w, p.ID), rk)
			ck := string(searchWordKey(p.StoreID, w))
			var n uint64
			if v := counts[ck]; len(v) == 8 {
				n = binary.BigEndian.Uint64(v)
			}
			counts[ck] = u64(n + 1)
		}
		entry := encodeIndexEntry(&p)
		global, inCat := productIndexKeysOf(&p)
		for _, k := range global {
			want.put(bIdxProducts, k, entry)
		}
		for _, k := range inCat {
			want.put(bIdxCatProducts, k, entry)
		}
		return nil
	})
}

var _ = registerVerifier(verifyOrders, bIdxOrdersStatus, bIdxOrdersCust, bOrderRows, bOrderStats)

// verifyOrders decodes each order once for its index keys and its derived
// row and stats (order_search.go).
func verifyOrders(t *Tx, want expectKeys) error {
	derived := wantOrderDerived{}
	err := t.b(bOrders).ForEach(func(k, v []byte) error {
		o, err := storedOrder(k, v)
		if err != nil {
			return err
		}
		want.put(bIdxOrdersStatus, orderStatusKey(o), nil)
		want.put(bIdxOrdersCust, orderCustomerKey(o), nil)
		derived.add(want, o)
		return nil
	})
	if err != nil {
		return err
	}
	derived.putStats(want)
	return nil
}
