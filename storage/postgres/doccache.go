package postgres

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"storefront/app"
)

// Product docs by row version (issue 13, the catalog page on PostgreSQL).
//
// A catalog page asks the server for its rows every time, but a page whose
// query this process has run before asks only for each row's id, version
// and sort keys: the docs of the rows it already holds at that version come
// from memory, and a second statement of the same snapshot reads the others.
// The server then sends about 1 KB a page instead of 16, which was most of
// both sides' work for a page (the server's 8 KB socket sends, the binary's
// reads and copies).
//
// A row's version is its xmin, the transaction that wrote it, which every
// write of the row changes (stock taken by a checkout too) and which the
// binary neither writes nor can forget to change. Cached docs cannot be
// stale, whatever process or tool wrote the row, because:
//   - the docs are put only by read-only transactions, which see committed
//     rows alone: a transaction writing one row twice leaves two versions
//     with the same xmin, but only the last is ever visible to another;
//   - an xmin is 32 bits and wraps around after 2^32 transactions: an entry
//     lives at most docMaxAge, far shorter than the fastest wrap. Not quite
//     exact: a row last written almost 2^32 transactions ago (frozen, its
//     raw xmin kept) could be cached, then written again within docMaxAge by
//     precisely the transaction whose xid wraps onto its old xmin; one xid in
//     2^32 would have to write that very product, which we accept;
//   - a server that lost acknowledged transactions (a failover to an
//     asynchronous replica, a restart after a crash with synchronous_commit
//     off) may hand their xids out again: each connection carries the
//     incarnation of its server (pg_postmaster_start_time, read when it
//     connects; a promoted replica or a restarted server has a new one), and
//     an entry serves only reads of the incarnation that put it. The start
//     time misses a crash the postmaster survives (one backend killed, then
//     restart_after_crash reinitializes) keeps the start time, and with
//     synchronous_commit off it loses the commits still in the WAL buffers
//     and hands their xids out again. Such a crash ends every backend, the
//     announcements' listener's too (notify.go): the cache is cleared when
//     it loses its connection, before the server takes connections again.
//     synchronous_commit = on (README) closes it whatever the timing;
//   - freezing keeps a row's xmin (PostgreSQL 9.4 and later): a frozen row is
//     the same row version.
//
// A query seen for the first time (a crawler walking every page, a one-off
// search) reads its docs in the one statement, as before, and puts nothing:
// it neither pays a second round trip nor pushes the hot pages' docs out.

// docForm is which doc of a product a page selects.
type docForm byte

const (
	formFull  docForm = iota // pdoc
	formLight                // coalesce(ldoc, pdoc)
	formWhole                // coalesce(ljson, ldoc, pdoc)
)

// docExpr is the SQL of a form's doc.
var docExpr = [...]string{formFull: "pdoc", formLight: "coalesce(ldoc, pdoc)", formWhole: "coalesce(ljson, ldoc, pdoc)"}

const (
	// docCacheBytes bounds the docs kept: about 25,000 of the bench's light
	// JSON (653 bytes), more than most shops' whole catalog.
	docCacheBytes = 16 << 20
	// docMaxAge bounds an entry's life (the xmin wrap-around above).
	docMaxAge = 10 * time.Minute
	// seenQueries bounds the page queries remembered as run before.
	seenQueries = 1 << 16
)

type docKey struct {
	store, id uint64
	form      docForm
}

type cachedDoc struct {
	inc  int64  // the server incarnation that read it
	xmin uint32 // the row version
	born int64  // unix seconds when read
	doc  []byte // shared by every page that serves it: never written
}

// docCache is the product docs by row version and the page queries run.
type docCache struct {
	mu   sync.RWMutex
	docs app.SizedCache[docKey, cachedDoc]
	seen app.SizedCache[uint64, struct{}] // maphash of a page query
	seed maphash.Seed

	hits, misses atomic.Int64 // docs served from memory, docs read again
}

// DocCacheStats are the figures of the product docs cached by row version.
type DocCacheStats struct {
	Entries, Bytes int
	Hits, Misses   int64 // docs of pages served from memory, and read again
}

// DocCacheStats reports the product docs cached by row version (/metrics).
func (db *DB) DocCacheStats() DocCacheStats {
	c := db.docs
	c.mu.RLock()
	defer c.mu.RUnlock()
	return DocCacheStats{Entries: c.docs.Len(), Bytes: c.docs.Bytes(), Hits: c.hits.Load(), Misses: c.misses.Load()}
}

func newDocCache() *docCache {
	return &docCache{
		docs: app.NewSizedCache(docCacheBytes, func(_ docKey, d cachedDoc) int { return len(d.doc) + 64 }),
		seen: app.NewSizedCache(seenQueries, func(uint64, struct{}) int { return 1 }),
		seed: maphash.MakeSeed(),
	}
}

// incKey is the connection's CustomData key of its server's incarnation
// (read by onConnect).
const incKey = "storefront.incarnation"

// incarnation is the server incarnation of the transaction's connection (0:
// not known, nothing is cached).
func (t *Tx) incarnation() int64 {
	if t.conn == nil {
		return 0
	}
	inc, _ := t.conn.Conn().PgConn().CustomData()[incKey].(int64)
	return inc
}

// clear drops every doc: the listener's connection was lost, and the server
// may have lost commits whose xids it hands out again.
func (c *docCache) clear() {
	c.mu.Lock()
	c.docs.Clear()
	c.mu.Unlock()
}

// fresh reports whether a doc read at born (unix seconds) may still serve at
// now: it lives docMaxAge (the xmin wrap-around above).
func fresh(born int64, now time.Time) bool { return born > now.Add(-docMaxAge).Unix() }

// seenBefore reports whether the page query was run before, and remembers it.
func (c *docCache) seenBefore(h uint64) bool {
	c.mu.RLock()
	_, ok := c.seen.Get(h)
	c.mu.RUnlock()
	if !ok {
		c.mu.Lock()
		c.seen.Put(h, struct{}{}, func(uint64, struct{}) bool { return false })
		c.mu.Unlock()
	}
	return ok
}

// rowVer is a page row as the version query reads it.
type rowVer struct {
	id   uint64
	xmin uint32
}

// queryHash identifies a page query: the store, the form, the SQL's filters
// and their values, the order, the cursor and the limit.
func (c *docCache) queryHash(storeID uint64, form docForm, l list, lp app.ListParams) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	var n [8]byte
	num := func(v uint64) { binary.LittleEndian.PutUint64(n[:], v); h.Write(n[:]) }
	num(storeID)
	num(uint64(form))
	num(uint64(lp.Limit))
	h.WriteString(l.from)
	for _, a := range l.args {
		switch v := a.(type) {
		case int64:
			num(uint64(v))
		case string:
			h.WriteString(v)
			h.WriteByte(0)
		default:
			fmt.Fprintf(&h, "%T%v\x00", v, v)
		}
	}
	for _, k := range l.keys.cols {
		h.WriteString(k.expr)
		h.WriteByte(0)
	}
	if l.keys.desc {
		h.WriteByte(1)
	}
	if lp.After != nil {
		h.Write(lp.After.Key)
	}
	h.WriteByte(0)
	h.Write(l.seekTo)
	return h.Sum64()
}

// docsByVersion serves a page from the cached docs when its query was run
// before (ok false: run it the usual way). t reads only.
func (t *Tx) docsByVersion(storeID uint64, form docForm, l list, lp app.ListParams) (out app.Page[app.Doc], ok bool, err error) {
	c := t.db.docs
	if t.write || !c.seenBefore(c.queryHash(storeID, form, l, lp)) {
		return out, false, nil
	}
	vers, next, err := t.versions(l, lp)
	if err != nil {
		return out, true, err
	}
	inc := t.incarnation()
	out.Next = next
	out.Items = make([]app.Doc, len(vers))
	var miss []int64
	c.mu.RLock()
	for i, r := range vers {
		d, hit := c.docs.Get(docKey{storeID, r.id, form})
		if hit && d.xmin == r.xmin && d.inc == inc && inc != 0 && fresh(d.born, t.now) {
			out.Items[i] = d.doc
		} else {
			miss = append(miss, int64(r.id))
		}
	}
	c.mu.RUnlock()
	c.hits.Add(int64(len(vers) - len(miss)))
	c.misses.Add(int64(len(miss)))
	if len(miss) == 0 {
		return out, true, nil
	}
	return out, true, t.fillDocs(storeID, form, inc, vers, out.Items, miss)
}

// versions reads the ids and versions of a page's rows in one statement
// (the products' pages skip no row, so limit+1 rows tell the next page).
// Only the last row's sort keys are decoded: they make the cursor.
func (t *Tx) versions(l list, lp app.ListParams) ([]rowVer, *app.Cursor, error) {
	limit, after, err := l.start(lp)
	if err != nil {
		return nil, nil, err
	}
	l.sel = "id, xmin, " + l.keys.keyCols()
	sql, args := l.sql(after, limit+1)
	rows, err := t.query(sql, args...)
	if err != nil {
		return nil, nil, t.fail(fmt.Errorf("postgres: list products: %w", err))
	}
	defer rows.Close()
	vers := make([]rowVer, 0, limit+1)
	var id int64
	var xmin uint32
	dest := make([]any, 2+len(l.keys.cols)) // the keys' nil: skipped
	dest[0], dest[1] = &id, &xmin
	var last []any // the keys of row limit
	for rows.Next() {
		if len(vers) == limit-1 {
			vals, err := rows.Values()
			if err != nil {
				return nil, nil, t.fail(fmt.Errorf("postgres: list products: %w", err))
			}
			var ok1, ok2 bool
			id, ok1 = vals[0].(int64)
			xmin, ok2 = vals[1].(uint32)
			if !ok1 || !ok2 {
				return nil, nil, t.fail(fmt.Errorf("postgres: list products: id %T, xmin %T", vals[0], vals[1]))
			}
			last = vals[2:]
		} else if err := rows.Scan(dest...); err != nil {
			return nil, nil, t.fail(fmt.Errorf("postgres: list products: %w", err))
		}
		vers = append(vers, rowVer{uint64(id), xmin})
	}
	if err := rows.Err(); err != nil {
		return nil, nil, t.fail(fmt.Errorf("postgres: list products: %w", err))
	}
	if len(vers) <= limit {
		return vers, nil, nil
	}
	return vers[:limit], l.keys.cursor(lp.Sort, last), nil
}

// fillDocs reads the docs of the rows missing from the cache (in the page's
// snapshot), puts them in items and keeps them.
func (t *Tx) fillDocs(storeID uint64, form docForm, inc int64, vers []rowVer, items []app.Doc, miss []int64) error {
	rows, err := t.query(`SELECT id, xmin, `+docExpr[form]+` FROM products WHERE store_id = $1 AND id = ANY($2)`, i64(storeID), miss)
	if err != nil {
		return t.fail(fmt.Errorf("postgres: product docs: %w", err))
	}
	got := make(map[uint64]cachedDoc, len(miss))
	born := t.now.Unix()
	for rows.Next() {
		var id int64
		var raw []byte
		d := cachedDoc{inc: inc, born: born}
		if err := rows.Scan(&id, &d.xmin, &raw); err != nil {
			rows.Close()
			return t.fail(fmt.Errorf("postgres: product docs: %w", err))
		}
		d.doc = raw // Scan into []byte copies: the doc is the cache's own
		got[uint64(id)] = d
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return t.fail(fmt.Errorf("postgres: product docs: %w", err))
	}
	c := t.db.docs
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, v := range vers {
		if items[i] != nil {
			continue
		}
		d, ok := got[v.id]
		if !ok || d.xmin != v.xmin { // one snapshot: cannot happen
			return fmt.Errorf("postgres: product %d changed within a snapshot", v.id)
		}
		items[i] = d.doc
		if inc != 0 {
			c.docs.Put(docKey{storeID, v.id, form}, d, func(_ docKey, e cachedDoc) bool { return !fresh(e.born, t.now) })
		}
	}
	return nil
}
