package postgres_test

import (
	"context"
	"encoding/json"
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
// update of a checkout and a category's rename, and one that leaves them as
// they were (a variant's SKU) keeps them; a database from before 0011 gets
// both for all its products from the migrations (one pass, in batches); and
// a write of pdoc alone (a binary from before 0011, still running in a
// rolling upgrade: its statement, on a connection of its own) clears both,
// one of pdoc and ldoc (a binary from before 0012) the JSON, so a page shows
// the product as written then. A page with no field set
// (ProductQuery.Whole) writes the same JSON as a light one.
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
	// A variant's SKU edited: pdoc changes, the light forms do not (no
	// variants in them), and the triggers for earlier binaries' writes leave
	// them alone (migration 0013).
	err = db.Update(func(tx app.Tx) error {
		p, err := tx.Product(sid, 2)
		if err != nil {
			return err
		}
		p.Variants[1].SKU = "s44-new"
		return tx.PutProduct(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	check(db, "after a variant's SKU edit", 0)
	if n, err := db.CountForTest(`SELECT count(*) FROM products WHERE id = 2 AND position('s44-new'::bytea in pdoc) > 0
		AND ldoc IS NOT NULL AND ljson IS NOT NULL`); err != nil || n != 1 {
		t.Fatalf("after a variant's SKU edit: %d rows with the new SKU and both light forms (%v), want 1", n, err)
	}
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

	// Binaries from before 0011 and 0012 update a product's stock with their
	// statements (PutProductStock's), on a connection of their own.
	old := earlierConn(t, url)
	earlierStock := func(id uint64, stock int64, sql string, light bool) {
		t.Helper()
		var p *app.Product
		err := db.View(func(tx app.Tx) error {
			var err error
			p, err = tx.Product(sid, id)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		p.Variants[0].Stock = stock
		doc, err := p.Doc(cat)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		args := []any{int64(sid), int64(id), p.AvailableStock(), raw, []byte(doc), "earlier|catalog|1|", p.LowStock()}
		if light {
			args = append(args, doc.AppendLight(nil))
		}
		if _, err := old.Exec(context.Background(), sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	// Before 0011: pdoc alone. Its light doc and JSON are cleared, and the
	// page shows what that binary wrote.
	earlierStock(2, 0, `UPDATE products SET stock = $3, doc = $4, pdoc = $5, low = $7 WHERE store_id = $1 AND id = $2
		RETURNING pg_notify('storefront_events', $6::text)`, false)
	check(db, "after a write of pdoc alone", 1)
	if got := page(db, 2); strings.Count(got, `"stock":2`) != 1 || strings.Count(got, `"stock":5`) != 1 {
		t.Fatalf("light page after a write of pdoc alone:\n%s", got)
	}
	// Before 0012: pdoc and ldoc. The JSON is cleared.
	earlierStock(3, 1, `UPDATE products SET stock = $3, doc = $4, pdoc = $5, low = $7, ldoc = $8 WHERE store_id = $1 AND id = $2
		RETURNING pg_notify('storefront_events', $6::text)`, true)
	check(db, "after a write of pdoc and ldoc", 2)
	if got := page(db, 1); strings.Count(got, `"stock":2`) != 1 || strings.Count(got, `"stock":3`) != 1 {
		t.Fatalf("light page after a write of pdoc and ldoc:\n%s", got)
	}
	want := page(db, 1)

	// A database from before 0011, with more products than a batch (the
	// copies inactive: the page stays the same).
	execAll(t, db, undo0013...)
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
