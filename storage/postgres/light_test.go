package postgres_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// TestLightDocs: every write of a product's doc writes its light doc
// (migration 0011) with it, including the stock update of a checkout and a
// category's rename; a database from before 0011 gets the light docs of
// all its products from the migration (in batches); and a write of pdoc
// alone (a binary from before 0011, still running in a rolling upgrade)
// clears the light doc, so a light page shows the product as written then.
func TestLightDocs(t *testing.T) {
	url := pgtest.NewDatabase(t)
	open := opener(t, url)
	db := open()
	check := func(db *postgres.DB, what string, wantMissing int) {
		t.Helper()
		stale, missing, err := db.LightDocsForTest()
		if err != nil {
			t.Fatal(err)
		}
		if stale != 0 || missing != wantMissing {
			t.Fatalf("%s: %d stale and %d missing light docs, want 0 and %d", what, stale, missing, wantMissing)
		}
	}
	var sid uint64
	var cat *app.Category
	variants := []app.Variant{{ID: 1, Name: "EU 42", SKU: "s42", Stock: 3}, {ID: 2, Name: "EU 44", SKU: "s44", Stock: 2}}
	err := db.Update(func(tx app.Tx) error {
		st := &app.Store{Name: "s", Subdomain: "s", Currency: "USD", APIKeyHash: []byte("k")}
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		sid = st.ID
		cat = &app.Category{StoreID: sid, Name: "C", Slug: "c"}
		if err := tx.PutCategory(cat); err != nil {
			return err
		}
		for i := range 3 {
			p := &app.Product{StoreID: sid, Name: fmt.Sprint("P", i), Slug: fmt.Sprint("p", i), Price: 100, Currency: "USD",
				IsActive: true, CategoryID: cat.ID, CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
				Variants: append([]app.Variant(nil), variants...)}
			if err := tx.PutProduct(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check(db, "after PutProduct", 0)
	err = db.Update(func(tx app.Tx) error {
		p, err := tx.Product(sid, 1)
		if err != nil {
			return err
		}
		p.Variants[0].Stock--
		if err := tx.PutProductStock(p); err != nil {
			return err
		}
		cat.Name = "Renamed"
		return tx.PutCategory(cat)
	})
	if err != nil {
		t.Fatal(err)
	}
	check(db, "after a stock update and a category's rename", 0)
	page := func(db *postgres.DB) string {
		t.Helper()
		var out []string
		err := db.View(func(tx app.Tx) error {
			pg, err := tx.ProductDocs(sid, app.ProductQuery{MinPrice: -1, MaxPrice: -1, Light: true})
			for _, d := range pg.Items {
				b, err := d.AppendJSON(nil, nil)
				if err != nil {
					return err
				}
				out = append(out, string(b))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(out, "\n")
	}
	if got := page(db); !strings.Contains(got, `"stock":4`) || !strings.Contains(got, `"name":"Renamed"`) || strings.Contains(got, "variants") {
		t.Fatalf("light page:\n%s", got)
	}

	// A binary from before 0011 writes a product's pdoc alone: its light doc
	// is cleared, and the page shows what that binary wrote.
	if err := db.ExecForTest(`UPDATE products SET pdoc = (SELECT pdoc FROM products WHERE id = 3) WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	check(db, "after a write of pdoc alone", 1)
	if got := page(db); strings.Count(got, `"name":"P2"`) != 2 || strings.Contains(got, `"name":"P1"`) {
		t.Fatalf("light page after a write of pdoc alone:\n%s", got)
	}
	want := page(db)

	// A database from before 0011, with more products than a batch (the
	// copies inactive: the page stays the same).
	execAll(t, db,
		`INSERT INTO products SELECT store_id, id + 10 * g, slug || g::text::bytea, category_id, false, price, stock, name_key,
			rating_key, doc, pdoc, low_stock, low FROM products, generate_series(1, 450) AS g`,
		`DROP TRIGGER products_ldoc_follows_pdoc ON products`,
		`DROP FUNCTION products_clear_ldoc`,
		`ALTER TABLE products DROP COLUMN ldoc`,
		`DELETE FROM schema_migrations WHERE version = 11`,
	)
	db.Close()
	postgres.SetLightBatch(t, 100)
	db = open()
	defer db.Close()
	check(db, "after migration 0011", 0)
	if n, err := db.CountForTest(`SELECT count(*) FROM products`); err != nil || n != 3+3*450 {
		t.Fatalf("%d products (%v), want %d", n, err, 3+3*450)
	}
	if got := page(db); got != want {
		t.Fatalf("light page after migration 0011:\n%s\nwant\n%s", got, want)
	}
}
