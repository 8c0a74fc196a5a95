package admin_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// concretePath fills a route pattern's parameters: the store, a
// payment-methods settings section (a sub-page with its own permission),
// and ids that do not exist.
func concretePath(pattern string, sid uint64) string {
	segs := strings.Split(pattern, "/")
	for i, s := range segs {
		switch {
		case s == ":store_id" || s == ":sid":
			segs[i] = fmt.Sprint(sid)
		case s == ":section":
			segs[i] = "payment-methods"
		case strings.HasPrefix(s, ":"):
			segs[i] = "999999"
		}
	}
	return strings.Join(segs, "/")
}

// segsAfter splits path after prefix into its segments.
func segsAfter(path, prefix string) []string {
	var out []string
	for _, s := range strings.Split(strings.TrimPrefix(path, prefix), "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// wantAllowed asks the role table about a concrete admin path, and fails
// when the route's resource is missing from it (a new route needs a line).
func wantAllowed(t *testing.T, u *app.AdminUser, method, path, prefix string) bool {
	t.Helper()
	segs := segsAfter(path, prefix)
	scoped := len(segs) >= 2 && segs[0] == "stores"
	var ok bool
	if scoped {
		segs = segs[2:]
		_, ok = app.StoreRoutePerm(method, segs)
	} else {
		_, ok = app.GlobalRoutePerm(method, segs)
	}
	if !ok {
		t.Errorf("%s %s: no permission in app.StoreRoutePerms/GlobalRoutePerms", method, path)
	}
	return app.Allow(u, scoped, method, segs) == nil
}

// walked reports whether a route is one of the admin's own (not a
// catch-all) with a method the routes use.
func walked(method, path string) bool {
	return !strings.Contains(path, "*") && strings.Contains("GET POST PUT PATCH DELETE", method)
}

// TestRolesWalkAPI walks every admin API route as each role: 403 forbidden
// exactly where the role table says so.
func TestRolesWalkAPI(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	users := roleUsers(t, e, sid)
	seen := 0
	for _, r := range e.App.GetRoutes(true) {
		if !strings.HasPrefix(r.Path, "/api/v1/admin/") || !walked(r.Method, r.Path) || strings.HasPrefix(r.Path, "/api/v1/admin/auth/log") {
			continue
		}
		path := concretePath(r.Path, sid)
		for _, role := range app.Roles {
			rc := users[role]
			allowed := wantAllowed(t, rc.User, r.Method, path, "/api/v1/admin")
			req := httptest.NewRequest(r.Method, path, bytes.NewReader([]byte("{}")))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+rc.Token)
			resp, err := e.App.Test(req, -1)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if got := resp.StatusCode == http.StatusForbidden; got != !allowed || resp.StatusCode == http.StatusUnauthorized {
				t.Errorf("%s %s as %s: got %d, want allowed=%v: %s", r.Method, path, role, resp.StatusCode, allowed, body)
			}
			seen++
		}
	}
	if seen < 100 {
		t.Fatalf("walked %d requests, want every admin route", seen)
	}
}

type roleCase = testenv.RoleUser

func roleUsers(t *testing.T, e *testenv.Env, sid uint64) map[string]roleCase {
	return e.RoleUsers(t, sid)
}
