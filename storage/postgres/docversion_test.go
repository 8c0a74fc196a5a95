package postgres_test

import (
	"testing"
	"time"

	"storefront/app"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// TestDocsReencoded: as the bbolt backend's, a binary whose doc encoding
// version differs from the database's rebuilds every stored pdoc and review
// view at open (in keyset batches); with the same version, open leaves them
// alone.
func TestDocsReencoded(t *testing.T) {
	url := pgtest.NewDatabase(t)
	open := opener(t, url)
	db := open()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err := db.Update(func(tx app.Tx) error {
		st := &app.Store{Name: "s", Subdomain: "s", Currency: "USD", APIKeyHash: []byte("k")}
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		cat := &app.Category{StoreID: st.ID, Name: "C", Slug: "c"}
		if err := tx.PutCategory(cat); err != nil {
			return err
		}
		for i, active := range []bool{true, false, true} {
			p := &app.Product{StoreID: st.ID, Name: "P", Slug: string(rune('a' + i)), Price: 100, Currency: "USD", IsActive: active, CreatedAt: at}
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
	staleCount := func(db *postgres.DB) int {
		t.Helper()
		a, err := db.CountForTest(`SELECT count(*) FROM products WHERE pdoc = 'stale'`)
		if err != nil {
			t.Fatal(err)
		}
		b, err := db.CountForTest(`SELECT count(*) FROM reviews WHERE view = 'stale'`)
		if err != nil {
			t.Fatal(err)
		}
		return a + b
	}
	if err := db.ExecForTest(`UPDATE products SET pdoc = 'stale'`); err != nil {
		t.Fatal(err)
	}
	if err := db.ExecForTest(`UPDATE reviews SET view = 'stale' WHERE view IS NOT NULL`); err != nil {
		t.Fatal(err)
	}
	if n := staleCount(db); n != 3+2 {
		t.Fatalf("%d stale docs, want 5", n)
	}
	db.Close()

	db = open() // same version: untouched
	if n := staleCount(db); n != 5 {
		t.Fatalf("same version: %d stale docs, want 5", n)
	}
	db.Close()

	old := *postgres.DocVersion
	t.Cleanup(func() { *postgres.DocVersion = old })
	*postgres.DocVersion = old + 1
	postgres.SetLightBatch(t, 2) // 3 products and 2 views: pages of 2, as many as there are
	db = open()
	defer db.Close()
	if n := staleCount(db); n != 0 {
		t.Fatalf("next version: %d stale docs, want 0", n)
	}
	err = db.View(func(tx app.Tx) error {
		p, err := tx.Product(1, 1)
		if err != nil {
			return err
		}
		cat, err := tx.Category(1, p.CategoryID)
		if err != nil {
			return err
		}
		want, _ := p.Doc(cat)
		got, err := tx.ProductDoc(1, 1)
		if err != nil {
			return err
		}
		if string(got) != string(want) {
			t.Errorf("product doc not rebuilt from its record")
		}
		pg, err := tx.ApprovedReviews(1, 1, app.ListParams{})
		if err == nil && len(pg.Items) != 2 {
			t.Errorf("%d approved reviews, want 2", len(pg.Items))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// execAll runs the statements on db in turn (a test making a database look
// as it did before a migration).
func execAll(t *testing.T, db *postgres.DB, sqls ...string) {
	t.Helper()
	for _, sql := range sqls {
		if err := db.ExecForTest(sql); err != nil {
			t.Fatal(err)
		}
	}
}

// opener returns a function that opens the database at url again (a test
// that closes and reopens it, as a new binary would).
func opener(t *testing.T, url string) func() *postgres.DB {
	return func() *postgres.DB {
		db, err := postgres.Open(url, postgres.Options{MaxConns: 4})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
}
