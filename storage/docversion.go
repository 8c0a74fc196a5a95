package storage

import (
	"encoding/json"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// docVersion is the encoding version of the public documents this binary
// writes (app.DocVersion); tests of the re-encoding raise it.
var docVersion = app.DocVersion

var kDocVersion = []byte("doc_version") // in bMeta

// stampDocs records docVersion in a file; when the file's docs were written
// by another version (a file from before the stamp: version 1), it first
// re-encodes every stored public document from its record: the product docs
// and the public views of approved reviews. Open runs it in the transaction
// that migrates, so the read path never checks a version.
func (db *DB) stampDocs(btx *bolt.Tx) error {
	meta := btx.Bucket(bMeta)
	stored := 1 // no stamp: docs written before there was one
	raw := meta.Get(kDocVersion)
	if raw != nil {
		n, err := strconv.Atoi(string(raw))
		if err != nil {
			return fmt.Errorf("storage: read doc version: %w", err)
		}
		if n == docVersion {
			return nil
		}
		stored = n
	}
	if stored != docVersion {
		t := db.tx(btx)
		if err := t.reencodeProductDocs(); err != nil {
			return err
		}
		if err := t.reencodeReviewViews(); err != nil {
			return err
		}
	}
	return meta.Put(kDocVersion, []byte(strconv.Itoa(docVersion)))
}

// reencodeProductDocs writes every product's doc again from its record.
func (t *Tx) reencodeProductDocs() error {
	var all []*app.Product
	err := t.b(bProducts).ForEach(func(_, v []byte) error {
		var p app.Product
		if err := getJSONBytes(v, &p, "product"); err != nil {
			return err
		}
		all = append(all, &p)
		return nil
	})
	if err != nil {
		return err
	}
	cats := map[[2]uint64]*app.Category{}
	for _, p := range all {
		var cat *app.Category
		if p.CategoryID != 0 {
			ck := [2]uint64{p.StoreID, p.CategoryID}
			if cat = cats[ck]; cat == nil {
				if cat, err = t.Category(p.StoreID, p.CategoryID); err != nil {
					return fmt.Errorf("storage: re-encode product %d: %w", p.ID, err)
				}
				cats[ck] = cat
			}
		}
		if err := t.putProductDoc(p, cat); err != nil {
			return err
		}
	}
	return nil
}

// reencodeReviewViews writes the public view of every approved review again
// from its record, under each of its public index keys.
func (t *Tx) reencodeReviewViews() error {
	type put struct{ k, v []byte }
	var puts []put
	err := t.b(bReviews).ForEach(func(_, v []byte) error {
		var r app.Review
		if err := getJSONBytes(v, &r, "review"); err != nil {
			return err
		}
		keys := reviewPublicKeys(&r)
		if len(keys) == 0 {
			return nil
		}
		view, err := json.Marshal(r.View())
		if err != nil {
			return fmt.Errorf("storage: encode review view: %w", err)
		}
		for _, k := range keys {
			puts = append(puts, put{k, view})
		}
		return nil
	})
	if err != nil {
		return err
	}
	public := t.b(bIdxReviewsPublic)
	for _, p := range puts {
		if err := public.Put(p.k, p.v); err != nil {
			return err
		}
	}
	return nil
}
