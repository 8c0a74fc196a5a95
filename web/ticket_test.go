package web_test

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

var rvUUID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

type rvTicket struct {
	ID             string  `json:"id"`
	TicketNumber   string  `json:"ticket_number"`
	Subject        string  `json:"subject"`
	Description    string  `json:"description"`
	Category       string  `json:"category"`
	Priority       string  `json:"priority"`
	Status         string  `json:"status"`
	OrderID        *uint64 `json:"order_id"`
	CreatedAt      string  `json:"created_at"`
	UpdatedAt      string  `json:"updated_at"`
	LastActivityAt string  `json:"last_activity_at"`
	Messages       []struct {
		ID        uint64   `json:"id"`
		Sender    string   `json:"sender"`
		Message   string   `json:"message"`
		Images    []string `json:"images"`
		CreatedAt string   `json:"created_at"`
	} `json:"messages"`
}

func rvCreateTicket(t testing.TB, e *testenv.Env, key, tok string, body any) string {
	t.Helper()
	var id string
	e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/tickets/", Key: key, Token: tok, Body: body}).Expect(t, 200, "").Decode(t, &id)
	if !rvUUID.MatchString(id) {
		t.Fatalf("got ticket id %q, want a uuid v4", id)
	}
	return id
}

func rvGetTicket(t testing.TB, e *testenv.Env, key, tok, id string) rvTicket {
	t.Helper()
	var tk rvTicket
	e.Do(testenv.Req{Method: "GET", Path: rvWeb + "/tickets/" + id + "/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &tk)
	return tk
}

func TestCreateTicket(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	cid, tok := e.Shopper(sid, "a@example.com")
	cid2, tok2 := e.Shopper(sid, "b@example.com")
	mine := rvOrder(t, e, sid, cid, app.OrderConfirmed)
	theirs := rvOrder(t, e, sid, cid2, app.OrderConfirmed)
	_ = tok2

	t.Run("OK", func(t *testing.T) {
		id := rvCreateTicket(t, e, key, tok, map[string]any{"subject": "Where is my order?", "description": "It has been a week."})
		tk := rvGetTicket(t, e, key, tok, id)
		if tk.TicketNumber != "TKT-000001" || tk.Category != "GENERAL" || tk.Priority != "MEDIUM" || tk.Status != "OPEN" || tk.OrderID != nil {
			t.Fatalf("got %+v, want TKT-000001 GENERAL MEDIUM OPEN without order", tk)
		}
		if len(tk.Messages) != 1 || tk.Messages[0].Sender != "CUSTOMER" || tk.Messages[0].Message != "It has been a week." || tk.Messages[0].ID != 1 {
			t.Fatalf("got messages %+v, want the description as the first CUSTOMER message", tk.Messages)
		}
		if tk.CreatedAt != "2026-11-21T10:00:00Z" || tk.UpdatedAt != tk.CreatedAt || tk.LastActivityAt != tk.CreatedAt {
			t.Fatalf("got times %s %s %s", tk.CreatedAt, tk.UpdatedAt, tk.LastActivityAt)
		}
	})
	t.Run("OKWithOrder", func(t *testing.T) {
		id := rvCreateTicket(t, e, key, tok, map[string]any{"subject": "Refund", "description": "Broken", "category": "RETURN",
			"priority": "URGENT", "order_id": mine, "images": []string{"https://img.example/a.png"}})
		tk := rvGetTicket(t, e, key, tok, id)
		if tk.TicketNumber != "TKT-000002" || tk.Category != "RETURN" || tk.Priority != "URGENT" || tk.OrderID == nil || *tk.OrderID != mine {
			t.Fatalf("got %+v", tk)
		}
		if len(tk.Messages[0].Images) != 1 {
			t.Fatalf("got first message %+v, want its image", tk.Messages[0])
		}
	})
	for _, tc := range []struct {
		name   string
		key    string
		token  string
		body   any
		status int
		code   string
		field  string
	}{
		{"ErrSubjectMissing", key, tok, map[string]any{"description": "x"}, 400, "validation_failed", "subject"},
		{"ErrSubjectLong", key, tok, map[string]any{"subject": strings.Repeat("s", 201), "description": "x"}, 400, "validation_failed", "subject"},
		{"ErrDescriptionMissing", key, tok, map[string]any{"subject": "x", "description": "  "}, 400, "validation_failed", "description"},
		{"ErrCategory", key, tok, map[string]any{"subject": "x", "description": "x", "category": "general"}, 400, "validation_failed", "category"},
		{"ErrPriority", key, tok, map[string]any{"subject": "x", "description": "x", "priority": "CRITICAL"}, 400, "validation_failed", "priority"},
		{"ErrImages", key, tok, map[string]any{"subject": "x", "description": "x", "images": []string{"javascript:alert(1)"}}, 400, "validation_failed", "images"},
		{"ErrOrderType", key, tok, map[string]any{"subject": "x", "description": "x", "order_id": "7"}, 400, "validation_failed", "order_id"},
		{"ErrOrderOfAnother", key, tok, map[string]any{"subject": "x", "description": "x", "order_id": theirs}, 404, "not_found", ""},
		{"ErrOrderUnknown", key, tok, map[string]any{"subject": "x", "description": "x", "order_id": 999}, 404, "not_found", ""},
		{"ErrNoToken", key, "", map[string]any{"subject": "x", "description": "x"}, 401, "unauthorized", ""},
		{"ErrNoKey", "", tok, map[string]any{"subject": "x", "description": "x"}, 401, "invalid_api_key", ""},
		{"ErrOtherStoreKey", keyB, tok, map[string]any{"subject": "x", "description": "x"}, 401, "unauthorized", ""},
		{"ErrNoBody", key, tok, nil, 400, "validation_failed", "body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/tickets/", Key: tc.key, Token: tc.token, Body: tc.body}).Expect(t, tc.status, tc.code)
			if tc.field != "" && r.Body.Errors[tc.field] == "" {
				t.Fatalf("got errors %v, want one for %s", r.Body.Errors, tc.field)
			}
		})
	}
	t.Run("ErrEmailNotVerified", func(t *testing.T) {
		if _, err := e.Svc.Stores.PatchConfig(sid, []byte(`{"email_otp_enabled":true}`)); err != nil {
			t.Fatal(err)
		}
		defer e.Svc.Stores.PatchConfig(sid, []byte(`{"email_otp_enabled":false}`))
		e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/tickets/", Key: key, Token: tok,
			Body: map[string]any{"subject": "x", "description": "x"}}).Expect(t, 403, "email_not_verified")
	})
}

func TestGetTicket(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	_, tok := e.Shopper(sid, "a@example.com")
	_, tok2 := e.Shopper(sid, "b@example.com")
	_, tokB := e.Shopper(sidB, "a@example.com")
	id := rvCreateTicket(t, e, key, tok, map[string]any{"subject": "Hi", "description": "Help"})
	for _, tc := range []struct {
		name, key, token, id string
		status               int
		code                 string
	}{
		{"OK", key, tok, id, 200, ""},
		{"OKUpperCase", key, tok, strings.ToUpper(id), 200, ""},
		{"ErrOtherShopper", key, tok2, id, 404, "not_found"},
		{"ErrCrossStore", keyB, tokB, id, 404, "not_found"},
		{"ErrNotUUID", key, tok, "12345", 404, "not_found"},
		{"ErrUnknownUUID", key, tok, "0b4f0c0e-3f6e-4d3a-9a57-1f2a3b4c5d6e", 404, "not_found"},
		{"ErrNoToken", key, "", id, 401, "unauthorized"},
		{"ErrNoKey", "", tok, id, 401, "invalid_api_key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "GET", Path: rvWeb + "/tickets/" + tc.id + "/", Key: tc.key, Token: tc.token}).Expect(t, tc.status, tc.code)
		})
	}
}

func TestListMyTickets(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	_, tok := e.Shopper(sid, "a@example.com")
	_, tok2 := e.Shopper(sid, "b@example.com")
	var want []string
	for i := 0; i < 7; i++ {
		want = append([]string{rvCreateTicket(t, e, key, tok, map[string]any{"subject": fmt.Sprint("s", i), "description": "d"})}, want...)
		rvCreateTicket(t, e, key, tok2, map[string]any{"subject": "other", "description": "d"})
	}
	var got []string
	cursor := ""
	for pages := 0; pages < 10; pages++ {
		path := rvWeb + "/tickets/?limit=3"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		var l rvList
		e.Do(testenv.Req{Method: "GET", Path: path, Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &l)
		for _, it := range l.Items {
			got = append(got, it["id"].(string))
			if _, present := it["messages"]; present {
				t.Fatalf("list item carries messages: %v", it)
			}
			if it["ticket_number"] == nil || it["message_count"] != 1.0 {
				t.Fatalf("got item %v", it)
			}
		}
		if !l.HasMore {
			break
		}
		cursor = *l.NextCursor
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("got %v, want my 7 tickets newest first %v", got, want)
	}
	e.Do(testenv.Req{Method: "GET", Path: rvWeb + "/tickets/", Key: key}).Expect(t, 401, "unauthorized")
	e.Do(testenv.Req{Method: "GET", Path: rvWeb + "/tickets/?cursor=bogus", Key: key, Token: tok}).Expect(t, 400, "validation_failed")
}

func TestReplyTicket(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	_, tok := e.Shopper(sid, "a@example.com")
	_, tok2 := e.Shopper(sid, "b@example.com")
	id := rvCreateTicket(t, e, key, tok, map[string]any{"subject": "Hi", "description": "Help"})
	path := rvWeb + "/tickets/" + id + "/messages/"
	e.Advance(10 * time.Minute) // within the token's 15 minutes
	var tk rvTicket
	e.Do(testenv.Req{Method: "POST", Path: path, Key: key, Token: tok, Body: map[string]any{"message": "Any news?", "images": []string{"https://i.example/x.png"}}}).Expect(t, 200, "").Decode(t, &tk)
	if len(tk.Messages) != 2 || tk.Messages[1].Sender != "CUSTOMER" || tk.Messages[1].ID != 2 || tk.Messages[1].CreatedAt != "2026-11-21T10:10:00Z" {
		t.Fatalf("got messages %+v", tk.Messages)
	}
	if tk.LastActivityAt != "2026-11-21T10:10:00Z" || tk.UpdatedAt != "2026-11-21T10:10:00Z" || tk.CreatedAt != "2026-11-21T10:00:00Z" {
		t.Fatalf("got times created %s updated %s activity %s", tk.CreatedAt, tk.UpdatedAt, tk.LastActivityAt)
	}
	for _, tc := range []struct {
		name, token, path string
		body              any
		status            int
		code              string
	}{
		{"ErrEmpty", tok, path, map[string]any{"message": " "}, 400, "validation_failed"},
		{"ErrLong", tok, path, map[string]any{"message": strings.Repeat("m", 5001)}, 400, "validation_failed"},
		{"ErrOtherShopper", tok2, path, map[string]any{"message": "hi"}, 404, "not_found"},
		{"ErrNotUUID", tok, rvWeb + "/tickets/abc/messages/", map[string]any{"message": "hi"}, 404, "not_found"},
		{"ErrNoToken", "", path, map[string]any{"message": "hi"}, 401, "unauthorized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: tc.path, Key: key, Token: tc.token, Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}
	t.Run("ResolvedReopens", func(t *testing.T) {
		e.Do(testenv.Req{Method: "PATCH", Path: testenv.Path("%s/%d/tickets/%s/", rvAdmin, sid, id), Token: e.OwnerToken, Body: map[string]any{"status": "RESOLVED"}}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "POST", Path: path, Key: key, Token: tok, Body: map[string]any{"message": "Still broken"}}).Expect(t, 200, "").Decode(t, &tk)
		if tk.Status != "OPEN" {
			t.Fatalf("got status %s, want OPEN after a reply to a RESOLVED ticket", tk.Status)
		}
	})
	t.Run("ErrClosed", func(t *testing.T) {
		e.Do(testenv.Req{Method: "PATCH", Path: testenv.Path("%s/%d/tickets/%s/", rvAdmin, sid, id), Token: e.OwnerToken, Body: map[string]any{"status": "CLOSED"}}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "POST", Path: path, Key: key, Token: tok, Body: map[string]any{"message": "Hello?"}}).Expect(t, 409, "conflict")
	})
}

func TestTicketNumbersConcurrent(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	const n = 16
	nums := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		_, tok := e.Shopper(sid, fmt.Sprintf("s%d@example.com", i))
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var id string
			r := e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/tickets/", Key: key, Token: tok, Body: map[string]any{"subject": "s", "description": "d"}})
			if r.Status != 200 {
				t.Errorf("got %d: %s", r.Status, r.Raw)
				return
			}
			r.Decode(t, &id)
			var tk rvTicket
			e.Do(testenv.Req{Method: "GET", Path: rvWeb + "/tickets/" + id + "/", Key: key, Token: tok}).Decode(t, &tk)
			nums[i] = tk.TicketNumber
		}(i)
	}
	wg.Wait()
	sort.Strings(nums)
	for i, got := range nums {
		if want := fmt.Sprintf("TKT-%06d", i+1); got != want {
			t.Fatalf("got numbers %v, want TKT-000001..TKT-%06d each once", nums, n)
		}
	}
	// sequences are per store
	_, tokB := e.Shopper(sidB, "b@example.com")
	id := rvCreateTicket(t, e, keyB, tokB, map[string]any{"subject": "s", "description": "d"})
	if tk := rvGetTicket(t, e, keyB, tokB, id); tk.TicketNumber != "TKT-000001" {
		t.Fatalf("store B got %s, want TKT-000001", tk.TicketNumber)
	}
}

// A ticket is one record rewritten on every reply: its size is capped, so no
// shopper can make every write of the database slow.
func TestTicketSizeCapped(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, tok := e.Shopper(sid, "ada@example.com")
	var id string
	e.Do(testenv.Req{Method: "POST", Path: "/api/v1/business/website/tickets/", Key: key, Token: tok,
		Body: map[string]any{"subject": "Big", "description": "start"}}).Expect(t, 200, "").Decode(t, &id)
	msg := strings.Repeat("x", app.MaxTicketMessage)
	path := "/api/v1/business/website/tickets/" + id + "/messages/"
	n := 0
	for ; n < 100; n++ {
		r := e.Do(testenv.Req{Method: "POST", Path: path, Key: key, Token: tok, Body: map[string]any{"message": msg}})
		if r.Status == 409 {
			break
		}
		r.Expect(t, 200, "")
	}
	if want := app.MaxTicketBytes / app.MaxTicketMessage; n < want-2 || n > want {
		t.Fatalf("accepted %d replies of %d bytes, want about %d before 409", n, len(msg), want)
	}
}
