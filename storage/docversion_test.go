package storage

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// TestDocsReencoded: a binary whose doc encoding version differs from the
// file's rebuilds every stored public document at open (product docs, active
// or not; approved reviews' public views) from the records; with the same
// version, open leaves them alone.
func TestDocsReencoded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "docs.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err = db.Update(func(tx app.Tx) error {
		st := &app.Store{Name: "s", Subdomain: "s", Currency: "USD", APIKeyHash: []byte("k")}
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		cat := &app.Category{StoreID: st.ID, Name: "C", Slug: "c"}
		if err := tx.PutCategory(cat); err != nil {
			return err
		}
		for i, active := range []bool{true, false, true} {
			p := &app.Product{StoreID: st.ID, Name: "P" + strconv.Itoa(i), Slug: "p" + strconv.Itoa(i), Price: 100, Currency: "USD", IsActive: active, CreatedAt: at}
			if i < 2 {
				p.CategoryID = cat.ID
			}
			if err := tx.PutProduct(p); err != nil {
				return err
			}
		}
		for i, status := range []string{app.ReviewApproved, app.ReviewPending, app.ReviewApproved} {
			r := &app.Review{StoreID: st.ID, ProductID: uint64(i%2 + 1), CustomerID: uint64(i + 1), Rating: 4, Title: "t", Status: status, CreatedAt: at}
			if err := tx.CreateReview(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	stale := func(db *DB) {
		t.Helper()
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			for _, name := range [][]byte{bProductDocs, bIdxReviewsPublic} {
				b := tx.Bucket(name)
				var keys [][]byte
				_ = b.ForEach(func(k, _ []byte) error { keys = append(keys, bytes.Clone(k)); return nil })
				for _, k := range keys {
					if err := b.Put(k, []byte("stale")); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// count returns how many stored docs are stale and how many are checked.
	count := func(db *DB) (staleDocs, checked int) {
		t.Helper()
		err := db.bolt.View(func(btx *bolt.Tx) error {
			tx := db.tx(btx)
			ps, _ := tx.Products(1, app.ListParams{Limit: 100})
			for _, p := range ps.Items {
				var cat *app.Category
				if p.CategoryID != 0 {
					cat, _ = tx.Category(1, p.CategoryID)
				}
				want, _ := p.Doc(cat)
				got := btx.Bucket(bProductDocs).Get(keyOf(1).id(p.ID))
				checked++
				if !bytes.Equal(got, want) {
					staleDocs++
				}
			}
			rs, _ := tx.Reviews(1, app.ReviewApproved, app.ListParams{Limit: 100})
			for _, r := range rs.Items {
				want, _ := json.Marshal(r.View())
				for _, k := range reviewPublicKeys(r) {
					checked++
					if !bytes.Equal(btx.Bucket(bIdxReviewsPublic).Get(k), want) {
						staleDocs++
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return staleDocs, checked
	}
	if n, all := count(db); n != 0 || all != 3+2*3 {
		t.Fatalf("fresh file: %d of %d docs stale", n, all)
	}
	stale(db)
	db.Close()

	// Same version: nothing is read again.
	if db, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	if n, all := count(db); n != all {
		t.Fatalf("same version: %d of %d docs stale, want all (untouched)", n, all)
	}
	db.Close()

	// A binary with the next version rebuilds every doc and records it.
	old := docVersion
	t.Cleanup(func() { docVersion = old })
	docVersion = old + 1
	if db, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, all := count(db); n != 0 {
		t.Fatalf("next version: %d of %d docs stale, want none", n, all)
	}
	var stamp string
	_ = db.bolt.View(func(tx *bolt.Tx) error { stamp = string(tx.Bucket(bMeta).Get(kDocVersion)); return nil })
	if stamp != strconv.Itoa(old+1) {
		t.Fatalf("doc_version %q, want %d", stamp, old+1)
	}
}
