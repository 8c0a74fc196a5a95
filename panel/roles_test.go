package panel_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestRolesWalkPanel does the same for every panel page and form.
func TestRolesWalkPanel(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	roleUsers(t, e, sid)
	browsers := map[string]*browser{}
	csrf := map[string]string{}
	for _, role := range app.Roles {
		b := newBrowser(t, e)
		email, pw := role+"@roles.example.com", "role-password"
		if role == app.RoleOwner {
			email, pw = "owner@example.com", "owner-password"
		}
		b.login(email, pw).redirectsTo(t, "/admin/")
		browsers[role], csrf[role] = b, b.csrf("/admin/password/")
	}
	seen := 0
	for _, r := range e.App.GetRoutes(true) {
		if !strings.HasPrefix(r.Path, "/admin") || !walked(r.Method, r.Path) || strings.HasPrefix(r.Path, "/admin/static") ||
			strings.HasPrefix(r.Path, "/admin/log") {
			continue
		}
		path := concretePath(r.Path, sid)
		for _, role := range app.Roles {
			u, _ := e.Svc.Admins.Get(map[string]uint64{app.RoleOwner: 1, app.RoleStaff: 2, app.RoleManager: 3}[role])
			allowed := wantAllowed(t, u, r.Method, path, "/admin")
			var form url.Values
			if r.Method == "POST" {
				form = url.Values{"csrf": {csrf[role]}}
			}
			p := browsers[role].do(r.Method, path, form)
			if got := p.Status == http.StatusForbidden; got != !allowed || p.Status == http.StatusSeeOther && strings.HasPrefix(p.Header.Get("Location"), "/admin/login") {
				t.Errorf("%s %s as %s: got %d, want allowed=%v", r.Method, path, role, p.Status, allowed)
			}
			seen++
		}
	}
	if seen < 100 {
		t.Fatalf("walked %d requests, want every panel route", seen)
	}
}
