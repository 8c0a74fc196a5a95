package postgres_test

import (
	"testing"

	"storefront/app"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// TestOrderLinkSameOnEveryProcess: two processes on one database sign an
// order's own link alike (the key is the database's order_links secret,
// made once), so a link mailed by one opens on the other.
func TestOrderLinkSameOnEveryProcess(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var tokens []string
	for range 2 {
		db, err := postgres.Open(url, postgres.Options{MaxConns: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		svc := app.NewServices(db, nil, nil, nil, nil, nil, app.Options{})
		svc.Orders.SetShopHost(app.ShopHost{Domain: "shops.example"})
		tok, err := svc.Orders.OrderLinkToken(7, 42)
		if err != nil {
			t.Fatal(err)
		}
		link := svc.Orders.OrderURL(&app.Store{ID: 7, Subdomain: "acme", IsActive: true}, 42)
		if link != "http://acme.shops.example/orders/"+tok+"/" {
			t.Fatalf("mail link %q, token %q", link, tok)
		}
		tokens = append(tokens, tok)
	}
	if tokens[0] != tokens[1] {
		t.Fatalf("two processes sign the same order differently: %q, %q", tokens[0], tokens[1])
	}
}
