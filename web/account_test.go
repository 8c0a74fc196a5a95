package web_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"storefront/admin"
	"storefront/app"
	"storefront/panel"
	"storefront/testenv"
	"storefront/web"
)

const (
	pRegister = "/api/v1/customer/auth/register/"
	pLogin    = "/api/v1/customer/auth/login/"
	pRefresh  = "/api/v1/customer/auth/refresh/"
	pLogout   = "/api/v1/customer/auth/logout/"
	pVerify   = "/api/v1/customer/auth/verify-email/"
	pResend   = "/api/v1/customer/auth/resend-code/"
	pForgot   = "/api/v1/customer/auth/password/forgot/"
	pReset    = "/api/v1/customer/auth/password/reset/"
	pMe       = "/api/v1/customer/me/"
)

type tokenResult struct {
	AccessToken      string      `json:"access_token"`
	RefreshToken     string      `json:"refresh_token"`
	AccessExpiresAt  string      `json:"access_expires_at"`
	RefreshExpiresAt string      `json:"refresh_expires_at"`
	TokenType        string      `json:"token_type"`
	Customer         app.Profile `json:"customer"`
}

func regBody(email string) map[string]any {
	return map[string]any{"email": email, "password": "correct horse", "password_confirm": "correct horse",
		"first_name": "Ada", "last_name": "Lovelace", "phone": "+1 555 0100"}
}

func register(t *testing.T, e *testenv.Env, key, email string) tokenResult {
	t.Helper()
	var tr tokenResult
	e.Do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody(email)}).Expect(t, 200, "").Decode(t, &tr)
	return tr
}

func login(t *testing.T, e *testenv.Env, key, email, password string) tokenResult {
	t.Helper()
	var tr tokenResult
	e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": email, "password": password}}).Expect(t, 200, "").Decode(t, &tr)
	return tr
}

var codeRE = regexp.MustCompile(`code is (\d{6})\.`)

// mails returns the store's outbox mail to addr, newest first, once the
// queued password resets are done.
func mails(t *testing.T, e *testenv.Env, storeID uint64, addr string) []*app.Mail {
	t.Helper()
	var out []*app.Mail
	for _, m := range e.Outbox(storeID) {
		if m.To == addr {
			out = append(out, m)
		}
	}
	return out
}

// lastCode reads the newest code mailed to addr.
func lastCode(t *testing.T, e *testenv.Env, storeID uint64, addr string) string {
	t.Helper()
	ms := mails(t, e, storeID, addr)
	if len(ms) == 0 {
		t.Fatalf("no mail to %s", addr)
	}
	m := codeRE.FindStringSubmatch(ms[0].Text)
	if m == nil {
		t.Fatalf("no code in mail %q", ms[0].Text)
	}
	return m[1]
}

func wrongCode(code string) string {
	if code == "000000" {
		return "111111"
	}
	return "000000"
}

func TestRegister(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")

	tr := register(t, e, key, "Ada@Example.com")
	if tr.TokenType != "Bearer" || tr.AccessToken == "" || tr.RefreshToken == "" {
		t.Fatalf("got %+v", tr)
	}
	if tr.AccessExpiresAt != "2026-11-21T10:15:00Z" || tr.RefreshExpiresAt != "2026-12-21T10:00:00Z" {
		t.Fatalf("got expiries %s %s, want 2026-11-21T10:15:00Z 2026-12-21T10:00:00Z", tr.AccessExpiresAt, tr.RefreshExpiresAt)
	}
	c := tr.Customer
	if c.ID == 0 || c.Email != "ada@example.com" || c.FirstName != "Ada" || c.LastName != "Lovelace" || c.Phone != "+1 555 0100" || c.EmailVerified {
		t.Fatalf("got customer %+v", c)
	}
	var me app.Profile
	e.Do(testenv.Req{Method: "GET", Path: pMe, Key: key, Token: tr.AccessToken}).Expect(t, 200, "").Decode(t, &me)
	if me.ID != c.ID {
		t.Fatalf("got me %d, want %d", me.ID, c.ID)
	}
	ms := mails(t, e, sid, "ada@example.com")
	if len(ms) != 1 || !strings.Contains(ms[0].Subject, "Shop A") || !strings.Contains(ms[0].HTML, "Shop A") || !codeRE.MatchString(ms[0].Text) {
		t.Fatalf("got mails %+v, want one verification code mail", ms)
	}

	long := strings.Repeat("x", 73)
	tests := []struct {
		name   string
		key    string
		body   any
		status int
		code   string
		fields []string
	}{
		{"MissingFields", key, map[string]any{}, 400, "validation_failed", []string{"email", "password", "password_confirm", "first_name"}},
		{"BadEmail", key, merge(regBody("x"), map[string]any{"email": "not-an-email"}), 400, "validation_failed", []string{"email"}},
		{"ShortPassword", key, merge(regBody("s@example.com"), map[string]any{"password": "short", "password_confirm": "short"}), 400, "validation_failed", []string{"password"}},
		{"LongPassword", key, merge(regBody("l@example.com"), map[string]any{"password": long, "password_confirm": long}), 400, "validation_failed", []string{"password"}},
		{"MismatchedConfirmation", key, merge(regBody("m@example.com"), map[string]any{"password_confirm": "correct horse!"}), 400, "validation_failed", []string{"password_confirm"}},
		{"BadPhone", key, merge(regBody("p@example.com"), map[string]any{"phone": "call me"}), 400, "validation_failed", []string{"phone"}},
		{"LongName", key, merge(regBody("n@example.com"), map[string]any{"first_name": strings.Repeat("a", 101)}), 400, "validation_failed", []string{"first_name"}},
		{"WrongType", key, merge(regBody("w@example.com"), map[string]any{"email": 5}), 400, "validation_failed", []string{"email"}},
		{"MalformedJSON", key, "{", 400, "validation_failed", []string{"body"}},
		{"NoBody", key, nil, 400, "validation_failed", nil},
		{"NoKey", "", regBody("k@example.com"), 401, "invalid_api_key", nil},
		{"Duplicate", key, regBody("ada@example.com"), 409, "conflict", []string{"email"}},
		{"DuplicateOtherCase", key, regBody(" ADA@example.COM "), 409, "conflict", nil},
		{"SameEmailOtherStore", keyB, regBody("ada@example.com"), 200, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: pRegister, Key: tc.key, Body: tc.body}).Expect(t, tc.status, tc.code)
			for _, f := range tc.fields {
				if r.Body.Errors[f] == "" {
					t.Errorf("errors has no %q: %s", f, r.Raw)
				}
			}
		})
	}
	var b tokenResult
	login(t, e, keyB, "ada@example.com", "correct horse")
	e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: keyB, Body: map[string]string{"email": "ada@example.com", "password": "correct horse"}}).Expect(t, 200, "").Decode(t, &b)
	if b.Customer.ID == 0 || b.AccessToken == tr.AccessToken {
		t.Fatalf("store B login: got %+v", b)
	}
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func TestRegisterConcurrentDuplicate(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = e.Do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody("race@example.com")}).Status
		}()
	}
	wg.Wait()
	won, lost := 0, 0
	for _, st := range statuses {
		switch st {
		case 200:
			won++
		case 409:
			lost++
		}
	}
	if won != 1 || lost != n-1 {
		t.Fatalf("got %d created and %d conflicts (%v), want 1 and %d", won, lost, statuses, n-1)
	}
	var count int
	e.DB.View(func(tx app.Tx) error {
		p, err := tx.Customers(sid, app.ListParams{Limit: 100})
		count = len(p.Items)
		return err
	})
	if count != 1 {
		t.Fatalf("got %d customers, want 1", count)
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	_, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	reg := register(t, e, key, "ada@example.com")

	tr := login(t, e, key, "ADA@example.com", "correct horse")
	if tr.Customer.ID != reg.Customer.ID || tr.TokenType != "Bearer" || tr.RefreshToken == reg.RefreshToken || tr.AccessExpiresAt == "" || tr.RefreshExpiresAt == "" {
		t.Fatalf("got %+v", tr)
	}
	wrong := e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ada@example.com", "password": "wrong horse"}}).Expect(t, 401, "invalid_credentials")
	unknown := e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "nobody@example.com", "password": "wrong horse"}}).Expect(t, 401, "invalid_credentials")
	if wrong.Body.Message != unknown.Body.Message {
		t.Fatalf("wrong password says %q, unknown email says %q: they must match", wrong.Body.Message, unknown.Body.Message)
	}
	e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: keyB, Body: map[string]string{"email": "ada@example.com", "password": "correct horse"}}).Expect(t, 401, "invalid_credentials")
	r := e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{}}).Expect(t, 400, "validation_failed")
	if r.Body.Errors["email"] == "" || r.Body.Errors["password"] == "" {
		t.Fatalf("got errors %v, want email and password", r.Body.Errors)
	}
	e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: "", Body: map[string]string{"email": "ada@example.com", "password": "correct horse"}}).Expect(t, 401, "invalid_api_key")
}

func TestAccessToken(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	_, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	tr := register(t, e, key, "ada@example.com")

	tampered := []byte(tr.AccessToken)
	i := strings.LastIndexByte(string(tampered), '.') + 3
	if tampered[i] == 'A' {
		tampered[i] = 'B'
	} else {
		tampered[i] = 'A'
	}
	tests := []struct {
		name, key, token string
		header           map[string]string
		status           int
		code             string
	}{
		{"OK", key, tr.AccessToken, nil, 200, ""},
		{"NoToken", key, "", nil, 401, "unauthorized"},
		{"NoKey", "", tr.AccessToken, nil, 401, "invalid_api_key"},
		{"Tampered", key, string(tampered), nil, 401, "unauthorized"},
		{"Garbage", key, "not.a.jwt", nil, 401, "unauthorized"},
		{"NotBearer", key, "", map[string]string{"Authorization": "Basic abc"}, 401, "unauthorized"},
		{"OtherStore", keyB, tr.AccessToken, nil, 401, "unauthorized"},
		{"AdminToken", key, e.OwnerToken, nil, 401, "unauthorized"},
		{"RefreshTokenAsAccess", key, tr.RefreshToken, nil, 401, "unauthorized"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "GET", Path: pMe, Key: tc.key, Token: tc.token, Header: tc.header}).Expect(t, tc.status, tc.code)
		})
	}
	t.Run("Expired", func(t *testing.T) {
		e.Advance(15*time.Minute + time.Second)
		e.Do(testenv.Req{Method: "GET", Path: pMe, Key: key, Token: tr.AccessToken}).Expect(t, 401, "unauthorized")
		// the refresh token still gives a fresh pair
		var nt tokenResult
		e.Do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": tr.RefreshToken}}).Expect(t, 200, "").Decode(t, &nt)
		e.Do(testenv.Req{Method: "GET", Path: pMe, Key: key, Token: nt.AccessToken}).Expect(t, 200, "")
	})
	t.Run("ShopperTokenOnAdmin", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/stores/1/customers/", Token: tr.AccessToken}).Expect(t, 401, "unauthorized")
	})
}

func TestRefreshRotation(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	_, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	tr := register(t, e, key, "ada@example.com")
	refresh := func(tok string) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": tok}})
	}

	e.Advance(time.Minute)
	var r1 tokenResult
	refresh(tr.RefreshToken).Expect(t, 200, "").Decode(t, &r1)
	if r1.RefreshToken == tr.RefreshToken || r1.AccessToken == tr.AccessToken || r1.Customer.ID != tr.Customer.ID || r1.TokenType != "Bearer" {
		t.Fatalf("rotation: got %+v", r1)
	}
	if r1.RefreshExpiresAt != "2026-12-21T10:01:00Z" {
		t.Fatalf("got refresh_expires_at %s, want 2026-12-21T10:01:00Z", r1.RefreshExpiresAt)
	}
	var r2 tokenResult
	refresh(r1.RefreshToken).Expect(t, 200, "").Decode(t, &r2)

	t.Run("ReuseRevokesChain", func(t *testing.T) {
		refresh(tr.RefreshToken).Expect(t, 401, "unauthorized") // spent
		refresh(r2.RefreshToken).Expect(t, 401, "unauthorized") // its chain is gone
	})
	t.Run("OtherChainsLive", func(t *testing.T) {
		a := login(t, e, key, "ada@example.com", "correct horse")
		b := login(t, e, key, "ada@example.com", "correct horse")
		refresh(a.RefreshToken).Expect(t, 200, "")
		refresh(a.RefreshToken).Expect(t, 401, "unauthorized")
		refresh(b.RefreshToken).Expect(t, 200, "")
	})
	t.Run("LogoutThenRefresh", func(t *testing.T) {
		a := login(t, e, key, "ada@example.com", "correct horse")
		e.Do(testenv.Req{Method: "POST", Path: pLogout, Key: key, Body: map[string]string{"refresh_token": a.RefreshToken}}).Expect(t, 200, "")
		refresh(a.RefreshToken).Expect(t, 401, "unauthorized")
		e.Do(testenv.Req{Method: "POST", Path: pLogout, Key: key, Body: map[string]string{"refresh_token": a.RefreshToken}}).Expect(t, 401, "unauthorized")
	})
	t.Run("OtherStore", func(t *testing.T) {
		a := login(t, e, key, "ada@example.com", "correct horse")
		e.Do(testenv.Req{Method: "POST", Path: pRefresh, Key: keyB, Body: map[string]string{"refresh_token": a.RefreshToken}}).Expect(t, 401, "unauthorized")
		refresh(a.RefreshToken).Expect(t, 200, "")
	})
	t.Run("Expired", func(t *testing.T) {
		a := login(t, e, key, "ada@example.com", "correct horse")
		e.Advance(30*24*time.Hour + time.Second)
		refresh(a.RefreshToken).Expect(t, 401, "unauthorized")
	})
	t.Run("Bad", func(t *testing.T) {
		refresh("").Expect(t, 400, "validation_failed")
		refresh("garbage").Expect(t, 401, "unauthorized")
		refresh(strings.Repeat("A", 64)).Expect(t, 401, "unauthorized")
		e.Do(testenv.Req{Method: "POST", Path: pRefresh, Body: map[string]string{"refresh_token": tr.RefreshToken}}).Expect(t, 401, "invalid_api_key")
	})
}

func TestVerifyEmail(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	tr := register(t, e, key, "ada@example.com")
	code := lastCode(t, e, sid, "ada@example.com")
	verify := func(tok, c string) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: pVerify, Key: key, Token: tok, Body: map[string]string{"code": c}})
	}

	t.Run("Errors", func(t *testing.T) {
		e.Do(testenv.Req{Method: "POST", Path: pVerify, Key: key, Body: map[string]string{"code": code}}).Expect(t, 401, "unauthorized")
		e.Do(testenv.Req{Method: "POST", Path: pVerify, Key: keyB, Token: tr.AccessToken, Body: map[string]string{"code": code}}).Expect(t, 401, "unauthorized")
		verify(tr.AccessToken, "12ab56").Expect(t, 400, "validation_failed")
		verify(tr.AccessToken, "").Expect(t, 400, "validation_failed")
	})
	t.Run("WrongFiveTimesBurns", func(t *testing.T) {
		for i := 0; i < 5; i++ {
			r := verify(tr.AccessToken, wrongCode(code)).Expect(t, 400, "validation_failed")
			if r.Body.Errors["code"] == "" {
				t.Fatalf("got errors %v, want code", r.Body.Errors)
			}
		}
		verify(tr.AccessToken, code).Expect(t, 400, "validation_failed") // burnt
	})
	t.Run("Resend", func(t *testing.T) {
		e.Do(testenv.Req{Method: "POST", Path: pResend, Key: key}).Expect(t, 401, "unauthorized")
		e.Do(testenv.Req{Method: "POST", Path: pResend, Key: key, Token: tr.AccessToken}).Expect(t, 200, "")
		code = lastCode(t, e, sid, "ada@example.com")
		if n := len(mails(t, e, sid, "ada@example.com")); n != 3 {
			t.Fatalf("got %d mails, want 3 (code, locked after five misses, new code)", n)
		}
	})
	t.Run("AfterExpiry", func(t *testing.T) {
		e.Advance(15*time.Minute + time.Second)
		fresh := login(t, e, key, "ada@example.com", "correct horse")
		verify(fresh.AccessToken, code).Expect(t, 400, "validation_failed")
		tr = fresh
	})
	t.Run("OK", func(t *testing.T) {
		e.Do(testenv.Req{Method: "POST", Path: pResend, Key: key, Token: tr.AccessToken}).Expect(t, 200, "")
		code = lastCode(t, e, sid, "ada@example.com")
		verify(tr.AccessToken, wrongCode(code)).Expect(t, 400, "validation_failed") // one miss is fine
		var p app.Profile
		verify(tr.AccessToken, code).Expect(t, 200, "").Decode(t, &p)
		if !p.EmailVerified {
			t.Fatalf("got %+v, want email_verified", p)
		}
		e.Do(testenv.Req{Method: "GET", Path: pMe, Key: key, Token: tr.AccessToken}).Expect(t, 200, "").Decode(t, &p)
		if !p.EmailVerified {
			t.Fatalf("me: got %+v, want email_verified", p)
		}
		verify(tr.AccessToken, code).Expect(t, 200, "") // verified stays verified
		e.Do(testenv.Req{Method: "POST", Path: pResend, Key: key, Token: tr.AccessToken}).Expect(t, 409, "conflict")
	})
}

func TestRequireVerified(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	tr := register(t, e, key, "ada@example.com")
	check := func() error {
		return e.DB.View(func(tx app.Tx) error { return app.RequireVerified(tx, sid, tr.Customer.ID) })
	}
	if err := check(); err != nil {
		t.Fatalf("otp off: got %v, want nil", err)
	}
	err := e.DB.Update(func(tx app.Tx) error {
		st, err := tx.Store(sid)
		if err != nil {
			return err
		}
		var cfg map[string]any
		json.Unmarshal(st.Config, &cfg)
		cfg["email_otp_enabled"] = true
		st.Config, _ = json.Marshal(cfg)
		return tx.PutStore(st)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := check(); app.ErrorCode(err) != app.EEmailNotVerified {
		t.Fatalf("otp on, unverified: got %v, want email_not_verified", err)
	}
	e.Do(testenv.Req{Method: "POST", Path: pVerify, Key: key, Token: tr.AccessToken, Body: map[string]string{"code": lastCode(t, e, sid, "ada@example.com")}}).Expect(t, 200, "")
	if err := check(); err != nil {
		t.Fatalf("otp on, verified: got %v, want nil", err)
	}
}

func TestPasswordReset(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	tr := register(t, e, key, "ada@example.com")
	forgot := func(email string) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": email}})
	}
	reset := func(email, code, pw, confirm string) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: pReset, Key: key, Body: map[string]string{"email": email, "code": code, "password": pw, "password_confirm": confirm}})
	}

	known := forgot("ada@example.com").Expect(t, 200, "")
	unknown := forgot("nobody@example.com").Expect(t, 200, "")
	if !bytes.Equal(known.Raw, unknown.Raw) {
		t.Fatalf("forgot answers differ: %s vs %s", known.Raw, unknown.Raw)
	}
	if n := len(mails(t, e, sid, "nobody@example.com")); n != 0 {
		t.Fatalf("got %d mails to an unknown address, want 0", n)
	}
	forgot("not-an-email").Expect(t, 400, "validation_failed")
	code := lastCode(t, e, sid, "ada@example.com")

	r := reset("ada@example.com", code, "short", "short").Expect(t, 400, "validation_failed")
	if r.Body.Errors["password"] == "" {
		t.Fatalf("got %v, want password error", r.Body.Errors)
	}
	reset("ada@example.com", code, "new password", "new passwordX").Expect(t, 400, "validation_failed")
	reset("ada@example.com", "12", "new password", "new password").Expect(t, 400, "validation_failed")
	reset("nobody@example.com", code, "new password", "new password").Expect(t, 400, "validation_failed")
	reset("ada@example.com", wrongCode(code), "new password", "new password").Expect(t, 400, "validation_failed")

	reset("ada@example.com", code, "new password", "new password").Expect(t, 200, "")
	reset("ada@example.com", code, "other password", "other password").Expect(t, 400, "validation_failed") // used up
	e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ada@example.com", "password": "correct horse"}}).Expect(t, 401, "invalid_credentials")
	nt := login(t, e, key, "ada@example.com", "new password")
	if !nt.Customer.EmailVerified {
		t.Fatalf("after reset: got %+v, want email_verified (the code proved the address)", nt.Customer)
	}
	e.Do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": tr.RefreshToken}}).Expect(t, 401, "unauthorized")

	t.Run("CodeAfterExpiry", func(t *testing.T) {
		forgot("ada@example.com").Expect(t, 200, "")
		code := lastCode(t, e, sid, "ada@example.com")
		e.Advance(15*time.Minute + time.Second)
		reset("ada@example.com", code, "third password", "third password").Expect(t, 400, "validation_failed")
	})
	t.Run("WrongFiveTimes", func(t *testing.T) {
		forgot("ada@example.com").Expect(t, 200, "")
		code := lastCode(t, e, sid, "ada@example.com")
		for i := 0; i < 5; i++ {
			reset("ada@example.com", wrongCode(code), "third password", "third password").Expect(t, 400, "validation_failed")
		}
		reset("ada@example.com", code, "third password", "third password").Expect(t, 400, "validation_failed")
		login(t, e, key, "ada@example.com", "new password")
	})
}

func TestMe(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	_, key := e.Store("Shop A")
	tr := register(t, e, key, "ada@example.com")
	patch := func(body any) *testenv.Response {
		return e.Do(testenv.Req{Method: "PATCH", Path: pMe, Key: key, Token: tr.AccessToken, Body: body})
	}
	var p app.Profile
	patch(map[string]any{"phone": "+44 20 7946 0000"}).Expect(t, 200, "").Decode(t, &p)
	if p.Phone != "+44 20 7946 0000" || p.FirstName != "Ada" || p.LastName != "Lovelace" || p.Email != "ada@example.com" {
		t.Fatalf("partial update: got %+v", p)
	}
	patch(map[string]any{"first_name": "Augusta", "last_name": "", "email": "evil@example.com"}).Expect(t, 200, "").Decode(t, &p)
	if p.FirstName != "Augusta" || p.LastName != "" || p.Phone != "+44 20 7946 0000" || p.Email != "ada@example.com" {
		t.Fatalf("got %+v", p)
	}
	e.Do(testenv.Req{Method: "GET", Path: pMe + "?fields=email", Key: key, Token: tr.AccessToken}).Expect(t, 200, "").Decode(t, &p)
	patch(map[string]any{"first_name": " "}).Expect(t, 400, "validation_failed")
	patch(map[string]any{"phone": "abc"}).Expect(t, 400, "validation_failed")
	patch(map[string]any{"first_name": 3}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "PATCH", Path: pMe, Key: key, Body: map[string]any{"phone": "+1 555 0101"}}).Expect(t, 401, "unauthorized")
	e.Do(testenv.Req{Method: "GET", Path: pMe, Key: key}).Expect(t, 401, "unauthorized")
}

func TestAuthRateLimits(t *testing.T) {
	t.Parallel()
	t.Run("PerIP", func(t *testing.T) {
		e := testenv.NewWith(t, testenv.Options{Web: web.Config{AuthPerMinute: 3}})
		_, key := e.Store("Shop A")
		register(t, e, key, "ada@example.com")
		e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": "ada@example.com"}}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ada@example.com", "password": "correct horse"}}).Expect(t, 200, "")
		r := e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ada@example.com", "password": "correct horse"}}).Expect(t, 429, "rate_limited")
		if ra := r.Header.Get("Retry-After"); ra == "" || ra == "0" {
			t.Fatalf("got Retry-After %q, want seconds", ra)
		}
		e.Do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody("bob@example.com")}).Expect(t, 429, "rate_limited")
		// another client IP has its own budget; refresh and me are not limited
		e.Do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody("bob@example.com"), Header: map[string]string{"X-Forwarded-For": "203.0.113.9"}}).Expect(t, 429, "rate_limited") // not a trusted proxy: same IP
		e.Advance(time.Minute)
		e.Do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody("bob@example.com")}).Expect(t, 200, "")
	})
	t.Run("LoginFailures", func(t *testing.T) {
		e := testenv.NewWith(t, testenv.Options{App: app.Options{LoginFailures: 3}})
		_, key := e.Store("Shop A")
		register(t, e, key, "ada@example.com")
		register(t, e, key, "bob@example.com")
		bad := map[string]string{"email": "ada@example.com", "password": "wrong horse"}
		for i := 0; i < 3; i++ {
			e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: bad}).Expect(t, 401, "invalid_credentials")
		}
		r := e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ADA@example.com", "password": "correct horse"}}).Expect(t, 429, "rate_limited")
		if r.Header.Get("Retry-After") == "" {
			t.Fatalf("no Retry-After: %v", r.Header)
		}
		login(t, e, key, "bob@example.com", "correct horse") // another email is not affected
		for i := 0; i < 3; i++ {                             // unknown emails count too
			e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ghost@example.com", "password": "x"}}).Expect(t, 401, "invalid_credentials")
		}
		e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ghost@example.com", "password": "x"}}).Expect(t, 429, "rate_limited")
		e.Advance(web.LoginFailureWindow)
		login(t, e, key, "ada@example.com", "correct horse")
	})
	t.Run("CodeMails", func(t *testing.T) {
		e := testenv.NewWith(t, testenv.Options{Web: web.Config{LoginFailures: 3}})
		sid, key := e.Store("Shop A")
		_, keyB := e.Store("Shop B")
		tr := register(t, e, key, "ada@example.com")
		forgot := func(k, email string) *testenv.Response {
			return e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: k, Body: map[string]string{"email": email}})
		}
		for i := 0; i < 3; i++ {
			forgot(key, "ada@example.com").Expect(t, 200, "")
			forgot(key, "nobody@example.com").Expect(t, 200, "")
		}
		forgot(key, "Ada@Example.com").Expect(t, 429, "rate_limited")
		forgot(key, "nobody@example.com").Expect(t, 429, "rate_limited") // unknown emails alike: nothing revealed
		forgot(keyB, "ada@example.com").Expect(t, 200, "")               // another store's budget
		if n := len(mails(t, e, sid, "ada@example.com")); n != 4 {
			t.Fatalf("got %d mails, want 4 (registration and 3 resets)", n)
		}
		for i := 0; i < 3; i++ {
			e.Do(testenv.Req{Method: "POST", Path: pResend, Key: key, Token: tr.AccessToken}).Expect(t, 200, "")
		}
		e.Do(testenv.Req{Method: "POST", Path: pResend, Key: key, Token: tr.AccessToken}).Expect(t, 429, "rate_limited")
	})
}

// TestNoSecrets walks every account flow with request logging on and checks
// that no password, hash, code or refresh token shows in a response other
// than the one that issued it, nor in any log line.
func TestNoSecrets(t *testing.T) {
	t.Parallel()
	var logBuf testenv.SyncBuffer
	e := testenv.NewWith(t, testenv.Options{Log: slog.New(slog.NewJSONHandler(&logBuf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	srv := web.New(web.Config{LogRequests: true, AuthPerMinute: 1000, LoginFailures: 1000}, e.Svc)
	admin.Register(srv.App, e.Svc, admin.Config{})
	panel.Register(srv.App, e.Svc, panel.Config{})
	srv.Mount()
	e.App = srv.App
	sid, key := e.Store("Shop A")

	var responses [][]byte
	do := func(r testenv.Req, status int) *testenv.Response {
		resp := e.Do(r).Expect(t, status, "")
		responses = append(responses, resp.Raw)
		return resp
	}
	secrets := []string{"correct horse", "new password", "wrong horse"}
	var tr tokenResult
	do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody("ada@example.com")}, 200).Decode(t, &tr)
	issued := [][]byte{responses[len(responses)-1]}
	code := lastCode(t, e, sid, "ada@example.com")
	secrets = append(secrets, code, tr.RefreshToken)
	do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody("ada@example.com")}, 409)
	do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ada@example.com", "password": "wrong horse"}}, 401)
	do(testenv.Req{Method: "POST", Path: pVerify, Key: key, Token: tr.AccessToken, Body: map[string]string{"code": wrongCode(code)}}, 400)
	do(testenv.Req{Method: "POST", Path: pVerify, Key: key, Token: tr.AccessToken, Body: map[string]string{"code": code}}, 200)
	var r1 tokenResult
	do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": tr.RefreshToken}}, 200).Decode(t, &r1)
	issued = append(issued, responses[len(responses)-1])
	secrets = append(secrets, r1.RefreshToken)
	do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": tr.RefreshToken}}, 401) // reuse
	do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": "ada@example.com"}}, 200)
	rcode := lastCode(t, e, sid, "ada@example.com")
	secrets = append(secrets, rcode)
	do(testenv.Req{Method: "POST", Path: pReset, Key: key, Body: map[string]string{"email": "ada@example.com", "code": rcode, "password": "new password", "password_confirm": "new password"}}, 200)
	var l tokenResult
	do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: map[string]string{"email": "ada@example.com", "password": "new password"}}, 200).Decode(t, &l)
	issued = append(issued, responses[len(responses)-1])
	do(testenv.Req{Method: "GET", Path: pMe, Key: key, Token: l.AccessToken}, 200)
	do(testenv.Req{Method: "PATCH", Path: pMe, Key: key, Token: l.AccessToken, Body: map[string]string{"phone": "+1 555 0199"}}, 200)
	do(testenv.Req{Method: "POST", Path: pLogout, Key: key, Body: map[string]string{"refresh_token": l.RefreshToken}}, 200)
	secrets = append(secrets, l.RefreshToken)
	do(testenv.Req{Method: "GET", Path: pMe, Key: key, Token: l.AccessToken}, 401) // revoked by the logout
	do(testenv.Req{Method: "GET", Path: testenv.Path("/api/v1/admin/stores/%d/customers/", sid), Token: e.OwnerToken}, 200)
	do(testenv.Req{Method: "GET", Path: testenv.Path("/api/v1/admin/stores/%d/customers/%d/", sid, tr.Customer.ID), Token: e.OwnerToken}, 200)

	var hash []byte
	e.DB.View(func(tx app.Tx) error {
		c, err := tx.Customer(sid, tr.Customer.ID)
		if err == nil {
			hash = c.PasswordHash
		}
		return err
	})
	hashJSON, _ := json.Marshal(hash)
	secrets = append(secrets, string(hash), strings.Trim(string(hashJSON), `"`), "password_hash")

	isIssuer := func(raw []byte) bool {
		for _, b := range issued {
			if bytes.Equal(b, raw) {
				return true
			}
		}
		return false
	}
	for _, raw := range responses {
		for _, s := range secrets {
			if strings.Contains(string(raw), s) && !(isIssuer(raw) && strings.Contains(string(raw), `"refresh_token"`)) {
				t.Errorf("response contains secret %q: %s", s, raw)
			}
		}
		if isIssuer(raw) {
			for _, s := range []string{"correct horse", "new password", code, rcode, string(hash), "password_hash"} {
				if strings.Contains(string(raw), s) {
					t.Errorf("token response contains secret %q: %s", s, raw)
				}
			}
		}
	}
	logs := logBuf.String()
	if !strings.Contains(logs, `"msg":"request"`) || !strings.Contains(logs, "refresh token reused") {
		t.Fatalf("expected request and reuse log lines, got:\n%s", logs)
	}
	for _, s := range append(secrets, tr.AccessToken, l.AccessToken) {
		if strings.Contains(logs, s) {
			t.Errorf("log contains secret %q", s)
		}
	}
}

type failingMailer struct{}

func (failingMailer) Send(app.Mail) error { return errors.New("smtp down") }

func TestMailFailureDoesNotFailRequests(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	_, key := e.Store("Shop A")
	e.Svc.Mailer = failingMailer{}
	tr := register(t, e, key, "ada@example.com")
	e.Do(testenv.Req{Method: "POST", Path: pResend, Key: key, Token: tr.AccessToken}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": "ada@example.com"}}).Expect(t, 200, "")
}

func TestSessionsStored(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	tr := register(t, e, key, "ada@example.com")
	a := login(t, e, key, "ada@example.com", "correct horse")
	sessions := func() int {
		var n int
		err := e.DB.View(func(tx app.Tx) error {
			ss, err := tx.Sessions(sid, tr.Customer.ID)
			n = len(ss)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := sessions(); n != 2 {
		t.Fatalf("got %d sessions, want 2", n)
	}
	e.Do(testenv.Req{Method: "POST", Path: pLogout, Key: key, Body: map[string]string{"refresh_token": a.RefreshToken}}).Expect(t, 200, "")
	if n := sessions(); n != 1 {
		t.Fatalf("after logout: got %d sessions, want 1", n)
	}
	for i := 0; i < app.MaxSessions+5; i++ {
		e.Advance(time.Second)
		login(t, e, key, "ada@example.com", "correct horse")
	}
	if n := sessions(); n != app.MaxSessions {
		t.Fatalf("got %d sessions, want the cap %d", n, app.MaxSessions)
	}
	// the least recently used chain (from registration) was dropped first
	e.Do(testenv.Req{Method: "POST", Path: pRefresh, Key: key, Body: map[string]string{"refresh_token": tr.RefreshToken}}).Expect(t, 401, "unauthorized")
	e.Advance(31 * 24 * time.Hour)
	login(t, e, key, "ada@example.com", "correct horse")
	if n := sessions(); n != 1 {
		t.Fatalf("after expiry: got %d sessions, want 1 (expired chains dropped at login)", n)
	}
}
