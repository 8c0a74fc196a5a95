package panel_test

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

func TestAdminTOTPRequiredForStaff(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	staff := e.Staff(sid, "staff@example.com")
	products := fmt.Sprintf("%s/stores/%d/products/", api, sid)
	e.Do(testenv.Req{Method: "GET", Path: products, Token: staff}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s/stores/%d/", api, sid), Token: staff, Body: map[string]any{"require_staff_totp": true}}).
		Expect(t, 403, "forbidden")
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s/stores/%d/", api, sid), Token: e.OwnerToken, Body: map[string]any{"require_staff_totp": true}}).
		Expect(t, 200, "")
	var lg struct {
		Required bool `json:"totp_enrolment_required"`
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: map[string]string{"email": "staff@example.com", "password": "staff-password"}}).
		Expect(t, 200, "").Decode(t, &lg)
	if !lg.Required {
		t.Fatal("login answer does not tell the staff to enrol")
	}
	r := e.Do(testenv.Req{Method: "GET", Path: products, Token: staff}).Expect(t, 403, "forbidden")
	if !strings.Contains(r.Body.Message, "second factor") {
		t.Fatalf("got message %q, want a hint to enrol", r.Body.Message)
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/me/", Token: staff}).Expect(t, 200, "")
	enrolTOTP(t, e, staff)
	e.Do(testenv.Req{Method: "GET", Path: products, Token: staff}).Expect(t, 200, "")
	// the owner needs none
	e.Do(testenv.Req{Method: "GET", Path: products, Token: e.OwnerToken}).Expect(t, 200, "")

	t.Run("Panel", func(t *testing.T) {
		e.Svc.Admins.Create(app.NewAdmin{Email: "late@example.com", Password: "late-password", Role: app.RoleManager, StoreID: sid})
		b := newBrowser(t, e)
		b.login("late@example.com", "late-password").redirectsTo(t, "/admin/totp/")
		b.get(fmt.Sprintf("/admin/stores/%d/products/", sid)).redirectsTo(t, "/admin/totp/")
		b.get("/admin/totp/").expect(t, 200, "requires a second factor")
	})
}

func TestPanelTOTP(t *testing.T) {
	e := testenv.New(t)
	b := owner(t, e)
	p := b.submit("/admin/totp/", "/admin/totp/", url.Values{}).expect(t, 200, "otpauth://totp/")
	m := regexp.MustCompile(`Key: <code>([A-Z2-7]+)</code>`).FindStringSubmatch(p.Body)
	if m == nil {
		t.Fatalf("no key on the enrolment page: %s", p.Body)
	}
	if m[1] == "" {
		t.Fatal("empty key on the enrolment page")
	}
	b.submit("/admin/totp/", "/admin/totp/confirm/", url.Values{"code": {"000000"}}).expect(t, 400)
	b.submit("/admin/totp/", "/admin/totp/", url.Values{})
	// a second start replaces the pending secret: read it again
	p = b.submit("/admin/totp/", "/admin/totp/", url.Values{})
	secret := regexp.MustCompile(`Key: <code>([A-Z2-7]+)</code>`).FindStringSubmatch(p.Body)[1]
	b.do("POST", "/admin/totp/confirm/", url.Values{"csrf": {csrfRE.FindStringSubmatch(p.Body)[1]}, "code": {app.TOTPCode(secret, e.Now())}}).
		expect(t, 200, "recovery codes")
	e.Advance(30 * time.Second)

	// the second step
	n := newBrowser(t, e)
	step := n.login("owner@example.com", "owner-password").expect(t, 200, "second factor")
	tm := ticketRE.FindStringSubmatch(step.Body)
	if tm == nil {
		t.Fatalf("no ticket: %s", step.Body)
	}
	form := url.Values{"csrf": {csrfRE.FindStringSubmatch(step.Body)[1]}, "email": {"owner@example.com"}, "ticket": {tm[1]}}
	form.Set("totp_code", "111111")
	n.do("POST", "/admin/login/", form).expect(t, 401, "Wrong or already used code")
	form.Set("ticket", tm[1]+"0")
	form.Set("totp_code", app.TOTPCode(secret, e.Now()))
	n.do("POST", "/admin/login/", form).expect(t, 401, "expired")
	form.Set("ticket", tm[1])
	n.do("POST", "/admin/login/", form).redirectsTo(t, "/admin/")
	n.get("/admin/").expect(t, 200)
}

func TestPanelTOTPPolicy(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	e.Staff(sid, "staff@example.com")
	s := newBrowser(t, e)
	s.login("staff@example.com", "staff-password").redirectsTo(t, "/admin/")
	s.do("POST", "/admin/users/totp-policy/", url.Values{"csrf": {s.csrf("/admin/totp/")}, "store_id": {fmt.Sprint(sid)}, "require": {"yes"}}).expect(t, 403)
	o := owner(t, e)
	o.submit("/admin/users/", "/admin/users/totp-policy/", url.Values{"store_id": {fmt.Sprint(sid)}, "require": {"yes"}}).redirectsTo(t, "/admin/users/")
	if st, _ := e.Svc.Stores.Get(sid); !st.RequireStaffTOTP {
		t.Fatal("the store does not require two-factor login")
	}
	o.get("/admin/users/").expect(t, 200, "Shop A: required")
	o.submit("/admin/users/", "/admin/users/totp-policy/", url.Values{"store_id": {"999"}, "require": {"yes"}}).expect(t, 404)
	// the staff's next page sends them to enrol; a new login does too
	s.get(fmt.Sprintf("/admin/stores/%d/products/", sid)).redirectsTo(t, "/admin/totp/")
	newBrowser(t, e).login("staff@example.com", "staff-password").redirectsTo(t, "/admin/totp/")
}

// TestAdminTOTPReenrolNeedsProof (issue 38 point 4): an account with a
// second factor replaces it only with a current code, a recovery code or its
// password besides its token (API and panel); wrong proofs count as failed
// logins. Before: POST /auth/totp/ then /confirm/ with the token alone.
func TestAdminTOTPReenrolNeedsProof(t *testing.T) {
	e := testenv.New(t)
	panel := owner(t, e) // signed in before the factor
	secret, recovery := enrolTOTP(t, e, e.OwnerToken)
	start := func(body map[string]string) *testenv.Response {
		req := testenv.Req{Method: "POST", Path: api + "/auth/totp/", Token: e.OwnerToken}
		if body != nil {
			req.Body = body
		}
		return e.Do(req)
	}
	for _, tc := range []struct {
		name   string
		body   map[string]string
		status int
		code   string
		field  string
	}{
		{"ErrNoProof", nil, 400, "validation_failed", "totp_code"},
		{"ErrEmptyProof", map[string]string{}, 400, "validation_failed", "totp_code"},
		{"ErrWrongCode", map[string]string{"totp_code": "000000"}, 400, "validation_failed", "totp_code"},
		{"ErrWrongRecovery", map[string]string{"recovery_code": "aaaaa-bbbbb"}, 400, "validation_failed", "totp_code"},
		{"ErrWrongPassword", map[string]string{"password": "not-the-password"}, 400, "validation_failed", "password"},
		{"Password", map[string]string{"password": "owner-password"}, 200, "", ""},
		{"CurrentCode", map[string]string{"totp_code": app.TOTPCode(secret, e.Now())}, 200, "", ""},
		{"RecoveryCode", map[string]string{"recovery_code": recovery[0]}, 200, "", ""},
		{"ErrRecoveryCodeAgain", map[string]string{"recovery_code": recovery[0]}, 400, "validation_failed", "totp_code"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := start(tc.body).Expect(t, tc.status, tc.code)
			if tc.field != "" && r.Body.Errors[tc.field] == "" {
				t.Fatalf("errors %v, want one for %s", r.Body.Errors, tc.field)
			}
			if cc := r.Header.Get("Cache-Control"); cc != "no-store" { // a new secret: never cached
				t.Fatalf("Cache-Control %q, want no-store", cc)
			}
		})
	}
	t.Run("ErrConfirmWithoutProvenStart", func(t *testing.T) {
		// the pending secret of the proven starts above is not the caller's:
		// a start refused leaves nothing a token alone could confirm
		e2 := testenv.New(t)
		enrolTOTP(t, e2, e2.OwnerToken)
		e2.Do(testenv.Req{Method: "POST", Path: api + "/auth/totp/", Token: e2.OwnerToken}).Expect(t, 400, "validation_failed")
		e2.Do(testenv.Req{Method: "POST", Path: api + "/auth/totp/confirm/", Token: e2.OwnerToken, Body: map[string]string{"code": "123456"}}).Expect(t, 400, "validation_failed")
	})
	t.Run("Panel", func(t *testing.T) {
		p := panel.submit("/admin/totp/", "/admin/totp/", url.Values{})
		if p.Status != 400 || strings.Contains(p.Body, "Key: <code>") {
			t.Fatalf("panel start without proof: %d, want 400 and no key: %s", p.Status, p.Body)
		}
		panel.submit("/admin/totp/", "/admin/totp/", url.Values{"password": {"owner-password"}}).expect(t, 200, "Key: <code>")
	})
	t.Run("ErrGuessesRateLimited", func(t *testing.T) {
		var last *testenv.Response
		for range 8 {
			last = start(map[string]string{"password": "guess-guess"})
		}
		last.Expect(t, 429, "rate_limited")
	})
}
