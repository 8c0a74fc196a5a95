package postgres_test

import (
	"testing"

	"storefront/app"
)

// TestSearchMigration0020: a database whose product words are of the form
// before 0020 (the name's words only, no in_name) gets every active
// product's words and terms written by the migrations (0021's Go step): a
// description word, a plural and a typo find the product after it; and a
// store whose locale is German then searches in German ("Bücher" finds
// "Buch", which English stems apart).
func TestSearchMigration0020(t *testing.T) {
	f, db := newOutboxFixture(t)
	defer func() { db.Close() }()
	p := &app.Product{StoreID: f.sid, Name: "Hiking Boot", Slug: "hiking-boot", Currency: "USD", Price: 100, IsActive: true,
		Description: "Waterproof leather.", Images: []string{}, Variants: []app.Variant{}}
	if err := db.Update(func(tx app.Tx) error { return tx.PutProduct(p) }); err != nil {
		t.Fatal(err)
	}
	found := func(q string) int {
		t.Helper()
		var n int
		err := db.View(func(tx app.Tx) error {
			pg, err := tx.ProductDocs(f.sid, app.ProductQuery{Q: q, Words: app.QueryWords(q), MinPrice: -1, MaxPrice: -1})
			n = len(pg.Items)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	execAll(t, db,
		`DELETE FROM product_words WHERE pos < 0`, // the terms: the form before 0020
		`ALTER TABLE product_words DROP COLUMN in_name`,
		`DELETE FROM schema_migrations WHERE version IN (20, 21)`)
	db = f.reopen(db)
	for _, q := range []string{"leather", "boots", "hik", "waterprof"} {
		if n := found(q); n != 1 {
			t.Errorf("q=%s after 0020: %d products, want 1", q, n)
		}
	}
	p = &app.Product{StoreID: f.sid, Name: "Buch", Slug: "buch", Currency: "USD", Price: 100, IsActive: true, Images: []string{}, Variants: []app.Variant{}}
	if err := db.Update(func(tx app.Tx) error { return tx.PutProduct(p) }); err != nil {
		t.Fatal(err)
	}
	if n := found("Bücher"); n != 0 {
		t.Errorf("q=Bücher in English: %d products, want 0", n)
	}
	execAll(t, db,
		`UPDATE stores SET doc = (doc::jsonb || jsonb_build_object('config', CASE WHEN jsonb_typeof(doc::jsonb->'config') = 'object'
			THEN doc::jsonb->'config' ELSE '{}' END || '{"locale": "de"}'))::json`,
		`DELETE FROM schema_migrations WHERE version = 21`)
	db = f.reopen(db)
	if n := found("Bücher"); n != 1 {
		t.Errorf("q=Bücher in German after 0021: %d products, want 1", n)
	}
}
