package panel_test

import (
	"fmt"
	"testing"

	"storefront/testenv"
)

func TestAdminChangePassword(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	path := api + "/auth/password/change/"
	second := e.OwnerToken
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: map[string]string{"email": "owner@example.com", "password": "owner-password"}}).Expect(t, 200, "").Decode(t, &tok)
	panel := owner(t, e)
	panel.get("/admin/").expect(t, 200)

	cases := []struct {
		name, token string
		body        any
		status      int
		code, field string
	}{
		{"ErrNoToken", "", map[string]string{"old_password": "owner-password", "password": "new-password-1"}, 401, "unauthorized", ""},
		{"ErrNoBody", tok.AccessToken, nil, 400, "validation_failed", "body"},
		{"ErrWrongOld", tok.AccessToken, map[string]string{"old_password": "nope-nope", "password": "new-password-1"}, 400, "validation_failed", "old_password"},
		{"ErrShort", tok.AccessToken, map[string]string{"old_password": "owner-password", "password": "short"}, 400, "validation_failed", "password"},
		{"ErrSame", tok.AccessToken, map[string]string{"old_password": "owner-password", "password": "owner-password"}, 400, "validation_failed", "password"},
		{"ErrBadJSON", tok.AccessToken, "{", 400, "validation_failed", "body"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: path, Token: tc.token, Body: tc.body}).Expect(t, tc.status, tc.code)
			if tc.field != "" && r.Body.Errors[tc.field] == "" {
				t.Fatalf("errors %v lack %s", r.Body.Errors, tc.field)
			}
		})
	}
	t.Run("OK", func(t *testing.T) {
		var res struct {
			AccessToken string `json:"access_token"`
		}
		r := e.Do(testenv.Req{Method: "POST", Path: path, Token: tok.AccessToken,
			Body: map[string]string{"old_password": "owner-password", "password": "new-password-1"}}).Expect(t, 200, "")
		r.Decode(t, &res)
		if r.Header.Get("Cache-Control") != "no-store" || res.AccessToken == "" {
			t.Fatalf("got %s, Cache-Control %q", r.Raw, r.Header.Get("Cache-Control"))
		}
		e.Do(testenv.Req{Method: "GET", Path: api + "/me/", Token: res.AccessToken}).Expect(t, 200, "")
		for _, old := range []string{tok.AccessToken, second} {
			e.Do(testenv.Req{Method: "GET", Path: api + "/me/", Token: old}).Expect(t, 401, "unauthorized")
		}
		panel.get("/admin/").redirectsTo(t, "/admin/login/") // the panel session ended too
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: map[string]string{"email": "owner@example.com", "password": "owner-password"}}).Expect(t, 401, "invalid_credentials")
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: map[string]string{"email": "owner@example.com", "password": "new-password-1"}}).Expect(t, 200, "")
		newBrowser(t, e).login("owner@example.com", "new-password-1").redirectsTo(t, "/admin/")
	})
	t.Run("ErrWrongOldIsLimited", func(t *testing.T) {
		var res struct {
			AccessToken string `json:"access_token"`
		}
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: map[string]string{"email": "owner@example.com", "password": "new-password-1"}}).Expect(t, 200, "").Decode(t, &res)
		for i := 0; i < 3; i++ { // two failures were counted above: a wrong old password, the old password at login
			e.Do(testenv.Req{Method: "POST", Path: path, Token: res.AccessToken, Body: map[string]string{"old_password": "guess-guess", "password": "new-password-2"}}).Expect(t, 400, "validation_failed")
		}
		e.Do(testenv.Req{Method: "POST", Path: path, Token: res.AccessToken, Body: map[string]string{"old_password": "new-password-1", "password": "new-password-2"}}).Expect(t, 429, "rate_limited")
	})
}

// Deleting an admin ends its tokens and panel sessions.
func TestAdminDeleteEndsSessions(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	tok := e.Staff(sid, "staff@example.com")
	b := newBrowser(t, e)
	b.login("staff@example.com", "staff-password").redirectsTo(t, "/admin/")
	var users struct {
		Items []struct {
			ID    uint64 `json:"id"`
			Email string `json:"email"`
		} `json:"items"`
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/users/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &users)
	var uid uint64
	for _, u := range users.Items {
		if u.Email == "staff@example.com" {
			uid = u.ID
		}
	}
	e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s/users/%d/", api, uid), Token: e.OwnerToken}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: api + "/me/", Token: tok}).Expect(t, 401, "unauthorized")
	b.get("/admin/").redirectsTo(t, "/admin/login/")
}

// The panel login shares the limiter with the JSON API.
func TestAdminPanelLoginSharesLimits(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	for i := 0; i < 5; i++ {
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/",
			Body: map[string]string{"email": "owner@example.com", "password": "wrong-password"}}).Expect(t, 401, "invalid_credentials")
	}
	b := newBrowser(t, e)
	p := b.login("owner@example.com", "owner-password").expect(t, 429, "Too many failed logins")
	if p.Header.Get("Retry-After") == "" {
		t.Fatal("panel 429 without Retry-After")
	}
}
