package admin_test

import (
	"fmt"
	"strconv"
	"sync"
	"testing"

	"storefront/admin"
	"storefront/app"
	"storefront/testenv"
	"storefront/web"
)

// served is an env over real TCP whose limits see X-Forwarded-For (the test
// client is the trusted proxy), with password checks counted.
func served(t *testing.T) (*testenv.Env, *testenv.CountingPasswords) {
	pass := testenv.NewCountingPasswords()
	proxies := []string{"127.0.0.1"}
	e := testenv.NewWith(t, testenv.Options{Pass: pass,
		Web: web.Config{TrustedProxies: proxies}, Admin: admin.Config{TrustedProxies: proxies}})
	return e.Serve(), pass
}

func from(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }

// burstLogins sends n wrong-password logins for email at once (address of
// request i: addr(i)) and returns the statuses counted; every 429 must carry
// Retry-After.
func burstLogins(t *testing.T, e *testenv.Env, n int, email string, addr func(i int) string) map[int]int {
	t.Helper()
	var mu sync.Mutex
	got := map[int]int{}
	testenv.Burst(n, func(i int) {
		r := e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from(addr(i)),
			Body: map[string]string{"email": email, "password": "wrong-password"}})
		mu.Lock()
		defer mu.Unlock()
		got[r.Status]++
		if r.Status == 429 {
			if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 {
				t.Errorf("429 with Retry-After %q, want seconds", r.Header.Get("Retry-After"))
			}
		}
	})
	return got
}

// TestAdminLoginBurst: the red-team's parallel bursts (issue 14.1, 11.6).
func TestAdminLoginBurst(t *testing.T) {
	t.Parallel()
	t.Run("OneAddress", func(t *testing.T) {
		e, pass := served(t)
		// the owner's usual address
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("203.0.113.50"),
			Body: map[string]string{"email": "owner@example.com", "password": "owner-password"}}).Expect(t, 200, "")
		before := pass.Checks()
		got := burstLogins(t, e, 40, "owner@example.com", func(int) string { return "198.51.100.7" })
		if got[401] != 5 || got[429] != 35 {
			t.Fatalf("got %v, want 5 checked (401) and 35 refused (429)", got)
		}
		if n := pass.Checks() - before; n != 5 {
			t.Fatalf("got %d password checks, want 5 (refused attempts do no bcrypt work)", n)
		}
		// the owner from their known address is not locked out
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("203.0.113.50"),
			Body: map[string]string{"email": "owner@example.com", "password": "owner-password"}}).Expect(t, 200, "")
	})
	t.Run("ManyAddresses", func(t *testing.T) {
		e, pass := served(t)
		before := pass.Checks()
		got := burstLogins(t, e, 40, "owner@example.com", func(i int) string { return fmt.Sprintf("198.51.100.%d", i+1) })
		// ratelimit.login_failures per account from unknown addresses
		if got[401] != 5 || got[429] != 35 {
			t.Fatalf("got %v, want 5 checked and the rest 429", got)
		}
		if n := pass.Checks() - before; n != got[401] {
			t.Fatalf("got %d password checks for %d checked attempts", n, got[401])
		}
	})
	t.Run("UnknownEmail", func(t *testing.T) {
		e, pass := served(t)
		before := pass.Checks()
		got := burstLogins(t, e, 40, "ghost@example.com", func(int) string { return "198.51.100.7" })
		if got[401] != 5 || got[429] != 35 || pass.Checks()-before != 5 {
			t.Fatalf("got %v and %d checks, want 5 checked like a known account", got, pass.Checks()-before)
		}
	})
	t.Run("OneAddressManyAccounts", func(t *testing.T) {
		e, pass := served(t)
		before := pass.Checks()
		var mu sync.Mutex
		got := map[int]int{}
		testenv.Burst(60, func(i int) {
			r := e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("198.51.100.9"),
				Body: map[string]string{"email": fmt.Sprintf("guess%d@example.com", i), "password": "x"}})
			mu.Lock()
			got[r.Status]++
			mu.Unlock()
		})
		if got[401] != app.AdminLoginFailuresIP || pass.Checks()-before != app.AdminLoginFailuresIP {
			t.Fatalf("got %v and %d checks, want %d checked per address", got, pass.Checks()-before, app.AdminLoginFailuresIP)
		}
	})
}

// TestAdminLockoutByAddress: failures from elsewhere never lock out the
// owner's known address (issue 27.6); failures from unknown addresses are
// limited per account, and per (account, address).
func TestAdminLockoutByAddress(t *testing.T) {
	t.Parallel()
	e, _ := served(t)
	right := map[string]string{"email": "owner@example.com", "password": "owner-password"}
	wrong := map[string]string{"email": "owner@example.com", "password": "wrong-password"}
	login := func(ip string, body map[string]string) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from(ip), Body: body})
	}
	login("192.0.2.1", right).Expect(t, 200, "") // the owner's usual address
	for i := 0; i < 5; i++ {
		login("198.51.100.1", wrong).Expect(t, 401, "invalid_credentials")
	}
	login("198.51.100.1", right).Expect(t, 429, "rate_limited") // the attacker's pair is locked
	// the account's budget for unknown addresses is spent too
	login("198.51.100.2", wrong).Expect(t, 429, "rate_limited")
	login("192.0.2.99", right).Expect(t, 429, "rate_limited")
	// the owner's known address is not
	login("192.0.2.1", right).Expect(t, 200, "")
	// its own failures count on its own budget
	for i := 0; i < 5; i++ {
		login("192.0.2.1", wrong).Expect(t, 401, "invalid_credentials")
	}
	login("192.0.2.1", right).Expect(t, 429, "rate_limited")
	// after the window everything is free again
	e.Advance(app.LoginWindow)
	login("198.51.100.1", right).Expect(t, 200, "")
}

func TestAdminLogout(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	other := e.OwnerToken
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: map[string]string{"email": "owner@example.com", "password": "owner-password"}}).Expect(t, 200, "")
	r.Decode(t, &tok)
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Fatalf("login Cache-Control %q, want no-store", cc)
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/me/", Token: tok.AccessToken}).Expect(t, 200, "")
	t.Run("ErrNoToken", func(t *testing.T) {
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/logout/"}).Expect(t, 401, "unauthorized")
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/logout/", Token: "garbage"}).Expect(t, 401, "unauthorized")
	})
	t.Run("OK", func(t *testing.T) {
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/logout/", Token: tok.AccessToken}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "GET", Path: api + "/me/", Token: tok.AccessToken}).Expect(t, 401, "unauthorized")
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/logout/", Token: tok.AccessToken}).Expect(t, 401, "unauthorized")
		e.Do(testenv.Req{Method: "GET", Path: api + "/me/", Token: other}).Expect(t, 200, "") // other tokens stay
	})
	t.Run("SurvivesRestart", func(t *testing.T) {
		var stored []*app.Revocation
		if err := e.DB.View(func(tx app.Tx) error { var err error; stored, err = tx.Revocations(); return err }); err != nil {
			t.Fatal(err)
		}
		if len(stored) != 1 || stored[0].StoreID != 0 || stored[0].Session == "" {
			t.Fatalf("stored revocations %+v, want one admin session (store 0)", stored)
		}
		svc := app.NewServices(e.DB, e.Svc.Tokens, e.Svc.Pass, nil, e.Now, nil, app.Options{})
		if _, err := svc.Admins.Authenticate(tok.AccessToken); app.ErrorCode(err) != app.EUnauthorized {
			t.Fatalf("after a restart: got %v, want unauthorized", err)
		}
	})
}
