package storage

import (
	"bytes"
	"cmp"
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
//     sid|0|id -> the words joined by spaces, sid|1|word0|id -> nil;
//   - idx_admin_products also counts, per category (0: none), the products
//     ('a'), the inactive ('i') and the low-stock ones ('l'):
//     sid|'n'|cid|kind -> uint64, so a list's total is read, not counted.
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
	segCounts   byte = 'n'
	countAll    byte = 'a' // the kinds of counts: every product, inactive, low
	adminText   byte = 0
	adminWord   byte = 1
)

// countKey is the key of a count of store sid's products in category cid.
func countKey(sid, cid uint64, kind byte) []byte {
	return keyOf(sid).code(segCounts).id(cid).code(kind)
}

// addCount adds d to a count (a count of 0 has no key).
func (t *Tx) addCount(sid, cid uint64, kind byte, d int64) error {
	b := t.b(bIdxAdminProducts)
	k := countKey(sid, cid, kind)
	var n int64
	if v := b.Get(k); len(v) == 8 {
		n = int64(binary.BigEndian.Uint64(v))
	}
	if n += d; n == 0 {
		return b.Delete(k)
	}
	if n < 0 {
		return fmt.Errorf("storage: admin product count %x below zero", k)
	}
	return b.Put(k, u64(uint64(n)))
}

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
	low, keys := p.LowStock(), adminKeysOf(p, segLow)
	listed := b.Get(keys[0]) != nil // as the stored product was (the keys of PutProduct's old one are gone)
	if !low && !listed {
		return nil // a checkout of a product above its threshold: nothing to write
	}
	for _, k := range keys {
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
	switch {
	case low && !listed:
		return t.addCount(p.StoreID, p.CategoryID, segLow, 1)
	case !low && listed:
		return t.addCount(p.StoreID, p.CategoryID, segLow, -1)
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
	if err := t.addCounts(old, -1); err != nil {
		return err
	}
	if old.LowStock() {
		if err := t.addCount(old.StoreID, old.CategoryID, segLow, -1); err != nil {
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

// addCounts adds d to p's counts of products and inactive products.
func (t *Tx) addCounts(p *app.Product, d int64) error {
	if err := t.addCount(p.StoreID, p.CategoryID, countAll, d); err != nil {
		return err
	}
	if p.IsActive {
		return nil
	}
	return t.addCount(p.StoreID, p.CategoryID, segInactive, d)
}

// indexAdmin writes p's search words and counts it (PutProduct, after
// unindexAdmin of the stored product).
func (t *Tx) indexAdmin(p *app.Product) error {
	if err := t.addCounts(p, 1); err != nil {
		return err
	}
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
	counts := map[string]uint64{}
	err := eachProduct(t.b(bProducts), func(p *app.Product) error {
		counts[string(countKey(p.StoreID, p.CategoryID, countAll))]++
		if !p.IsActive {
			counts[string(countKey(p.StoreID, p.CategoryID, segInactive))]++
		}
		if p.LowStock() {
			counts[string(countKey(p.StoreID, p.CategoryID, segLow))]++
		}
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
	for k, n := range counts {
		want.put(bIdxAdminProducts, []byte(k), u64(n))
	}
	return err
}

func rebuildAdminProducts(tx *bolt.Tx) error {
	t := &Tx{tx: tx}
	return eachProduct(tx.Bucket(bProducts), func(p *app.Product) error {
		if err := t.putAdminEntries(p, encodeIndexEntry(p)); err != nil {
			return err
		}
		return t.indexAdmin(p)
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
// suffixes, skipping those outside their stream's category, until visit
// returns false.
func mergeWalk(streams []*adminStream, desc bool, visit func(id uint64, v []byte) bool) {
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
			if !visit(idFromKeyEnd(best.k), best.v) {
				return
			}
		}
		best.step(desc)
	}
}

// adminTotal reads how many products are in q's status and category from
// the counts.
func (t *Tx) adminTotal(storeID uint64, q app.AdminProductQuery) int {
	var n [256]int64
	prefix := keyOf(storeID).code(segCounts)
	if q.CategoryID != 0 {
		prefix = prefix.id(q.CategoryID)
	}
	c := t.b(bIdxAdminProducts).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if len(v) == 8 {
			n[k[len(k)-1]] += int64(binary.BigEndian.Uint64(v))
		}
	}
	switch q.Status {
	case "active":
		return int(n[countAll] - n[segInactive])
	case "inactive":
		return int(n[segInactive])
	case "low":
		return int(n[segLow])
	}
	return int(n[countAll])
}

// AdminProducts answers the admin's product list from the indexes (see the
// top of this file): it walks the keys of q's status and sort to the page
// and decodes the page's products; the total is read from the counts. The
// stock sort, which has no index (stock changes with every checkout), walks
// every newest key and keeps the page's best in a heap. A search first takes
// the products of its rarest word's postings when that word is rare enough,
// and looks each one up; else it scans the stored words for the matches and
// walks the sort's keys to the end, counting them.
func (t *Tx) AdminProducts(storeID uint64, q app.AdminProductQuery) (app.AdminProductPage, error) {
	var match []uint64 // a search's matches, ascending; nil: no search
	total := -1        // -1: counted by the walk
	if len(q.Words) > 0 {
		ids, ok := t.adminPostings(storeID, q.Words)
		if ok {
			return t.adminPageOf(storeID, q, ids)
		}
		if match = t.adminScanWords(storeID, q.Words); len(match) == 0 {
			return t.adminProductsByID(storeID, nil, 0)
		}
	} else {
		total = t.adminTotal(storeID, q)
	}
	in := func(id uint64) bool {
		if match == nil {
			return true
		}
		_, found := slices.BinarySearch(match, id)
		return found
	}
	var ids []uint64
	var n int // matches walked
	if q.Sort == "stock" {
		ids, n = t.adminIDsByStock(storeID, q, in)
	} else {
		ids, n = t.adminIDsBySort(storeID, q, in, total)
	}
	if total < 0 {
		total = n
	}
	return t.adminProductsByID(storeID, ids, total)
}

// adminIDsByStock returns the ids of q's page by stock, lowest first, and the
// number of matches walked.
func (t *Tx) adminIDsByStock(storeID uint64, q app.AdminProductQuery, in func(uint64) bool) (ids []uint64, n int) {
	best := topStock{k: q.Offset + q.Limit}
	for _, s := range t.adminStreams(storeID, q, sortNewest) {
		for s.start(false); s.k != nil; s.step(false) {
			if id := idFromKeyEnd(s.k); (s.cat == 0 || entryCategory(s.v) == s.cat) && in(id) {
				n++
				best.add(stockItem{entryStock(s.v), id})
			}
		}
	}
	slices.SortFunc(best.h, stockCmp)
	for i := q.Offset; i < len(best.h); i++ {
		ids = append(ids, best.h[i].id)
	}
	return ids, n
}

// adminIDsBySort returns the ids of q's page by date, name or price and the
// number of matches walked; with a known total (>= 0) it stops at the page's end.
func (t *Tx) adminIDsBySort(storeID uint64, q app.AdminProductQuery, in func(uint64) bool, total int) (ids []uint64, n int) {
	code, desc := sortNewest, true
	switch q.Sort {
	case "name":
		code, desc = sortName, false
	case "price":
		code, desc = sortPrice, false
	}
	mergeWalk(t.adminStreams(storeID, q, code), desc, func(id uint64, v []byte) bool {
		if !in(id) {
			return true
		}
		if n >= q.Offset && len(ids) < q.Limit {
			ids = append(ids, id)
		}
		n++
		return total < 0 || len(ids) < q.Limit // a known total needs no walk past the page
	})
	return ids, n
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

// topStock keeps the best k items added: a heap with the worst on top.
type topStock struct {
	k int
	h []stockItem
}

func (t *topStock) add(x stockItem) {
	h := t.h
	if len(h) < t.k {
		h = append(h, x)
		for i := len(h) - 1; i > 0; { // up
			p := (i - 1) / 2
			if stockCmp(h[i], h[p]) <= 0 {
				break
			}
			h[i], h[p] = h[p], h[i]
			i = p
		}
		t.h = h
		return
	}
	if len(h) == 0 || stockCmp(x, h[0]) >= 0 {
		return // not better than the worst kept
	}
	h[0] = x
	for i := 0; ; { // down
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && stockCmp(h[l], h[m]) > 0 {
			m = l
		}
		if r < len(h) && stockCmp(h[r], h[m]) > 0 {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
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
// ascending, from a walk of the stored words.
func (t *Tx) adminScanWords(storeID uint64, words []string) []uint64 {
	var out []uint64
	prefix := keyOf(storeID).code(adminText)
	c := t.b(bAdminSearch).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if app.MatchWords(string(v), words) {
			out = append(out, idFromKeyEnd(k))
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
