package admin_test

import (
	"fmt"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

type auditPage struct {
	Items      []auditItem `json:"items"`
	NextCursor *string     `json:"next_cursor"`
}

func TestAdminStaffLimits(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	staff := e.Staff(sid, "staff@example.com")
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"ErrRotateKey", "POST", opsPath(sid, "rotate-key/"), nil, 403, "forbidden"},
		{"ErrDeactivate", "PATCH", opsPath(sid, ""), map[string]any{"is_active": false}, 403, "forbidden"},
		{"ErrListUsers", "GET", "/api/v1/admin/users/", nil, 403, "forbidden"},
		{"ErrCreateUser", "POST", "/api/v1/admin/users/", map[string]any{"email": "x@example.com", "password": "password1", "role": "staff", "store_id": sid}, 403, "forbidden"},
		{"ErrDeleteUser", "DELETE", "/api/v1/admin/users/1/", nil, 403, "forbidden"},
		{"ErrAuditLog", "GET", "/api/v1/admin/audit-log/", nil, 403, "forbidden"},
		{"ErrRename", "PATCH", opsPath(sid, ""), map[string]any{"name": "Shop A2"}, 403, "forbidden"}, // settings: a manager's
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: tc.method, Path: tc.path, Token: staff, Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}
	if st, _ := e.Svc.Stores.Get(sid); !st.IsActive {
		t.Fatalf("staff deactivated the store")
	}
	// The owner may.
	e.Do(testenv.Req{Method: "POST", Path: opsPath(sid, "rotate-key/"), Token: e.OwnerToken}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "PATCH", Path: opsPath(sid, ""), Token: e.OwnerToken, Body: map[string]any{"is_active": false}}).Expect(t, 200, "")
}

func TestAdminAuditLog(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staff := e.Staff(sid, "staff@example.com")
	p := e.Product(sid, 0, "Mug", 1000, 10)
	o := e.PlaceOrder(sid, 0, app.OrderConfirmed, app.PaymentPaid, testenv.Line{Product: p, Qty: 1})

	// Writes: recorded when done or refused; reads and failed input are not.
	e.Do(testenv.Req{Method: "POST", Path: opsPath(sid, "orders/%d/notes/", o.ID), Token: staff, Body: map[string]any{"note": "hi"},
		Header: map[string]string{"X-Forwarded-For": "203.0.113.9"}}).Expect(t, 201, "")
	e.Do(testenv.Req{Method: "POST", Path: opsPath(sid, "rotate-key/"), Token: staff}).Expect(t, 403, "forbidden")
	e.Do(testenv.Req{Method: "POST", Path: opsPath(sid, "orders/%d/notes/", o.ID), Token: staff, Body: map[string]any{"note": ""}}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "GET", Path: opsPath(sid, "orders/%d/", o.ID), Token: staff}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: opsPath(sid, "orders/%d/cancel/", o.ID), Token: e.OwnerToken}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "PATCH", Path: opsPath(sidB, ""), Token: e.OwnerToken, Body: map[string]any{"name": "B2"}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "DELETE", Path: "/api/v1/admin/users/2/", Token: e.OwnerToken}).Expect(t, 200, "")

	list := func(t *testing.T, query string) []auditItem {
		t.Helper()
		var pg auditPage
		e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/audit-log/" + query, Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &pg)
		return pg.Items
	}
	all := list(t, "")
	want := []struct{ action, object, email string }{
		{"users.delete", "users/2", "owner@example.com"},
		{"stores.update", fmt.Sprintf("stores/%d", sidB), "owner@example.com"},
		{"orders.cancel", fmt.Sprintf("orders/%d", o.ID), "owner@example.com"},
		{"stores.rotate-key", fmt.Sprintf("stores/%d", sid), "staff@example.com"},
		{"notes.create", fmt.Sprintf("orders/%d", o.ID), "staff@example.com"},
	}
	if len(all) != len(want) {
		t.Fatalf("got %d entries %+v, want %d", len(all), all, len(want))
	}
	for i, w := range want {
		g := all[i]
		if g.Action != w.action || g.Object != w.object || g.AdminEmail != w.email || g.Via != "api" || g.IP == "" {
			t.Errorf("entry %d: got %+v, want %+v", i, g, w)
		}
	}
	if all[3].Status != 403 || all[4].Status != 201 || all[0].StoreID != nil || *all[2].StoreID != sid {
		t.Errorf("statuses/stores: %+v", all)
	}
	for _, tc := range []struct {
		query string
		n     int
	}{
		{fmt.Sprintf("?store_id=%d", sid), 3}, {"?action=orders.", 1}, {"?action=notes", 1}, {"?admin_id=1", 3},
		{fmt.Sprintf("?object=orders/%d", o.ID), 2}, {"?from=2026-11-21&to=2026-11-21", 5}, {"?from=2026-11-22", 0},
		{"?limit=2", 2},
	} {
		if got := list(t, tc.query); len(got) != tc.n {
			t.Errorf("%s: got %d entries, want %d", tc.query, len(got), tc.n)
		}
	}
	for _, tc := range []struct{ name, query string }{
		{"ErrBadStore", "?store_id=x"}, {"ErrBadDate", "?from=yesterday"}, {"ErrToBeforeFrom", "?from=2026-11-22&to=2026-11-21"},
		{"ErrBadLimit", "?limit=0"}, {"ErrBadCursor", "?cursor=abc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/audit-log/" + tc.query, Token: e.OwnerToken}).Expect(t, 400, "validation_failed")
		})
	}
	t.Run("ErrNoCredentials", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/audit-log/"}).Expect(t, 401, "unauthorized")
	})
	t.Run("Paging", func(t *testing.T) {
		var pg auditPage
		e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/audit-log/?limit=3", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &pg)
		if pg.NextCursor == nil {
			t.Fatal("no next cursor")
		}
		var pg2 auditPage
		e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/audit-log/?limit=3&cursor=" + *pg.NextCursor, Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &pg2)
		if len(pg2.Items) != 2 || pg2.Items[0].ID >= pg.Items[2].ID {
			t.Fatalf("second page %+v", pg2.Items)
		}
		// A cursor of another filter is refused.
		e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/audit-log/?action=x&cursor=" + *pg.NextCursor, Token: e.OwnerToken}).Expect(t, 400, "validation_failed")
	})
	t.Run("Prune", func(t *testing.T) {
		e.Advance(app.AuditKeep + time.Hour)
		if n, err := e.Svc.Audit.Prune(); err != nil || n != 5 {
			t.Fatalf("pruned %d, %v; want 5", n, err)
		}
		// (the env checks the bbolt indexes after the test)
	})
}

type auditItem = testenv.AuditItem
