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
// (migration 0011) and its light JSON (0012) with it, including the stock
// update of a checkout and a category's rename; a database from before 0011
// gets both for all its products from the migrations (in batches); and a
// write of pdoc alone (a binary from before 0011, still running in a rolling
// upgrade) clears both, one of pdoc and ldoc (a binary from before 0012) the
// JSON, so a page shows the product as written then. A page with no field
// set (ProductQuery.Whole) writes the same JSON as a light one.
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
		return tx.PutProductStock(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	check(db, "after a stock update", 0)
	err = db.Update(func(tx app.Tx) error {
		cat.Name = "Renamed"
		return tx.PutCategory(cat)
	})
	if err != nil {
		t.Fatal(err)
	}
	check(db, "after a category's rename", 0)
	read := func(db *postgres.DB, whole bool) (string, int) {
		t.Helper()
		var out []string
		plain := 0
		err := db.View(func(tx app.Tx) error {
			pg, err := tx.ProductDocs(sid, app.ProductQuery{MinPrice: -1, MaxPrice: -1, Light: true, Whole: whole})
			for _, d := range pg.Items {
				if d.Plain() {
					plain++
				}
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
		return strings.Join(out, "\n"), plain
	}
	// page reads the light page, checks that the whole page (wantPlain of its
	// docs plain) writes the same and returns it.
	page := func(db *postgres.DB, wantPlain int) string {
		t.Helper()
		light, plain := read(db, false)
		if plain != 0 {
			t.Fatalf("%d plain docs in a light page", plain)
		}
		whole, plain := read(db, true)
		if whole != light || plain != wantPlain {
			t.Fatalf("whole page (%d plain docs, want %d):\n%s\nlight page:\n%s", plain, wantPlain, whole, light)
		}
		return light
	}
	if got := page(db, 3); !strings.Contains(got, `"stock":4`) || !strings.Contains(got, `"name":"Renamed"`) || strings.Contains(got, "variants") {
		t.Fatalf("light page:\n%s", got)
	}

	// A binary from before 0011 writes a product's pdoc alone: its light doc
	// is cleared, and the page shows what that binary wrote.
	if err := db.ExecForTest(`UPDATE products SET pdoc = (SELECT pdoc FROM products WHERE id = 3) WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	check(db, "after a write of pdoc alone", 1)
	if got := page(db, 2); strings.Count(got, `"name":"P2"`) != 2 || strings.Contains(got, `"name":"P1"`) {
		t.Fatalf("light page after a write of pdoc alone:\n%s", got)
	}
	// A binary from before 0012 writes pdoc and ldoc: the JSON is cleared.
	if err := db.ExecForTest(`UPDATE products SET pdoc = (SELECT pdoc FROM products WHERE id = 1),
		ldoc = (SELECT ldoc FROM products WHERE id = 1) WHERE id = 3`); err != nil {
		t.Fatal(err)
	}
	check(db, "after a write of pdoc and ldoc", 2)
	if got := page(db, 1); strings.Count(got, `"name":"P0"`) != 2 || strings.Count(got, `"name":"P2"`) != 1 {
		t.Fatalf("light page after a write of pdoc and ldoc:\n%s", got)
	}
	want := page(db, 1)

	// A database from before 0011, with more products than a batch (the
	// copies inactive: the page stays the same).
	execAll(t, db,
		`INSERT INTO products SELECT store_id, id + 10 * g, slug || g::text::bytea, category_id, false, price, stock, name_key,
			rating_key, doc, pdoc, low_stock, low FROM products, generate_series(1, 450) AS g`,
		`DROP TRIGGER products_ldoc_follows_pdoc ON products`,
		`DROP FUNCTION products_clear_ldoc`,
		`ALTER TABLE products DROP COLUMN ldoc`,
		`DROP TRIGGER products_ljson_follows_pdoc ON products`,
		`DROP FUNCTION products_clear_ljson`,
		`ALTER TABLE products DROP COLUMN ljson`,
		`DELETE FROM schema_migrations WHERE version IN (11, 12)`,
	)
	db.Close()
	postgres.SetLightBatch(t, 100)
	db = open()
	defer db.Close()
	check(db, "after migrations 0011 and 0012", 0)
	if n, err := db.CountForTest(`SELECT count(*) FROM products`); err != nil || n != 3+3*450 {
		t.Fatalf("%d products (%v), want %d", n, err, 3+3*450)
	}
	if got := page(db, 3); got != want {
		t.Fatalf("light page after migration 0011:\n%s\nwant\n%s", got, want)
	}
}
