package e2e

import (
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"storefront/storage/postgres/pgtest"
	"storefront/testenv"
)

// TestPromptStop (issue 38 point 6): SIGTERM with hundreds of mails queued
// for a slow SMTP receiver and webhook requests in flight to a slow
// receiver ends the process with 0 within http.shutdown_delay plus one send,
// on both backends. The mails left are sent by the next process at once
// (their leases were given back, not left to lapse), and every request that
// reached the receiver was recorded (none left pending for a retry). Before:
// the stop waited for the whole backlog, and cancelled requests were sent
// again minutes later.
func TestPromptStop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	t.Run("bbolt", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		promptStop(t, func(env ...string) *server { return start(t, binary(t), dir, env...) })
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		db := pgtest.NewDatabase(t)
		promptStop(t, func(env ...string) *server {
			return start(t, binary(t), t.TempDir(), append([]string{"STOREFRONT_STORAGE__DRIVER=postgres",
				"STOREFRONT_STORAGE__POSTGRES__URL=" + db, "STOREFRONT_STORAGE__POSTGRES__MAX_CONNS=8"}, env...)...)
		})
	})
}

func promptStop(t *testing.T, run func(env ...string) *server) {
	const mails = 300
	smtp := testenv.NewSMTPServer(t)
	smtp.SetDelay(50 * time.Millisecond)
	hooks := testenv.NewHookReceiver(t)
	hooks.SetDelay(400 * time.Millisecond)
	env := []string{
		"STOREFRONT_MAIL__SMTP__HOST=127.0.0.1",
		"STOREFRONT_MAIL__SMTP__PORT=" + strconv.Itoa(smtp.Port()),
		"STOREFRONT_MAIL__SMTP__FROM=shop@e2e.example",
		"STOREFRONT_MAIL__SMTP__TLS=none",
		"STOREFRONT_WEBHOOKS__ALLOW_PRIVATE_TARGETS=true",
		"STOREFRONT_WEBHOOKS__TIMEOUT=5s",
		"STOREFRONT_HTTP__SHUTDOWN_DELAY=1s",
		"STOREFRONT_RATELIMIT__CONTACT_PER_MINUTE=100000",
	}
	s := run(env...)
	var login struct {
		AccessToken string `json:"access_token"`
	}
	s.call("POST", "/api/v1/admin/auth/login/", "", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, 200, &login)
	tok := login.AccessToken
	var st struct {
		ID     uint64 `json:"id"`
		APIKey string `json:"api_key"`
	}
	s.call("POST", "/api/v1/admin/stores/", "", tok, map[string]string{"name": "Busy", "subdomain": "busy", "currency": "USD"}, 201, &st)
	s.call("PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/", st.ID), "", tok, map[string]any{"notification_emails": []string{"owner@e2e.example"}}, 200, nil)
	var ep struct {
		ID     uint64 `json:"id"`
		Secret string `json:"secret"`
	}
	s.call("POST", fmt.Sprintf("/api/v1/admin/stores/%d/webhooks/", st.ID), "", tok, map[string]any{"url": hooks.URL, "events": []string{"contact.received"}}, 201, &ep)
	hooks.Secret = ep.Secret
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range mails / 4 {
				s.call("POST", "/api/v1/business/website/contact/", st.APIKey, "", map[string]any{"name": "Bo", "email": "bo@example.com", "message": fmt.Sprintf("Note %d-%d", i, j)}, 200, nil)
			}
		})
	}
	wg.Wait()
	smtp.WaitFor(t, 1, 30*time.Second)
	hooks.WaitFor(t, 1, 30*time.Second)

	began := time.Now()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-s.done
	err := s.cmd.Wait()
	took := time.Since(began)
	sent, received := len(smtp.Messages()), len(hooks.Received())
	t.Logf("SIGTERM with %d of %d mails sent, %d of %d events received: exit %v after %v", sent, mails, received, mails, err, took.Round(time.Millisecond))
	if err != nil {
		t.Fatalf("exit after SIGTERM: %v, want 0", err)
	}
	// shutdown_delay (1s) plus one send (a mail: 50 ms; an event: 400 ms)
	// plus the process's own stop
	if took > 3*time.Second {
		t.Errorf("the stop took %v, want under 3s (1s shutdown_delay, one send)", took)
	}
	if sent >= mails {
		t.Fatalf("all %d mails went out before the stop: the test proves nothing", sent)
	}

	smtp.SetDelay(0)
	hooks.SetDelay(0)
	s = run(env...)
	// Well within the 2-minute lease: the rest was given back, not left leased.
	smtp.WaitFor(t, mails, 30*time.Second)
	hooks.WaitFor(t, mails, 30*time.Second)
	// The receiver counts a request before the worker records its answer:
	// a clean stop records what is in flight (what this test is about), so
	// the deliveries are read from one more start, where any left undone
	// would be sent again and counted twice.
	s.stop()
	s = run(env...)
	pending := 0
	for cursor := ""; ; {
		var page struct {
			Items []struct {
				Status string `json:"status"`
			} `json:"items"`
			Next *string `json:"next_cursor"`
		}
		s.call("GET", fmt.Sprintf("/api/v1/admin/stores/%d/webhooks/%d/deliveries/?limit=100&cursor=%s", st.ID, ep.ID, url.QueryEscape(cursor)), "", tok, nil, 200, &page)
		for _, d := range page.Items {
			if d.Status != "succeeded" {
				pending++
			}
		}
		if page.Next == nil || *page.Next == "" {
			break
		}
		cursor = *page.Next
	}
	if got := len(hooks.Received()); pending > 0 || got != mails {
		t.Errorf("after the restart: %d deliveries not succeeded, %d requests received, want 0 and %d (each event once)", pending, got, mails)
	}
	if got := len(smtp.Messages()); got != mails {
		t.Errorf("mails: got %d, want %d (each once)", got, mails)
	}
	s.stop()
}
