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

// reencodeDocs writes every product's pdoc (and ldoc) and every approved review's view
// again from their records.
func (t *Tx) reencodeDocs() error {
	ps, err := all[app.Product](t, noLock, "products", `SELECT doc FROM products ORDER BY store_id, id`)
	if err != nil {
		return err
	}
	cats := map[[2]uint64]*app.Category{}
	for _, p := range ps {
		var cat *app.Category
		if p.CategoryID != 0 {
			ck := [2]uint64{p.StoreID, p.CategoryID}
			if cat = cats[ck]; cat == nil {
				if cat, err = t.Category(p.StoreID, p.CategoryID); err != nil {
					return fmt.Errorf("postgres: re-encode product %d: %w", p.ID, err)
				}
				cats[ck] = cat
			}
		}
		if err := t.putProductDoc(noLock, p, cat); err != nil {
			return err
		}
	}
	rs, err := all[app.Review](t, noLock, "reviews", `SELECT doc FROM reviews WHERE view IS NOT NULL ORDER BY store_id, id`)
	if err != nil {
		return err
	}
	for _, r := range rs {
		view, err := json.Marshal(r.View())
		if err != nil {
			return fmt.Errorf("postgres: encode review view: %w", err)
		}
		if err := t.exec(noLock, "put review view", `UPDATE reviews SET view = $3 WHERE store_id = $1 AND id = $2`,
			i64(r.StoreID), i64(r.ID), view); err != nil {
			return err
		}
	}
	return nil
}
