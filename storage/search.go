package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// The search index: for every word of an active product's name (folded,
// app.SearchWords), sid|word 0x00|id -> the product's rating key (8 bytes,
// for the rating sort). It is written and deleted with the product's other
// index entries, in the same transaction (PutProduct, DeleteProduct); stock
// changes do not touch it (stock is read from the newest index entry).

// searchCandidates is the most products one query word may match for the
// index to answer: the matches are read whole, filtered and sorted in
// memory. A query whose every word matches more is common enough that
// walking the sort's index and testing each entry finds a page quickly.
var searchCandidates = 2000

// searchProbe is how many products a query word's postings are read for
// first: a word matching that few is answered from them at once.
var searchProbe = 64

// searchScanBudget is how many index entries a search walks before it gives
// up on the scan and reads the postings of up to searchCandidates products:
// a word in one product of 200 still fills a 24-item page within it.
var searchScanBudget = 4096

// errScanBudget stops a scan that spent its budget.
var errScanBudget = errors.New("storage: search scan budget spent")

func searchKey(sid uint64, word string, id uint64) []byte {
	return keyOf(sid).str0(word).id(id)
}

// searchKeysOf lists the search index keys of p (none when inactive).
func searchKeysOf(p *app.Product) [][]byte {
	if !p.IsActive {
		return nil
	}
	words := app.SearchWords(p.Name)
	out := make([][]byte, len(words))
	for i, w := range words {
		out[i] = searchKey(p.StoreID, w, p.ID)
	}
	return out
}

func (t *Tx) indexSearch(p *app.Product) error {
	b := t.b(bIdxSearch)
	rk := u64(ratingKey(p))
	for _, k := range searchKeysOf(p) {
		if err := b.Put(k, rk); err != nil {
			return err
		}
	}
	return nil
}

func (t *Tx) unindexSearch(p *app.Product) error {
	b := t.b(bIdxSearch)
	for _, k := range searchKeysOf(p) {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// buildSearchIndex indexes every active product; Open runs it once on a
// database made before the index existed (meta "search_index").
func buildSearchIndex(tx *bolt.Tx) error {
	meta := tx.Bucket(bMeta)
	if meta.Get([]byte("search_index")) != nil {
		return nil
	}
	t := &Tx{tx: tx}
	err := tx.Bucket(bProducts).ForEach(func(_, v []byte) error {
		var p app.Product
		if err := getJSONBytes(v, &p, "product"); err != nil {
			return err
		}
		return t.indexSearch(&p)
	})
	if err != nil {
		return err
	}
	return meta.Put([]byte("search_index"), []byte("1"))
}

// postings returns the distinct products with a word beginning with w and
// their rating keys, or ok false when there are more than limit.
func (t *Tx) postings(storeID uint64, w string, limit int) (ids []uint64, ratings map[uint64]uint64, ok bool) {
	prefix := keyOf(storeID).last(w) // no terminator: every word that begins with w
	ratings = map[uint64]uint64{}
	c := t.b(bIdxSearch).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		id := idFromKeyEnd(k)
		if _, dup := ratings[id]; dup {
			continue
		}
		if len(ids) == limit {
			return nil, nil, false
		}
		ids = append(ids, id)
		if len(v) == 8 {
			ratings[id] = binary.BigEndian.Uint64(v)
		}
	}
	return ids, ratings, true
}

// searchDocs answers a product list with q. It picks the cheaper of two
// ways, without changing the answer (both page in the sort's order with the
// same cursor bytes):
//   - postings: when some query word matches few products, those are read
//     from the search index, tested against the other words and the filters
//     on their newest index entry, sorted by the sort's index key suffix and
//     paged (searchByPostings);
//   - scan: when every word is common, walking the sort's index and testing
//     each entry fills a page after a few entries.
//
// In order: the postings of at most searchProbe products (rare words, cheap);
// else a scan of at most searchScanBudget entries (common words: it fills the
// page); else the postings of at most searchCandidates products; else the
// whole scan. sort=relevance is answered from postings when some word matches
// at most searchCandidates products, else newest first (the scan), so it
// skips the bounded scan and counts postings instead.
func (t *Tx) searchDocs(storeID uint64, q app.ProductQuery) (app.Page[app.Doc], error) {
	if pg, ok, err := t.searchByPostings(storeID, q, min(searchProbe, searchCandidates)); ok || err != nil {
		return pg, err
	}
	scan := q
	if q.Sort == app.SortRelevance {
		scan.Sort = app.SortNewest
		for _, w := range q.Words {
			if t.countPostings(storeID, w, searchCandidates+1) <= searchCandidates {
				pg, _, err := t.searchByPostings(storeID, q, searchCandidates)
				return pg, err
			}
		}
		return t.scanDocs(storeID, scan, 0)
	}
	pg, err := t.scanDocs(storeID, scan, searchScanBudget)
	if !errors.Is(err, errScanBudget) {
		return pg, err
	}
	if pg, ok, err := t.searchByPostings(storeID, q, searchCandidates); ok || err != nil {
		return pg, err
	}
	return t.scanDocs(storeID, scan, 0)
}

// countPostings counts the keys of words beginning with w, up to limit
// (a product with two such words counts twice: an upper bound).
func (t *Tx) countPostings(storeID uint64, w string, limit int) int {
	prefix := keyOf(storeID).last(w)
	c := t.b(bIdxSearch).Cursor()
	n := 0
	for k, _ := c.Seek(prefix); k != nil && n < limit && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		n++
	}
	return n
}

// searchByPostings answers q from the postings of its rarest word when that
// word matches at most limit products (ok false otherwise).
func (t *Tx) searchByPostings(storeID uint64, q app.ProductQuery, limit int) (app.Page[app.Doc], bool, error) {
	var ids []uint64
	var ratings map[uint64]uint64
	found := false
	for _, w := range q.Words {
		i, r, ok := t.postings(storeID, w, limit)
		if ok && (!found || len(i) < len(ids)) {
			ids, ratings, found = i, r, true
			limit = len(i) // a later word is only read if it has fewer
		}
	}
	if !found {
		return app.Page[app.Doc]{}, false, nil
	}
	pg, err := t.pageOfPostings(storeID, q, ids, ratings)
	return pg, true, err
}

// pageOfPostings pages the products ids that match q.
func (t *Tx) pageOfPostings(storeID uint64, q app.ProductQuery, ids []uint64, ratings map[uint64]uint64) (app.Page[app.Doc], error) {
	desc := true
	code := byte(0)
	if q.Sort != app.SortRelevance {
		code, desc = sortPlan(q.Sort)
	}
	idx := t.b(bIdxProducts)
	type hit struct {
		id     uint64
		suffix []byte
	}
	hits := make([]hit, 0, len(ids))
	for _, id := range ids {
		v := idx.Get(keyOf(storeID).code(sortNewest).id(id))
		if v == nil { // inactive (no index entries)
			continue
		}
		e := decodeIndexEntry(v)
		if !q.Match(e) {
			continue
		}
		s := tkey(make([]byte, 0, 16)) // the key suffix after sid|sort: a cursor's bytes
		switch {
		case q.Sort == app.SortRelevance:
			s = s.code(app.Relevance(e.Name, q.Words)).id(id)
		case code == sortPrice:
			s = s.id(uint64(e.Price)).id(id)
		case code == sortName:
			s = s.str0(e.Name).id(id)
		case code == sortRating:
			s = s.id(ratings[id]).id(id)
		default:
			s = s.id(id)
		}
		hits = append(hits, hit{id, s})
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if desc {
			return bytes.Compare(b.suffix, a.suffix)
		}
		return bytes.Compare(a.suffix, b.suffix)
	})
	if q.After != nil {
		after := q.After.Key
		i, _ := slices.BinarySearchFunc(hits, after, func(h hit, k []byte) int {
			c := bytes.Compare(h.suffix, k)
			if desc {
				c = -c
			}
			if c == 0 { // the cursor's own item is before the page
				return -1
			}
			return c
		})
		hits = hits[i:]
	}
	limit := q.Limit
	if limit <= 0 {
		limit = app.DefaultLimit
	}
	var pg app.Page[app.Doc]
	if len(hits) > limit {
		pg.Next = &app.Cursor{Sort: q.Sort, Key: bytes.Clone(hits[limit-1].suffix)}
		hits = hits[:limit]
	}
	docs := t.b(bProductDocs)
	vals := make([][]byte, 0, len(hits))
	for _, h := range hits {
		d := docs.Get(keyOf(storeID).id(h.id))
		if d == nil {
			return pg, errMissingDoc(storeID, h.id)
		}
		vals = append(vals, d)
	}
	pg.Items = make([]app.Doc, len(vals))
	copyDocs(pg.Items, vals, q.Light)
	return pg, nil
}
