package storage

import bolt "go.etcd.io/bbolt"

// appendFill is how full bbolt packs the pages of the append-mostly buckets.
// bbolt splits a page at half full by default (FillPercent 0.5), which suits
// random inserts; keys that only grow (store|sequence) never land in an old
// page again, so half of every page stayed empty: orders used 39% of their
// pages. 0.9 leaves room for an order's status change to grow its record in place.
const appendFill = 0.9

// appendMostly reports whether a bucket's new keys sort after its existing
// ones in practice: records keyed by store and a per-store sequence, and
// their indexes whose last part is that sequence.
func appendMostly(name []byte) bool {
	switch string(name) {
	case string(bOrders), string(bIdxOrdersCust), string(bIdxOrdersStatus), string(bPaymentSessions), string(bOutbox):
		return true
	}
	return false
}

// bucket returns a bucket of tx, packed densely when it is append-mostly.
func bucket(tx *bolt.Tx, name []byte) *bolt.Bucket {
	b := tx.Bucket(name)
	if b != nil && tx.Writable() && appendMostly(name) {
		b.FillPercent = appendFill
	}
	return b
}
