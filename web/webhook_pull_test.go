package web_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"storefront/testenv"
)

// TestWebhookRetriesPulledForward: an endpoint down long enough for its
// deliveries to be put off by five minutes (two failed attempts each) is
// back; the first success pulls every queued retry forward, and the running
// worker delivers them all without the clock moving (frozen: nothing waits
// for the schedule). Then a burst of events to the endpoint goes out
// concurrently, each once.
func TestWebhookRetriesPulledForward(t *testing.T) {
	t.Parallel()
	n := newNotifyEnv(t)
	e := n.Env
	const queued = 10
	contact := func(i int) {
		e.Do(testenv.Req{Method: "POST", Path: api + "/contact/", Key: n.key, Body: map[string]any{"name": "Bo", "email": "bo@example.com", "message": fmt.Sprint("Hi ", i)}}).Expect(t, 200, "")
	}
	n.hooks.Answer(slices.Repeat([]int{503}, 2*queued)...)
	for i := range queued {
		contact(i)
	}
	n.webhook.RunOnce(context.Background())
	e.Advance(5 * time.Second)
	n.webhook.RunOnce(context.Background()) // every delivery is now due in 5 minutes
	if got := len(n.hooks.Received()); got != 2*queued {
		t.Fatalf("got %d failed attempts, want %d", got, 2*queued)
	}
	e.Advance(12 * time.Second) // the receiver is back (200 from now on)
	if k, _ := n.webhook.RunOnce(context.Background()); k != 0 {
		t.Fatalf("%d deliveries due before their retry, want none", k)
	}

	contact(queued) // a new event: its success pulls the retries forward
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { n.webhook.Run(ctx, time.Hour) })
	defer func() { cancel(); wg.Wait() }()
	delivered := func() map[string]int {
		ok := map[string]int{}
		for _, h := range n.hooks.Received() {
			if h.Status == 200 {
				ok[h.ID]++
			}
		}
		return ok
	}
	waitUntil(t, 10*time.Second, "every queued event delivered", func() bool { return len(delivered()) == queued+1 })

	// A burst: every event once, several in flight at a time.
	const burst = 200
	for i := range burst {
		contact(100 + i)
	}
	n.webhook.Wake()
	waitUntil(t, 30*time.Second, "the burst delivered", func() bool { return len(delivered()) == queued+1+burst })
	for id, c := range delivered() {
		if c != 1 {
			t.Errorf("event %s delivered %d times, want once", id, c)
		}
	}
}

// waitUntil polls cond every 10ms until it holds or within passes.
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
