package admin_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

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

// The role walk's helpers (testenv).
var concretePath, walked, wantAllowed = testenv.ConcretePath, testenv.RouteWalked, testenv.WantAllowed
