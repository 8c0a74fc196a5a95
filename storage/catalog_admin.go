package storage

import (
	"bytes"
	"cmp"
	"container/heap"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// The admin's product list (app.AdminProductQuery) reads index keys and
// decodes only the page's products:
//   - active products are the storefront's sort indexes (idx_products, and
//     idx_cat_products for a category);
//   - idx_admin_products holds inactive products (segment 'i') and products
//     low on stock, active or not (segment 'l'), in the same layout:
//     sid|segment|sort|value|id -> index entry, for the sorts newest, price
//     and name; a list of every product merges the active and inactive keys;
//   - admin_search holds every product's search words (app.AdminSearchWords):
//     sid|0|id -> the words joined by spaces, sid|1|word0|id -> nil.
//
// Inactive and search keys are written by PutProduct (writeProduct and
// indexAdminSearch) and removed with the product's other keys
// (unindexProduct); the low-stock keys follow the stock in writeProduct, so
// a checkout that takes a product to its threshold lists it at once. A
// checkout of an active product that stays above its threshold deletes three
// absent keys and writes nothing here.
var (
	_ = registerVerifier(verifyAdminProducts, bIdxAdminProducts, bAdminSearch)
	_ = registerDerived("admin_products_v1", rebuildAdminProducts, bIdxAdminProducts, bAdminSearch)
)

const (
	segInactive byte = 'i'
	segLow      byte = 'l'
	adminText   byte = 0
	adminWord   byte = 1
)

// adminCandidates is the most products a query word's postings may hold for
// the search to be answered from them (each is then looked up by id); a
// query whose every word is more common scans the stored words instead.
var adminCandidates = 5000

// adminKeysOf lists p's keys in a segment of idx_admin_products: the key
// suffixes after sid|segment are those of idx_products after sid.
func adminKeysOf(p *app.Product, seg byte) [3][]byte {
	return [3][]byte{
		keyOf(p.StoreID).code(seg).code(sortNewest).id(p.ID),
		keyOf(p.StoreID).code(seg).code(sortPrice).id(uint64(p.Price)).id(p.ID),
		keyOf(p.StoreID).code(seg).code(sortName).str0(app.NormalizeName(p.Name)).id(p.ID),
	}
}

// putAdminEntries writes p's inactive keys (when inactive) and puts or
// deletes its low-stock keys; entry is p's index entry.
func (t *Tx) putAdminEntries(p *app.Product, entry []byte) error {
	b := t.b(bIdxAdminProducts)
	if !p.IsActive {
		for _, k := range adminKeysOf(p, segInactive) {
			if err := b.Put(k, entry); err != nil {
				return fmt.Errorf("storage: put admin product index: %w", err)
			}
		}
	}
	low := p.LowStock()
	for _, k := range adminKeysOf(p, segLow) {
		var err error
		if low {
			err = b.Put(k, entry)
		} else {
			err = b.Delete(k)
		}
		if err != nil {
			return fmt.Errorf("storage: put admin product index: %w", err)
		}
	}
	return nil
}

// unindexAdmin deletes the admin keys of the stored product old.
func (t *Tx) unindexAdmin(old *app.Product) error {
	b := t.b(bIdxAdminProducts)
	var keys [][]byte
	if !old.IsActive {
		k := adminKeysOf(old, segInactive)
		keys = append(keys, k[:]...)
	}
	if old.LowStock() {
		k := adminKeysOf(old, segLow)
		keys = append(keys, k[:]...)
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	s := t.b(bAdminSearch)
	if err := s.Delete(keyOf(old.StoreID).code(adminText).id(old.ID)); err != nil {
		return err
	}
	for _, w := range app.AdminSearchWords(old) {
		if err := s.Delete(keyOf(old.StoreID).code(adminWord).str0(w).id(old.ID)); err != nil {
			return err
		}
	}
	return nil
}

// indexAdminSearch writes p's search words.
func (t *Tx) indexAdminSearch(p *app.Product) error {
	s := t.b(bAdminSearch)
	words := app.AdminSearchWords(p)
	if err := s.Put(keyOf(p.StoreID).code(adminText).id(p.ID), []byte(strings.Join(words, " "))); err != nil {
		return fmt.Errorf("storage: put admin search: %w", err)
	}
	for _, w := range words {
		if err := s.Put(keyOf(p.StoreID).code(adminWord).str0(w).id(p.ID), nil); err != nil {
			return fmt.Errorf("storage: put admin search: %w", err)
		}
	}
	return nil
}

func eachProduct(b *bolt.Bucket, fn func(p *app.Product) error) error {
	return b.ForEach(func(_, v []byte) error {
		var p app.Product
		if err := getJSONBytes(v, &p, "product"); err != nil {
			return err
		}
		return fn(&p)
	})
}

func verifyAdminProducts(t *Tx, want expectKeys) error {
	return eachProduct(t.b(bProducts), func(p *app.Product) error {
		entry := encodeIndexEntry(p)
		if !p.IsActive {
			for _, k := range adminKeysOf(p, segInactive) {
				want.put(bIdxAdminProducts, k, entry)
			}
		}
		if p.LowStock() {
			for _, k := range adminKeysOf(p, segLow) {
				want.put(bIdxAdminProducts, k, entry)
			}
		}
		words := app.AdminSearchWords(p)
		want.put(bAdminSearch, keyOf(p.StoreID).code(adminText).id(p.ID), []byte(strings.Join(words, " ")))
		for _, w := range words {
			want.put(bAdminSearch, keyOf(p.StoreID).code(adminWord).str0(w).id(p.ID), nil)
		}
		return nil
	})
}

func rebuildAdminProducts(tx *bolt.Tx) error {
	t := &Tx{tx: tx}
	return eachProduct(tx.Bucket(bProducts), func(p *app.Product) error {
		if err := t.putAdminEntries(p, encodeIndexEntry(p)); err != nil {
			return err
		}
		return t.indexAdminSearch(p)
	})
}

// Index entries (encodeIndexEntry) read in place.
func entryStock(v []byte) int64 {
	if len(v) < 24 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(v[8:]))
}

func entryCategory(v []byte) uint64 {
	if len(v) < 24 {
		return 0
	}
	return binary.BigEndian.Uint64(v[16:])
}

// adminStream is one index walked under a prefix; cat, when set, is a
// category its entries must be in (the prefix does not say).
type adminStream struct {
	c      *bolt.Cursor
	prefix []byte
	cat    uint64
	k, v   []byte
}

func (s *adminStream) start(desc bool) {
	switch end := prefixEnd(s.prefix); {
	case !desc:
		s.k, s.v = s.c.Seek(s.prefix)
	case end == nil:
		s.k, s.v = s.c.Last()
	default:
		if s.k, _ = s.c.Seek(end); s.k == nil {
			s.k, s.v = s.c.Last()
		} else {
			s.k, s.v = s.c.Prev()
		}
	}
	s.check()
}

func (s *adminStream) step(desc bool) {
	if desc {
		s.k, s.v = s.c.Prev()
	} else {
		s.k, s.v = s.c.Next()
	}
	s.check()
}

func (s *adminStream) check() {
	if s.k != nil && !bytes.HasPrefix(s.k, s.prefix) {
		s.k, s.v = nil, nil
	}
}

// adminStreams are the indexes of q's status in the sort code: for every
// product, the active and the inactive ones, merged.
func (t *Tx) adminStreams(storeID uint64, q app.AdminProductQuery, code byte) []*adminStream {
	active := &adminStream{c: t.b(bIdxProducts).Cursor(), prefix: keyOf(storeID).code(code)}
	if q.CategoryID != 0 {
		active = &adminStream{c: t.b(bIdxCatProducts).Cursor(), prefix: keyOf(storeID).id(q.CategoryID).code(code)}
	}
	seg := func(s byte) *adminStream {
		return &adminStream{c: t.b(bIdxAdminProducts).Cursor(), prefix: keyOf(storeID).code(s).code(code), cat: q.CategoryID}
	}
	switch q.Status {
	case "active":
		return []*adminStream{active}
	case "inactive":
		return []*adminStream{seg(segInactive)}
	case "low":
		return []*adminStream{seg(segLow)}
	}
	return []*adminStream{active, seg(segInactive)}
}

// mergeWalk visits the entries of streams in the order of their key
// suffixes, skipping those outside their stream's category.
func mergeWalk(streams []*adminStream, desc bool, visit func(id uint64, v []byte)) {
	for _, s := range streams {
		s.start(desc)
	}
	for {
		var best *adminStream
		for _, s := range streams {
			if s.k == nil {
				continue
			}
			if best == nil {
				best = s
				continue
			}
			c := bytes.Compare(s.k[len(s.prefix):], best.k[len(best.prefix):])
			if desc && c > 0 || !desc && c < 0 {
				best = s
			}
		}
		if best == nil {
			return
		}
		if best.cat == 0 || entryCategory(best.v) == best.cat {
			visit(idFromKeyEnd(best.k), best.v)
		}
		best.step(desc)
	}
}

// AdminProducts answers the admin's product list from the indexes (see the
// top of this file): it walks the keys of q's status and sort, counting the
// matches and keeping the page's ids, then decodes the page's products. The
// stock sort, which has no index (stock changes with every checkout), walks
// the newest keys and keeps the page's best in a heap. A search first takes
// the products of its rarest word's postings when that word is rare enough,
// and looks each one up; else it scans the stored words for the matches.
func (t *Tx) AdminProducts(storeID uint64, q app.AdminProductQuery) (app.AdminProductPage, error) {
	var match map[uint64]bool // nil: no search
	if len(q.Words) > 0 {
		ids, ok := t.adminPostings(storeID, q.Words)
		if ok {
			return t.adminPageOf(storeID, q, ids)
		}
		match = t.adminScanWords(storeID, q.Words)
	}
	var ids []uint64
	total := 0
	code, desc := sortNewest, true
	switch q.Sort {
	case "name":
		code, desc = sortName, false
	case "price":
		code, desc = sortPrice, false
	}
	if q.Sort == "stock" {
		best := &stockHeap{}
		k := q.Offset + q.Limit
		mergeWalk(t.adminStreams(storeID, q, sortNewest), true, func(id uint64, v []byte) {
			if match != nil && !match[id] {
				return
			}
			total++
			heap.Push(best, stockItem{entryStock(v), id})
			if best.Len() > k {
				heap.Pop(best)
			}
		})
		items := slices.SortedFunc(slices.Values(*best), stockCmp)
		for i := q.Offset; i < len(items); i++ {
			ids = append(ids, items[i].id)
		}
	} else {
		mergeWalk(t.adminStreams(storeID, q, code), desc, func(id uint64, v []byte) {
			if match != nil && !match[id] {
				return
			}
			if total >= q.Offset && len(ids) < q.Limit {
				ids = append(ids, id)
			}
			total++
		})
	}
	return t.adminProductsByID(storeID, ids, total)
}

// adminProductsByID decodes the page's products.
func (t *Tx) adminProductsByID(storeID uint64, ids []uint64, total int) (app.AdminProductPage, error) {
	out := app.AdminProductPage{Items: make([]*app.Product, 0, len(ids)), Total: total}
	for _, id := range ids {
		p, err := t.Product(storeID, id)
		if err != nil {
			return out, fmt.Errorf("storage: admin product index points at %d/%d: %w", storeID, id, err)
		}
		out.Items = append(out.Items, p)
	}
	return out, nil
}

// stockItem orders the stock sort: least stock first, ties newest first.
type stockItem struct {
	stock int64
	id    uint64
}

func stockCmp(a, b stockItem) int {
	return cmp.Or(cmp.Compare(a.stock, b.stock), cmp.Compare(b.id, a.id))
}

// stockHeap keeps the best k items seen, the worst on top.
type stockHeap []stockItem

func (h stockHeap) Len() int           { return len(h) }
func (h stockHeap) Less(i, j int) bool { return stockCmp(h[i], h[j]) > 0 }
func (h stockHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *stockHeap) Push(x any)        { *h = append(*h, x.(stockItem)) }
func (h *stockHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// adminPostings returns the products matching every word when some word
// begins the words of at most adminCandidates products (ok false otherwise):
// that word's postings, each tested against the other words.
func (t *Tx) adminPostings(storeID uint64, words []string) ([]uint64, bool) {
	var best []uint64
	found := false
	limit := adminCandidates
	for _, w := range words {
		prefix := keyOf(storeID).code(adminWord).last(w) // every word that begins with w
		var ids []uint64
		seen := map[uint64]bool{}
		c := t.b(bAdminSearch).Cursor()
		over := false
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			id := idFromKeyEnd(k)
			if seen[id] {
				continue
			}
			if len(ids) == limit {
				over = true
				break
			}
			seen[id] = true
			ids = append(ids, id)
		}
		if !over && (!found || len(ids) < len(best)) {
			best, found, limit = ids, true, len(ids)
		}
	}
	if !found {
		return nil, false
	}
	texts := t.b(bAdminSearch)
	out := best[:0]
	for _, id := range best {
		if app.MatchWords(string(texts.Get(keyOf(storeID).code(adminText).id(id))), words) {
			out = append(out, id)
		}
	}
	return out, true
}

// adminScanWords returns the products of the store matching every word,
// from a walk of the stored words.
func (t *Tx) adminScanWords(storeID uint64, words []string) map[uint64]bool {
	out := map[uint64]bool{}
	prefix := keyOf(storeID).code(adminText)
	c := t.b(bAdminSearch).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if app.MatchWords(string(v), words) {
			out[idFromKeyEnd(k)] = true
		}
	}
	return out
}

// adminPageOf pages the products ids (a search's matches) in q's status,
// category and sort, from their index entries.
func (t *Tx) adminPageOf(storeID uint64, q app.AdminProductQuery, ids []uint64) (app.AdminProductPage, error) {
	type hit struct {
		id    uint64
		key   []byte // the sort's key suffix (newest, name, price)
		stock int64
	}
	active, admin := t.b(bIdxProducts), t.b(bIdxAdminProducts)
	hits := make([]hit, 0, len(ids))
	for _, id := range ids {
		v := active.Get(keyOf(storeID).code(sortNewest).id(id))
		isActive := v != nil
		if !isActive {
			if v = admin.Get(keyOf(storeID).code(segInactive).code(sortNewest).id(id)); v == nil {
				continue // not a product (the words of a deleted one are deleted with it)
			}
		}
		switch {
		case q.Status == "active" && !isActive,
			q.Status == "inactive" && isActive,
			q.Status == "low" && admin.Get(keyOf(storeID).code(segLow).code(sortNewest).id(id)) == nil,
			q.CategoryID != 0 && entryCategory(v) != q.CategoryID:
			continue
		}
		h := hit{id: id, stock: entryStock(v)}
		switch q.Sort {
		case "name":
			h.key = tkey(nil).str0(decodeIndexEntry(v).Name).id(id)
		case "price":
			h.key = tkey(nil).id(uint64(decodeIndexEntry(v).Price)).id(id)
		}
		hits = append(hits, h)
	}
	slices.SortFunc(hits, func(a, b hit) int {
		switch q.Sort {
		case "name", "price":
			return bytes.Compare(a.key, b.key)
		case "stock":
			return stockCmp(stockItem{a.stock, a.id}, stockItem{b.stock, b.id})
		}
		return cmp.Compare(b.id, a.id)
	})
	var page []uint64
	for i := q.Offset; i < len(hits) && len(page) < q.Limit; i++ {
		page = append(page, hits[i].id)
	}
	return t.adminProductsByID(storeID, page, len(hits))
}
