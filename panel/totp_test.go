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
