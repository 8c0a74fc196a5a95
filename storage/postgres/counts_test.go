package postgres_test

import (
	"fmt"
	"testing"
	"time"

	"storefront/app"
	"storefront/storage/postgres/pgtest"
)

// countsDiffer counts the (store, category, active) groups whose kept count
// (product_counts, migration 0010) is not the number of product rows.
const countsDiffer = `WITH c AS (SELECT store_id, category_id, active, n FROM product_counts WHERE n <> 0),
	r AS (SELECT store_id, category_id, active, count(*) AS n FROM products GROUP BY 1, 2, 3)
	SELECT count(*) FROM ((SELECT * FROM c EXCEPT SELECT * FROM r) UNION ALL (SELECT * FROM r EXCEPT SELECT * FROM c)) d`

// TestProductCountsKept: the admin list's totals come from counts kept by
// triggers; they follow every way a product row changes (created, moved to
// another category, hidden, deleted, its stock written, a row changed by
// SQL alone), and migration 0010 counts the products of an older database.
func TestProductCountsKept(t *testing.T) {
	open := opener(t, pgtest.NewDatabase(t))
	db := open()
	check := func(when string) {
		t.Helper()
		if n, err := db.CountForTest(countsDiffer); err != nil || n != 0 {
			t.Fatalf("%s: %d groups counted wrong (%v)", when, n, err)
		}
	}
	var sid uint64
	var made []*app.Product
	err := db.Update(func(tx app.Tx) error {
		st := &app.Store{Name: "s", Subdomain: "s", Currency: "USD", APIKeyHash: []byte("k")}
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		sid = st.ID
		c := &app.Category{StoreID: sid, Name: "Shoes", Slug: "shoes"}
		if err := tx.PutCategory(c); err != nil {
			return err
		}
		cats := []uint64{0, c.ID}
		for i := range 12 {
			p := &app.Product{StoreID: sid, Name: "Boot", Slug: fmt.Sprintf("boot-%d", i), Price: 100, Currency: "USD",
				Stock: 5, IsActive: i%3 != 0, CategoryID: cats[i%2], CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			if err := tx.PutProduct(p); err != nil {
				return err
			}
			made = append(made, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check("created")
	if n, err := db.CountForTest(`SELECT sum(n)::int FROM product_counts`); err != nil || n != 12 {
		t.Fatalf("counted %d products, want 12 (%v)", n, err)
	}

	err = db.Update(func(tx app.Tx) error {
		made[0].IsActive, made[1].CategoryID, made[2].Name = true, 0, "Clog" // shown, moved, renamed
		for _, p := range made[:3] {
			if err := tx.PutProduct(p); err != nil {
				return err
			}
		}
		made[4].Stock = 0
		if err := tx.PutProductStock(made[4]); err != nil {
			return err
		}
		return tx.DeleteProduct(sid, made[5].ID)
	})
	if err != nil {
		t.Fatal(err)
	}
	check("changed")
	if err := db.ExecForTest(`UPDATE products SET active = NOT active WHERE id % 4 = 0`); err != nil {
		t.Fatal(err)
	}
	check("changed by SQL")

	// A database from before 0010: no counts; opening it counts the products.
	execAll(t, db,
		`DROP TABLE product_counts`,
		`DROP FUNCTION product_counts_apply CASCADE`,
		`DELETE FROM schema_migrations WHERE version = 10`,
	)
	db.Close()
	db = open()
	defer db.Close()
	check("migrated")
	if n, err := db.CountForTest(`SELECT sum(n)::int FROM product_counts`); err != nil || n != 11 {
		t.Fatalf("counted %d products after the migration, want 11 (%v)", n, err)
	}
}
