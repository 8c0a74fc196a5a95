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

func (t *sweepTx) DeleteIdempotencyRecords(storeID uint64, recs []*IdempotencyRecord, before time.Time) (int, error) {
	n := 0
	for _, r := range recs {
		if at, ok := t.db.recs[r.Key]; ok && at.Before(before) {
			delete(t.db.recs, r.Key)
			n++
		}
	}
	t.deletes += n
	return n, nil
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

// cartSweepDB holds guest carts in memory; touch runs between the sweep's
// read and its write (a shopper using a cart found idle).
type cartSweepDB struct {
	DB
	carts map[string]*GuestCart
	now   time.Time
	touch func()
	found bool // the sweep's search ran
}

type cartSweepTx struct {
	Tx
	db *cartSweepDB
}

func (d *cartSweepDB) View(fn func(Tx) error) error {
	err := fn(cartSweepTx{db: d})
	if d.found && d.touch != nil {
		d.touch()
		d.touch = nil
	}
	return err
}
func (d *cartSweepDB) Update(fn func(Tx) error) error { return fn(cartSweepTx{db: d}) }

func (t cartSweepTx) Now() time.Time            { return t.db.now }
func (t cartSweepTx) Stores() ([]*Store, error) { return []*Store{{ID: 1}}, nil }
func (t cartSweepTx) GuestCartsUsedBefore(storeID uint64, before time.Time, limit int) ([]*GuestCart, error) {
	t.db.found = true
	var out []*GuestCart
	for _, g := range t.db.carts {
		if g.UsedAt.Before(before) && len(out) < limit {
			c := *g
			out = append(out, &c)
		}
	}
	return out, nil
}
func (t cartSweepTx) GuestCart(storeID uint64, key []byte) (*GuestCart, error) {
	g, ok := t.db.carts[string(key)]
	if !ok {
		return nil, NotFound("cart")
	}
	c := *g
	return &c, nil
}
func (t cartSweepTx) CartItems(storeID, owner uint64) ([]*CartItem, error) { return nil, nil }
func (t cartSweepTx) DeleteGuestCart(storeID uint64, key []byte) error {
	delete(t.db.carts, string(key))
	return nil
}

// TestSweepGuestCartsUsedSince: a guest cart found idle in the sweep's read
// transaction but used before its write one is kept; the other idle one goes.
func TestSweepGuestCartsUsedSince(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	idle := now.Add(-GuestCartIdle - time.Hour)
	db := &cartSweepDB{now: now, carts: map[string]*GuestCart{
		"a": {StoreID: 1, ID: 1, Key: []byte("a"), UsedAt: idle},
		"b": {StoreID: 1, ID: 2, Key: []byte("b"), UsedAt: idle},
	}}
	db.touch = func() { db.carts["a"].UsedAt = now }
	cs := newCartService(db, Options{}, nil)
	n, err := cs.SweepGuests()
	if err != nil || n != 1 {
		t.Fatalf("swept %d, %v; want 1", n, err)
	}
	if _, ok := db.carts["a"]; !ok || len(db.carts) != 1 {
		t.Fatalf("carts left %v, want the one used since", db.carts)
	}
}
