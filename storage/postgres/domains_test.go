package postgres_test

import (
	"testing"

	"storefront/app"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// TestStoreDomainUniqueIndex: a domain is one store's even when a write
// skips the service's check (an earlier binary, a bug): the unique index
// refuses the second store's claim as conflict on the domains field, and a
// released domain can be claimed again.
func TestStoreDomainUniqueIndex(t *testing.T) {
	db, err := postgres.Open(pgtest.NewDatabase(t), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := services(db)
	a, _, err := svc.Stores.Create(app.NewStore{Name: "A", Subdomain: "a", Currency: "USD"})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := svc.Stores.Create(app.NewStore{Name: "B", Subdomain: "b", Currency: "USD"})
	if err != nil {
		t.Fatal(err)
	}
	put := func(st *app.Store, domains ...string) error {
		st.Domains = domains
		return db.Update(func(tx app.Tx) error { return tx.PutStore(st) })
	}
	if err := put(a, "shop.example", "www.shop.example"); err != nil {
		t.Fatal(err)
	}
	err = put(b, "www.shop.example")
	if ae, ok := err.(*app.Error); !ok || ae.Code != app.EConflict || ae.Fields["domains"] == "" {
		t.Fatalf("second claim: got %v, want conflict on domains", err)
	}
	if err := put(a, "shop.example"); err != nil {
		t.Fatal(err)
	}
	if err := put(b, "www.shop.example"); err != nil {
		t.Fatalf("released domain: %v", err)
	}
}
