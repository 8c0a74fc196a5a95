package admin_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/testenv"
)

type listPage struct {
	Items      []map[string]any `json:"items"`
	NextCursor *string          `json:"next_cursor"`
	HasMore    bool             `json:"has_more"`
}

// walk reads every page of an admin list and returns the items in order.
func walk(t *testing.T, e *testenv.Env, path, token string) []map[string]any {
	t.Helper()
	var all []map[string]any
	cursor := ""
	for i := 0; i < 20; i++ {
		p := path + "?limit=2"
		if cursor != "" {
			p += "&cursor=" + url.QueryEscape(cursor)
		}
		var pg listPage
		e.Do(testenv.Req{Method: "GET", Path: p, Token: token}).Expect(t, 200, "").Decode(t, &pg)
		all = append(all, pg.Items...)
		if !pg.HasMore {
			return all
		}
		cursor = *pg.NextCursor
	}
	t.Fatal("list never ended")
	return nil
}

func TestAdminCustomers(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	var ids []float64
	for i := 0; i < 5; i++ {
		r := e.Do(testenv.Req{Method: "POST", Path: "/api/v1/customer/auth/register/", Key: key, Body: map[string]string{
			"email": fmt.Sprintf("c%d@example.com", i), "password": "secret password", "password_confirm": "secret password", "first_name": "C"}}).Expect(t, 200, "")
		var tr struct {
			Customer map[string]any `json:"customer"`
		}
		r.Decode(t, &tr)
		ids = append(ids, tr.Customer["id"].(float64))
	}
	e.Shopper(sidB, "b@example.com")

	list := "/api/v1/admin/stores/" + fmt.Sprint(sid) + "/customers/"
	items := walk(t, e, list, e.OwnerToken)
	if len(items) != 5 {
		t.Fatalf("got %d customers, want 5", len(items))
	}
	for i, it := range items {
		if it["id"].(float64) != ids[4-i] {
			t.Fatalf("item %d: got id %v, want %v (newest first)", i, it["id"], ids[4-i])
		}
		if _, ok := it["password_hash"]; ok || len(it) != 7 {
			t.Fatalf("got %v, want the 7 profile fields only", it)
		}
	}
	r := e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s%d/", list, int(ids[0])), Token: e.OwnerToken}).Expect(t, 200, "")
	if strings.Contains(string(r.Raw), "password") || !strings.Contains(string(r.Raw), "c0@example.com") {
		t.Fatalf("got %s", r.Raw)
	}

	staffB := e.Staff(sidB, "staff@example.com")
	tests := []struct {
		name, path, token string
		status            int
		code              string
	}{
		{"NoToken", list, "", 401, "unauthorized"},
		{"StaffOfOtherStore", list, staffB, 404, "not_found"},
		{"StaffOfOtherStoreOne", fmt.Sprintf("%s%d/", list, int(ids[0])), staffB, 404, "not_found"},
		{"CustomerOfOtherStore", fmt.Sprintf("/api/v1/admin/stores/%d/customers/%d/", sidB, int(ids[4])), e.OwnerToken, 404, "not_found"},
		{"BadID", list + "abc/", e.OwnerToken, 404, "not_found"},
		{"BadCursor", list + "?cursor=xyz", e.OwnerToken, 400, "validation_failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "GET", Path: tc.path, Token: tc.token}).Expect(t, tc.status, tc.code)
		})
	}
	t.Run("StaffOwnStore", func(t *testing.T) {
		if got := walk(t, e, fmt.Sprintf("/api/v1/admin/stores/%d/customers/", sidB), staffB); len(got) != 1 {
			t.Fatalf("got %d customers, want 1", len(got))
		}
	})
}

func TestAdminOutbox(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	for i := 0; i < 3; i++ {
		e.Do(testenv.Req{Method: "POST", Path: "/api/v1/customer/auth/register/", Key: key, Body: map[string]string{
			"email": fmt.Sprintf("c%d@example.com", i), "password": "secret password", "password_confirm": "secret password", "first_name": "C"}}).Expect(t, 200, "")
	}
	path := fmt.Sprintf("/api/v1/admin/stores/%d/outbox/", sid)
	items := walk(t, e, path, e.OwnerToken)
	if len(items) != 3 {
		t.Fatalf("got %d mails, want 3", len(items))
	}
	for i, it := range items {
		if it["to"] != fmt.Sprintf("c%d@example.com", 2-i) || !strings.Contains(it["subject"].(string), "Shop A") ||
			!strings.Contains(it["text"].(string), "Shop A") || !strings.Contains(it["html"].(string), "<html>") || it["created_at"] != "2026-11-21T10:00:00Z" {
			t.Fatalf("mail %d: got %v", i, it)
		}
	}
	if got := walk(t, e, fmt.Sprintf("/api/v1/admin/stores/%d/outbox/", sidB), e.OwnerToken); len(got) != 0 {
		t.Fatalf("store B outbox: got %d mails, want 0", len(got))
	}
	staffB := e.Staff(sidB, "staff@example.com")
	e.Do(testenv.Req{Method: "GET", Path: path, Token: staffB}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "GET", Path: path}).Expect(t, 401, "unauthorized")
	// A's mail cannot be retried through B, by B's staff or under B's id
	idA := uint64(items[0]["id"].(float64))
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%s%d/retry/", path, idA), Token: staffB}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/outbox/%d/retry/", sidB, idA), Token: staffB}).Expect(t, 404, "not_found")
}
