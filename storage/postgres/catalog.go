package postgres

import (
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"storefront/app"
)

// PutCategory creates or updates a category; renaming re-encodes the docs of
// its active products so that their category.name stays true.
func (t *Tx) PutCategory(c *app.Category) error {
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
	other, ok, err := t.id64(c.StoreID, "category", `SELECT id FROM categories WHERE store_id = $1 AND slug = $2`, i64(c.StoreID), bs(c.Slug))
	if err != nil {
		return err
	}
	if ok && other != c.ID {
		return slugConflict()
	}
	raw, err := encode(c)
	if err != nil {
		return err
	}
	err = t.exec(c.StoreID, "put category", `INSERT INTO categories (store_id, id, slug, doc) VALUES ($1, $2, $3, $4)
		ON CONFLICT (store_id, id) DO UPDATE SET slug = excluded.slug, doc = excluded.doc`+announce(5),
		i64(c.StoreID), i64(c.ID), bs(c.Slug), raw, t.event(app.EventCatalog, c.StoreID, nil))
	if err != nil {
		return err
	}
	if old != nil && old.Name != c.Name {
		return t.reencodeCategory(c)
	}
	return nil
}

func (t *Tx) reencodeCategory(c *app.Category) error {
	ps, err := all[app.Product](t, c.StoreID, "products", `SELECT doc FROM products WHERE store_id = $1 AND category_id = $2 AND active ORDER BY id`, i64(c.StoreID), i64(c.ID))
	if err != nil {
		return err
	}
	for _, p := range ps {
		if err := t.putProductDoc(c.StoreID, p, c); err != nil {
			return err
		}
	}
	return nil
}

// putProductDoc writes p's public doc and its light doc again, with cat as
// its category, under lockID's lock (noLock: the migrations' re-encoding).
func (t *Tx) putProductDoc(lockID uint64, p *app.Product, cat *app.Category) error {
	doc, err := p.Doc(cat)
	if err != nil {
		return fmt.Errorf("postgres: encode product doc: %w", err)
	}
	return t.exec(lockID, "put product doc", `UPDATE products SET pdoc = $3, ldoc = $4, ljson = $5 WHERE store_id = $1 AND id = $2`,
		i64(p.StoreID), i64(p.ID), []byte(doc), lightDoc(doc), lightJSON(doc))
}

func slugConflict() error {
	return &app.Error{Code: app.EConflict, Message: "slug is taken", Fields: map[string]string{"slug": "is taken"}}
}

// Category returns one category.
func (t *Tx) Category(storeID, id uint64) (*app.Category, error) {
	var c app.Category
	if err := t.get(storeID, &c, "category", `SELECT doc FROM categories WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &c, nil
}

// Categories lists a store's categories by id.
func (t *Tx) Categories(storeID uint64) ([]*app.Category, error) {
	return all[app.Category](t, storeID, "categories", `SELECT doc FROM categories WHERE store_id = $1 ORDER BY id`, i64(storeID))
}

// DeleteCategory deletes a category that no product uses.
func (t *Tx) DeleteCategory(storeID, id uint64) error {
	if _, err := t.Category(storeID, id); err != nil {
		return err
	}
	used, err := t.exists(storeID, "products", `SELECT 1 FROM products WHERE store_id = $1 AND category_id = $2 LIMIT 1`, i64(storeID), i64(id))
	if err != nil {
		return err
	}
	if used {
		return app.Errorf(app.EConflict, "the category still has products; move or delete them first")
	}
	return t.exec(storeID, "delete category", `DELETE FROM categories WHERE store_id = $1 AND id = $2`+announce(3),
		i64(storeID), i64(id), t.event(app.EventCatalog, storeID, nil))
}

// PutProduct creates or updates a product with its doc, slug and sort values.
func (t *Tx) PutProduct(p *app.Product) error {
	var before []string // the stored images, for the uploads' reference counts
	if p.ID == 0 {
		id, err := t.NextID(p.StoreID, "product")
		if err != nil {
			return err
		}
		p.ID = id
	} else if old, err := t.Product(p.StoreID, p.ID); err != nil {
		return err
	} else {
		before = old.MediaURLs()
	}
	other, ok, err := t.id64(p.StoreID, "product", `SELECT id FROM products WHERE store_id = $1 AND slug = $2`, i64(p.StoreID), bs(p.Slug))
	if err != nil {
		return err
	}
	if ok && other != p.ID {
		return slugConflict()
	}
	if err := t.retainMedia(p.StoreID, before, p.MediaURLs()); err != nil {
		return err
	}
	return t.writeProduct(p)
}

// PutProductStock writes a product whose stock alone changed since it was
// read in this transaction: the record, its doc and its stock column, in one
// statement (the sort columns and the slug cannot have changed).
func (t *Tx) PutProductStock(p *app.Product) error {
	doc, raw, err := t.encodeProduct(p)
	if err != nil {
		return err
	}
	// Queued: the product was read in this transaction under the store's
	// lock, so the row is there; were it not, not_found fails the transaction.
	if err := t.lock(p.StoreID); err != nil {
		return err
	}
	return t.enqueueQ(queued{what: "put product stock",
		sql: `UPDATE products SET stock = $3, doc = $4, pdoc = $5, low = $7, ldoc = $8, ljson = $9 WHERE store_id = $1 AND id = $2` + announce(6),
		args: []any{i64(p.StoreID), i64(p.ID), p.AvailableStock(), raw, doc, t.event(app.EventCatalog, p.StoreID, nil), p.LowStock(),
			lightDoc(doc), lightJSON(doc)},
		check: func(tag pgconn.CommandTag) error {
			if tag.RowsAffected() == 0 {
				return app.NotFound("product")
			}
			return nil
		}})
}

// lightDoc is the doc a light page reads (products.ldoc, migration 0011):
// doc without its heavy members.
func lightDoc(doc []byte) []byte { return app.Doc(doc).AppendLight(nil) }

// lightJSON is what a page with no field set reads (products.ljson, migration
// 0012): the JSON object of doc's light members, a plain doc (app.Doc.Plain),
// written out as it is. nil (NULL: the page reads ldoc) for a malformed doc.
func lightJSON(doc []byte) []byte {
	b, err := app.Doc(doc).AppendJSON(nil, nil)
	if err != nil {
		return nil
	}
	return b
}

// encodeProduct returns the public doc (with its category) and the record.
func (t *Tx) encodeProduct(p *app.Product) ([]byte, []byte, error) {
	var cat *app.Category
	if p.CategoryID != 0 {
		var err error
		if cat, err = t.Category(p.StoreID, p.CategoryID); err != nil {
			return nil, nil, err
		}
	}
	doc, err := p.Doc(cat)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: encode product doc: %w", err)
	}
	raw, err := encode(p)
	return doc, raw, err
}

// writeProduct writes the record, its doc and its sort values.
func (t *Tx) writeProduct(p *app.Product) error {
	doc, raw, err := t.encodeProduct(p)
	if err != nil {
		return err
	}
	if err := t.exec(p.StoreID, "put product", `INSERT INTO products
		(store_id, id, slug, category_id, active, price, stock, name_key, rating_key, doc, pdoc, low_stock, low, ldoc, ljson)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13, $14, $15, $16)
		ON CONFLICT (store_id, id) DO UPDATE SET slug = excluded.slug, category_id = excluded.category_id,
			active = excluded.active, price = excluded.price, stock = excluded.stock, name_key = excluded.name_key,
			rating_key = excluded.rating_key, doc = excluded.doc, pdoc = excluded.pdoc, low_stock = excluded.low_stock,
			low = excluded.low, ldoc = excluded.ldoc, ljson = excluded.ljson`+announce(12),
		i64(p.StoreID), i64(p.ID), bs(p.Slug), i64(p.CategoryID), p.IsActive, int64(p.Price), p.AvailableStock(),
		app.NormalizeName(p.Name), int64(ratingKey(p)), raw, []byte(doc), t.event(app.EventCatalog, p.StoreID, nil),
		p.CountsAsLowStock(), p.LowStock(), lightDoc(doc), lightJSON(doc)); err != nil {
		return err
	}
	if err := t.writeAdminWords(p); err != nil {
		return err
	}
	return t.writeWords(p)
}

// ratingKey orders products by average rating (hundredths), then review count.
func ratingKey(p *app.Product) uint64 {
	return uint64(p.AverageRating()*100)<<32 | uint64(min(p.ReviewCount, 1<<31))
}

// Product returns one product.
func (t *Tx) Product(storeID, id uint64) (*app.Product, error) {
	var p app.Product
	if err := t.get(storeID, &p, "product", `SELECT doc FROM products WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &p, nil
}

// ProductBySlug returns one product by slug.
func (t *Tx) ProductBySlug(storeID uint64, slug string) (*app.Product, error) {
	var p app.Product
	if err := t.get(storeID, &p, "product", `SELECT doc FROM products WHERE store_id = $1 AND slug = $2`, i64(storeID), bs(slug)); err != nil {
		return nil, err
	}
	return &p, nil
}

// ProductDoc returns the doc of an active product.
func (t *Tx) ProductDoc(storeID, id uint64) (app.Doc, error) {
	d, err := t.raw(storeID, "product", `SELECT pdoc FROM products WHERE store_id = $1 AND id = $2 AND active`, i64(storeID), i64(id))
	return app.Doc(d), err
}

// ProductDocBySlug returns the doc of an active product by slug.
func (t *Tx) ProductDocBySlug(storeID uint64, slug string) (app.Doc, error) {
	d, err := t.raw(storeID, "product", `SELECT pdoc FROM products WHERE store_id = $1 AND slug = $2 AND active`, i64(storeID), bs(slug))
	return app.Doc(d), err
}

// DeleteProduct removes a product (and the uploaded images no other
// product uses).
func (t *Tx) DeleteProduct(storeID, id uint64) error {
	p, err := t.Product(storeID, id)
	if err != nil {
		return err
	}
	if err := t.retainMedia(storeID, p.MediaURLs(), nil); err != nil {
		return err
	}
	if err := t.exec(storeID, "delete product words", `DELETE FROM product_words WHERE store_id = $1 AND product_id = $2`, i64(storeID), i64(id)); err != nil {
		return err
	}
	if err := t.exec(storeID, "delete admin words", `DELETE FROM product_admin_words WHERE store_id = $1 AND product_id = $2`, i64(storeID), i64(id)); err != nil {
		return err
	}
	n, err := t.execN(storeID, "delete product", `DELETE FROM products WHERE store_id = $1 AND id = $2`+announce(3),
		i64(storeID), i64(id), t.event(app.EventCatalog, storeID, nil))
	if err != nil {
		return err
	}
	if n == 0 {
		return app.NotFound("product")
	}
	return nil
}

// productKeys maps a product sort to its keyset (the bbolt index of the sort).
func productKeys(sort string) keyset {
	id := col{"id", kU64}
	switch sort {
	case app.SortPriceAsc:
		return keyset{cols: []col{{"price", kU64}, id}}
	case app.SortPriceDesc:
		return keyset{cols: []col{{"price", kU64}, id}, desc: true}
	case app.SortNameAsc:
		return keyset{cols: []col{{"name_key", kStr}, id}}
	case app.SortRatingDesc:
		return keyset{cols: []col{{"rating_key", kU64}, id}, desc: true}
	default:
		return keyset{cols: []col{id}, desc: true}
	}
}

// ProductDocs reads a page of active products in q's sort, filtered in SQL
// on the same values as the bbolt index entries.
func (t *Tx) ProductDocs(storeID uint64, q app.ProductQuery) (app.Page[app.Doc], error) {
	ks := productKeys(q.Sort)
	from := `FROM products WHERE store_id = $1 AND active`
	args := []any{i64(storeID)}
	add := func(cond string, v any) {
		args = append(args, v)
		from += fmt.Sprintf(" AND "+cond, len(args))
	}
	if q.CategoryID != 0 {
		add("category_id = $%d", i64(q.CategoryID))
	}
	if q.MinPrice >= 0 {
		add("price >= $%d", int64(q.MinPrice))
	}
	if q.MaxPrice >= 0 {
		add("price <= $%d", int64(q.MaxPrice))
	}
	if q.InStock {
		from += " AND stock > 0"
	}
	if q.Words == nil && q.Q != "" {
		q.Words = app.QueryWords(q.Q)
	}
	if len(q.Words) > 0 {
		sws, err := t.searchWords(storeID, q.Words, q.Lenient)
		if err != nil {
			return app.Page[app.Doc]{}, err
		}
		arg := func(v any) int { args = append(args, v); return len(args) }
		from += " AND " + searchFilter(sws, arg)
		if q.Sort == app.SortRelevance {
			score := relevance(sws, arg)
			ks = keyset{cols: []col{{score, kByte}, {"id", kU64}}, desc: true}
		}
	}
	doc := "pdoc"
	switch {
	case q.Whole: // the JSON object of the light members, a plain doc (migration 0012)
		doc = "coalesce(ljson, ldoc, pdoc)"
	case q.Light: // the doc without its heavy members (migration 0011; NULL: not written yet)
		doc = "coalesce(ldoc, pdoc)"
	}
	l := list{sel: doc + ", " + ks.keyCols(), from: from, args: args, keys: ks, doc: ownDoc}
	return page(t, storeID, "products", l, q.ListParams, func(vals []any) (app.Doc, bool, error) {
		return app.Doc(vals[0].([]byte)), true, nil
	})
}

// Products pages every product by id, newest first.
func (t *Tx) Products(storeID uint64, lp app.ListParams) (app.Page[*app.Product], error) {
	return docList[app.Product](t, storeID, "products", `FROM products WHERE store_id = $1`, []any{i64(storeID)}, byID(true), lp)
}
