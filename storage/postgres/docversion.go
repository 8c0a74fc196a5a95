package postgres

import (
	"encoding/json"
	"fmt"
	"strconv"

	"storefront/app"
)

// docVersion is the encoding version of the public documents this binary
// writes (app.DocVersion); tests of the re-encoding raise it.
var docVersion = app.DocVersion

// stampDocs records docVersion in meta. When the database's stored public
// documents (products.pdoc, reviews.view) were written by another version
// (none recorded: 1), it first encodes them again from their records, in the
// same transaction, as the bbolt backend does at open. The read path never
// checks a version.
func (db *DB) stampDocs() error {
	return db.Update(func(atx app.Tx) error {
		t := atx.(*Tx)
		stored := 1 // no stamp: docs written before there was one
		raw, err := t.raw(noLock, "doc version", `SELECT value FROM meta WHERE name = 'doc_version'`)
		switch {
		case err == nil:
			if stored, err = strconv.Atoi(string(raw)); err != nil {
				return fmt.Errorf("postgres: read doc version: %w", err)
			}
			if stored == docVersion {
				return nil
			}
		case !app.IsNotFound(err):
			return err
		}
		if stored != docVersion {
			if err := t.reencodeDocs(); err != nil {
				return err
			}
		}
		return t.exec(noLock, "doc version", `INSERT INTO meta (name, value) VALUES ('doc_version', $1)
			ON CONFLICT (name) DO UPDATE SET value = excluded.value`, []byte(strconv.Itoa(docVersion)))
	})
}

// reencodeDocs writes every product's pdoc (with ldoc and ljson) and every
// approved review's view again from their records, in batches of lightBatch
// in key order (memory bounded, whatever the catalog's size).
func (t *Tx) reencodeDocs() error {
	cats := map[[2]uint64]*app.Category{}
	err := keysetBatches(t, "products", `SELECT doc FROM products WHERE (store_id, id) > ($1, $2) ORDER BY store_id, id LIMIT $3`,
		func(p *app.Product) (uint64, uint64) { return p.StoreID, p.ID },
		func(p *app.Product) error {
			var cat *app.Category
			if p.CategoryID != 0 {
				ck := [2]uint64{p.StoreID, p.CategoryID}
				if cat = cats[ck]; cat == nil {
					var err error
					if cat, err = t.Category(p.StoreID, p.CategoryID); err != nil {
						return fmt.Errorf("postgres: re-encode product %d: %w", p.ID, err)
					}
					cats[ck] = cat
				}
			}
			return t.putProductDoc(noLock, p, cat)
		})
	if err != nil {
		return err
	}
	return keysetBatches(t, "reviews", `SELECT doc FROM reviews WHERE view IS NOT NULL AND (store_id, id) > ($1, $2) ORDER BY store_id, id LIMIT $3`,
		func(r *app.Review) (uint64, uint64) { return r.StoreID, r.ID },
		func(r *app.Review) error {
			view, err := json.Marshal(r.View())
			if err != nil {
				return fmt.Errorf("postgres: encode review view: %w", err)
			}
			return t.exec(noLock, "put review view", `UPDATE reviews SET view = $3 WHERE store_id = $1 AND id = $2`,
				i64(r.StoreID), i64(r.ID), view)
		})
}

// keysetBatches calls fn with every record sql selects, lightBatch at a time
// (memory bounded): sql pages by ($1, $2), the key (store id, id) of the
// batch's last record, with $3 as its LIMIT.
func keysetBatches[T any](t *Tx, what, sql string, key func(*T) (uint64, uint64), fn func(*T) error) error {
	var sid, id int64 = -1, -1
	for {
		xs, err := all[T](t, noLock, what, sql, sid, id, lightBatch)
		if err != nil {
			return err
		}
		for _, x := range xs {
			if err := fn(x); err != nil {
				return err
			}
		}
		if len(xs) < lightBatch {
			return nil
		}
		s, i := key(xs[len(xs)-1])
		sid, id = i64(s), i64(i)
	}
}
