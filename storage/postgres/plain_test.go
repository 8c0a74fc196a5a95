package postgres_test

import (
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// TestProductRowsPlain: product rows over PostgreSQL's 2 KB TOAST threshold
// are stored uncompressed (migration 0009), so a catalog page decompresses
// nothing; on a database whose rows were stored compressed before 0009, the
// migration rewrites them plain, their content unchanged.
func TestProductRowsPlain(t *testing.T) {
	url := pgtest.NewDatabase(t)
	open := opener(t, url)
	db := open()
	err := db.Update(func(tx app.Tx) error {
		st := &app.Store{Name: "s", Subdomain: "s", Currency: "USD", APIKeyHash: []byte("k")}
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		for i := range 3 {
			p := &app.Product{StoreID: st.ID, Name: "Trail Runner", Slug: string(rune('a' + i)), Price: 100, Currency: "USD",
				IsActive: true, CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
				Description: strings.Repeat("A light, cushioned running shoe with a grippy outsole. ", 20)}
			if err := tx.PutProduct(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	count := func(db *postgres.DB, sql string) int {
		t.Helper()
		n, err := db.CountForTest(sql)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	const wide = `SELECT count(*) FROM products WHERE octet_length(doc::text) + octet_length(pdoc) > 2100`
	const compressed = `SELECT count(*) FROM products WHERE pg_column_size(pdoc) < octet_length(pdoc) OR pg_column_size(doc) < octet_length(doc::text)`
	if n := count(db, wide); n != 3 {
		t.Fatalf("%d rows over the TOAST threshold, want 3 (make the description longer)", n)
	}
	if n := count(db, compressed); n != 0 {
		t.Fatalf("%d product rows stored compressed, want none", n)
	}

	// A database from before 0009: the default target, the rows compressed.
	sum := func(db *postgres.DB) int {
		t.Helper()
		n, err := db.CountForTest(`SELECT sum(hashtext(doc::text || encode(pdoc, 'hex'))::bigint % 1000000)::int FROM products`)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := sum(db)
	execAll(t, db,
		`ALTER TABLE products RESET (toast_tuple_target)`,
		`UPDATE products SET doc = doc::text::json, pdoc = pdoc || ''::bytea`,
		`DELETE FROM schema_migrations WHERE version = 9`,
	)
	if n := count(db, compressed); n != 3 {
		t.Fatalf("%d rows compressed before 0009, want 3", n)
	}
	db.Close()
	db = open()
	defer db.Close()
	if n := count(db, compressed); n != 0 {
		t.Fatalf("%d product rows still compressed after 0009, want none", n)
	}
	if after := sum(db); after != before {
		t.Fatalf("the rewrite changed the rows' content (checksum %d, was %d)", after, before)
	}
}
