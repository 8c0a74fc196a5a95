package postgres

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// A write transaction reads, with each store's lock and in the same round
// trip, the store's counters (one short index range). Two things follow,
// each saving round trips spent holding the lock:
//
//   - NextID is computed here (the last value plus one; no other writer of
//     the store runs meanwhile) and its write is queued with the next
//     statement, checked to have moved the counter by exactly one.
//   - The counter cacheCounter is bumped by every write of a store's record,
//     webhook endpoints or flash deals (in the same transaction). The
//     process keeps those records (DB.cache) with the counter's value when
//     read, and serves them again while a transaction's counters show the
//     same value: an exact check, made under the lock, at no cost. An entry
//     is also read again after cacheTTL, in case a writer did not bump (a
//     record edited by hand, a binary of an older version during an upgrade).
//
// Read-only transactions take no lock and read no counters: they read the
// records as before.

// cacheCounter is the counters row of a store that its cached records' writes bump.
const cacheCounter = "~cache"

// cacheTTL bounds how long an entry serves without being read again.
const cacheTTL = time.Second

// maxCached bounds the entries (a process serving very many stores starts over).
const maxCached = 20000

// storeSnap is what a write transaction read with a store's lock.
type storeSnap struct {
	ready    bool // the counters arrived (they travel with the next statement)
	counters map[string]int64
}

// cacheKind names what an entry holds.
type cacheKind byte

const (
	cacheStore     cacheKind = iota // the store record (SharedStore)
	cacheEndpoints                  // the webhook endpoints (WebhookEndpoints)
	cacheDeals                      // one product's flash deals (ProductFlashDeals)
)

type cacheKey struct {
	store uint64
	kind  cacheKind
	id    uint64
}

// cacheEntry is a store's records as read when its cacheCounter was ver.
type cacheEntry struct {
	ver  int64
	at   time.Time
	st   memoStore // cacheStore
	docs [][]byte  // cacheEndpoints, cacheDeals: the rows' JSON, decoded per use
}

// recordCache is the process's cache of per-store records.
type recordCache struct {
	mu sync.Mutex
	m  map[cacheKey]cacheEntry
}

func (c *recordCache) get(k cacheKey) (cacheEntry, bool) {
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	return e, ok
}

func (c *recordCache) put(k cacheKey, e cacheEntry) {
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = map[cacheKey]cacheEntry{}
	}
	c.m[k] = e
	c.mu.Unlock()
}

// readCounters queues, right after a store's lock, the read of its counters.
func (t *Tx) readCounters(storeID uint64) error {
	snap := &storeSnap{counters: map[string]int64{}}
	if t.snaps == nil {
		t.snaps = map[uint64]*storeSnap{}
	}
	t.snaps[storeID] = snap
	return t.enqueueQ(queued{what: "read counters", sql: `SELECT name, value FROM counters WHERE store_id = $1`,
		args: []any{int64(storeID)}, rows: func(rows pgx.Rows) error {
			for rows.Next() {
				var name string
				var v int64
				if err := rows.Scan(&name, &v); err != nil {
					return err
				}
				snap.counters[name] = v
			}
			snap.ready = true
			return nil
		}})
}

// nextLocal allocates the next id of a sequence from the counters read with
// the lock; ok is false when they have not arrived yet.
func (t *Tx) nextLocal(storeID uint64, seq string) (uint64, bool, error) {
	snap := t.snaps[storeID]
	if snap == nil || !snap.ready {
		return 0, false, nil
	}
	n := snap.counters[seq] + 1
	snap.counters[seq] = n
	err := t.enqueueQ(queued{what: "next id " + seq,
		sql: `INSERT INTO counters (store_id, name, value) VALUES ($1, $2, $3)
			ON CONFLICT (store_id, name) DO UPDATE SET value = excluded.value WHERE counters.value = excluded.value - 1`,
		args: []any{int64(storeID), seq, n},
		check: func(tag pgconn.CommandTag) error {
			if tag.RowsAffected() != 1 {
				return fmt.Errorf("postgres: next id %s of store %d: the counter moved under the store's lock", seq, storeID)
			}
			return nil
		}})
	return uint64(n), true, err
}

// noteCounter records a counter value read by a statement of this transaction.
func (t *Tx) noteCounter(storeID uint64, seq string, n int64) {
	if snap := t.snaps[storeID]; snap != nil && snap.ready {
		snap.counters[seq] = n
	}
}

// changedCached queues the bump of a store's cacheCounter: a write of its
// record, webhook endpoints or flash deals. The rest of this transaction
// reads them from the database.
func (t *Tx) changedCached(storeID uint64) error {
	if t.dirty == nil {
		t.dirty = map[uint64]bool{}
	}
	t.dirty[storeID] = true
	return t.exec(storeID, "bump cache version", `INSERT INTO counters (store_id, name, value) VALUES ($1, '`+cacheCounter+`', 1)
		ON CONFLICT (store_id, name) DO UPDATE SET value = counters.value + 1`, int64(storeID))
}

// cacheVersion is the store's cacheCounter as this transaction read it with
// the lock; ok is false when the cache cannot serve it (a read-only
// transaction, the counters not arrived, or the records written here).
func (t *Tx) cacheVersion(storeID uint64) (int64, bool) {
	if !t.write || t.dirty[storeID] {
		return 0, false
	}
	snap := t.snaps[storeID]
	if snap == nil || !snap.ready {
		return 0, false
	}
	return snap.counters[cacheCounter], true
}

// cached returns the entry of k if it is current for this transaction.
func (t *Tx) cached(k cacheKey) (cacheEntry, bool) {
	ver, ok := t.cacheVersion(k.store)
	if !ok {
		return cacheEntry{}, false
	}
	e, ok := t.db.cache.get(k)
	if !ok || e.ver != ver || time.Since(e.at) >= cacheTTL {
		return cacheEntry{}, false
	}
	return e, true
}

// remember keeps what this transaction read, when it may serve others.
func (t *Tx) remember(k cacheKey, e cacheEntry) {
	ver, ok := t.cacheVersion(k.store)
	if !ok {
		return
	}
	e.ver, e.at = ver, time.Now()
	t.db.cache.put(k, e)
}

// cachedDocs returns the JSON rows of a cached list, read by sql when the
// cache cannot serve them, decoded afresh (the callers may change them).
func cachedDocs[T any](t *Tx, k cacheKey, what, sql string, args ...any) ([]*T, error) {
	if err := t.lock(k.store); err != nil {
		return nil, err
	}
	e, ok := t.cached(k)
	if !ok {
		rows, err := t.query(sql, args...)
		if err != nil {
			return nil, t.fail(fmt.Errorf("postgres: list %s: %w", what, err))
		}
		docs := [][]byte{}
		for rows.Next() {
			var raw []byte
			if err := rows.Scan(&raw); err != nil {
				rows.Close()
				return nil, t.fail(fmt.Errorf("postgres: list %s: %w", what, err))
			}
			docs = append(docs, raw)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, t.fail(fmt.Errorf("postgres: list %s: %w", what, err))
		}
		e = cacheEntry{docs: docs}
		t.remember(k, e)
	}
	out := make([]*T, 0, len(e.docs))
	for _, raw := range e.docs {
		var x T
		if err := json.Unmarshal(raw, &x); err != nil {
			return nil, t.fail(fmt.Errorf("postgres: decode %s: %w", what, err))
		}
		out = append(out, &x)
	}
	return out, nil
}
