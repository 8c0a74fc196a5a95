package admin_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"storefront/testenv"
)

func TestAdminTickets(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staffA, staffB := e.Staff(sid, fmt.Sprintf("staff%d@example.com", sid)), e.Staff(sidB, fmt.Sprintf("staff%d@example.com", sidB))
	_, tok := e.Shopper(sid, "ann@example.com")
	var ids []string
	for _, subj := range []string{"first", "second", "third"} {
		var id string
		e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/tickets/", Key: key, Token: tok, Body: map[string]any{"subject": subj, "description": "help " + subj}}).Expect(t, 200, "").Decode(t, &id)
		ids = append(ids, id)
	}
	base := testenv.Path("%s/%d/tickets/", rvAdmin, sid)

	t.Run("List", func(t *testing.T) {
		l := rvGet(t, e, staffA, base)
		if rvIDs(l) != ids[2]+","+ids[1]+","+ids[0]+"," || l.Items[0]["customer_id"] == nil || l.Items[0]["messages"] != nil {
			t.Fatalf("got %v", l.Items)
		}
	})
	t.Run("Reply", func(t *testing.T) {
		e.Advance(5 * time.Minute)
		var tk map[string]any
		e.Do(testenv.Req{Method: "POST", Path: base + ids[0] + "/messages/", Token: staffA, Body: map[string]any{"message": "We are on it."}}).Expect(t, 201, "").Decode(t, &tk)
		msgs := tk["messages"].([]any)
		last := msgs[len(msgs)-1].(map[string]any)
		if len(msgs) != 2 || last["sender"] != "STAFF" || last["message"] != "We are on it." || tk["status"] != "IN_PROGRESS" {
			t.Fatalf("got %v", tk)
		}
		if tk["last_activity_at"] != "2026-11-21T10:05:00Z" || tk["updated_at"] != "2026-11-21T10:05:00Z" {
			t.Fatalf("got times %v %v", tk["updated_at"], tk["last_activity_at"])
		}
		mails := e.Outbox(sid)
		if len(mails) != 1 || mails[0].To != "ann@example.com" || !strings.Contains(mails[0].Subject, "TKT-000001") ||
			!strings.Contains(mails[0].Text, "We are on it.") {
			t.Fatalf("got outbox %+v, want one mail to the shopper", mails)
		}
		// the shopper sees the staff reply
		var mine map[string]any
		e.Do(testenv.Req{Method: "GET", Path: rvWeb + "/tickets/" + ids[0] + "/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &mine)
		if len(mine["messages"].([]any)) != 2 {
			t.Fatalf("got %v", mine)
		}
	})
	t.Run("Patch", func(t *testing.T) {
		e.Advance(time.Minute)
		var tk map[string]any
		e.Do(testenv.Req{Method: "PATCH", Path: base + ids[1] + "/", Token: e.OwnerToken, Body: map[string]any{"status": "RESOLVED", "priority": "HIGH"}}).Expect(t, 200, "").Decode(t, &tk)
		if tk["status"] != "RESOLVED" || tk["priority"] != "HIGH" || tk["updated_at"] != "2026-11-21T10:06:00Z" || tk["last_activity_at"] != "2026-11-21T10:00:00Z" {
			t.Fatalf("got %v", tk)
		}
		if l := rvGet(t, e, staffA, base+"?status=RESOLVED"); rvIDs(l) != ids[1]+"," {
			t.Fatalf("status filter: got %s", rvIDs(l))
		}
		if l := rvGet(t, e, staffA, base+"?status=OPEN"); rvIDs(l) != ids[2]+"," {
			t.Fatalf("status filter: got %s", rvIDs(l))
		}
	})
	t.Run("Get", func(t *testing.T) {
		var tk map[string]any
		e.Do(testenv.Req{Method: "GET", Path: base + ids[2] + "/", Token: staffA}).Expect(t, 200, "").Decode(t, &tk)
		if tk["ticket_number"] != "TKT-000003" || len(tk["messages"].([]any)) != 1 {
			t.Fatalf("got %v", tk)
		}
	})
	for _, tc := range []struct {
		name, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"ErrBadStatusFilter", "GET", base + "?status=open", staffA, nil, 400, "validation_failed"},
		{"ErrPatchBadStatus", "PATCH", base + ids[2] + "/", staffA, map[string]any{"status": "DONE"}, 400, "validation_failed"},
		{"ErrPatchBadPriority", "PATCH", base + ids[2] + "/", staffA, map[string]any{"priority": "low"}, 400, "validation_failed"},
		{"ErrPatchEmpty", "PATCH", base + ids[2] + "/", staffA, map[string]any{}, 400, "validation_failed"},
		{"ErrReplyEmpty", "POST", base + ids[2] + "/messages/", staffA, map[string]any{"message": ""}, 400, "validation_failed"},
		{"ErrReplyImages", "POST", base + ids[2] + "/messages/", staffA, map[string]any{"message": "x", "images": []string{"nope"}}, 400, "validation_failed"},
		{"ErrUnknown", "GET", base + "0b4f0c0e-3f6e-4d3a-9a57-1f2a3b4c5d6e/", staffA, nil, 404, "not_found"},
		{"ErrNotUUID", "GET", base + "17/", staffA, nil, 404, "not_found"},
		{"ErrStaffOtherStore", "GET", base + ids[2] + "/", staffB, nil, 404, "not_found"},
		{"ErrStaffOtherStoreReply", "POST", base + ids[2] + "/messages/", staffB, map[string]any{"message": "x"}, 404, "not_found"},
		{"ErrCrossStoreID", "GET", testenv.Path("%s/%d/tickets/%s/", rvAdmin, sidB, ids[2]), e.OwnerToken, nil, 404, "not_found"},
		{"ErrCrossStorePatch", "PATCH", testenv.Path("%s/%d/tickets/%s/", rvAdmin, sidB, ids[2]), e.OwnerToken, map[string]any{"status": "CLOSED"}, 404, "not_found"},
		{"ErrNoToken", "GET", base, "", nil, 401, "unauthorized"},
		{"ErrShopperToken", "GET", base, tok, nil, 401, "unauthorized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: tc.method, Path: tc.path, Token: tc.token, Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}
	t.Run("ErrClosed", func(t *testing.T) {
		e.Do(testenv.Req{Method: "PATCH", Path: base + ids[2] + "/", Token: staffA, Body: map[string]any{"status": "CLOSED"}}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "POST", Path: base + ids[2] + "/messages/", Token: staffA, Body: map[string]any{"message": "x"}}).Expect(t, 409, "conflict")
	})
}
