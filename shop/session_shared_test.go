package shop_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"storefront/shop"
	"storefront/testenv"
)

// newEnvOn is newEnv with testenv options (a backend, a shared database).
func newEnvOn(t *testing.T, opt testenv.Options) *testenv.Env {
	t.Helper()
	cfg := shop.Config{Secret: []byte("shop-test-secret")}
	cfg.Host.Domain = shopDomain
	opt.Routes = func(e *testenv.Env) {
		sh, err := shop.New(cfg, e.Svc)
		if err != nil {
			t.Fatal(err)
		}
		sh.Register(e.App)
		shop.MountTestRoutes(sh, e.App)
		e.App.Use(sh.NotFound)
	}
	return testenv.NewWith(t, opt).Serve()
}

// TestShopRefreshAcrossServers (issue 38 point 5): two servers on one
// PostgreSQL database. A shopper's two page loads with an expired access
// token land on both; the first refreshes the session, the second (which
// left with the same, now spent, refresh token) finds that refresh in the
// shared state instead of spending the token again, which the reuse
// detection answers by ending the session. Before: the second server signed
// the shopper out.
func TestShopRefreshAcrossServers(t *testing.T) {
	a := newEnvOn(t, testenv.Options{Backend: testenv.BackendPostgres})
	b := newEnvOn(t, testenv.Options{Share: a})
	s := newCartStore(t, a, "Acme")
	a.Shopper(s.id, "ann@example.com")
	onA := newBrowser(t, a, s.host)
	onA.post("/account/login/", "/account/login/", url.Values{"email": {"ann@example.com"}, "password": {"password123"}}).expect(t, 303)
	old := onA.cookie("sf_session")
	a.Advance(20 * time.Minute) // the access token expired; the refresh token lives on
	b.Advance(20 * time.Minute)

	onA.get("/account/").expect(t, 200, "ann@example.com") // refreshed on A
	if onA.cookie("sf_session") == old {
		t.Fatal("no refresh on A")
	}
	onB := newBrowser(t, b, s.host)
	onB.setCookie("sf_session", old) // the load that left before A's answer came back
	p := onB.get("/account/")
	if p.Status != 200 || !strings.Contains(p.Body, "ann@example.com") {
		t.Fatalf("the same spent token on B: %d (Location %q), want the account page", p.Status, p.Location)
	}
	// the session lives on: A's refreshed cookie still signs her in
	a.Advance(20 * time.Minute)
	onA.get("/account/").expect(t, 200, "ann@example.com")
}
