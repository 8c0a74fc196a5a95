package web_test

import (
	"fmt"
	"testing"

	"storefront/testenv"
)

// TestNoStoreOnSecretsAndPersonalData (issue 27 point 9): every answer that
// carries a secret or personal data says Cache-Control: no-store; the public
// catalog does not.
func TestNoStoreOnSecretsAndPersonalData(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Private Shop")
	_, tok := e.Shopper(sid, "ann@example.com")
	adm := func(p string) string { return fmt.Sprintf("/api/v1/admin/stores/%d/%s", sid, p) }
	for _, tc := range []struct { // rotate-key last: it ends key
		name                 string
		method, path, key, t string
		body                 any
		status               int
		noStore              bool
	}{
		{"CreateStore", "POST", "/api/v1/admin/stores/", "", e.OwnerToken, map[string]any{"name": "New", "subdomain": "new-shop", "currency": "USD"}, 201, true},
		{"CreateWebhook", "POST", adm("webhooks/"), "", e.OwnerToken, map[string]any{"url": "https://hooks.example/x", "events": []string{"order.paid"}}, 201, true},
		{"Outbox", "GET", adm("outbox/"), "", e.OwnerToken, nil, 200, true},
		{"Customers", "GET", adm("customers/"), "", e.OwnerToken, nil, 200, true},
		{"Orders", "GET", adm("orders/"), "", e.OwnerToken, nil, 200, true},
		{"AdminUnauthorized", "GET", adm("customers/"), "", "", nil, 401, true},
		{"Me", "GET", "/api/v1/customer/me/", key, tok, nil, 200, true},
		{"Cart", "GET", api + "/cart/", key, tok, nil, 200, true},
		{"MyOrders", "GET", api + "/orders/", key, tok, nil, 200, true},
		{"Addresses", "GET", api + "/addresses/", key, tok, nil, 200, true},
		{"Tickets", "GET", api + "/tickets/", key, tok, nil, 200, true},
		{"PublicProducts", "GET", api + "/products/", key, "", nil, 200, false},
		{"PublicConfig", "GET", api + "/config/", key, "", nil, 200, false},
		{"RotateKey", "POST", adm("rotate-key/"), "", e.OwnerToken, nil, 200, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: tc.method, Path: tc.path, Key: tc.key, Token: tc.t, Body: tc.body}).Expect(t, tc.status, "")
			if got := r.Header.Get("Cache-Control") == "no-store"; got != tc.noStore {
				t.Fatalf("%s %s: Cache-Control %q, want no-store %v", tc.method, tc.path, r.Header.Get("Cache-Control"), tc.noStore)
			}
		})
	}
}
