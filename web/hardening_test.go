package web_test

import (
	"fmt"
	"sync"
	"testing"

	"storefront/app"
	"storefront/testenv"
	"storefront/web"
)

// burst sends n requests made by req(i) at once and counts the statuses;
// every 429 must carry Retry-After.
func burst(t *testing.T, e *testenv.Env, n int, req func(i int) testenv.Req) map[int]int {
	t.Helper()
	var mu sync.Mutex
	got := map[int]int{}
	testenv.Burst(n, func(i int) {
		r := e.Do(req(i))
		mu.Lock()
		defer mu.Unlock()
		got[r.Status]++
		if r.Status == 429 && (r.Header.Get("Retry-After") == "" || r.Body.ErrorCode != "rate_limited") {
			t.Errorf("429 without Retry-After or rate_limited: %s", r.Raw)
		}
	})
	return got
}

// TestShopperLoginBurst: 40 parallel wrong passwords for one shopper check at
// most ratelimit.login_failures passwords; the rest is 429 without bcrypt
// (issue 14.1).
func TestShopperLoginBurst(t *testing.T) {
	pass := testenv.NewCountingPasswords()
	e := testenv.NewWith(t, testenv.Options{Pass: pass, Web: web.Config{AuthPerMinute: 1000}}).Serve()
	_, key := e.Store("Shop A")
	register(t, e, key, "ada@example.com")
	before := pass.Checks()
	got := burst(t, e, 40, func(int) testenv.Req {
		return testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ada@example.com", "password": "wrong horse"}}
	})
	if got[401] != 5 || got[429] != 35 {
		t.Fatalf("got %v, want 5 checked (401) and 35 refused (429)", got)
	}
	if n := pass.Checks() - before; n != 5 {
		t.Fatalf("got %d password checks, want 5", n)
	}
}

// TestAuthPerIPBurst: the per-IP auth limit is taken before the work too:
// of 100 parallel logins from one address, auth_per_minute reach bcrypt.
func TestAuthPerIPBurst(t *testing.T) {
	pass := testenv.NewCountingPasswords()
	e := testenv.NewWith(t, testenv.Options{Pass: pass, App: app.Options{LoginFailures: 1000}, Web: web.Config{AuthPerMinute: 20}}).Serve()
	_, key := e.Store("Shop A")
	before := pass.Checks()
	got := burst(t, e, 100, func(i int) testenv.Req {
		return testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": fmt.Sprintf("u%d@example.com", i), "password": "wrong horse"}}
	})
	if got[401] != 20 || got[429] != 80 {
		t.Fatalf("got %v, want 20 checked and 80 refused", got)
	}
	if n := pass.Checks() - before; n != 20 {
		t.Fatalf("got %d password checks, want 20", n)
	}
}
