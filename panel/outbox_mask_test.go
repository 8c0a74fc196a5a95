package panel_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestOutboxMasksCodesAndIsAudited: once SMTP is configured, the outbox view
// (API and panel) masks the codes of account mails; every read of the outbox
// is in the audit log (issue 27.7).
func TestOutboxMasksCodesAndIsAudited(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mailer app.Mailer
		masked bool
	}{{"NoSMTP", nil, false}, {"SMTP", nopMailer{}, true}} {
		t.Run(tc.name, func(t *testing.T) {
			e := testenv.NewWith(t, testenv.Options{Mailer: tc.mailer})
			sid, _ := e.Store("Shop A")
			err := e.Svc.DB.Update(func(tx app.Tx) error {
				return app.QueueKind(tx, sid, app.MailVerifyCode, "ann@example.com", app.MailData{Code: "424242"})
			})
			if err != nil {
				t.Fatal(err)
			}
			r := e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/stores/%d/outbox/", api, sid), Token: e.OwnerToken}).Expect(t, 200, "")
			page := owner(t, e).get(fmt.Sprintf("/admin/stores/%d/outbox/", sid)).expect(t, 200, "ann@example.com")
			for where, body := range map[string]string{"api": string(r.Raw), "panel": page.Body} {
				if got := strings.Contains(body, "424242"); got == tc.masked {
					t.Errorf("%s: code shown %v, want %v", where, got, !tc.masked)
				}
				if tc.masked && !strings.Contains(body, app.MaskedCode) {
					t.Errorf("%s: no masked code", where)
				}
			}
			var pg auditPage
			e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/audit-log/?action=outbox.read", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &pg)
			if len(pg.Items) != 2 || pg.Items[0].Via != "panel" || pg.Items[1].Via != "api" || pg.Items[0].AdminEmail != "owner@example.com" {
				t.Fatalf("got audit entries %+v, want the api and the panel read", pg.Items)
			}
		})
	}
}
