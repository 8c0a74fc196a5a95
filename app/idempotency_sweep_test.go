package app

import (
	"fmt"
	"testing"
	"time"
)

// sweepDB holds idempotency records in memory and counts what the sweep
// does in each kind of transaction.
type sweepDB struct {
	DB
	recs                    map[string]time.Time // key -> made at
	writes, searchesInWrite int
	largestWrite            int
}

type sweepTx struct {
	Tx
	db      *sweepDB
	write   bool
	deletes int
}

func (d *sweepDB) View(fn func(Tx) error) error { return fn(&sweepTx{db: d}) }
func (d *sweepDB) Update(fn func(Tx) error) error {
	d.writes++
	tx := &sweepTx{db: d, write: true}
	err := fn(tx)
	d.largestWrite = max(d.largestWrite, tx.deletes)
	return err
}

func (t *sweepTx) IdempotencyRecordsBefore(storeID uint64, before time.Time, limit int) ([]*IdempotencyRecord, error) {
	if t.write {
		t.db.searchesInWrite++
	}
	var out []*IdempotencyRecord
	for k, at := range t.db.recs {
		if at.Before(before) && len(out) < limit {
			out = append(out, &IdempotencyRecord{StoreID: storeID, Key: k, CreatedAt: at})
		}
	}
	return out, nil
}

func (t *sweepTx) DeleteIdempotencyRecordBefore(storeID, customerID uint64, key string, before time.Time) (bool, error) {
	at, ok := t.db.recs[key]
	if !ok || !at.Before(before) {
		return false, nil
	}
	delete(t.db.recs, key)
	t.deletes++
	return true, nil
}

// TestSweepIdempotency: old records are searched in read transactions (the
// search reads every record on bbolt: in the write transaction it stalled
// every checkout) and deleted at most idemSweepBatch per write transaction,
// all of them; newer ones stay.
func TestSweepIdempotency(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	db := &sweepDB{recs: map[string]time.Time{}}
	const old, fresh = 2*idemSweepBatch + 7, 50
	for i := range old + fresh {
		at := now.Add(-IdempotencyKeep - time.Hour)
		if i >= old {
			at = now
		}
		db.recs[fmt.Sprint("key-", i)] = at
	}
	os := &OrderService{s: orderDeps{DB: db}}
	n, err := os.sweepIdempotency(1, now.Add(-IdempotencyKeep))
	if err != nil || n != old {
		t.Fatalf("swept %d, %v; want %d", n, err, old)
	}
	if len(db.recs) != fresh || db.searchesInWrite != 0 || db.largestWrite > idemSweepBatch || db.writes != 3 {
		t.Fatalf("%d records left (want %d), %d searches in a write transaction, %d writes, the largest deleting %d",
			len(db.recs), fresh, db.searchesInWrite, db.writes, db.largestWrite)
	}
}
