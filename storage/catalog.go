package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// PutCategory creates or updates a category; renaming re-encodes the docs of
// its products so that their category.name stays true.
func (t *Tx) PutCategory(c *app.Category) error {
	slugs := t.b(bCategorySlugs)
	var old *app.Category
	if c.ID == 0 {
		id, err := t.NextID(c.StoreID, "category")
		if err != nil {
			return err
		}
		c.ID = id
	} else {
		var err error
		if old, err = t.Category(c.StoreID, c.ID); err != nil {
			return err
		}
	}
	if err := slugFree(slugs, c.StoreID, c.Slug, c.ID); err != nil {
		return err
	}
	if old != nil && old.Slug != c.Slug {
		if err := slugs.Delete(keyOf(c.StoreID).last(old.Slug)); err != nil {
			return err
		}
	}
	if err := putSlug(slugs, c.StoreID, "", c.Slug, c.ID); err != nil {
		return err
	}
	if err := putJSON(t.b(bCategories), keyOf(c.StoreID).id(c.ID), c); err != nil {
		return err
	}
	if old != nil && old.Name != c.Name {
		return t.reencodeCategory(c)
	}
	return nil
}

func (t *Tx) reencodeCategory(c *app.Category) error {
	var ids []uint64
	prefix := keyOf(c.StoreID).id(c.ID).code(sortNewest)
	err := walk(t.b(bIdxCatProducts), prefix, nil, false, func(k, _ []byte) (bool, error) {
		ids = append(ids, idFromKeyEnd(k))
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		p, err := t.Product(c.StoreID, id)
		if err != nil {
			return err
		}
		if err := t.putProductDoc(p, c); err != nil {
			return err
		}
	}
	return nil
}

// Category returns one category.
func (t *Tx) Category(storeID, id uint64) (*app.Category, error) {
	var c app.Category
	if err := getJSON(t.b(bCategories), keyOf(storeID).id(id), &c, "category"); err != nil {
		return nil, err
	}
	return &c, nil
}

// Categories lists a store's categories by id.
func (t *Tx) Categories(storeID uint64) ([]*app.Category, error) {
	out := []*app.Category{}
	err := walk(t.b(bCategories), tenant(storeID), nil, false, func(_, v []byte) (bool, error) {
		var c app.Category
		if err := getJSONBytes(v, &c, "category"); err != nil {
			return false, err
		}
		out = append(out, &c)
		return true, nil
	})
	return out, err
}

// DeleteCategory deletes a category that no product uses.
func (t *Tx) DeleteCategory(storeID, id uint64) error {
	c, err := t.Category(storeID, id)
	if err != nil {
		return err
	}
	used := false
	err = walk(t.b(bProducts), tenant(storeID), nil, false, func(_, v []byte) (bool, error) {
		var p app.Product
		if err := getJSONBytes(v, &p, "product"); err != nil {
			return false, err
		}
		used = p.CategoryID == id
		return !used, nil
	})
	if err != nil {
		return err
	}
	if used {
		return app.Errorf(app.EConflict, "the category still has products; move or delete them first")
	}
	if err := t.b(bCategorySlugs).Delete(keyOf(storeID).last(c.Slug)); err != nil {
		return err
	}
	return t.b(bCategories).Delete(keyOf(storeID).id(id))
}

// PutProduct creates or updates a product with its doc, slug and indexes.
func (t *Tx) PutProduct(p *app.Product) error {
	var old *app.Product
	if p.ID == 0 {
		id, err := t.NextID(p.StoreID, "product")
		if err != nil {
			return err
		}
		p.ID = id
	} else {
		var err error
		if old, err = t.Product(p.StoreID, p.ID); err != nil {
			return err
		}
	}
	slugs := t.b(bProductSlugs)
	if err := slugFree(slugs, p.StoreID, p.Slug, p.ID); err != nil {
		return err
	}
	if old != nil {
		if err := t.unindexProduct(old); err != nil {
			return err
		}
	}
	var before []string
	if old != nil {
		before = old.MediaURLs()
	}
	if err := t.retainMedia(p.StoreID, before, p.MediaURLs()); err != nil {
		return err
	}
	if err := putSlug(slugs, p.StoreID, "", p.Slug, p.ID); err != nil {
		return err
	}
	if err := t.writeProduct(p); err != nil {
		return err
	}
	if err := t.indexAdmin(p); err != nil {
		return err
	}
	return t.indexSearch(p, t.searchStem(p.StoreID))
}

// writeProduct writes the record, its doc and its index entries (whose keys
// the caller has made sure are the only ones of p).
func (t *Tx) writeProduct(p *app.Product) error {
	k := keyOf(p.StoreID).id(p.ID)
	if err := putJSON(t.b(bProducts), k, p); err != nil {
		return err
	}
	delete(t.restocked, string(k))
	return t.writeDerived(p)
}

// writeDerived writes what follows from a product's record: its doc, the
// low-stock marks and its index entries.
func (t *Tx) writeDerived(p *app.Product) error {
	var cat *app.Category
	if p.CategoryID != 0 {
		var err error
		if cat, err = t.Category(p.StoreID, p.CategoryID); err != nil {
			return err
		}
	}
	if err := t.putProductDoc(p, cat); err != nil {
		return err
	}
	if err := t.putLowStock(p); err != nil {
		return err
	}
	entry := encodeIndexEntry(p)
	if err := t.putAdminEntries(p, entry); err != nil {
		return err
	}
	if !p.IsActive {
		return nil
	}
	global, inCat := productIndexKeysOf(p)
	for _, k := range global {
		if err := t.b(bIdxProducts).Put(k, entry); err != nil {
			return fmt.Errorf("storage: put product index: %w", err)
		}
	}
	for _, k := range inCat {
		if err := t.b(bIdxCatProducts).Put(k, entry); err != nil {
			return fmt.Errorf("storage: put product index: %w", err)
		}
	}
	return nil
}

func (t *Tx) putProductDoc(p *app.Product, cat *app.Category) error {
	doc, err := p.Doc(cat)
	if err != nil {
		return fmt.Errorf("storage: encode product doc: %w", err)
	}
	return t.b(bProductDocs).Put(keyOf(p.StoreID).id(p.ID), doc)
}

func (t *Tx) unindexProduct(p *app.Product) error {
	if err := t.b(bProductSlugs).Delete(keyOf(p.StoreID).last(p.Slug)); err != nil {
		return err
	}
	if err := t.unindexSearch(p, t.searchStem(p.StoreID)); err != nil {
		return err
	}
	if err := t.unindexAdmin(p); err != nil {
		return err
	}
	global, cat := productIndexKeysOf(p)
	for _, k := range global {
		if err := t.b(bIdxProducts).Delete(k); err != nil {
			return err
		}
	}
	for _, k := range cat {
		if err := t.b(bIdxCatProducts).Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// ratingKey orders products by average rating (hundredths), then review count.
func ratingKey(p *app.Product) uint64 {
	return uint64(p.AverageRating()*100)<<32 | uint64(min(p.ReviewCount, 1<<31))
}

// productIndexKeysOf lists the index keys of p (see productIndexKeys).
func productIndexKeysOf(p *app.Product) (global, cat [][]byte) {
	return productIndexKeys(p.StoreID, p.ID, p.CategoryID, int64(p.Price), app.NormalizeName(p.Name), ratingKey(p))
}

func encodeIndexEntry(p *app.Product) []byte {
	name := app.NormalizeName(p.Name)
	b := make([]byte, 0, 24+len(name))
	b = binary.BigEndian.AppendUint64(b, uint64(p.Price))
	b = binary.BigEndian.AppendUint64(b, uint64(p.AvailableStock()))
	b = binary.BigEndian.AppendUint64(b, p.CategoryID)
	return append(b, name...)
}

func decodeIndexEntry(v []byte) app.IndexEntry {
	if len(v) < 24 {
		return app.IndexEntry{}
	}
	return app.IndexEntry{
		Price:      app.Money(binary.BigEndian.Uint64(v)),
		Stock:      int64(binary.BigEndian.Uint64(v[8:])),
		CategoryID: binary.BigEndian.Uint64(v[16:]),
		Name:       string(v[24:]),
	}
}

// Product returns one product.
func (t *Tx) Product(storeID, id uint64) (*app.Product, error) {
	k := keyOf(storeID).id(id)
	if p, ok := t.restocked[string(k)]; ok {
		return p.Clone(), nil // as this transaction's PutProductStock wrote it
	}
	var p app.Product
	if err := getJSON(t.b(bProducts), k, &p, "product"); err != nil {
		return nil, err
	}
	return &p, nil
}

// ProductBySlug returns one product by slug.
func (t *Tx) ProductBySlug(storeID uint64, slug string) (*app.Product, error) {
	v := t.b(bProductSlugs).Get(keyOf(storeID).last(slug))
	if v == nil {
		return nil, app.NotFound("product")
	}
	return t.Product(storeID, idFromKeyEnd(v))
}

// ProductDoc returns the doc of an active product.
func (t *Tx) ProductDoc(storeID, id uint64) (app.Doc, error) {
	d, err := t.productDoc(storeID, id)
	return app.Doc(bytes.Clone(d)), err
}

// productDoc is ProductDoc's bytes as bbolt holds them: valid until the
// transaction ends.
func (t *Tx) productDoc(storeID, id uint64) (app.Doc, error) {
	d := t.b(bProductDocs).Get(keyOf(storeID).id(id))
	if d == nil || !t.productActive(storeID, id) {
		return nil, app.NotFound("product")
	}
	return d, nil
}

// productActive reads the newest-index entry, present only for active products.
func (t *Tx) productActive(storeID, id uint64) bool {
	return t.b(bIdxProducts).Get(keyOf(storeID).code(sortNewest).id(id)) != nil
}

// ProductDocBySlug returns the doc of an active product by slug.
func (t *Tx) ProductDocBySlug(storeID uint64, slug string) (app.Doc, error) {
	d, err := t.BorrowProductDocBySlug(storeID, slug)
	return app.Doc(bytes.Clone(d)), err
}

// BorrowProductDocBySlug is ProductDocBySlug without the copy: the doc is
// bbolt's bytes, valid until the transaction ends (app.DocBorrower).
func (t *Tx) BorrowProductDocBySlug(storeID uint64, slug string) (app.Doc, error) {
	v := t.b(bProductSlugs).Get(keyOf(storeID).last(slug))
	if v == nil {
		return nil, app.NotFound("product")
	}
	return t.productDoc(storeID, idFromKeyEnd(v))
}

// DeleteProduct removes a product, its doc and index entries.
func (t *Tx) DeleteProduct(storeID, id uint64) error {
	p, err := t.Product(storeID, id)
	if err != nil {
		return err
	}
	if err := t.unindexProduct(p); err != nil {
		return err
	}
	if err := t.retainMedia(storeID, p.MediaURLs(), nil); err != nil {
		return err
	}
	if err := t.b(bProductDocs).Delete(keyOf(storeID).id(id)); err != nil {
		return err
	}
	if err := t.b(bIdxProductsLow).Delete(keyOf(storeID).id(id)); err != nil {
		return err
	}
	delete(t.restocked, string(keyOf(storeID).id(id)))
	return t.b(bProducts).Delete(keyOf(storeID).id(id))
}

// sortPlan maps a product sort to its index code and direction.
func sortPlan(sort string) (byte, bool) {
	switch sort {
	case app.SortPriceAsc:
		return sortPrice, false
	case app.SortPriceDesc:
		return sortPrice, true
	case app.SortNameAsc:
		return sortName, false
	case app.SortRatingDesc:
		return sortRating, true
	default:
		return sortNewest, true
	}
}

// ProductDocs reads a page of active products from the index of q's sort,
// filtering on the index entries, then copies the docs into one buffer (one
// allocation per page, not per item: copyDocs). The docs are read with one cursor that
// first tries the neighbour of the previous doc: under the newest sort the
// index and the docs run in the same order, so a page is a sequential read.
// This leans on bbolt internals: a value slice points into the mmap and stays
// valid until the transaction ends (the page copies them once, at the end),
// and Next/Prev step from where the last Seek or step left the cursor. If a
// bbolt upgrade copied values into a reused buffer or moved cursors
// otherwise, pages would hold wrong bytes: TestProductDocsCursorStepping
// compares every doc of every page, in every sort, with the doc read alone.
func (t *Tx) ProductDocs(storeID uint64, q app.ProductQuery) (app.Page[app.Doc], error) {
	if q.Words == nil && q.Q != "" {
		q.Words = app.QueryWords(q.Q)
	}
	if len(q.Words) > 0 {
		return t.searchDocs(storeID, q)
	}
	return t.scanDocs(storeID, q, nil, 0)
}

// scanDocs walks the index of q's sort and tests each entry against q and
// its search words; with budget > 0 it fails with errScanBudget after
// testing that many entries.
// A price range starts the price sorts at its edge.
func (t *Tx) scanDocs(storeID uint64, q app.ProductQuery, sws []app.SearchWord, budget int) (app.Page[app.Doc], error) {
	code, desc := sortPlan(q.Sort)
	w := docWalk{lp: q.ListParams, desc: desc, search: sws, filtered: len(sws) > 0 || q.MinPrice >= 0 || q.MaxPrice >= 0 || q.InStock}
	if q.CategoryID != 0 {
		w.b, w.prefix = t.b(bIdxCatProducts), keyOf(storeID).id(q.CategoryID).code(code)
	} else {
		w.b, w.prefix = t.b(bIdxProducts), keyOf(storeID).code(code)
	}
	if code == sortPrice {
		w.lp.After = priceRangeStart(w.lp.After, q, desc)
	}
	return t.walkDocs(storeID, q, w, budget)
}

// docWalk is the walk of walkDocs: the keys under prefix in b, after lp's
// cursor, each ending in a product id; filtered tests each value (an index
// entry) against the query.
type docWalk struct {
	b        *bolt.Bucket
	prefix   []byte
	lp       app.ListParams
	desc     bool
	filtered bool
	search   []app.SearchWord // tested with searchMatch when filtered
}

// walkDocs pages the docs of the products along w (see scanDocs).
func (t *Tx) walkDocs(storeID uint64, q app.ProductQuery, w docWalk, budget int) (app.Page[app.Doc], error) {
	limit := q.Limit
	if limit <= 0 {
		limit = app.DefaultLimit
	}
	docs := t.b(bProductDocs).Cursor()
	dk := keyOf(storeID).id(uint64(0)) // sid|id; the id is written per item
	vals := make([]app.Doc, 0, limit)  // bbolt's bytes, valid until the tx ends
	var lastID uint64
	tested := 0
	terms := t.b(bIdxSearch).Cursor()
	// page counts the items (zero-size: no slice to grow); vals holds them
	sp, err := page(w.b, w.prefix, w.lp, w.desc, func(k, v []byte) (struct{}, bool, error) {
		if tested++; budget > 0 && tested > budget {
			return struct{}{}, false, errScanBudget
		}
		id := idFromKeyEnd(k)
		if w.filtered {
			if e := decodeIndexEntry(v); !q.Match(e) || !searchMatch(terms, storeID, id, e.Name, w.search) {
				return struct{}{}, false, nil
			}
		}
		if len(vals) == limit { // the look-ahead item: page only needs to know it exists
			return struct{}{}, true, nil
		}
		binary.BigEndian.PutUint64(dk[len(dk)-8:], id)
		step := 0 // the first doc is sought
		if len(vals) > 0 {
			step = cmpID(id, lastID)
		}
		d := seekDoc(docs, dk, step)
		if d == nil {
			return struct{}{}, false, errMissingDoc(storeID, id)
		}
		lastID = id
		vals = append(vals, d)
		return struct{}{}, true, nil
	})
	pg := app.Page[app.Doc]{Items: vals, Next: sp.Next}
	if err != nil || q.Borrow {
		return pg, err
	}
	copyDocs(pg.Items, vals, q.Light) // in place: each item is read before it is replaced
	return pg, nil
}

// copyDocs copies the docs read (bbolt's bytes, valid until the transaction
// ends) into one buffer, one allocation per page, and points items at them;
// light keeps only each doc's light members (Doc.AppendLight), which is all
// a page without fields=variants writes: a product's variants are most of
// its doc, and the bytes a page allocates are what the garbage collector
// is paid for.
func copyDocs[V ~[]byte](items []app.Doc, vals []V, light bool) {
	n := 0
	for _, v := range vals {
		if light {
			n += app.Doc(v).LightLen()
		} else {
			n += len(v)
		}
	}
	arena := make([]byte, 0, n)
	for i, v := range vals {
		start := len(arena)
		if light {
			arena = app.Doc(v).AppendLight(arena)
		} else {
			arena = append(arena, v...)
		}
		items[i] = app.Doc(arena[start:len(arena):len(arena)])
	}
}

// priceRangeStart is where a price sort walks from: after, or just before
// the edge of q's price range when that is further along. The cursor of the
// page is still made from its items.
func priceRangeStart(after *app.Cursor, q app.ProductQuery, desc bool) *app.Cursor {
	var edge []byte // a price|id suffix just outside the range
	switch {
	case !desc && q.MinPrice > 0:
		edge = tkey(nil).id(uint64(q.MinPrice - 1)).id(math.MaxUint64)
	case desc && q.MaxPrice >= 0 && q.MaxPrice < math.MaxInt64:
		edge = tkey(nil).id(uint64(q.MaxPrice + 1)).id(0)
	default:
		return after
	}
	if after != nil && (!desc && bytes.Compare(after.Key, edge) >= 0 || desc && bytes.Compare(after.Key, edge) <= 0) {
		return after
	}
	return &app.Cursor{Sort: q.Sort, Key: edge}
}

func cmpID(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// seekDoc returns the value at k. With step -1 or 1 it first tries the
// cursor's previous or next key (the neighbour of the doc read last).
func seekDoc(c *bolt.Cursor, k []byte, step int) []byte {
	var nk, nv []byte
	switch step {
	case -1:
		nk, nv = c.Prev()
	case 1:
		nk, nv = c.Next()
	}
	if nk != nil && bytes.Equal(nk, k) {
		return nv
	}
	nk, nv = c.Seek(k)
	if !bytes.Equal(nk, k) {
		return nil
	}
	return nv
}

// Products pages every product by id, newest first.
func (t *Tx) Products(storeID uint64, lp app.ListParams) (app.Page[*app.Product], error) {
	return page(t.b(bProducts), tenant(storeID), lp, true, decodeJSONRecord[app.Product]("product"))
}

func errMissingDoc(storeID, id uint64) error {
	return fmt.Errorf("storage: product index points at a missing doc %d/%d", storeID, id)
}
