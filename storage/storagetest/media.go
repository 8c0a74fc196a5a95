package storagetest

import (
	"strings"

	"storefront/app"
)

// testMedia: uploaded images are stored once per hash, served per width,
// counted by the products whose images name them (PutProduct and
// DeleteProduct), and deleted with their last reference; a URL naming an
// upload that is not stored is refused; stores do not see each other's.
func testMedia(e *env) {
	a, b := e.store("media-a"), e.store("media-b")
	hash := strings.Repeat("ab", 32)
	m := &app.Media{StoreID: a, Hash: hash, Ext: "jpg", Files: map[int][]byte{160: []byte("small"), 480: []byte("mid"), 1200: []byte("large")}}
	e.update(func(tx app.Tx) error { return tx.PutMedia(m) })
	// A second PutMedia of the same hash keeps the first.
	e.update(func(tx app.Tx) error {
		return tx.PutMedia(&app.Media{StoreID: a, Hash: hash, Ext: "png", Files: map[int][]byte{160: []byte("other")}})
	})
	refs := func(sid uint64) int64 {
		var n int64
		e.view(func(tx app.Tx) (err error) { n, err = tx.MediaRefs(sid, hash); return err })
		return n
	}
	checkMediaFiles(e, a, b, hash)
	e.same("refs before any product", refs(a), int64(0))

	url := "http://shop.test" + app.MediaPath(a, hash, 1200, "jpg")
	p1 := product(a, 0, "Mug", 100, 1)
	p1.Images = []string{url, url} // counted once per product
	e.update(func(tx app.Tx) error { return tx.PutProduct(p1) })
	p2 := product(a, 0, "Cup", 100, 1)
	p2.Images = []string{"https://cdn.example/x.jpg", url}
	e.update(func(tx app.Tx) error { return tx.PutProduct(p2) })
	e.same("refs with two products", refs(a), int64(2))

	// An upload of store a named on store b's product is just a URL there.
	pb := product(b, 0, "Other", 100, 1)
	pb.Images = []string{url}
	e.update(func(tx app.Tx) error { return tx.PutProduct(pb) })
	e.same("refs of a after b's product", refs(a), int64(2))

	// A URL naming an upload of the store that is not stored is refused.
	missing := "http://shop.test" + app.MediaPath(a, strings.Repeat("cd", 32), 1200, "jpg")
	bad := product(a, 0, "Bad", 100, 1)
	bad.Images = []string{missing}
	e.same("missing upload", e.code(func(tx app.Tx) error { return tx.PutProduct(bad) }), app.EValidation)

	// Removing the image from one product, then deleting the other, frees it.
	p1.Images = nil
	e.update(func(tx app.Tx) error { return tx.PutProduct(p1) })
	e.same("refs after removal", refs(a), int64(1))
	e.update(func(tx app.Tx) error { return tx.DeleteProduct(a, p2.ID) })
	e.same("refs after delete", refs(a), int64(0))
	e.view(func(tx app.Tx) error {
		_, err := tx.MediaFile(a, hash, 160)
		e.want(err, app.ENotFound)
		return nil
	})
	// A rolled-back product write leaves the count as it was.
	e.update(func(tx app.Tx) error { return tx.PutMedia(m) })
	_ = e.db.Update(func(tx app.Tx) error {
		p1.Images = []string{url}
		if err := tx.PutProduct(p1); err != nil {
			return err
		}
		return app.Invalid("x", "roll back")
	})
	e.same("refs after a rollback", refs(a), int64(0))
}

// checkMediaFiles checks the reads of a stored upload's files, per store and width.
func checkMediaFiles(e *env, a, b uint64, hash string) {
	e.view(func(tx app.Tx) error {
		f, err := tx.MediaFile(a, hash, 480)
		if err != nil {
			return err
		}
		e.same("file", []any{f.Ext, string(f.Data), f.Width, f.Hash}, []any{"jpg", "mid", 480, hash})
		_, err = tx.MediaFile(a, hash, 999)
		e.want(err, app.ENotFound)
		_, err = tx.MediaFile(b, hash, 480) // another store
		e.want(err, app.ENotFound)
		_, err = tx.MediaFile(a, "not-a-hash", 480)
		e.want(err, app.ENotFound)
		return nil
	})
}
