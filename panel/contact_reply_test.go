package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

func TestContactReply(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	m, err := e.Svc.Contact.Submit(sid, app.ContactInput{Name: "Ann", Email: "ann@example.com", Subject: "Opening hours?", Message: "Are you open\non Sunday?"})
	if err != nil {
		t.Fatal(err)
	}
	noSubject, _ := e.Svc.Contact.Submit(sid, app.ContactInput{Name: "Bob", Email: "bob@example.com", Message: "Hello"})
	path := func(sid, id uint64) string {
		return fmt.Sprintf("/api/v1/admin/stores/%d/contact-messages/%d/reply/", sid, id)
	}
	outboxBefore := len(e.Outbox(sid))

	var got struct {
		IsRead  bool `json:"is_read"`
		Replies []struct {
			By, Message string
			MailID      uint64 `json:"mail_id"`
		} `json:"replies"`
	}
	e.Do(testenv.Req{Method: "POST", Path: path(sid, m.ID), Token: e.OwnerToken, Body: map[string]any{"message": "Yes, 10 to 4."}}).Expect(t, 201, "").Decode(t, &got)
	if !got.IsRead || len(got.Replies) != 1 || got.Replies[0].By != "owner@example.com" || got.Replies[0].MailID == 0 {
		t.Fatalf("got %+v", got)
	}
	mails := e.Outbox(sid)
	if len(mails) != outboxBefore+1 {
		t.Fatalf("outbox: %d mails, want %d", len(mails), outboxBefore+1)
	}
	var mail *app.Mail
	for _, x := range mails {
		if x.ID == got.Replies[0].MailID {
			mail = x
		}
	}
	if mail == nil || mail.To != "ann@example.com" || mail.Subject != "[Shop A] Re: Opening hours?" || mail.Kind != "contact_reply" ||
		!strings.Contains(mail.Text, "Yes, 10 to 4.") || !strings.Contains(mail.Text, "> Are you open\n> on Sunday?") {
		t.Fatalf("mail: %+v", mail)
	}
	// A second answer threads under the same subject.
	e.Do(testenv.Req{Method: "POST", Path: path(sid, m.ID), Token: e.OwnerToken, Body: map[string]any{"message": "And on holidays too."}}).Expect(t, 201, "").Decode(t, &got)
	if len(got.Replies) != 2 {
		t.Fatalf("replies: %+v", got.Replies)
	}
	e.Do(testenv.Req{Method: "POST", Path: path(sid, noSubject.ID), Token: e.OwnerToken, Body: map[string]any{"message": "Hi Bob"}}).Expect(t, 201, "")
	if last := e.Outbox(sid)[0]; last.Subject != "[Shop A] Re: your message of 21 November 2026" {
		t.Fatalf("subject without one: %q", last.Subject)
	}
	n := len(e.Outbox(sid))
	staffB := e.Staff(sidB, "staff-b@example.com")
	for _, tc := range []struct {
		name, token string
		path        string
		body        any
		status      int
		code        string
	}{
		{"ErrNoCredentials", "", path(sid, m.ID), map[string]any{"message": "x"}, 401, "unauthorized"},
		{"ErrOtherStore", staffB, path(sid, m.ID), map[string]any{"message": "x"}, 404, "not_found"},
		{"ErrOtherStoresMessage", e.OwnerToken, path(sidB, m.ID), map[string]any{"message": "x"}, 404, "not_found"},
		{"ErrUnknown", e.OwnerToken, path(sid, 999), map[string]any{"message": "x"}, 404, "not_found"},
		{"ErrEmpty", e.OwnerToken, path(sid, m.ID), map[string]any{"message": "  "}, 400, "validation_failed"},
		{"ErrTooLong", e.OwnerToken, path(sid, m.ID), map[string]any{"message": strings.Repeat("x", 10001)}, 400, "validation_failed"},
		{"ErrBadJSON", e.OwnerToken, path(sid, m.ID), "{", 400, "validation_failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: tc.path, Token: tc.token, Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}
	if len(e.Outbox(sid)) != n {
		t.Fatal("a refused reply wrote a mail")
	}

	// The panel: the reply form under the message, then the answer shown.
	b := owner(t, e)
	page := fmt.Sprintf("/admin/stores/%d/messages/", sid)
	b.get(page).expect(t, 200, fmt.Sprintf(`action="%s%d/reply/"`, page, m.ID), fmt.Sprintf(`<label for="reply-%d">`, m.ID), "Answered by owner@example.com")
	b.submit(page, fmt.Sprintf("%s%d/reply/", page, noSubject.ID), url.Values{"message": {"Thanks <b>Bob</b>"}}).redirectsTo(t, page)
	b.get(page).expect(t, 200, "Reply to bob@example.com queued in the outbox", "Thanks &lt;b&gt;Bob&lt;/b&gt;")
	if len(e.Outbox(sid)) != n+1 {
		t.Fatal("the panel's reply wrote no mail")
	}
	b.submit(page, fmt.Sprintf("%s%d/reply/", page, noSubject.ID), url.Values{"message": {""}}).redirectsTo(t, page)
	b.get(page).expect(t, 200, "the reply was not sent")
	b.do("POST", fmt.Sprintf("%s%d/reply/", page, m.ID), url.Values{"message": {"x"}}).expect(t, 403)
	b.submit(page, fmt.Sprintf("%s%d/reply/", page, 999), url.Values{"message": {"x"}}).expect(t, 404)
	if len(e.Outbox(sid)) != n+1 {
		t.Fatal("a refused panel reply wrote a mail")
	}
}
