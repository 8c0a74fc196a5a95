package e2e

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"
	"time"

	"storefront/testenv"
)

// TestKill9LosesNoMailOrEvent: a change is acknowledged while the SMTP
// server and the webhook receiver stall; the process is killed with -9
// before either delivery finishes. After a restart with both back, the
// owner's mail and the signed event arrive.
func TestKill9LosesNoMailOrEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	bin := binary(t)
	dir := t.TempDir()
	smtp := testenv.NewSMTPServer(t)
	smtp.SetHang(true)
	hooks := testenv.NewHookReceiver(t)
	hooks.SetDelay(time.Minute)
	env := []string{
		"STOREFRONT_MAIL__SMTP__HOST=127.0.0.1",
		"STOREFRONT_MAIL__SMTP__PORT=" + strconv.Itoa(smtp.Port()),
		"STOREFRONT_MAIL__SMTP__FROM=shop@e2e.example",
		"STOREFRONT_MAIL__SMTP__TLS=none",
		"STOREFRONT_WEBHOOKS__ALLOW_PRIVATE_TARGETS=true",
	}
	s := start(t, bin, dir, env...)
	var login struct {
		AccessToken string `json:"access_token"`
	}
	s.call("POST", "/api/v1/admin/auth/login/", "", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, 200, &login)
	tok := login.AccessToken
	var st struct {
		ID     uint64 `json:"id"`
		APIKey string `json:"api_key"`
	}
	s.call("POST", "/api/v1/admin/stores/", "", tok, map[string]string{"name": "Talkative", "subdomain": "talkative", "currency": "USD"}, 201, &st)
	s.call("PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/", st.ID), "", tok, map[string]any{"notification_emails": []string{"owner@e2e.example"}}, 200, nil)
	var ep struct {
		Secret string `json:"secret"`
	}
	s.call("POST", fmt.Sprintf("/api/v1/admin/stores/%d/webhooks/", st.ID), "", tok, map[string]any{"url": hooks.URL, "events": []string{"contact.received"}}, 201, &ep)
	hooks.Secret = ep.Secret
	s.call("POST", "/api/v1/business/website/contact/", st.APIKey, "", map[string]any{"name": "Bo", "email": "bo@example.com", "message": "Still there?"}, 200, nil)
	s.kill9() // the mail and the event are committed, their deliveries stalled

	smtp.SetHang(false)
	hooks.SetDelay(0)
	seenBefore := len(hooks.Received()) // a stalled request may be logged as the old process died
	start(t, bin, dir, env...)
	msgs := smtp.WaitFor(t, 1, 30*time.Second)
	if pm := msgs[0].Parse(t); msgs[0].To[0] != "owner@e2e.example" || pm.Text == "" || pm.HTML == "" {
		t.Fatalf("mail after restart: %+v", pm)
	}
	got := hooks.WaitFor(t, seenBefore+1, 30*time.Second)
	last := got[len(got)-1]
	if !last.SignatureOK || last.Type != "contact.received" || last.Status != 200 {
		t.Fatalf("event after restart: %+v", last)
	}
}

// TestClusterSendsOnce runs two binaries on one PostgreSQL database: changes
// made on either are mailed and delivered once (only the leading process
// runs the workers), and when the leader is killed with -9 the other takes
// the lead and sends what is queued.
func TestClusterSendsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	smtp := testenv.NewSMTPServer(t)
	hooks := testenv.NewHookReceiver(t)
	ss := startCluster(t, 2,
		"STOREFRONT_MAIL__SMTP__HOST=127.0.0.1",
		"STOREFRONT_MAIL__SMTP__PORT="+strconv.Itoa(smtp.Port()),
		"STOREFRONT_MAIL__SMTP__FROM=shop@e2e.example",
		"STOREFRONT_MAIL__SMTP__TLS=none",
		"STOREFRONT_WEBHOOKS__ALLOW_PRIVATE_TARGETS=true",
		"STOREFRONT_RATELIMIT__CONTACT_PER_MINUTE=1000")
	var login struct {
		AccessToken string `json:"access_token"`
	}
	ss[0].call("POST", "/api/v1/admin/auth/login/", "", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, 200, &login)
	tok := login.AccessToken
	var st struct {
		ID     uint64 `json:"id"`
		APIKey string `json:"api_key"`
	}
	ss[1].call("POST", "/api/v1/admin/stores/", "", tok, map[string]string{"name": "Talkative", "subdomain": "talkative", "currency": "USD"}, 201, &st)
	ss[0].call("PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/", st.ID), "", tok, map[string]any{"notification_emails": []string{"owner@e2e.example"}}, 200, nil)
	var ep struct {
		Secret string `json:"secret"`
	}
	ss[1].call("POST", fmt.Sprintf("/api/v1/admin/stores/%d/webhooks/", st.ID), "", tok, map[string]any{"url": hooks.URL, "events": []string{"contact.received"}}, 201, &ep)
	hooks.Secret = ep.Secret

	contact := func(s *server, i int) {
		s.call("POST", "/api/v1/business/website/contact/", st.APIKey, "", map[string]any{"name": "Bo", "email": "bo@example.com", "message": fmt.Sprintf("Message %d", i)}, 200, nil)
	}
	const n = 10
	for i := range n {
		contact(ss[i%2], i)
	}
	smtp.WaitFor(t, n, 30*time.Second)
	hooks.WaitFor(t, n, 30*time.Second)
	// Every mail is marked sent: the attempts are over; none was doubled.
	eventually(t, 10*time.Second, "every mail marked sent", func() bool {
		status, raw := ss[0].do("GET", fmt.Sprintf("/api/v1/admin/stores/%d/outbox/?limit=100", st.ID), "", tok, nil)
		return status == 200 && bytes.Count(raw, []byte(`"status":"sent"`)) == n
	})
	if got := len(smtp.Messages()); got != n {
		t.Fatalf("got %d mails for %d changes", got, n)
	}
	ids := map[string]int{}
	for _, h := range hooks.Received() {
		if !h.SignatureOK {
			t.Fatalf("bad signature: %+v", h)
		}
		ids[h.ID]++
	}
	if len(ids) != n || len(hooks.Received()) != n {
		t.Fatalf("got %d deliveries of %d events for %d changes", len(hooks.Received()), len(ids), n)
	}

	// Kill the leader (the process running the cluster's jobs); the other
	// takes the lead and sends a change made on it.
	leader, other := ss[0], ss[1]
	if ss[1].ran("orders.expire") > ss[0].ran("orders.expire") {
		leader, other = ss[1], ss[0]
	}
	leader.kill9()
	contact(other, n)
	smtp.WaitFor(t, n+1, 30*time.Second)
	hooks.WaitFor(t, n+1, 30*time.Second)
}
