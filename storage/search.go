package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// The search index: for every key of an active product's search terms
// (app.IndexTerms: the words of its name as typed, then app.TermMark and the
// stem of every word of its name and description), sid|key 0x00|id -> the
// product's rating key (8 bytes, for the rating sort). It is written and
// deleted with the product's other index entries, in the same transaction
// (PutProduct, DeleteProduct); stock changes do not touch it (stock is read
// from the newest index entry).

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

// The word counts (bSearchWords): sid|word -> how many keys the search index
// holds for the word, kept with the postings in the same transaction, so a
// search learns how many products a (prefix) word matches from one key per
// word it expands to instead of walking the postings.
func searchWordKey(sid uint64, word string) []byte { return keyOf(sid).last(word) }

// addWordCount adds d to the count at k, deleting it at zero.
func addWordCount(b *bolt.Bucket, k []byte, d int64) error {
	var n int64
	if v := b.Get(k); len(v) == 8 {
		n = int64(binary.BigEndian.Uint64(v))
	}
	if n += d; n <= 0 {
		return b.Delete(k)
	}
	return b.Put(k, u64(uint64(n)))
}

// searchWordsOf lists the keys p is indexed under (none when inactive),
// its terms made with stem, its store's (Tx.searchStem).
func searchWordsOf(p *app.Product, stem app.Stemmer) []string {
	if !p.IsActive {
		return nil
	}
	terms := app.IndexTerms(p.Name, p.Description, stem)
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = t.Key
	}
	return out
}

func (t *Tx) indexSearch(p *app.Product, stem app.Stemmer) error {
	return t.searchKeys(p, searchWordsOf(p, stem), 1)
}

func (t *Tx) unindexSearch(p *app.Product, stem app.Stemmer) error {
	return t.searchKeys(p, searchWordsOf(p, stem), -1)
}

// searchKeys puts (d 1) or deletes (d -1) p's search index entries of
// words, with their counts.
func (t *Tx) searchKeys(p *app.Product, words []string, d int64) error {
	b, counts := t.b(bIdxSearch), t.b(bSearchWords)
	rk := u64(ratingKey(p))
	for _, w := range words {
		k := searchKey(p.StoreID, w, p.ID)
		var err error
		if d > 0 {
			err = b.Put(k, rk)
		} else {
			err = b.Delete(k)
		}
		if err != nil {
			return err
		}
		if err := addWordCount(counts, searchWordKey(p.StoreID, w), d); err != nil {
			return err
		}
	}
	return nil
}

// searchIndexForm is the form of the search index this binary writes: 2
// adds the terms of names and descriptions (issue 36) to 1's name words; 3
// makes each store's terms with its language's stemmer and reads ё as е.
const searchIndexForm = "3"

// buildSearchIndex indexes every active product, with the word counts; Open
// runs it once on a database whose index is of an older form or missing
// (meta "search_index").
func buildSearchIndex(tx *bolt.Tx) error {
	meta := tx.Bucket(bMeta)
	if string(meta.Get([]byte("search_index"))) == searchIndexForm {
		return nil
	}
	for _, name := range [][]byte{bIdxSearch, bSearchWords} {
		if err := tx.DeleteBucket(name); err != nil {
			return err
		}
		if _, err := tx.CreateBucket(name); err != nil {
			return err
		}
	}
	t := &Tx{tx: tx}
	err := tx.Bucket(bProducts).ForEach(func(_, v []byte) error {
		var p app.Product
		if err := getJSONBytes(v, &p, "product"); err != nil {
			return err
		}
		return t.indexSearch(&p, t.searchStem(p.StoreID))
	})
	if err != nil {
		return err
	}
	return meta.Put([]byte("search_index"), []byte(searchIndexForm))
}

// searchStem is the stemmer of a store's search index: its language's
// (app.Settings.Lang; PutStore re-indexes a store whose language changes).
func (t *Tx) searchStem(storeID uint64) app.Stemmer {
	return app.StemmerFor(t.storeLang(storeID))
}

// reindexTerms rewrites the search index entries of a store's products
// made with stem as made with to (the store's language changed), in the
// store's write transaction: the index never mixes two languages. Only the
// keys that differ are written (the name's words as typed, and most
// terms, are the same in both).
func (t *Tx) reindexTerms(storeID uint64, stem, to app.Stemmer) error {
	prefix := keyOf(storeID)
	c := t.b(bProducts).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var p app.Product
		if err := getJSONBytes(v, &p, "product"); err != nil {
			return err
		}
		was, now := searchWordsOf(&p, stem), searchWordsOf(&p, to)
		if err := t.searchKeys(&p, without(was, now), -1); err != nil {
			return err
		}
		if err := t.searchKeys(&p, without(now, was), 1); err != nil {
			return err
		}
	}
	return nil
}

// without is the words of a not in b (a product's keys: a few dozen).
func without(a, b []string) []string {
	var out []string
	for _, w := range a {
		if !slices.Contains(b, w) {
			out = append(out, w)
		}
	}
	return out
}

var _ = registerDerived("search_words_v1", rebuildSearchWords, bSearchWords)

// rebuildSearchWords counts the search index's keys per word (a database
// whose search index predates the counts).
func rebuildSearchWords(tx *bolt.Tx) error {
	counts := tx.Bucket(bSearchWords)
	// the keys come in order: fill the pages (fill.go)
	counts.FillPercent = appendFill
	var word []byte // sid|word of the run being counted
	var n uint64
	flush := func() error {
		if n == 0 {
			return nil
		}
		return counts.Put(word, u64(n))
	}
	c := tx.Bucket(bIdxSearch).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < 17 {
			continue
		}
		if w := k[:len(k)-9]; !bytes.Equal(w, word) { // sid|word without 0x00|id
			if err := flush(); err != nil {
				return err
			}
			word, n = bytes.Clone(w), 0
		}
		n++
	}
	return flush()
}

// wordKeys calls fn with each key of the search index w reads (every
// indexed word that begins with w as typed, its term, its typos) and the
// key's count; a word as typed whose term is w's is left out (w's term
// holds its products). It stops when fn returns false.
func (t *Tx) wordKeys(storeID uint64, w app.SearchWord, fn func(key []byte, n int) bool) {
	c := t.b(bSearchWords).Cursor()
	count := func(v []byte) int {
		if len(v) == 8 {
			return int(min(binary.BigEndian.Uint64(v), 1<<31))
		}
		return 0
	}
	prefix := searchWordKey(storeID, w.Word)
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if app.TermMark+w.Stem(string(k[8:])) == w.Term {
			continue
		}
		if !fn(k[8:], count(v)) {
			return
		}
	}
	for _, term := range w.Exact() {
		if v := seekGet(c, searchWordKey(storeID, term)); v != nil && !fn([]byte(term), count(v)) {
			return
		}
	}
}

// countPostings is how many search index keys w reads (a product with two
// such keys counts twice: an upper bound of the products w matches); it
// stops adding once the sum is above limit. only is the key w reads when
// it reads exactly one ("" if not).
func (t *Tx) countPostings(storeID uint64, w app.SearchWord, limit int) (n int, only string) {
	keys := 0
	t.wordKeys(storeID, w, func(key []byte, m int) bool {
		if m == 0 {
			return true
		}
		if keys++; keys == 1 {
			only = string(key)
		} else {
			only = ""
		}
		n += m
		return keys == 1 || n <= limit
	})
	return n, only
}

// searchWords makes the query's search words; a word that reads no key of
// the index as typed gets its typos (app.TypoTerms) from the store's terms.
// It returns the index of the word with the fewest postings too, their
// count (counted up to a little over searchCandidates) and the one key it
// reads, if one.
func (t *Tx) searchWords(storeID uint64, words []string, lenient bool) (sws []app.SearchWord, rarest, n int, only string) {
	sws = app.NewSearchWords(words, t.searchStem(storeID), lenient)
	n = searchCandidates + 1
	for i := range sws {
		m, o := t.countPostings(storeID, sws[i], n)
		if m == 0 {
			if sws[i].Typos = app.TypoTerms(vocabulary{c: t.b(bSearchWords).Cursor(), sid: storeID}, sws[i]); len(sws[i].Typos) > 0 {
				m, o = t.countPostings(storeID, sws[i], n)
			}
		}
		if i == 0 || m < n {
			rarest, n, only = i, m, o
		}
	}
	return sws, rarest, n, only
}

// vocabulary is a store's keys of the word counts (app.Vocabulary).
type vocabulary struct {
	c   *bolt.Cursor
	sid uint64
}

func (v vocabulary) Seek(from string) string {
	k, _ := v.c.Seek(searchWordKey(v.sid, from))
	if len(k) < 8 || binary.BigEndian.Uint64(k) != v.sid {
		return ""
	}
	return string(k[8:])
}

// posting is a product a search word matches, with its rating key.
type posting struct{ id, rating uint64 }

// postings returns the distinct products w reads, in id order, with their
// rating keys.
func (t *Tx) postings(storeID uint64, w app.SearchWord, sizeHint int) []posting {
	out := make([]posting, 0, sizeHint)
	keys := 0 // with more than one, a product may be listed twice
	c := t.b(bIdxSearch).Cursor()
	t.wordKeys(storeID, w, func(key []byte, _ int) bool {
		keys++
		prefix := keyOf(storeID).str0(string(key))
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			p := posting{id: idFromKeyEnd(k)}
			if len(v) == 8 {
				p.rating = binary.BigEndian.Uint64(v)
			}
			out = append(out, p)
		}
		return true
	})
	if keys > 1 {
		slices.SortFunc(out, func(a, b posting) int { return cmpID(a.id, b.id) })
		out = slices.CompactFunc(out, func(a, b posting) bool { return a.id == b.id })
	}
	return out
}

// searchMatch reports whether every word finds product id of the (index
// entry's) name: in the name (app.SearchWord.NameScore) or, by one of its
// terms, in the index (the description). c is a cursor of the search index.
func searchMatch(c *bolt.Cursor, storeID, id uint64, name string, words []app.SearchWord) bool {
	folded := app.FoldText(name)
	for _, w := range words {
		if w.InName(folded) {
			continue
		}
		found := false
		for _, term := range w.Exact() {
			if seekGet(c, searchKey(storeID, term, id)) != nil {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// searchDocs answers a product list with q. It picks the cheapest of three
// ways, without changing the answer (all page in the sort's order with the
// same cursor bytes):
//   - postings: when some query word matches few products, those are read
//     from the search index, tested against the other words and the filters
//     on their newest index entry, sorted by the sort's index key suffix and
//     paged (pageOfPostings);
//   - one word's postings in id order: newest first with one query word
//     that expands to one indexed word and no filter, every posting is a
//     match, so its keys walked from the newest are the page (wordDocs);
//   - scan: when every word is common, walking the sort's index and testing
//     each entry fills a page after a few entries.
//
// The word counts say which query word is rarest and how many products it
// may match. In order: the postings when that is at most searchProbe
// (rare words, cheap); else the word's postings in id order when they
// apply; else a scan of at most searchScanBudget entries (common words: it
// fills the page); else the postings when at most searchCandidates; else
// the whole scan. sort=relevance is answered from the postings when the
// rarest word has at most searchCandidates, else newest first (the word's
// postings or the scan), so it skips the bounded scan.
func (t *Tx) searchDocs(storeID uint64, q app.ProductQuery) (app.Page[app.Doc], error) {
	sws, rarest, n, only := t.searchWords(storeID, q.Words, q.Lenient)
	byPostings := func() (app.Page[app.Doc], error) {
		return t.pageOfPostings(storeID, q, sws, rarest, t.postings(storeID, sws[rarest], n))
	}
	if n <= min(searchProbe, searchCandidates) {
		return byPostings()
	}
	scan, budget := q, searchScanBudget
	if q.Sort == app.SortRelevance {
		if n <= searchCandidates {
			return byPostings()
		}
		scan.Sort, budget = app.SortNewest, 0
	}
	if code, desc := sortPlan(scan.Sort); only != "" && searchWordWalk && code == sortNewest && desc &&
		len(q.Words) == 1 && q.CategoryID == 0 && q.MinPrice < 0 && q.MaxPrice < 0 && !q.InStock {
		return t.wordDocs(storeID, scan, only)
	}
	pg, err := t.scanDocs(storeID, scan, sws, budget)
	if budget == 0 || !errors.Is(err, errScanBudget) {
		return pg, err
	}
	if n <= searchCandidates {
		return byPostings()
	}
	return t.scanDocs(storeID, scan, sws, 0)
}

// searchWordWalk enables wordDocs (tests turn it off to compare the ways).
var searchWordWalk = true

// wordDocs pages the products indexed under word, newest first, for a query
// whose only condition is that word: its postings (sid|word 0x00|id) run in
// id order like the newest index (sid|sort|id), and the cursor is the same
// 8 id bytes.
func (t *Tx) wordDocs(storeID uint64, q app.ProductQuery, word string) (app.Page[app.Doc], error) {
	return t.walkDocs(storeID, q, docWalk{b: t.b(bIdxSearch), prefix: keyOf(storeID).str0(word), lp: q.ListParams, desc: true}, 0)
}

// pageOfPostings pages the products of ps, the postings of sws[rarest],
// that match q.
func (t *Tx) pageOfPostings(storeID uint64, q app.ProductQuery, sws []app.SearchWord, rarest int, ps []posting) (app.Page[app.Doc], error) {
	hits, desc := t.postingHits(storeID, q, sws, rarest, ps)
	if q.After != nil {
		hits = hitsAfter(hits, q.After.Key, desc)
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
	docs := t.b(bProductDocs).Cursor()
	dk := keyOf(storeID).id(0) // sid|id; the id is written per item
	pg.Items = make([]app.Doc, 0, len(hits))
	for _, h := range hits {
		binary.BigEndian.PutUint64(dk[len(dk)-8:], h.id)
		d := seekGet(docs, dk)
		if d == nil {
			return pg, errMissingDoc(storeID, h.id)
		}
		pg.Items = append(pg.Items, d) // bbolt's bytes, valid until the tx ends
	}
	if !q.Borrow {
		copyDocs(pg.Items, pg.Items, q.Light) // in place, as scanDocs does
	}
	return pg, nil
}

// postingHit is a matching product of a posting list with its sort key: the
// key suffix after sid|sort, a cursor's bytes.
type postingHit struct {
	id     uint64
	suffix []byte
}

// postingHits returns the active products of ps that match q in q's order,
// and whether that order is descending. ps are sws[rarest]'s postings: every
// one matches that word, so only the others are tested.
func (t *Tx) postingHits(storeID uint64, q app.ProductQuery, sws []app.SearchWord, rarest int, ps []posting) ([]postingHit, bool) {
	others := slices.Delete(slices.Clone(sws), rarest, rarest+1)
	desc := true
	code := byte(0)
	if q.Sort != app.SortRelevance {
		code, desc = sortPlan(q.Sort)
	}
	c, terms := t.b(bIdxProducts).Cursor(), t.b(bIdxSearch).Cursor()
	hits := make([]postingHit, 0, len(ps))
	key := keyOf(storeID).code(sortNewest)
	base := len(key)
	for _, p := range ps {
		id := p.id
		key = key[:base].id(id)
		v := seekGet(c, key)
		if v == nil { // inactive (no index entries)
			continue
		}
		e := decodeIndexEntry(v)
		if !q.Match(e) || !searchMatch(terms, storeID, id, e.Name, others) {
			continue
		}
		s := tkey(make([]byte, 0, 16)) // the key suffix after sid|sort: a cursor's bytes
		switch {
		case q.Sort == app.SortRelevance:
			s = s.code(app.SearchRelevance(e.Name, sws)).id(id)
		case code == sortPrice:
			s = s.id(uint64(e.Price)).id(id)
		case code == sortName:
			s = s.str0(e.Name).id(id)
		case code == sortRating:
			s = s.id(p.rating).id(id)
		default:
			s = s.id(id)
		}
		hits = append(hits, postingHit{id, s})
	}
	slices.SortFunc(hits, func(a, b postingHit) int {
		if desc {
			return bytes.Compare(b.suffix, a.suffix)
		}
		return bytes.Compare(a.suffix, b.suffix)
	})
	return hits, desc
}

// hitsAfter drops the hits up to and including the cursor's key.
func hitsAfter(hits []postingHit, after []byte, desc bool) []postingHit {
	i, _ := slices.BinarySearchFunc(hits, after, func(h postingHit, k []byte) int {
		c := bytes.Compare(h.suffix, k)
		if desc {
			c = -c
		}
		if c == 0 { // the cursor's own item is before the page
			return -1
		}
		return c
	})
	return hits[i:]
}
