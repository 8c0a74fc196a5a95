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
	case string(bOrders), string(bIdxOrdersCust), string(bIdxOrdersStatus), string(bPaymentSessions), string(bOutbox), string(bOrderRows):
		return true
	}
	return false
}

// randomFill is how full bbolt packs the idempotency records, whose keys are
// the clients' random Idempotency-Keys: an insert lands on any page, so a
// page split at bbolt's 50% leaves both halves half empty until random inserts
// fill them (55% used under a checkout load). Splitting at 75% left them 69%
// used (340 instead of 433 bytes per order); 95% did worse (64%: a page split
// nearly full is full again after a few inserts and splits again).
const randomFill = 0.75

// bucket returns a bucket of tx, packed densely when it is append-mostly.
func bucket(tx *bolt.Tx, name []byte) *bolt.Bucket {
	b := tx.Bucket(name)
	if b != nil && tx.Writable() {
		switch {
		case appendMostly(name):
			b.FillPercent = appendFill
		case string(name) == string(bIdempotency):
			b.FillPercent = randomFill
		}
	}
	return b
}
