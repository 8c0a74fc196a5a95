package panel_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/admin"
	"storefront/testenv"
)

// TestPanelDeviceCookie: the panel keeps the device token of a login in an
// HttpOnly cookie, and logs in with it while the account is locked for
// unknown addresses.
func TestPanelDeviceCookie(t *testing.T) {
	e := testenv.NewWith(t, testenv.Options{Admin: admin.Config{TrustedProxies: []string{"0.0.0.0"}}})
	b := newBrowser(t, e)
	p := b.login("owner@example.com", "owner-password")
	p.redirectsTo(t, "/admin/")
	var set string
	for _, c := range p.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "sf_admin_device=") {
			set = c
		}
	}
	if set == "" || !strings.Contains(set, "HttpOnly") || !strings.Contains(set, "path=/admin") || b.cookies["sf_admin_device"] == "" {
		t.Fatalf("got device cookie %q, want an HttpOnly cookie for /admin", set)
	}
	for i := 0; i < 5; i++ {
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from(fmt.Sprintf("198.51.100.%d", i+1)), Body: loginBody("wrong-password", "")}).
			Expect(t, 401, "invalid_credentials")
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("198.51.100.77"), Body: loginBody("owner-password", "")}).Expect(t, 429, "rate_limited")
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("198.51.100.77"), Body: loginBody("owner-password", b.cookies["sf_admin_device"])}).Expect(t, 200, "")
	// a new panel session of the same browser, with the cookie
	delete(b.cookies, "sf_admin")
	b.login("owner@example.com", "owner-password").redirectsTo(t, "/admin/")
}
