package admin_test

import (
	"fmt"
	"net/url"
	"testing"

	"storefront/testenv"
)

func TestAdminContactMessages(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staffA, staffB := e.Staff(sid, fmt.Sprintf("staff%d@example.com", sid)), e.Staff(sidB, fmt.Sprintf("staff%d@example.com", sidB))
	for _, name := range []string{"one", "two", "three"} {
		e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/contact/", Key: key, Body: map[string]any{"name": name, "email": name + "@example.com", "message": "hi"}}).Expect(t, 200, "")
	}
	base := testenv.Path("%s/%d/contact-messages/", rvAdmin, sid)
	var m map[string]any
	e.Do(testenv.Req{Method: "PATCH", Path: base + "2/", Token: staffA, Body: map[string]any{"is_read": true}}).Expect(t, 200, "").Decode(t, &m)
	if m["is_read"] != true || m["id"] != 2.0 || m["name"] != "two" {
		t.Fatalf("got %v", m)
	}
	for _, tc := range []struct{ query, want string }{
		{"", "3,2,1,"},
		{"?unread_first=true", "3,1,2,"},
		{"?unread_first=false", "3,2,1,"},
		{"?is_read=false", "3,1,"},
		{"?is_read=true", "2,"},
	} {
		t.Run("List"+tc.query, func(t *testing.T) {
			if got := rvIDs(rvGet(t, e, staffA, base+tc.query)); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
			// the same order one item per page
			got, cursor := "", ""
			for i := 0; i < 5; i++ {
				sep := "?"
				if tc.query != "" {
					sep = "&"
				}
				path := base + tc.query + sep + "limit=1"
				if cursor != "" {
					path += "&cursor=" + url.QueryEscape(cursor)
				}
				l := rvGet(t, e, staffA, path)
				got += rvIDs(l)
				if !l.HasMore {
					break
				}
				cursor = *l.NextCursor
			}
			if got != tc.want {
				t.Fatalf("walk: got %s, want %s", got, tc.want)
			}
		})
	}
	e.Do(testenv.Req{Method: "PATCH", Path: base + "2/", Token: staffA, Body: map[string]any{"is_read": false}}).Expect(t, 200, "").Decode(t, &m)
	if m["is_read"] != false {
		t.Fatalf("got %v", m)
	}
	l := rvGet(t, e, staffA, base+"?is_read=false&limit=1")
	for _, tc := range []struct {
		name, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"ErrBadIsRead", "GET", base + "?is_read=maybe", staffA, nil, 400, "validation_failed"},
		{"ErrBadUnreadFirst", "GET", base + "?unread_first=yes", staffA, nil, 400, "validation_failed"},
		{"ErrCursorOtherFilter", "GET", base + "?is_read=true&cursor=" + url.QueryEscape(*l.NextCursor), staffA, nil, 400, "validation_failed"},
		{"ErrPatchMissing", "PATCH", base + "1/", staffA, map[string]any{}, 400, "validation_failed"},
		{"ErrPatchType", "PATCH", base + "1/", staffA, map[string]any{"is_read": "yes"}, 400, "validation_failed"},
		{"ErrPatchUnknown", "PATCH", base + "99/", staffA, map[string]any{"is_read": true}, 404, "not_found"},
		{"ErrPatchNonNumeric", "PATCH", base + "x/", staffA, map[string]any{"is_read": true}, 404, "not_found"},
		{"ErrStaffOtherStore", "GET", base, staffB, nil, 404, "not_found"},
		{"ErrCrossStoreID", "PATCH", testenv.Path("%s/%d/contact-messages/1/", rvAdmin, sidB), e.OwnerToken, map[string]any{"is_read": true}, 404, "not_found"},
		{"ErrNoToken", "GET", base, "", nil, 401, "unauthorized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: tc.method, Path: tc.path, Token: tc.token, Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}
	if l := rvGet(t, e, e.OwnerToken, testenv.Path("%s/%d/contact-messages/", rvAdmin, sidB)); len(l.Items) != 0 {
		t.Fatalf("store B sees %v", l.Items)
	}
}
