package postgres_test

import (
	"context"
	"os"
	"testing"

	"storefront/app"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// TestMain lends the tests a pool of databases (pgtest.Main).
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestPoolReusesEmptied: under pgtest.Main a test's database goes to the
// next test emptied: the second subtest gets the first one's database, and
// none of its rows.
func TestPoolReusesEmptied(t *testing.T) {
	current := func(t *testing.T, db *postgres.DB) string {
		var name string
		if err := db.Pool().QueryRow(context.Background(), "SELECT current_database()").Scan(&name); err != nil {
			t.Fatal(err)
		}
		return name
	}
	var first string
	t.Run("fill", func(t *testing.T) {
		db := pgtest.Open(t)
		first = current(t, db)
		if err := db.Update(func(tx app.Tx) error {
			return tx.CreateStore(&app.Store{Name: "S", Subdomain: "s", APIKeyHash: []byte("h")})
		}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("reuse", func(t *testing.T) {
		db := pgtest.Open(t)
		if got := current(t, db); got != first {
			t.Fatalf("got database %s, want the first test's %s from the pool", got, first)
		}
		if empty, err := db.Empty(context.Background()); err != nil || !empty {
			t.Fatalf("the reused database is not empty (%v)", err)
		}
	})
}
