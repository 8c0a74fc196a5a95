package web_test

import (
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
	"storefront/web"
)

// me asks GET /customer/me/ with an access token.
func me(t *testing.T, e *testenv.Env, key, token string, status int) {
	t.Helper()
	code := ""
	if status == 401 {
		code = "unauthorized"
	}
	r := e.Do(testenv.Req{Method: "GET", Path: pMe, Key: key, Token: token}).Expect(t, status, code)
	if status == 401 && r.Body.Message != "invalid or expired token" {
		t.Fatalf("got message %q, want the one of every bad token", r.Body.Message)
	}
}

func TestRevokeOnLogout(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	a := register(t, e, key, "ada@example.com")
	b := login(t, e, key, "ada@example.com", "correct horse")
	_, other := e.Shopper(sid, "bob@example.com")

	me(t, e, key, a.AccessToken, 200)
	e.Do(testenv.Req{Method: "POST", Path: pLogout, Key: key, Body: map[string]string{"refresh_token": a.RefreshToken}}).Expect(t, 200, "")
	me(t, e, key, a.AccessToken, 401)
	me(t, e, key, b.AccessToken, 200) // another session of the same customer
	me(t, e, key, other, 200)

	// an access token of the logged-out chain issued by an earlier refresh dies too
	c := login(t, e, key, "ada@example.com", "correct horse")
	e.Advance(time.Minute)
	var c2 tokenResult
	e.Do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": c.RefreshToken}}).Expect(t, 200, "").Decode(t, &c2)
	e.Do(testenv.Req{Method: "POST", Path: pLogout, Key: key, Body: map[string]string{"refresh_token": c2.RefreshToken}}).Expect(t, 200, "")
	me(t, e, key, c.AccessToken, 401)
	me(t, e, key, c2.AccessToken, 401)
	me(t, e, key, b.AccessToken, 200)

	// entries go once every token they cover has expired (bounded memory)
	if s, _ := e.Svc.Customers.Revocations().Len(); s != 2 {
		t.Fatalf("got %d revoked sessions held, want 2", s)
	}
	e.Advance(16 * time.Minute)
	d := login(t, e, key, "ada@example.com", "correct horse")
	e.Do(testenv.Req{Method: "POST", Path: pLogout, Key: key, Body: map[string]string{"refresh_token": d.RefreshToken}}).Expect(t, 200, "")
	if s, c := e.Svc.Customers.Revocations().Len(); s != 1 || c != 0 {
		t.Fatalf("after the access TTL: got %d sessions, %d customers held, want 1, 0", s, c)
	}
	me(t, e, key, d.AccessToken, 401)
}

func TestRevokeOnRefreshReuse(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	_, key := e.Store("Shop A")
	tr := register(t, e, key, "ada@example.com")
	other := login(t, e, key, "ada@example.com", "correct horse")
	e.Advance(time.Minute)
	var r1 tokenResult
	e.Do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": tr.RefreshToken}}).Expect(t, 200, "").Decode(t, &r1)
	me(t, e, key, r1.AccessToken, 200)

	// the spent token comes back: the chain and every access token of it die
	e.Do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": tr.RefreshToken}}).Expect(t, 401, "unauthorized")
	me(t, e, key, r1.AccessToken, 401)
	me(t, e, key, tr.AccessToken, 401)
	me(t, e, key, other.AccessToken, 200)

	// logout with a spent token is reuse too
	a := login(t, e, key, "ada@example.com", "correct horse")
	var a1 tokenResult
	e.Do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": a.RefreshToken}}).Expect(t, 200, "").Decode(t, &a1)
	e.Do(testenv.Req{Method: "POST", Path: pLogout, Key: key, Body: map[string]string{"refresh_token": a.RefreshToken}}).Expect(t, 401, "unauthorized")
	me(t, e, key, a1.AccessToken, 401)
	me(t, e, key, other.AccessToken, 200)
}

func TestRevokeOnPasswordReset(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	t1 := register(t, e, key, "ada@example.com") // 10:00:00
	// the same email at store B is another customer: untouched
	tb := register(t, e, keyB, "ada@example.com")
	_, bob := e.Shopper(sid, "bob@example.com")
	e.Advance(30 * time.Second)
	// a token of no session (issued directly): only the not-before time catches it
	bare, err := e.Svc.Tokens.Issue(app.Claims{Kind: app.TokenShopper, StoreID: sid, Subject: t1.Customer.ID, ExpiresAt: e.Now().Add(15 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	e.Advance(30 * time.Second)
	t2 := login(t, e, key, "ada@example.com", "correct horse") // 10:01:00, the second of the reset
	me(t, e, key, bare, 200)

	e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": "ada@example.com"}}).Expect(t, 200, "")
	code := lastCode(t, e, sid, "ada@example.com")
	e.Do(testenv.Req{Method: "POST", Path: pReset, Key: key, Body: map[string]string{"email": "ada@example.com", "code": code,
		"password": "new password", "password_confirm": "new password"}}).Expect(t, 200, "")

	for name, tok := range map[string]string{"register": t1.AccessToken, "no session": bare, "same second": t2.AccessToken} {
		t.Run(name, func(t *testing.T) { me(t, e, key, tok, 401) })
	}
	me(t, e, key, bob, 200)
	me(t, e, keyB, tb.AccessToken, 200)
	// a login in the very second of the reset works
	n := login(t, e, key, "ada@example.com", "new password")
	me(t, e, key, n.AccessToken, 200)
	e.Advance(time.Minute)
	var n2 tokenResult
	e.Do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": n.RefreshToken}}).Expect(t, 200, "").Decode(t, &n2)
	me(t, e, key, n2.AccessToken, 200)
}

// restart wires a second set of services and server over the env's database,
// as a restarted process would.
func restart(t *testing.T, e *testenv.Env) *testenv.Env {
	t.Helper()
	svc := app.NewServices(e.DB, e.Svc.Tokens, e.Svc.Pass, nil, e.Now, nil, app.Options{})
	if err := svc.Customers.LoadRevocations(); err != nil {
		t.Fatal(err)
	}
	e2 := e.With(t)
	e2.Svc = svc
	e2.Server = web.New(web.Config{}, svc)
	e2.App = e2.Server.App
	e2.Server.Mount()
	return e2
}

func TestRevokeSurvivesRestart(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	a := register(t, e, key, "ada@example.com")
	b := login(t, e, key, "ada@example.com", "correct horse")
	c := register(t, e, key, "cy@example.com")
	e.Advance(time.Minute)
	e.Do(testenv.Req{Method: "POST", Path: pLogout, Key: key, Body: map[string]string{"refresh_token": a.RefreshToken}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": "cy@example.com"}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: pReset, Key: key, Body: map[string]string{"email": "cy@example.com", "code": lastCode(t, e, sid, "cy@example.com"),
		"password": "new password", "password_confirm": "new password"}}).Expect(t, 200, "")

	e2 := restart(t, e)
	me(t, e2, key, a.AccessToken, 401)
	me(t, e2, key, c.AccessToken, 401)
	me(t, e2, key, b.AccessToken, 200)
	nc := login(t, e2, key, "cy@example.com", "new password")
	me(t, e2, key, nc.AccessToken, 200)

	// past the access TTL nothing is left to load, and the stored rows are gone
	e.Advance(16 * time.Minute)
	e3 := restart(t, e)
	if s, cu := e3.Svc.Customers.Revocations().Len(); s != 0 || cu != 0 {
		t.Fatalf("after the access TTL: loaded %d sessions, %d customers, want none", s, cu)
	}
	var left []*app.Revocation
	if err := e.DB.View(func(tx app.Tx) (err error) { left, err = tx.Revocations(); return }); err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Fatalf("got %d stored revocations after the access TTL, want 0", len(left))
	}
}

func TestBearerSchemeCase(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	_, key := e.Store("Shop A")
	tr := register(t, e, key, "ada@example.com")
	for _, h := range []struct {
		value  string
		status int
	}{
		{"Bearer " + tr.AccessToken, 200},
		{"bearer " + tr.AccessToken, 200},
		{"BEARER " + tr.AccessToken, 200},
		{"Bearer" + tr.AccessToken, 401},
		{"Bearer", 401},
		{"Basic " + tr.AccessToken, 401},
	} {
		code := ""
		if h.status == 401 {
			code = "unauthorized"
		}
		e.Do(testenv.Req{Method: "GET", Path: pMe, Key: key, Header: map[string]string{"Authorization": h.value}}).Expect(t, h.status, code)
	}
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/stores/", Header: map[string]string{"Authorization": "bearer " + e.OwnerToken}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/stores/", Header: map[string]string{"Authorization": "BeArEr " + e.OwnerToken}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/stores/", Header: map[string]string{"Authorization": "Basic " + e.OwnerToken}}).Expect(t, 401, "unauthorized")
}
