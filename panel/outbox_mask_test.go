package panel_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// sentMail records what a transport sent; fail makes it refuse for good.
type sentMail struct {
	mu   sync.Mutex
	sent []app.Mail
	fail bool
}

func (s *sentMail) Send(m app.Mail) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return app.PermanentError(errors.New("550 no such mailbox"))
	}
	s.sent = append(s.sent, m)
	return nil
}

// TestOutboxMasksCodesAndIsAudited (issue 38 point 4): the outbox view (API
// and panel) masks the codes of account mails for every admin, with or
// without SMTP, queued, sent or failed; the shopper's mail carries the
// code, and a retry's answer is masked while the send renders the code
// again. Every read of the outbox is in the audit log (issue 27.7). Before:
// without SMTP every admin read the codes, and a retry's answer showed them.
func TestOutboxMasksCodesAndIsAudited(t *testing.T) {
	for _, tc := range []struct {
		name string
		smtp bool
	}{{"NoSMTP", false}, {"SMTP", true}} {
		t.Run(tc.name, func(t *testing.T) {
			mailer := &sentMail{fail: true}
			opt := testenv.Options{}
			if tc.smtp {
				opt.Mailer = mailer
			}
			e := testenv.NewWith(t, opt)
			sid, _ := e.Store("Shop A")
			staff := e.Staff(sid, "staff@example.com")
			err := e.Svc.DB.Update(func(tx app.Tx) error {
				if err := app.QueueKind(tx, sid, app.MailVerifyCode, "ann@example.com", app.MailData{Code: "424242"}); err != nil {
					return err
				}
				return app.QueueKind(tx, sid, app.MailPasswordReset, "bo@example.com", app.MailData{Code: "515151"})
			})
			if err != nil {
				t.Fatal(err)
			}
			w := app.NewOutboxWorker(e.Svc)
			if tc.smtp { // the first attempt fails for good: a failed mail keeps its data
				if _, err := w.RunOnce(); err != nil {
					t.Fatal(err)
				}
			}
			shown := func(when string) {
				t.Helper()
				path := fmt.Sprintf("%s/stores/%d/outbox/", api, sid)
				bodies := map[string]string{
					"owner api":   string(e.Do(testenv.Req{Method: "GET", Path: path, Token: e.OwnerToken}).Expect(t, 200, "").Raw),
					"staff api":   string(e.Do(testenv.Req{Method: "GET", Path: path, Token: staff}).Expect(t, 200, "").Raw),
					"owner panel": owner(t, e).get(fmt.Sprintf("/admin/stores/%d/outbox/", sid)).expect(t, 200, "ann@example.com").Body,
				}
				for where, body := range bodies {
					if strings.Contains(body, "424242") || strings.Contains(body, "515151") {
						t.Errorf("%s, %s: a code is shown", when, where)
					}
					if !strings.Contains(body, app.MaskedCode) {
						t.Errorf("%s, %s: no masked code", when, where)
					}
				}
			}
			shown("queued or failed")
			if !tc.smtp {
				return
			}
			mails := e.Outbox(sid)
			r := e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%s/stores/%d/outbox/%d/retry/", api, sid, mails[0].ID), Token: staff}).Expect(t, 200, "")
			if strings.Contains(string(r.Raw), "515151") || strings.Contains(string(r.Raw), "424242") || !strings.Contains(string(r.Raw), app.MaskedCode) {
				t.Errorf("retry answer: %s, want the code masked", r.Raw)
			}
			e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%s/stores/%d/outbox/%d/retry/", api, sid, mails[1].ID), Token: staff}).Expect(t, 200, "")
			mailer.mu.Lock()
			mailer.fail = false
			mailer.mu.Unlock()
			if _, err := w.RunOnce(); err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, m := range mailer.sent {
				got[m.To] = strings.Contains(m.Text, "424242") || strings.Contains(m.Text, "515151")
			}
			if !got["ann@example.com"] || !got["bo@example.com"] {
				t.Errorf("the shoppers' mails: %v, want each with its code", got)
			}
			for _, m := range e.Outbox(sid) { // as stored once sent
				if m.State() != app.MailSent || strings.Contains(m.Text+m.HTML+m.Subject, "424242") || strings.Contains(m.Text+m.HTML+m.Subject, "515151") {
					t.Errorf("stored mail %d: %s %q, want sent with its code masked", m.ID, m.State(), m.Text)
				}
			}
			shown("sent")
			var pg auditPage
			e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/audit-log/?action=outbox.read", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &pg)
			if len(pg.Items) != 6 || pg.Items[0].Via != "panel" || pg.Items[1].Via != "api" {
				t.Fatalf("got audit entries %+v, want every api and panel read", pg.Items)
			}
		})
	}
}
