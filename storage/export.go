package storage

import (
	"bytes"

	bolt "go.etcd.io/bbolt"
)

// derivedBuckets are rebuilt from the records by any other backend: the
// indexes Verify checks, the lookup buckets of unique values and the review
// summaries' owners.
func derivedBuckets() map[string]bool {
	out := map[string]bool{}
	for _, v := range verifiers {
		for _, b := range v.indexes {
			out[string(b)] = true
		}
	}
	for _, b := range [][]byte{bStoreKeys, bStoreSubdomains, bCategorySlugs, bAdminEmails} {
		out[string(b)] = true
	}
	delete(out, string(bReviewSummaries)) // checked against the reviews, but a record
	return out
}

// Record is one stored record of an export: its bucket, key and value as
// bbolt holds them (idempotency records, payment sessions and orders as JSON, whichever form is stored). A record with a nil Key carries the bucket's sequence
// (8 bytes big-endian) in Value.
type Record struct {
	Bucket     string
	Key, Value []byte
}

// Export calls fn with every record of the database (not the indexes, which
// follow from them), bucket by bucket, in one read transaction. The bytes
// are valid only during the call.
func (db *DB) Export(fn func(Record) error) error {
	derived := derivedBuckets()
	return db.bolt.View(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if derived[string(name)] {
				continue
			}
			b := tx.Bucket(name)
			if b == nil {
				continue
			}
			if err := b.ForEach(func(k, v []byte) error {
				if v == nil { // a nested bucket: none today
					return nil
				}
				var err error // compact records leave as JSON
				switch {
				case bytes.Equal(name, bIdempotency):
					v, err = idempotencyJSON(k, v)
				case bytes.Equal(name, bPaymentSessions):
					v, err = sessionJSON(k, v)
				case bytes.Equal(name, bOrders):
					v, err = orderJSON(k, v)
				}
				if err != nil {
					return err
				}
				return fn(Record{Bucket: string(name), Key: k, Value: v})
			}); err != nil {
				return err
			}
			if seq := b.Sequence(); seq > 0 {
				if err := fn(Record{Bucket: string(name), Value: u64(seq)}); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// ExportCounts returns the number of records of each exported bucket.
func (db *DB) ExportCounts() (map[string]int, error) {
	out := map[string]int{}
	err := db.Export(func(r Record) error {
		if r.Key != nil {
			out[r.Bucket]++
		}
		return nil
	})
	return out, err
}

// ExportedBuckets names every bucket Export may produce records of (the
// buckets that are not derived), so that another backend's import can be
// checked to know them all.
func ExportedBuckets() []string {
	derived := derivedBuckets()
	var out []string
	for _, name := range allBuckets {
		if !derived[string(name)] {
			out = append(out, string(name))
		}
	}
	return out
}
