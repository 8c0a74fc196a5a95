package admin_test

import (
	"fmt"
	"net/url"
	"testing"

	"storefront/testenv"
)

const (
	rvWeb   = "/api/v1/business/website"
	rvAdmin = "/api/v1/admin/stores"
)

// rvEnv is testenv.New plus the index check of reviews, tickets and contact.
func rvEnv(t testing.TB) *testenv.Env {
	t.Helper()
	e := testenv.New(t)
	return e
}

type rvList struct {
	Items      []map[string]any `json:"items"`
	NextCursor *string          `json:"next_cursor"`
	HasMore    bool             `json:"has_more"`
}

func rvGet(t testing.TB, e *testenv.Env, tok, path string) rvList {
	t.Helper()
	var l rvList
	e.Do(testenv.Req{Method: "GET", Path: path, Token: tok}).Expect(t, 200, "").Decode(t, &l)
	return l
}

func rvIDs(l rvList) string {
	s := ""
	for _, it := range l.Items {
		s += fmt.Sprint(it["id"], ",")
	}
	return s
}

func TestAdminReviews(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staffA, staffB := e.Staff(sid, fmt.Sprintf("staff%d@example.com", sid)), e.Staff(sidB, fmt.Sprintf("staff%d@example.com", sidB))
	p := e.Product(sid, 0, "Red Shoe", 1250, 3)
	var rids []string
	for i := 0; i < 4; i++ {
		_, tok := e.Shopper(sid, fmt.Sprintf("s%d@example.com", i))
		var id string
		e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/reviews/", Key: key, Token: tok, Body: map[string]any{"product_id": p.ID, "rating": 4}}).Expect(t, 200, "").Decode(t, &id)
		rids = append(rids, id)
	}
	_, shopperTok := e.Shopper(sid, "x@example.com")
	base := testenv.Path("%s/%d/reviews/", rvAdmin, sid)

	t.Run("Approve", func(t *testing.T) {
		var r map[string]any
		e.Do(testenv.Req{Method: "POST", Path: base + rids[0] + "/approve/", Token: staffA}).Expect(t, 200, "").Decode(t, &r)
		if r["status"] != "APPROVED" || r["customer_id"] == nil || r["rating"] != 4.0 {
			t.Fatalf("got %v", r)
		}
		e.Do(testenv.Req{Method: "POST", Path: base + rids[1] + "/reject/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &r)
		if r["status"] != "REJECTED" {
			t.Fatalf("got %v", r)
		}
	})
	t.Run("ListByStatus", func(t *testing.T) {
		for status, want := range map[string]string{
			"":         rids[3] + "," + rids[2] + "," + rids[1] + "," + rids[0] + ",",
			"PENDING":  rids[3] + "," + rids[2] + ",",
			"APPROVED": rids[0] + ",",
			"REJECTED": rids[1] + ",",
		} {
			if got := rvIDs(rvGet(t, e, staffA, base+"?status="+status)); got != want {
				t.Errorf("status %q: got %s, want %s", status, got, want)
			}
		}
	})
	t.Run("Walk", func(t *testing.T) {
		l := rvGet(t, e, staffA, base+"?status=PENDING&limit=1")
		if !l.HasMore || l.NextCursor == nil {
			t.Fatalf("got %+v, want a next page", l)
		}
		l2 := rvGet(t, e, staffA, base+"?status=PENDING&limit=1&cursor="+url.QueryEscape(*l.NextCursor))
		if rvIDs(l2) != rids[2]+"," || l2.HasMore {
			t.Fatalf("got %s, want %s and the end", rvIDs(l2), rids[2])
		}
		e.Do(testenv.Req{Method: "GET", Path: base + "?status=APPROVED&cursor=" + url.QueryEscape(*l.NextCursor), Token: staffA}).Expect(t, 400, "validation_failed")
	})
	for _, tc := range []struct {
		name, method, path, token string
		status                    int
		code                      string
	}{
		{"ErrBadStatus", "GET", base + "?status=approved", staffA, 400, "validation_failed"},
		{"ErrBadLimit", "GET", base + "?limit=x", staffA, 400, "validation_failed"},
		{"ErrUnknownReview", "POST", base + "999/approve/", staffA, 404, "not_found"},
		{"ErrNonNumericReview", "POST", base + "abc/reject/", staffA, 404, "not_found"},
		{"ErrStaffOtherStoreList", "GET", base, staffB, 404, "not_found"},
		{"ErrStaffOtherStoreApprove", "POST", base + rids[2] + "/approve/", staffB, 404, "not_found"},
		{"ErrCrossStoreID", "POST", testenv.Path("%s/%d/reviews/%s/approve/", rvAdmin, sidB, rids[2]), e.OwnerToken, 404, "not_found"},
		{"ErrNoToken", "GET", base, "", 401, "unauthorized"},
		{"ErrShopperToken", "POST", base + rids[2] + "/approve/", shopperTok, 401, "unauthorized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: tc.method, Path: tc.path, Token: tc.token}).Expect(t, tc.status, tc.code)
		})
	}
	if rvIDs(rvGet(t, e, e.OwnerToken, base+"?status=PENDING")) != rids[3]+","+rids[2]+"," {
		t.Fatalf("a refused moderation changed a review")
	}
}
