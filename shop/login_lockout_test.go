package shop_test

import (
	"net/url"
	"strings"
	"testing"

	"storefront/shop"
	"storefront/testenv"
)

// newBrowserFrom is a browser whose connections come from the loopback
// address ip (a real source address, no proxy header).
func newBrowserFrom(t *testing.T, e *testenv.Env, host, ip string) *browser {
	b := newBrowser(t, e, host)
	b.c.Transport = testenv.ClientFrom(ip).Transport
	return b
}

// TestShopLoginNotLockedFromElsewhere (issue 38 point 5): a sign-in through
// the shop's pages marks the address as the account's and sets the device
// cookie, as the API's login does, so a burst of wrong passwords from other
// addresses (127.0.0.2, 127.0.0.4) locks them out, not the shopper's browser
// (127.0.0.3) nor her address. Before: she got 429 as well.
func TestShopLoginNotLockedFromElsewhere(t *testing.T) {
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Acme")
	e.Shopper(s.id, "ann@example.com")
	// each post gets its own form: post fills in the browser's CSRF token
	good := func() url.Values { return url.Values{"email": {"ann@example.com"}, "password": {"password123"}} }
	wrong := func() url.Values { return url.Values{"email": {"ann@example.com"}, "password": {"not-her-password"}} }

	ann := newBrowserFrom(t, e, s.host, "127.0.0.3")
	p := ann.post("/account/login/", "/account/login/", good()).expect(t, 303)
	if ck := strings.Join(p.Header.Values("Set-Cookie"), "\n"); !strings.Contains(ck, "sf_device=") || !strings.Contains(ck, "HttpOnly") {
		t.Fatalf("no device cookie at sign-in: %s", ck)
	}
	ann.post("/account/", "/account/logout/", nil).expect(t, 303)

	thief := newBrowserFrom(t, e, s.host, "127.0.0.2")
	for n := 0; ; n++ {
		st := thief.post("/account/login/", "/account/login/", wrong()).Status
		if st == 429 {
			break
		}
		if st != 401 || n > 20 {
			t.Fatalf("wrong password %d from elsewhere: %d, want 401 then 429", n, st)
		}
	}
	newBrowserFrom(t, e, s.host, "127.0.0.4").post("/account/login/", "/account/login/", good()).expect(t, 429)
	ann.post("/account/login/", "/account/login/", good()).expect(t, 303)                                       // her browser
	newBrowserFrom(t, e, s.host, "127.0.0.3").post("/account/login/", "/account/login/", good()).expect(t, 303) // her address
}
