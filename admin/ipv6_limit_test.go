package admin_test

import (
	"fmt"
	"sync"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestAdminLoginLimitsIPv6Per64: an attacker rotating through the addresses
// of one IPv6 /64 counts as one address for the admin login limits; the
// next /64 is another address.
func TestAdminLoginLimitsIPv6Per64(t *testing.T) {
	t.Parallel()
	e, pass := served(t)
	before := pass.Checks()
	var mu sync.Mutex
	got := map[int]int{}
	testenv.Burst(60, func(i int) {
		r := e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from(fmt.Sprintf("2001:db8:5:6:%x::%x", i, i+1)),
			Body: map[string]string{"email": fmt.Sprintf("guess%d@example.com", i), "password": "x"}})
		mu.Lock()
		got[r.Status]++
		mu.Unlock()
	})
	if got[401] != app.AdminLoginFailuresIP || pass.Checks()-before != app.AdminLoginFailuresIP {
		t.Fatalf("got %v and %d checks from one /64, want %d checked", got, pass.Checks()-before, app.AdminLoginFailuresIP)
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("2001:db8:5:7::1"),
		Body: map[string]string{"email": "guess@example.com", "password": "x"}}).Expect(t, 401, "invalid_credentials")
}
