package web_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/app/mail"
	"storefront/testenv"
)

// notifyEnv is a store that talks: an owner address, branding, a webhook
// endpoint subscribed to every event at a local receiver, and workers that
// tests run by hand (no sleeping: RunOnce, then look).
type notifyEnv struct {
	*testenv.Env
	sid     uint64
	key     string
	smtp    *testenv.SMTPServer
	hooks   *testenv.HookReceiver
	outbox  *app.OutboxWorker
	webhook *app.WebhookWorker
	epID    uint64
}

func newNotifyEnv(t *testing.T) *notifyEnv {
	e := testenv.New(t)
	n := &notifyEnv{Env: e, smtp: testenv.NewSMTPServer(t), hooks: testenv.NewHookReceiver(t)}
	n.sid, n.key = e.Store("Talk Shop")
	admin := fmt.Sprintf("/api/v1/admin/stores/%d/", n.sid)
	e.Do(testenv.Req{Method: "PATCH", Path: admin, Token: e.OwnerToken, Body: map[string]any{"notification_emails": []string{"owner@talk.example"}}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "PATCH", Path: admin + "config/", Token: e.OwnerToken, Body: map[string]any{
		"theme_color": "#aa3300", "store": map[string]string{"logo": "https://cdn.talk.example/logo.png", "url": "https://talk.example"}}}).Expect(t, 200, "")
	var ep struct {
		ID     uint64 `json:"id"`
		Secret string `json:"secret"`
	}
	e.Do(testenv.Req{Method: "POST", Path: admin + "webhooks/", Token: e.OwnerToken, Body: map[string]any{"url": n.hooks.URL, "events": app.EventTypes}}).Expect(t, 201, "").Decode(t, &ep)
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(ep.Secret, "whsec_"))
	if !strings.HasPrefix(ep.Secret, "whsec_") || err != nil || len(key) < 24 || len(key) > 64 {
		t.Fatalf("secret %q: want whsec_ + base64 of 24-64 bytes", ep.Secret)
	}
	n.epID, n.hooks.Secret = ep.ID, ep.Secret
	n.outbox = app.NewOutboxWorker(e.Svc)
	port := n.smtp.Port()
	n.outbox.Transport = mail.NewSMTP(mail.Config{Host: "127.0.0.1", Port: port, From: "Talk Shop <shop@talk.example>", TLS: mail.TLSNone, Timeout: 5 * time.Second})
	n.webhook = app.NewWebhookWorker(e.Svc, e.Svc.Webhooks.Sender)
	n.webhook.Timeout = 2 * time.Second
	return n
}

func (n *notifyEnv) deliver(t *testing.T) {
	t.Helper()
	if _, err := n.outbox.RunOnce(); err != nil {
		t.Fatal(err)
	}
	if _, err := n.webhook.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestShopTalks walks an order's life through HTTP and checks that every
// event reaches the webhook receiver, signed, and every mail the SMTP
// receiver, once, to the right address, with both parts and the branding.
func TestShopTalks(t *testing.T) {
	t.Parallel()
	n := newNotifyEnv(t)
	e, t0 := n.Env, time.Now()
	cid, tok := e.Shopper(n.sid, "shopper@example.com")
	_ = cid
	p := e.Product(n.sid, 0, "Blue Mug", 1250, 6)
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", n.sid, p.ID), Token: e.OwnerToken,
		Body: map[string]any{"low_stock_threshold": 5}}).Expect(t, 200, "")

	// 1. a shopper orders 2 (stock 6 -> 4: under 5) and pays
	body := order(2, p)
	body["email"] = "shopper@example.com"
	in := initiate(t, e, n.key, tok, body)
	if v := verify(t, e, n.key, in.PaymentSessionID, sandbox(t, e, in, "success")); !v.Success {
		t.Fatalf("verify: %+v", v)
	}
	// 2. the store ships and delivers it; the shopper asks for a refund; the store approves
	adm := fmt.Sprintf("/api/v1/admin/stores/%d", n.sid)
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%s/orders/%d/ship/", adm, in.OrderID), Token: e.OwnerToken, Body: map[string]string{"carrier": "UPS", "tracking_number": "1Z42"}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s/orders/%d/", adm, in.OrderID), Token: e.OwnerToken, Body: map[string]string{"status": "DELIVERED"}}).Expect(t, 200, "")
	var rq struct {
		ID uint64 `json:"id"`
	}
	e.Do(testenv.Req{Method: "POST", Path: rqPathRefund, Key: n.key, Token: tok, Body: map[string]any{"order_id": in.OrderID, "reason": "broken"}}).Expect(t, 200, "").Decode(t, &rq)
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%s/refund-requests/%d/approve/", adm, rq.ID), Token: e.OwnerToken, Body: map[string]string{}}).Expect(t, 200, "")
	// 3. a second order is cancelled on request
	in2 := initiate(t, e, n.key, tok, order(1, p))
	e.Do(testenv.Req{Method: "POST", Path: rqPathCancel, Key: n.key, Token: tok, Body: map[string]any{"order_id": in2.OrderID, "reason": "changed my mind"}}).Expect(t, 200, "").Decode(t, &rq)
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%s/cancellation-requests/%d/approve/", adm, rq.ID), Token: e.OwnerToken, Body: map[string]string{}}).Expect(t, 200, "")
	// 5. a review, moderated; a ticket, answered both ways; a contact message
	var rid string
	e.Do(testenv.Req{Method: "POST", Path: api + "/reviews/", Key: n.key, Token: tok, Body: map[string]any{"product_id": p.ID, "rating": 5, "content": "Great"}}).Expect(t, 200, "").Decode(t, &rid)
	e.Do(testenv.Req{Method: "POST", Path: adm + "/reviews/" + rid + "/approve/", Token: e.OwnerToken}).Expect(t, 200, "")
	var tid string
	e.Do(testenv.Req{Method: "POST", Path: api + "/tickets/", Key: n.key, Token: tok, Body: map[string]any{"subject": "Where is it?", "description": "Parcel?"}}).Expect(t, 200, "").Decode(t, &tid)
	e.Do(testenv.Req{Method: "POST", Path: adm + "/tickets/" + tid + "/messages/", Token: e.OwnerToken, Body: map[string]any{"message": "On its way."}}).Expect(t, 201, "")
	e.Do(testenv.Req{Method: "POST", Path: api + "/tickets/" + tid + "/messages/", Key: n.key, Token: tok, Body: map[string]any{"message": "Thanks!"}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: api + "/contact/", Key: n.key, Body: map[string]any{"name": "Bo", "email": "bo@example.com", "message": "Bulk?"}}).Expect(t, 200, "")

	// 6. a third, a guest's, expires unpaid: cancelled by the store's clock
	guest := order(1, p)
	guest["email"] = "guest@example.com"
	initiate(t, e, n.key, "", guest)
	e.Advance(time.Hour)
	if _, err := e.Svc.Orders.ExpirePending(); err != nil {
		t.Fatal(err)
	}
	n.deliver(t)
	n.deliver(t) // a second run finds nothing left: each mail and event once

	t.Run("Mails", func(t *testing.T) {
		got := map[string]int{}
		for _, m := range n.smtp.Messages() {
			pm := m.Parse(t)
			if len(m.To) != 1 || pm.To != m.To[0] {
				t.Fatalf("envelope %v, header To %q", m.To, pm.To)
			}
			key := m.To[0] + " " + strings.TrimPrefix(strings.SplitN(pm.Subject, "] ", 2)[1], "[TEST] ") // sandbox orders are test orders
			got[key]++
			if !strings.HasPrefix(pm.Subject, "[Talk Shop] ") || pm.Text == "" || !strings.Contains(pm.Text, "Talk Shop") {
				t.Fatalf("%s: subject %q, text %q", key, pm.Subject, pm.Text)
			}
			for _, want := range []string{"https://cdn.talk.example/logo.png", "#aa3300", "Talk Shop", "<table"} {
				if !strings.Contains(pm.HTML, want) {
					t.Fatalf("%s: HTML lacks %q: %s", key, want, pm.HTML)
				}
			}
			if strings.Contains(strings.ToLower(pm.HTML), "<script") {
				t.Fatalf("%s: HTML has a script", key)
			}
		}
		oid, oid2 := in.OrderID, in2.OrderID
		want := map[string]int{
			fmt.Sprintf("shopper@example.com Order #%d confirmed", oid):                               1,
			fmt.Sprintf("owner@talk.example New paid order #%d: 25.00 USD", oid):                      1,
			fmt.Sprintf("shopper@example.com Order #%d was delivered", oid):                           1,
			fmt.Sprintf("shopper@example.com Your order #%d is on its way", oid):                      1,
			fmt.Sprintf("owner@talk.example New refund request for order #%d", oid):                   1,
			fmt.Sprintf("shopper@example.com Your refund request for order #%d was approved", oid):    1,
			fmt.Sprintf("owner@talk.example New cancellation request for order #%d", oid2):            1,
			fmt.Sprintf("ada@example.com Your cancellation request for order #%d was approved", oid2): 1,
			fmt.Sprintf("guest@example.com Order #%d was cancelled", oid2+1):                          1,
			"owner@talk.example Low stock: Blue Mug (4 left)":                                         1,
			"owner@talk.example A shopper on ticket TKT-000001: Where is it?":                         0,
			"shopper@example.com Reply to your ticket TKT-000001":                                     1,
			"owner@talk.example Contact form: a message from Bo":                                      1,
		}
		for k, w := range want {
			if w == 0 {
				continue
			}
			if got[k] != w {
				t.Errorf("mail %q: got %d, want %d", k, got[k], w)
			}
		}
		owner := 0
		for k, c := range got {
			if strings.HasPrefix(k, "owner@talk.example Test Shopper <shopper@example.com> on ticket TKT-000001") {
				owner += c
			}
		}
		if owner != 2 { // the new ticket and the shopper's reply
			t.Errorf("owner ticket mails: got %d, want 2; all: %v", owner, got)
		}
		if t.Failed() {
			t.Logf("all mails: %v", got)
		}
		for _, m := range e.Outbox(n.sid) {
			if m.State() != app.MailSent || m.Attempts != 1 {
				t.Errorf("mail %d %q: status %s after %d attempts", m.ID, m.Subject, m.State(), m.Attempts)
			}
		}
	})
	t.Run("ConfirmationContent", func(t *testing.T) {
		for _, m := range n.smtp.Messages() {
			pm := m.Parse(t)
			if !strings.Contains(pm.Subject, "confirmed") {
				continue
			}
			for _, want := range []string{"Blue Mug", "25.00", "1 Main St", fmt.Sprintf("#%d", in.OrderID), "https://talk.example"} {
				if !strings.Contains(pm.Text, want) || !strings.Contains(pm.HTML, want) {
					t.Fatalf("confirmation lacks %q:\n%s\n%s", want, pm.Text, pm.HTML)
				}
			}
			return
		}
		t.Fatal("no confirmation mail")
	})
	t.Run("Webhooks", func(t *testing.T) {
		seen := map[string]int{}
		ids := map[string]bool{}
		for _, h := range n.hooks.Received() {
			if !h.SignatureOK {
				t.Fatalf("bad signature on %s %s", h.Type, h.ID)
			}
			if ids[h.ID] {
				t.Fatalf("event %s delivered twice", h.ID)
			}
			ids[h.ID] = true
			if d := time.Duration(h.Timestamp-e.Now().Unix()) * time.Second; d > time.Minute || d < -time.Minute {
				t.Fatalf("webhook-timestamp %d far from the clock %v", h.Timestamp, e.Now())
			}
			if h.Body["data"] == nil || h.Body["id"] != h.ID {
				t.Fatalf("payload %v", h.Body)
			}
			seen[h.Type]++
		}
		for _, typ := range app.EventTypes {
			if seen[typ] == 0 {
				t.Errorf("no %s event; got %v", typ, seen)
			}
		}
		if seen[app.EvOrderCreated] != 3 || seen[app.EvOrderPaid] != 1 || seen[app.EvOrderCancelled] != 2 || seen[app.EvProductLowStock] != 1 {
			t.Errorf("event counts %v", seen)
		}
		// the payload is the object as the admin API shows it
		for _, h := range n.hooks.Received() {
			if h.Type == app.EvOrderPaid {
				o := h.Body["data"].(map[string]any)["order"].(map[string]any)
				if o["id"] != float64(in.OrderID) || o["total"] != "25.00" || o["status"] != "CONFIRMED" {
					t.Fatalf("order.paid payload %v", o)
				}
			}
		}
	})
	t.Run("DeliveryLog", func(t *testing.T) {
		var page struct {
			Items []struct {
				Status string `json:"status"`
				Log    []struct {
					StatusCode int    `json:"status_code"`
					Response   string `json:"response"`
				} `json:"log"`
			} `json:"items"`
		}
		e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/webhooks/%d/deliveries/?limit=100", adm, n.epID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &page)
		if len(page.Items) != len(n.hooks.Received()) {
			t.Fatalf("got %d deliveries, receiver saw %d", len(page.Items), len(n.hooks.Received()))
		}
		for _, d := range page.Items {
			if d.Status != "succeeded" || len(d.Log) != 1 || d.Log[0].StatusCode != 200 || !strings.Contains(d.Log[0].Response, "received") {
				t.Fatalf("delivery %+v", d)
			}
		}
	})
	_ = t0
}

// TestNotificationKindsOff: a kind turned off sends no owner mail; events
// still go out.
func TestNotificationKindsOff(t *testing.T) {
	t.Parallel()
	n := newNotifyEnv(t)
	e := n.Env
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/", n.sid), Token: e.OwnerToken,
		Body: map[string]any{"notifications": map[string]bool{"contact_received": false}}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: api + "/contact/", Key: n.key, Body: map[string]any{"name": "Bo", "email": "bo@example.com", "message": "Bulk?"}}).Expect(t, 200, "")
	n.deliver(t)
	if m := n.smtp.Messages(); len(m) != 0 {
		t.Fatalf("got %d mails, want none", len(m))
	}
	if h := n.hooks.Received(); len(h) != 1 || h[0].Type != "contact.received" {
		t.Fatalf("got hooks %v", h)
	}
}

// TestOutboxRetries: SMTP down, then answering 451, then back: the mail
// stays queued with its last error, retried on the backoff schedule by the
// clock, and sent once.
func TestOutboxRetries(t *testing.T) {
	t.Parallel()
	n := newNotifyEnv(t)
	e := n.Env
	n.smtp.Stop()
	e.Do(testenv.Req{Method: "POST", Path: api + "/contact/", Key: n.key, Body: map[string]any{"name": "Bo", "email": "bo@example.com", "message": "Hi"}}).Expect(t, 200, "")
	n.outbox.RunOnce()
	outbox := func() map[string]any {
		var page struct {
			Items []map[string]any `json:"items"`
		}
		e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/outbox/", n.sid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &page)
		if len(page.Items) != 1 {
			t.Fatalf("outbox: %v", page.Items)
		}
		return page.Items[0]
	}
	m := outbox()
	if m["status"] != "queued" || m["attempts"] != 1.0 || !strings.Contains(m["last_error"].(string), "connect") || m["next_attempt_at"] != "2026-11-21T10:00:30Z" {
		t.Fatalf("after a refused connection: %v", m)
	}
	// not due yet: nothing happens
	if k, _ := n.outbox.RunOnce(); k != 0 {
		t.Fatalf("attempted %d mails before they were due", k)
	}
	n.smtp.Start(t)
	n.smtp.SetFail4xx(true)
	e.Advance(30 * time.Second)
	n.outbox.RunOnce()
	if m = outbox(); m["status"] != "queued" || m["attempts"] != 2.0 || !strings.Contains(m["last_error"].(string), "451") || m["next_attempt_at"] != "2026-11-21T10:01:30Z" {
		t.Fatalf("after a 451: %v", m)
	}
	n.smtp.SetFail4xx(false)
	e.Advance(time.Minute)
	n.outbox.RunOnce()
	if m = outbox(); m["status"] != "sent" || m["attempts"] != 3.0 || m["sent_at"] == nil {
		t.Fatalf("after SMTP came back: %v", m)
	}
	if got := len(n.smtp.Messages()); got != 1 {
		t.Fatalf("got %d messages, want 1", got)
	}
	t.Run("GivesUp", func(t *testing.T) {
		n.smtp.Stop()
		e.Do(testenv.Req{Method: "POST", Path: api + "/contact/", Key: n.key, Body: map[string]any{"name": "Cy", "email": "cy@example.com", "message": "Hi"}}).Expect(t, 200, "")
		for i := 0; i < 80; i++ { // 48h of hourly retries
			n.outbox.RunOnce()
			e.Advance(time.Hour)
		}
		n.outbox.RunOnce()
		e.OwnerToken = freshOwnerToken(t, e)
		mails := e.Outbox(n.sid)
		if mails[0].State() != app.MailFailed || !strings.Contains(mails[0].LastError, "gave up") {
			t.Fatalf("got %s %q", mails[0].State(), mails[0].LastError)
		}
		// retry by hand: queued again, sent when SMTP answers
		n.smtp.Start(t)
		r := e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/outbox/%d/retry/", n.sid, mails[0].ID), Token: e.OwnerToken}).Expect(t, 200, "")
		if !strings.Contains(string(r.Raw), `"status":"queued"`) {
			t.Fatalf("retry: %s", r.Raw)
		}
		n.outbox.RunOnce()
		if got := e.Outbox(n.sid)[0]; got.State() != app.MailSent {
			t.Fatalf("after retry: %s", got.State())
		}
		e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/outbox/%d/retry/", n.sid, mails[0].ID), Token: e.OwnerToken}).Expect(t, 409, "conflict")
		e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/outbox/999/retry/", n.sid), Token: e.OwnerToken}).Expect(t, 404, "not_found")
		e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/outbox/1/retry/", n.sid)}).Expect(t, 401, "unauthorized")
	})
}

// TestWebhookRetries: 500s and a timeout are retried on the schedule (by
// the clock), the log keeps each attempt, and an endpoint failing through
// the whole schedule is disabled with a mail to the owner.
func TestWebhookRetries(t *testing.T) {
	t.Parallel()
	n := newNotifyEnv(t)
	e := n.Env
	adm := fmt.Sprintf("/api/v1/admin/stores/%d/webhooks/%d/", n.sid, n.epID)
	n.hooks.Answer(500, 503)
	e.Do(testenv.Req{Method: "POST", Path: api + "/contact/", Key: n.key, Body: map[string]any{"name": "Bo", "email": "bo@example.com", "message": "Hi"}}).Expect(t, 200, "")
	n.webhook.RunOnce(context.Background())
	e.Advance(5 * time.Second)
	n.webhook.RunOnce(context.Background())
	// a timeout: the receiver answers after the worker's 2s
	n.hooks.SetDelay(3 * time.Second)
	e.Advance(5 * time.Minute)
	n.webhook.RunOnce(context.Background())
	n.hooks.SetDelay(0)
	e.Advance(30 * time.Minute)
	n.webhook.RunOnce(context.Background())
	got := n.hooks.WaitFor(t, 4, 10*time.Second)
	if got[0].ID != got[3].ID || got[0].Status != 500 || got[1].Status != 503 || got[3].Status != 200 || !got[3].SignatureOK {
		t.Fatalf("receiver saw %+v", got)
	}
	var page struct {
		Items []struct {
			Status   string `json:"status"`
			Attempts int    `json:"attempts"`
			Log      []struct {
				StatusCode int    `json:"status_code"`
				Error      string `json:"error"`
				LatencyMS  int64  `json:"latency_ms"`
			} `json:"log"`
		} `json:"items"`
	}
	e.Do(testenv.Req{Method: "GET", Path: adm + "deliveries/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &page)
	d := page.Items[0]
	if d.Status != "succeeded" || d.Attempts != 4 || d.Log[0].StatusCode != 500 || d.Log[2].StatusCode != 0 || d.Log[2].Error == "" || d.Log[2].LatencyMS < 1000 || d.Log[3].StatusCode != 200 {
		t.Fatalf("delivery %+v", d)
	}

	t.Run("DisabledAfterThreeDays", func(t *testing.T) {
		n.hooks.Answer(slices.Repeat([]int{500}, 20)...)
		e.Do(testenv.Req{Method: "POST", Path: api + "/contact/", Key: n.key, Body: map[string]any{"name": "Cy", "email": "cy@example.com", "message": "Hi"}}).Expect(t, 200, "")
		for _, wait := range append([]time.Duration{0}, app.WebhookSchedule...) {
			e.Advance(wait)
			n.webhook.RunOnce(context.Background())
		}
		e.OwnerToken = freshOwnerToken(t, e)
		var ep struct {
			Enabled        bool   `json:"enabled"`
			DisabledReason string `json:"disabled_reason"`
		}
		e.Do(testenv.Req{Method: "GET", Path: adm, Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &ep)
		if ep.Enabled || !strings.Contains(ep.DisabledReason, "automatically") {
			t.Fatalf("endpoint %+v, want disabled", ep)
		}
		found := false
		for _, m := range e.Outbox(n.sid) {
			found = found || (m.Kind == app.MailOwnerWebhookOff && m.To == "owner@talk.example")
		}
		if !found {
			t.Fatal("no mail to the owner about the disabled endpoint")
		}
		// manual redelivery after fixing and enabling
		e.Do(testenv.Req{Method: "PATCH", Path: adm, Token: e.OwnerToken, Body: map[string]any{"enabled": true}}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "GET", Path: adm + "deliveries/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &page)
		var ids struct {
			Items []struct {
				ID     uint64 `json:"id"`
				Status string `json:"status"`
			} `json:"items"`
		}
		e.Do(testenv.Req{Method: "GET", Path: adm + "deliveries/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &ids)
		if ids.Items[0].Status != "failed" {
			t.Fatalf("newest delivery %+v, want failed", ids.Items[0])
		}
		n.hooks.Answer() // 200 from now on
		before := len(n.hooks.Received())
		e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%sdeliveries/%d/redeliver/", adm, ids.Items[0].ID), Token: e.OwnerToken}).Expect(t, 200, "")
		n.webhook.RunOnce(context.Background())
		if got := n.hooks.Received(); len(got) != before+1 || got[len(got)-1].Status != 200 || got[len(got)-1].Type != "contact.received" {
			t.Fatalf("redelivery: %+v", got[before:])
		}
	})
}

func TestWebhookEndpointsAdmin(t *testing.T) {
	t.Parallel()
	n := newNotifyEnv(t)
	e := n.Env
	other, _ := e.Store("Other Shop")
	base := fmt.Sprintf("/api/v1/admin/stores/%d/webhooks/", n.sid)
	t.Run("ListHidesSecret", func(t *testing.T) {
		r := e.Do(testenv.Req{Method: "GET", Path: base, Token: e.OwnerToken}).Expect(t, 200, "")
		if strings.Contains(string(r.Raw), "whsec_") || !strings.Contains(string(r.Raw), n.hooks.URL) {
			t.Fatalf("list: %s", r.Raw)
		}
		r = e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s%d/", base, n.epID), Token: e.OwnerToken}).Expect(t, 200, "")
		if strings.Contains(string(r.Raw), "whsec_") {
			t.Fatalf("get shows the secret: %s", r.Raw)
		}
	})
	t.Run("Update", func(t *testing.T) {
		var ep struct {
			Events  []string `json:"events"`
			Enabled bool     `json:"enabled"`
		}
		e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s%d/", base, n.epID), Token: e.OwnerToken, Body: map[string]any{"events": []string{"order.paid"}, "enabled": false}}).Expect(t, 200, "").Decode(t, &ep)
		if len(ep.Events) != 1 || ep.Enabled {
			t.Fatalf("got %+v", ep)
		}
		// disabled: a change records no delivery for it
		e.Do(testenv.Req{Method: "POST", Path: api + "/contact/", Key: n.key, Body: map[string]any{"name": "Bo", "email": "bo@example.com", "message": "Hi"}}).Expect(t, 200, "")
		n.webhook.RunOnce(context.Background())
		if len(n.hooks.Received()) != 0 {
			t.Fatal("a disabled endpoint got a delivery")
		}
	})
	for _, tc := range []struct {
		name, method, path string
		body               any
		token              string
		status             int
		code               string
	}{
		{"ErrURLMissing", "POST", base, map[string]any{"events": []string{"order.paid"}}, e.OwnerToken, 400, "validation_failed"},
		{"ErrURLScheme", "POST", base, map[string]any{"url": "ftp://x.example/", "events": []string{"order.paid"}}, e.OwnerToken, 400, "validation_failed"},
		{"ErrEventUnknown", "POST", base, map[string]any{"url": "https://x.example/", "events": []string{"order.exploded"}}, e.OwnerToken, 400, "validation_failed"},
		{"ErrNoEvents", "POST", base, map[string]any{"url": "https://x.example/", "events": []string{}}, e.OwnerToken, 400, "validation_failed"},
		{"ErrMalformed", "POST", base, `{"url":`, e.OwnerToken, 400, "validation_failed"},
		{"ErrNoCredentials", "POST", base, map[string]any{"url": "https://x.example/", "events": []string{"order.paid"}}, "", 401, "unauthorized"},
		{"ErrWrongTenant", "GET", fmt.Sprintf("/api/v1/admin/stores/%d/webhooks/%d/", other, n.epID), nil, e.OwnerToken, 404, "not_found"},
		{"ErrStaffOtherStore", "GET", base, nil, e.Staff(other, "staff-o@example.com"), 404, "not_found"},
		{"ErrUnknown", "PATCH", base + "999/", map[string]any{"enabled": true}, e.OwnerToken, 404, "not_found"},
		{"ErrBadID", "GET", base + "abc/", nil, e.OwnerToken, 404, "not_found"},
		{"ErrRedeliverUnknown", "POST", fmt.Sprintf("%s%d/deliveries/999/redeliver/", base, n.epID), nil, e.OwnerToken, 404, "not_found"},
		{"ErrDeliveriesOtherStore", "GET", fmt.Sprintf("/api/v1/admin/stores/%d/webhooks/%d/deliveries/", other, n.epID), nil, e.OwnerToken, 404, "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: tc.method, Path: tc.path, Token: tc.token, Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}
	t.Run("Delete", func(t *testing.T) {
		e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s%d/", base, n.epID), Token: e.OwnerToken}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s%d/", base, n.epID), Token: e.OwnerToken}).Expect(t, 404, "not_found")
		e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s%d/", base, n.epID), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	})
}

// TestWebhookPrivateTargets: with webhooks.allow_private_targets off,
// loopback, private and link-local targets are refused at save time when
// literal and at dial time when a name resolves to one.
func TestWebhookPrivateTargets(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop")
	strict := webhookSender(false)
	e.Svc.Webhooks.Sender = strict
	base := fmt.Sprintf("/api/v1/admin/stores/%d/webhooks/", sid)
	for _, u := range []string{"http://127.0.0.1:8080/x", "http://10.0.0.5/x", "http://192.168.1.1/x", "http://169.254.169.254/latest", "http://[::1]/x", "http://localhost/x", "http://[fe80::1]/x", "http://0.0.0.0/x", "http://[::ffff:127.0.0.1]/x",
		// the rest of the IANA special-purpose blocks (issue 27 point 9)
		"http://198.18.0.1/x", "http://192.0.0.1/x", "http://240.0.0.1/x", "http://255.255.255.255/x", "http://203.0.113.7/x",
		"http://[2001:db8::1]/x", "http://[64:ff9b::a00:1]/x", "http://[2002:c000:201::1]/x", "http://[fd00::1]/x",
		// loopback in the other forms a resolver takes (issue 38: accepted at save, refused only at delivery)
		"http://2130706433/x", "http://127.1/x", "http://0x7f000001/x", "http://0177.0.0.1/x", "http://0x7f.1/x", "http://10.1/x", "http://localhost./x"} {
		r := e.Do(testenv.Req{Method: "POST", Path: base, Token: e.OwnerToken, Body: map[string]any{"url": u, "events": []string{"order.paid"}}}).Expect(t, 400, "validation_failed")
		if r.Body.Errors["url"] == "" {
			t.Fatalf("%s: %s", u, r.Raw)
		}
	}
	// a name that does not resolve now passes the save check; the dial checks it again
	hooks := testenv.NewHookReceiver(t)
	hooks.OffContract() // bodies posted straight through the sender, not events
	port := hooks.URL[strings.LastIndex(hooks.URL, ":")+1:]
	_, err := strict.Post(context.Background(), app.WebhookRequest{URL: "http://localhost.localdomain.test:" + port, Body: []byte("{}")})
	if err == nil {
		t.Fatal("posted to a name that does not resolve publicly")
	}
	_, err = strict.Post(context.Background(), app.WebhookRequest{URL: "http://127.0.0.1:" + port + "/hooks", Body: []byte("{}")})
	if err == nil || !strings.Contains(err.Error(), "private") {
		t.Fatalf("got %v, want the private-target refusal", err)
	}
	for _, u := range []string{"http://198.18.0.1:9/x", "http://192.0.0.9:9/x", "http://240.0.0.1:9/x"} { // at dial time too
		if _, err = strict.Post(context.Background(), app.WebhookRequest{URL: u, Body: []byte("{}")}); err == nil || !strings.Contains(err.Error(), "special-purpose") {
			t.Fatalf("%s: got %v, want the special-purpose refusal at dial", u, err)
		}
	}
	if len(hooks.Received()) != 0 {
		t.Fatal("the receiver was reached")
	}
	// redirects are not followed
	lax := webhookSender(true)
	hooks.Answer(302)
	res, err := lax.Post(context.Background(), app.WebhookRequest{URL: hooks.URL, Body: []byte("{}")})
	if err != nil || res.StatusCode != 302 {
		t.Fatalf("got %d %v, want the 302 itself", res.StatusCode, err)
	}
}

// TestMailTemplates: list, preview with branding, override validated on
// save, test send to the admin, back to the built-in.
func TestMailTemplates(t *testing.T) {
	t.Parallel()
	n := newNotifyEnv(t)
	e := n.Env
	other, _ := e.Store("Other Shop")
	base := fmt.Sprintf("/api/v1/admin/stores/%d/mail-templates/", n.sid)
	var list []struct {
		Kind       string `json:"kind"`
		Overridden bool   `json:"overridden"`
	}
	e.Do(testenv.Req{Method: "GET", Path: base, Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &list)
	if len(list) != len(app.MailKinds()) || !sort.SliceIsSorted(list, func(i, j int) bool { return list[i].Kind < list[j].Kind }) {
		t.Fatalf("got %v", list)
	}
	var pv struct{ Subject, HTML, Text string }
	e.Do(testenv.Req{Method: "GET", Path: base + "order_confirmation/preview/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &pv)
	if !strings.Contains(pv.HTML, "#aa3300") || !strings.Contains(pv.HTML, "Blue mug") || !strings.Contains(pv.Subject, "Order #1042 confirmed") {
		t.Fatalf("preview %+v", pv)
	}
	tpl := map[string]string{"subject": "Thanks for order {{.Order.ID}}", "html": "<p>Yay {{.Name}}</p>{{template \"order\" .}}", "text": "Yay {{.Name}}"}
	e.Do(testenv.Req{Method: "PUT", Path: base + "order_confirmation/", Token: e.OwnerToken, Body: tpl}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: base + "order_confirmation/preview/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &pv)
	if pv.Subject != "[Talk Shop] Thanks for order 1042" || !strings.Contains(pv.HTML, "Yay Ann") {
		t.Fatalf("preview after override %+v", pv)
	}
	for name, bad := range map[string]map[string]string{
		"ErrParse":   {"subject": "{{.Order.ID", "html": "<p>x</p>", "text": "x"},
		"ErrField":   {"subject": "x", "html": "<p>{{.Nope}}</p>", "text": "x"},
		"ErrScript":  {"subject": "x", "html": "<script>alert(1)</script>", "text": "x"},
		"ErrHandler": {"subject": "x", "html": `<img src="x" onerror="alert(1)">`, "text": "x"},
		"ErrEmpty":   {"subject": "", "html": "<p>x</p>", "text": "x"},
	} {
		t.Run(name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "PUT", Path: base + "order_confirmation/", Token: e.OwnerToken, Body: bad}).Expect(t, 400, "validation_failed")
		})
	}
	var sent struct {
		To     string `json:"to"`
		Status string `json:"status"`
	}
	e.Do(testenv.Req{Method: "POST", Path: base + "order_confirmation/test/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &sent)
	if sent.To != "owner@example.com" || sent.Status != "queued" {
		t.Fatalf("test send %+v", sent)
	}
	n.outbox.RunOnce()
	if m := n.smtp.WaitFor(t, 1, 5*time.Second); m[0].To[0] != "owner@example.com" || !strings.Contains(m[0].Parse(t).Subject, "[Test] [Talk Shop] Thanks for order 1042") {
		t.Fatalf("test mail %+v", m[0].Parse(t))
	}
	e.Do(testenv.Req{Method: "DELETE", Path: base + "order_confirmation/", Token: e.OwnerToken}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: base + "order_confirmation/preview/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &pv)
	if !strings.Contains(pv.Subject, "confirmed") {
		t.Fatalf("after delete %+v", pv)
	}
	e.Do(testenv.Req{Method: "GET", Path: base + "nope/preview/", Token: e.OwnerToken}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "GET", Path: base}).Expect(t, 401, "unauthorized")
	e.Do(testenv.Req{Method: "GET", Path: base, Token: e.Staff(other, "st@example.com")}).Expect(t, 404, "not_found")
}

// TestLowStockOnStoreEdits: a store's own stock edit (PATCH of the product,
// the panel's bulk stock action) that brings a product down to its
// threshold tells the owner once, like a checkout does; edits that leave it
// low, or above the threshold, say nothing.
func TestLowStockOnStoreEdits(t *testing.T) {
	t.Parallel()
	n := newNotifyEnv(t)
	e := n.Env
	p := e.Product(n.sid, 0, "Lamp", 1000, 10)
	path := fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", n.sid, p.ID)
	lowMails := func() int {
		c := 0
		for _, m := range e.Outbox(n.sid) {
			if strings.Contains(m.Subject, "Low stock: Lamp") { // after the [store name] prefix
				c++
			}
		}
		return c
	}
	for _, step := range []struct {
		body any
		want int
	}{
		{map[string]any{"low_stock_threshold": 5}, 0}, // 10 left: not low
		{map[string]any{"stock": 5}, 1},               // at the threshold: low
		{map[string]any{"stock": 3}, 1},               // low already: told before
		{map[string]any{"stock": 20}, 1},              // restocked
	} {
		e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: step.body}).Expect(t, 200, "")
		if got := lowMails(); got != step.want {
			t.Fatalf("after %v: %d low-stock mails, want %d", step.body, got, step.want)
		}
	}
	if _, err := e.Svc.Catalog.BulkProducts(n.sid, []uint64{p.ID}, app.BulkAction{Kind: "stock", StockDelta: -16}); err != nil {
		t.Fatal(err)
	}
	if got := lowMails(); got != 2 {
		t.Fatalf("after the bulk stock change: %d low-stock mails, want 2", got)
	}
	n.deliver(t)
	events := 0
	for _, h := range n.hooks.Received() {
		if h.Type == app.EvProductLowStock && h.SignatureOK {
			events++
		}
	}
	if events != 2 {
		t.Fatalf("product.low_stock webhooks: got %d, want 2", events)
	}
}

// TestOutboxRendersWhenSent: a mail of a kind is kept as its data until it
// is read (rendered with the store as it is then) or sent (rendered, and
// what was sent is what the outbox shows from then on); a mail that cannot
// be rendered fails without reaching SMTP.
func TestOutboxRendersWhenSent(t *testing.T) {
	t.Parallel()
	n := newNotifyEnv(t)
	e := n.Env
	admin := fmt.Sprintf("/api/v1/admin/stores/%d/", n.sid)
	rename := func(name string) {
		e.Do(testenv.Req{Method: "PATCH", Path: admin + "config/", Token: e.OwnerToken, Body: map[string]any{"store": map[string]string{"name": name}}}).Expect(t, 200, "")
	}
	stored := func() *app.Mail {
		var m *app.Mail
		if err := e.DB.View(func(tx app.Tx) error {
			pg, err := tx.Outbox(n.sid, app.ListParams{Limit: 1})
			if err == nil && len(pg.Items) == 1 {
				m = pg.Items[0]
			}
			return err
		}); err != nil || m == nil {
			t.Fatalf("outbox: %v %v", m, err)
		}
		return m
	}
	register(t, e, n.key, "rita@example.com")
	if m := stored(); m.Data == nil || m.Data.Code == "" || m.Text != "" || m.Subject != "" {
		t.Fatalf("queued as %+v, want the data unrendered", m)
	}
	rename("Brand One")
	if m := e.Outbox(n.sid)[0]; !strings.Contains(m.Text, "Brand One") || !codeRE.MatchString(m.Text) || m.Data != nil {
		t.Fatalf("read as %+v, want rendered with the brand of now", m)
	}
	rename("Brand Two")
	n.deliver(t)
	msgs := n.smtp.Messages()
	if len(msgs) != 1 || !strings.Contains(msgs[0].Data, "Brand Two") {
		t.Fatalf("sent %+v, want one mail with the brand at sending", msgs)
	}
	if m := stored(); m.State() != app.MailSent || m.Data != nil || !strings.Contains(m.Text, "Brand Two") {
		t.Fatalf("kept %+v after sending, want what was sent", m)
	}
	rename("Brand Three")
	if m := e.Outbox(n.sid)[0]; !strings.Contains(m.Text, "Brand Two") {
		t.Fatalf("read %q after a rename, want the text sent", m.Text)
	}

	// a retry answers with the mail as the outbox shows it, rendered, its
	// code masked (issue 38)
	n.smtp.Stop()
	register(t, e, n.key, "sam@example.com")
	n.deliver(t)
	var retried app.MailView
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%soutbox/%d/retry/", admin, e.Outbox(n.sid)[0].ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &retried)
	if retried.To != "sam@example.com" || retried.Status != app.MailQueued || codeRE.MatchString(retried.Text) || !strings.Contains(retried.Text, app.MaskedCode) || !strings.Contains(retried.HTML, "Brand Three") {
		t.Fatalf("retry answered %+v, want the queued mail rendered", retried)
	}

	if err := e.DB.Update(func(tx app.Tx) error {
		return app.QueueKind(tx, n.sid, "no_such_kind", "x@example.com", app.MailData{})
	}); err != nil {
		t.Fatal(err)
	}
	n.deliver(t)
	if m := e.Outbox(n.sid)[0]; m.State() != app.MailFailed || !strings.Contains(m.LastError, "rendering") || !strings.Contains(m.Subject, "not rendered") {
		t.Fatalf("got %s %q %q, want failed at rendering", m.State(), m.LastError, m.Subject)
	}
	if got := len(n.smtp.Messages()); got != 1 {
		t.Fatalf("SMTP got %d messages, want the one sent before", got)
	}

	// its retry answers it unrendered, and the next run fails it again
	var again app.MailView
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%soutbox/%d/retry/", admin, e.Outbox(n.sid)[0].ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &again)
	if again.Status != app.MailQueued || !strings.Contains(again.Subject, "not rendered") {
		t.Fatalf("retry of an unrenderable mail answered %+v, want it queued and not rendered", again)
	}
	n.deliver(t)
	if m := e.Outbox(n.sid)[0]; m.State() != app.MailFailed || !strings.Contains(m.LastError, "rendering") {
		t.Fatalf("after its retry: %s %q, want failed at rendering again", m.State(), m.LastError)
	}
	if got := len(n.smtp.Messages()); got != 1 {
		t.Fatalf("SMTP got %d messages after the retry, want still the one", got)
	}
}
