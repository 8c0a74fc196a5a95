package web_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

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
	t.Parallel()
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
	t.Parallel()
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

// TestSecurityHeaders: nosniff on every API response, no-store on every
// response that carries a token or the shopper's profile, and the sandbox
// payment page may not be framed (issue 14.3).
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	e := testenv.New(t).Serve()
	_, key := e.Store("Shop A")
	cat := e.Category(1, "Tea")
	p := e.Product(1, cat.ID, "Green tea", 500, 10)
	tr := register(t, e, key, "ada@example.com")
	noStore := []struct {
		name string
		req  testenv.Req
	}{
		{"register", testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody("bob@example.com")}},
		{"login", testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ada@example.com", "password": "correct horse"}}},
		{"refresh", testenv.Req{Method: "POST", Path: "/api/v1/customer/auth/refresh/", Key: key, Body: map[string]string{"refresh_token": tr.RefreshToken}}},
		{"me", testenv.Req{Method: "GET", Path: pMe, Key: key, Token: tr.AccessToken}},
		{"patch me", testenv.Req{Method: "PATCH", Path: pMe, Key: key, Token: tr.AccessToken, Body: map[string]string{"first_name": "Ada"}}},
		{"admin login", testenv.Req{Method: "POST", Path: "/api/v1/admin/auth/login/", Body: map[string]string{"email": "owner@example.com", "password": "owner-password"}}},
	}
	for _, tc := range noStore {
		t.Run("NoStore/"+tc.name, func(t *testing.T) {
			r := e.Do(tc.req).Expect(t, 200, "")
			if got := r.Header.Get("Cache-Control"); got != "no-store" {
				t.Fatalf("Cache-Control %q, want no-store", got)
			}
		})
	}
	for _, tc := range []testenv.Req{
		{Method: "GET", Path: api + "/products/", Key: key},
		{Method: "GET", Path: api + "/products/", Key: "sk_wrong"},
		{Method: "GET", Path: "/api/v1/nope/"},
		{Method: "GET", Path: "/api/v1/admin/stores/", Token: e.OwnerToken},
		{Method: "GET", Path: "/favicon.ico"},
		{Method: "POST", Path: pLogin, Key: key, Body: "{"},
	} {
		if r := e.Do(tc); r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s (%d): X-Content-Type-Options %q, want nosniff", tc.Method, tc.Path, r.Status, r.Header.Get("X-Content-Type-Options"))
		}
	}
	t.Run("Sandbox", func(t *testing.T) {
		in := initiate(t, e, key, "", order(1, p))
		for _, path := range []string{"/sandbox/pay/" + in.PaymentSessionID + "/", "/sandbox/pay/ps_nope/"} {
			r := e.Do(testenv.Req{Method: "GET", Path: path})
			if r.Header.Get("X-Frame-Options") != "DENY" || r.Header.Get("Content-Security-Policy") != "frame-ancestors 'none'" {
				t.Fatalf("GET %s (%d): X-Frame-Options %q, CSP %q", path, r.Status, r.Header.Get("X-Frame-Options"), r.Header.Get("Content-Security-Policy"))
			}
		}
	})
}

// TestUnpaidOrderLimit: the red-team's stock hoarding — orders placed per
// hour are limited per guest email/shopper and per client address, taken
// before the work so a parallel burst cannot pass (issue 14.2).
func TestUnpaidOrderLimit(t *testing.T) {
	t.Parallel()
	proxies := []string{"127.0.0.1"}
	e := testenv.NewWith(t, testenv.Options{App: app.Options{UnpaidOrdersPerHour: 3}, Web: web.Config{TrustedProxies: proxies}}).Serve()
	sid, key := e.Store("Shop A")
	cat := e.Category(sid, "Tea")
	p := e.Product(sid, cat.ID, "Green tea", 500, 100)
	place := func(ip, email string, qty int64, hdr map[string]string) *testenv.Response {
		body := order(qty, p)
		body["email"] = email
		h := map[string]string{"X-Forwarded-For": ip}
		for k, v := range hdr {
			h[k] = v
		}
		return e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: body, Header: h})
	}
	t.Run("Burst", func(t *testing.T) {
		got := burst(t, e, 10, func(int) testenv.Req {
			body := order(5, p)
			body["email"] = "hoarder@example.com"
			return testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: body, Header: map[string]string{"X-Forwarded-For": "198.51.100.1"}}
		})
		if got[200] != 3 || got[429] != 7 {
			t.Fatalf("got %v, want 3 orders and 7 refused", got)
		}
		if s := e.Stock(sid, p.ID); s != 100-15 {
			t.Fatalf("stock %d, want 85 (3 orders of 5)", s)
		}
	})
	t.Run("PerAddress", func(t *testing.T) { // another email from the same address
		place("198.51.100.1", "other@example.com", 1, nil).Expect(t, 429, "rate_limited")
	})
	t.Run("PerEmail", func(t *testing.T) { // the same email from another address
		place("198.51.100.2", "hoarder@example.com", 1, nil).Expect(t, 429, "rate_limited")
		place("198.51.100.2", "someone@example.com", 1, nil).Expect(t, 200, "")
	})
	t.Run("RefusedCheckoutsDoNotCount", func(t *testing.T) {
		for i := 0; i < 4; i++ {
			place("198.51.100.3", "big@example.com", 1000, nil).Expect(t, 409, "out_of_stock")
		}
		place("198.51.100.3", "big@example.com", 1, nil).Expect(t, 200, "")
	})
	t.Run("ReplaysDoNotCount", func(t *testing.T) {
		idem := map[string]string{"Idempotency-Key": "k-1"}
		for i := 0; i < 4; i++ {
			place("198.51.100.4", "retry@example.com", 1, idem).Expect(t, 200, "")
		}
		place("198.51.100.4", "retry@example.com", 1, nil).Expect(t, 200, "")
		place("198.51.100.4", "retry@example.com", 1, nil).Expect(t, 200, "")
		place("198.51.100.4", "retry@example.com", 1, nil).Expect(t, 429, "rate_limited")
	})
	t.Run("Shopper", func(t *testing.T) {
		_, tok := e.Shopper(sid, "ann@example.com")
		for i := 0; i < 3; i++ {
			e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: order(1, p),
				Header: map[string]string{"X-Forwarded-For": fmt.Sprintf("203.0.113.%d", i+1)}}).Expect(t, 200, "")
		}
		e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: order(1, p),
			Header: map[string]string{"X-Forwarded-For": "203.0.113.9"}}).Expect(t, 429, "rate_limited")
	})
	t.Run("NextHour", func(t *testing.T) {
		e.Advance(app.OrdersWindow)
		place("198.51.100.1", "hoarder@example.com", 1, nil).Expect(t, 200, "")
	})
}

// TestTicketLimit: one shopper's ticket flood is cut at
// ratelimit.tickets_per_hour, burst included (issue 14.2).
func TestTicketLimit(t *testing.T) {
	t.Parallel()
	e := testenv.NewWith(t, testenv.Options{App: app.Options{TicketsPerHour: 3}}).Serve()
	sid, key := e.Store("Shop A")
	ann, tok := e.Shopper(sid, "ann@example.com")
	_, other := e.Shopper(sid, "bob@example.com")
	body := map[string]any{"subject": "Help", "description": "Where is my order?"}
	got := burst(t, e, 10, func(int) testenv.Req {
		return testenv.Req{Method: "POST", Path: rvWeb + "/tickets/", Key: key, Token: tok, Body: body}
	})
	if got[200] != 3 || got[429] != 7 {
		t.Fatalf("got %v, want 3 tickets and 7 refused", got)
	}
	e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/tickets/", Key: key, Token: other, Body: body}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/tickets/", Key: key, Token: other, Body: map[string]any{"subject": ""}}).Expect(t, 400, "validation_failed")
	e.Advance(app.TicketsWindow)
	tok, err := e.Svc.Tokens.Issue(app.Claims{Kind: app.TokenShopper, StoreID: sid, Subject: ann, ExpiresAt: e.Now().Add(15 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/tickets/", Key: key, Token: tok, Body: body}).Expect(t, 200, "")
}

// TestCallbackOrigins: a store's callback_origins (and its CORS
// allowed_origins) bound where the sandbox sends the shopper (issue 14.4).
func TestCallbackOrigins(t *testing.T) {
	t.Parallel()
	e := testenv.New(t).Serve()
	sid, key := e.Store("Shop A")
	cat := e.Category(sid, "Tea")
	p := e.Product(sid, cat.ID, "Green tea", 500, 100)
	cfg := fmt.Sprintf("/api/v1/admin/stores/%d/config/", sid)
	withCallback := func(u string) map[string]any {
		b := order(1, p)
		b["callback_url"] = u
		return b
	}
	initiate := func(u string) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: withCallback(u)})
	}
	initiate("https://anywhere.example/x").Expect(t, 400, "validation_failed") // the store lists testenv.FrontOrigin only
	for _, bad := range []string{`{"callback_origins":"https://shop.example"}`, `{"callback_origins":["https://shop.example/return"]}`,
		`{"callback_origins":["ftp://shop.example"]}`, `{"callback_origins":[3]}`} {
		e.Do(testenv.Req{Method: "PATCH", Path: cfg, Token: e.OwnerToken, Body: bad}).Expect(t, 400, "validation_failed")
	}
	e.Do(testenv.Req{Method: "PATCH", Path: cfg, Token: e.OwnerToken, Body: `{"callback_origins":["https://shop.example","http://localhost:3000"]}`}).Expect(t, 200, "")
	r := initiate("https://evil.example/return").Expect(t, 400, "validation_failed")
	if r.Body.Errors["callback_url"] == "" {
		t.Fatalf("errors %v lack callback_url", r.Body.Errors)
	}
	initiate("https://shop.example.evil.example/").Expect(t, 400, "validation_failed")
	initiate("http://shop.example/return").Expect(t, 400, "validation_failed") // another scheme is another origin
	initiate("https://SHOP.example:443/return?x=1").Expect(t, 200, "")
	initiate("http://localhost:3000/done").Expect(t, 200, "")
	// the CORS list counts too (the store's allowed_origins, PATCH stores/{id}/)
	e.Do(testenv.Req{Method: "PATCH", Path: cfg, Token: e.OwnerToken, Body: `{"callback_origins":null}`}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/", sid), Token: e.OwnerToken,
		Body: map[string]any{"allowed_origins": []string{"https://front.example"}}}).Expect(t, 200, "")
	// it is a store field, not a config key
	e.Do(testenv.Req{Method: "PATCH", Path: cfg, Token: e.OwnerToken, Body: `{"allowed_origins":["https://front.example"]}`}).Expect(t, 400, "validation_failed")
	initiate("https://front.example/return").Expect(t, 200, "")
	initiate("https://shop.example/return").Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "PATCH", Path: cfg, Token: e.OwnerToken, Body: `{"callback_origins":[]}`}).Expect(t, 200, "")
	// no list at all: no open redirect through the payment pages (any
	// http(s) URL was accepted); the store's own shop hosts still are
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/", sid), Token: e.OwnerToken,
		Body: map[string]any{"allowed_origins": []string{}}}).Expect(t, 200, "")
	r = initiate("https://anywhere.example/x").Expect(t, 400, "validation_failed")
	if r.Body.Errors["callback_url"] == "" {
		t.Fatalf("errors %v lack callback_url", r.Body.Errors)
	}
	initiate("https://evil.example/").Expect(t, 400, "validation_failed")
}
