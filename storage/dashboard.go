package storage

import (
	"bytes"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
	bberrors "go.etcd.io/bbolt/errors"

	"storefront/app"
)

// bIdxProductsLow lists the products that are app.Product.CountsAsLowStock:
// sid|pid -> nil, kept by writeProduct and DeleteProduct.
var (
	_ = registerVerifier(verifyLowStock, bIdxProductsLow)
	_ = registerDerived("products_low_v1", rebuildLowStock, bIdxProductsLow)
)

// putLowStock keeps p's entry in the low-stock index.
func (t *Tx) putLowStock(p *app.Product) error {
	k := keyOf(p.StoreID).id(p.ID)
	if p.CountsAsLowStock() {
		return t.b(bIdxProductsLow).Put(k, nil)
	}
	return t.b(bIdxProductsLow).Delete(k)
}

// countPrefix counts the keys of b under prefix.
func countPrefix(b *bolt.Bucket, prefix []byte) int {
	n := 0
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		n++
	}
	return n
}

// CountRequests counts a store's requests of a kind in a status.
func (t *Tx) CountRequests(storeID uint64, kind, status string) (int, error) {
	return countPrefix(t.b(bIdxRequestsStatus), keyOf(storeID).str0(kind).str0(status)), nil
}

// CountReviews counts a store's reviews in a status.
func (t *Tx) CountReviews(storeID uint64, status string) (int, error) {
	return countPrefix(t.b(bIdxReviewsStatus), keyOf(storeID).str0(status)), nil
}

// CountTickets counts a store's tickets in a status.
func (t *Tx) CountTickets(storeID uint64, status string) (int, error) {
	return countPrefix(t.b(bIdxTicketsStatus), keyOf(storeID).str0(status)), nil
}

// CountUnreadMessages counts a store's unread contact messages.
func (t *Tx) CountUnreadMessages(storeID uint64) (int, error) {
	return countPrefix(t.b(bIdxContactRead), keyOf(storeID).code(unreadFlag(false))), nil
}

// CountLowStock counts a store's products low on stock.
func (t *Tx) CountLowStock(storeID uint64) (int, error) {
	return countPrefix(t.b(bIdxProductsLow), tenant(storeID)), nil
}

func verifyLowStock(t *Tx, want expectKeys) error {
	return t.b(bProducts).ForEach(func(_, v []byte) error {
		var p app.Product
		if err := getJSONBytes(v, &p, "product"); err != nil {
			return err
		}
		if p.CountsAsLowStock() {
			want.put(bIdxProductsLow, keyOf(p.StoreID).id(p.ID), nil)
		}
		return nil
	})
}

func rebuildLowStock(tx *bolt.Tx) error {
	b := tx.Bucket(bIdxProductsLow)
	return tx.Bucket(bProducts).ForEach(func(_, v []byte) error {
		var p app.Product
		if err := getJSONBytes(v, &p, "product"); err != nil {
			return err
		}
		if p.CountsAsLowStock() {
			return b.Put(keyOf(p.StoreID).id(p.ID), nil)
		}
		return nil
	})
}

// A derived structure (an index, an aggregate) added after databases were
// made: on open, each one not yet built in this file is emptied and rebuilt
// from the records, once, then marked in meta as built.
type derived struct {
	name    string
	build   func(*bolt.Tx) error
	buckets [][]byte
}

var deriveds []derived

func registerDerived(name string, build func(*bolt.Tx) error, buckets ...[]byte) bool {
	deriveds = append(deriveds, derived{name: name, build: build, buckets: buckets})
	return true
}

// buildDerived runs in Open's init transaction.
func buildDerived(tx *bolt.Tx) error {
	meta := tx.Bucket(bMeta)
	for _, d := range deriveds {
		mark := []byte("built:" + d.name)
		if meta.Get(mark) != nil {
			continue
		}
		for _, name := range d.buckets {
			if err := tx.DeleteBucket(name); err != nil && !errors.Is(err, bberrors.ErrBucketNotFound) {
				return fmt.Errorf("storage: rebuild %s: %w", d.name, err)
			}
			if _, err := tx.CreateBucket(name); err != nil {
				return fmt.Errorf("storage: rebuild %s: %w", d.name, err)
			}
		}
		if err := d.build(tx); err != nil {
			return fmt.Errorf("storage: rebuild %s: %w", d.name, err)
		}
		if err := meta.Put(mark, []byte("1")); err != nil {
			return err
		}
	}
	return nil
}
