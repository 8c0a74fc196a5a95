package app_test

import (
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestShopHost covers StoreService.ByHost: which store a Host header names.
func TestShopHost(t *testing.T) {
	e := testenv.New(t)
	acme, _ := e.Store("Acme")
	bravo, _ := e.Store("Bravo")
	idle, _ := e.Store("Idle")
	if _, err := e.Svc.Stores.SetSettings(acme, app.StoreSettingsInput{Domains: &[]string{"Shop.Acme.Example."}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Stores.SetActive(idle, false); err != nil {
		t.Fatal(err)
	}
	h := app.ShopHost{Domain: "shops.test"}
	withDefault := app.ShopHost{Domain: "shops.test", DefaultStore: bravo}
	for _, tc := range []struct {
		name string
		h    app.ShopHost
		host string
		want uint64 // 0: not_found
	}{
		{"Subdomain", h, "acme.shops.test", acme},
		{"SubdomainPort", h, "bravo.shops.test:8080", bravo},
		{"SubdomainCase", h, "ACME.Shops.Test", acme},
		{"TrailingDot", h, "acme.shops.test.", acme},
		{"CustomDomain", h, "shop.acme.example", acme},
		{"CustomDomainCasePort", h, "SHOP.acme.example:443", acme},
		{"CustomDomainNoShopDomain", app.ShopHost{}, "shop.acme.example", acme},
		{"UnknownSubdomain", h, "nope.shops.test", 0},
		{"UnknownSubdomainWithDefault", withDefault, "nope.shops.test", 0},
		{"InactiveStore", h, "idle.shops.test", 0},
		{"UnknownHost", h, "elsewhere.example", 0},
		{"DefaultStore", withDefault, "127.0.0.1:8080", bravo},
		{"DefaultStoreIPv6", withDefault, "[::1]:8080", bravo},
		{"DefaultStoreInactive", app.ShopHost{DefaultStore: idle}, "127.0.0.1", 0},
		{"DefaultStoreMissing", app.ShopHost{DefaultStore: 999}, "127.0.0.1", 0},
		{"ShopDomainItself", h, "shops.test", 0},
		{"Empty", h, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := e.Svc.Stores.ByHost(tc.h, tc.host)
			if tc.want == 0 {
				if app.ErrorCode(err) != app.ENotFound {
					t.Fatalf("got %v, %v; want not_found", st, err)
				}
				return
			}
			if err != nil || st.ID != tc.want {
				t.Fatalf("got %v, %v; want store %d", st, err, tc.want)
			}
		})
	}
	// a store made, a domain moved: the index follows at once
	if _, err := e.Svc.Stores.SetSettings(acme, app.StoreSettingsInput{Domains: &[]string{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Stores.ByHost(h, "shop.acme.example"); app.ErrorCode(err) != app.ENotFound {
		t.Fatalf("a removed domain still answers: %v", err)
	}
	late, _ := e.Store("Late")
	if st, err := e.Svc.Stores.ByHost(h, "late.shops.test"); err != nil || st.ID != late {
		t.Fatalf("a new store: %v, %v", st, err)
	}
}

// TestStoreDomains covers the domains setting: normalised, validated,
// unique across stores.
func TestStoreDomains(t *testing.T) {
	e := testenv.New(t)
	a, _ := e.Store("Acme")
	b, _ := e.Store("Bravo")
	set := func(id uint64, d ...string) (*app.Store, error) {
		return e.Svc.Stores.SetSettings(id, app.StoreSettingsInput{Domains: &d})
	}
	st, err := set(a, " Shop.Acme.Example. ", "shop.acme.example", "www.acme.example")
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Domains) != 2 || st.Domains[0] != "shop.acme.example" || st.Domains[1] != "www.acme.example" {
		t.Fatalf("domains %v", st.Domains)
	}
	for _, bad := range []string{"https://shop.example", "shop.example:8080", "shop.example/x", "localhost", "-x.example",
		"a..example", "shop example.com", "*.example.com", ""} {
		_, err := set(b, bad)
		var ae *app.Error
		if !asError(err, &ae) || ae.Code != app.EValidation || ae.Fields["domains[0]"] == "" {
			t.Errorf("%q: got %v, want validation_failed domains[0]", bad, err)
		}
	}
	many := make([]string, app.MaxDomains+1)
	for i := range many {
		many[i] = "d" + string(rune('a'+i)) + ".example"
	}
	if _, err := set(b, many...); app.ErrorCode(err) != app.EValidation {
		t.Fatalf("too many: %v", err)
	}
	_, err = set(b, "bravo.example", "WWW.acme.example")
	var ae *app.Error
	if !asError(err, &ae) || ae.Code != app.EConflict || ae.Fields["domains[1]"] == "" {
		t.Fatalf("taken: got %v, want conflict on domains[1]", err)
	}
	if got, _ := e.Svc.Stores.Get(b); len(got.Domains) != 0 {
		t.Fatalf("a refused change was kept: %v", got.Domains)
	}
	// the store keeps its own domains when it sets them again
	if _, err := set(a, "www.acme.example"); err != nil {
		t.Fatal(err)
	}
	if _, err := set(b, "shop.acme.example"); err != nil { // freed by acme
		t.Fatal(err)
	}
}

func asError(err error, target **app.Error) bool {
	e, ok := err.(*app.Error)
	if ok {
		*target = e
	}
	return ok
}

func TestShopHostURL(t *testing.T) {
	st := &app.Store{ID: 7, Subdomain: "acme", IsActive: true}
	for _, tc := range []struct {
		name, public, want string
		h                  app.ShopHost
		domains            []string
	}{
		{"Subdomain", "https://api.example.com", "https://acme.shops.example.com/", app.ShopHost{Domain: "shops.example.com"}, nil},
		{"SubdomainPort", "http://127.0.0.1:8080", "http://acme.shops.test:8080/", app.ShopHost{Domain: "shops.test"}, nil},
		{"CustomDomain", "https://api.example.com", "https://shop.acme.example/", app.ShopHost{Domain: "shops.example.com"}, []string{"shop.acme.example"}},
		{"DefaultStore", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/", app.ShopHost{DefaultStore: 7}, nil},
		{"None", "http://127.0.0.1:8080", "", app.ShopHost{DefaultStore: 1}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := *st
			s.Domains = tc.domains
			if got := tc.h.URL(&s, tc.public); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
	off := *st
	off.IsActive = false
	if got := (app.ShopHost{Domain: "shops.test"}).URL(&off, "http://x"); got != "" {
		t.Fatalf("inactive: %q", got)
	}
}
