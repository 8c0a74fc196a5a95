package bench

import (
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// BucketUse is the space one bucket takes in the file.
type BucketUse struct {
	Name       string
	Keys       int
	Bytes      int64 // pages (leaf, branch, overflow) times the page size
	InuseBytes int64 // bytes of those pages holding data
}

// Fill is the used fraction of the bucket's pages.
func (b BucketUse) Fill() float64 {
	if b.Bytes == 0 {
		return 0
	}
	return float64(b.InuseBytes) / float64(b.Bytes)
}

// DiskUse is how a database file is used.
type DiskUse struct {
	Size    int64 // the file's data size (bbolt's high-water mark, not its preallocation)
	Orders  int
	Buckets map[string]BucketUse
}

// ReadDiskUse opens the bbolt file at path read-only (no server may hold it).
func ReadDiskUse(path string) (DiskUse, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: 5 * time.Second})
	if err != nil {
		return DiskUse{}, err
	}
	defer db.Close()
	u := DiskUse{Buckets: map[string]BucketUse{}}
	err = db.View(func(tx *bolt.Tx) error {
		u.Size = tx.Size()
		ps := int64(tx.DB().Info().PageSize)
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			s := b.Stats()
			bu := BucketUse{Name: string(name), Keys: s.KeyN,
				Bytes:      int64(s.BranchPageN+s.BranchOverflowN+s.LeafPageN+s.LeafOverflowN) * ps,
				InuseBytes: int64(s.BranchInuse + s.LeafInuse)}
			u.Buckets[bu.Name] = bu
			if bu.Name == "orders" {
				u.Orders = s.KeyN
			}
			return nil
		})
	})
	return u, err
}

// PerOrder reports the growth from before to after per order placed, in
// total and for the buckets an order writes.
func PerOrder(before, after DiskUse) string {
	n := after.Orders - before.Orders
	if n <= 0 {
		return "no orders placed"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d orders: file +%.0f B/order", n, float64(after.Size-before.Size)/float64(n))
	for _, name := range []string{"orders", "payment_sessions", "idempotency_keys", "idx_orders_customer", "idx_orders_status"} {
		a, ok := after.Buckets[name]
		if !ok {
			continue
		}
		z := before.Buckets[name]
		fmt.Fprintf(&b, "; %s +%.0f B/order (fill %.0f%%)", name, float64(a.Bytes-z.Bytes)/float64(n), 100*a.Fill())
	}
	return b.String()
}
