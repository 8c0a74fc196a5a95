package storagetest

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"storefront/app"
)

// testMailLeases: a claim leases due mail that no live lease holds; a second
// claimant gets the rest, then nothing until the first lease lapses; ending
// a lease is refused to anyone but its holder (also after it lapsed and was
// taken over) and makes the mail claimable at once.
func testMailLeases(e *env) {
	a, b := e.store("a"), e.store("b")
	var ms []*app.Mail
	e.update(func(tx app.Tx) error {
		for i, sid := range []uint64{a, b, a, b} {
			m := &app.Mail{StoreID: sid, To: "x@example.com", Subject: fmt.Sprint("m", i), Status: app.MailQueued, NextAt: t0, CreatedAt: t0, QueuedAt: t0}
			if err := tx.AddOutbox(m); err != nil {
				return err
			}
			ms = append(ms, m)
		}
		return nil
	})
	claim := func(who string, until time.Time, limit int) []string {
		var out []string
		e.update(func(tx app.Tx) error {
			got, err := tx.ClaimDueMail(e.now(), app.Lease{Claimant: who, Until: until}, limit)
			for _, m := range got {
				out = append(out, m.Subject)
			}
			return err
		})
		return out
	}
	end := func(who string, m *app.Mail) error {
		return e.db.Update(func(tx app.Tx) error { return tx.EndMailLease(m.StoreID, m.ID, who) })
	}
	e.same("first claim, soonest first", claim("one", t0.Add(time.Minute), 2), []string{"m0", "m2"})
	e.same("second claimant: the rest", claim("two", t0.Add(time.Minute), 10), []string{"m1", "m3"})
	e.same("all leased", claim("three", t0.Add(time.Minute), 10), []string(nil))
	e.want(end("two", ms[0]), app.EConflict)
	if err := end("one", ms[0]); err != nil {
		e.t.Fatalf("ending one's lease: %v", err)
	}
	e.want(end("one", ms[0]), app.EConflict) // ended already
	e.same("given back: claimable at once", claim("three", t0.Add(time.Minute), 10), []string{"m0"})
	e.tick(time.Minute) // every lease lapses
	e.same("lapsed leases are claimable", claim("four", t0.Add(2*time.Minute), 10), []string{"m0", "m2", "m1", "m3"})
	e.want(end("one", ms[2]), app.EConflict) // taken over after it lapsed
	e.want(e.db.Update(func(tx app.Tx) error { return tx.EndMailLease(a, 999, "four") }), app.ENotFound)
	// A sent mail is not due, leased or not.
	e.update(func(tx app.Tx) error {
		if err := tx.EndMailLease(a, ms[2].ID, "four"); err != nil {
			return err
		}
		m, err := tx.Mail(a, ms[2].ID)
		if err != nil {
			return err
		}
		m.Status, m.SentAt = app.MailSent, t0
		return tx.PutMail(m)
	})
	e.tick(time.Hour)
	e.same("sent is not claimed", claim("five", t0.Add(2*time.Hour), 10), []string{"m0", "m1", "m3"})
}

// testConcurrentClaims: claimants racing for the same due mail and
// deliveries never get the same item twice.
func testConcurrentClaims(e *env) {
	a := e.store("a")
	const n = 60
	seedClaimable(e, a, n)
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Go(func() {
			l := app.Lease{Claimant: fmt.Sprint("w", w), Until: t0.Add(time.Minute)}
			for range 4 {
				err := e.db.Update(func(tx app.Tx) error {
					ms, err := tx.ClaimDueMail(t0, l, 5)
					if err != nil {
						return err
					}
					ds, err := tx.ClaimDueWebhookDeliveries(t0, l, 5)
					mu.Lock()
					for _, m := range ms {
						seen[fmt.Sprint("m", m.ID)]++
					}
					for _, d := range ds {
						seen[fmt.Sprint("d", d.ID)]++
					}
					mu.Unlock()
					return err
				})
				if err != nil {
					e.t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	for k, c := range seen {
		if c != 1 {
			e.t.Errorf("%s claimed %d times, want 1", k, c)
		}
	}
	e.same("claimed in all", len(seen), 2*n)
}

// seedClaimable queues n mails and n webhook deliveries, all due at t0.
func seedClaimable(e *env, a uint64, n int) {
	var ep *app.WebhookEndpoint
	e.update(func(tx app.Tx) error {
		ev := &app.WebhookEvent{StoreID: a, MsgID: "msg_1", Type: app.EvOrderPaid, Data: json.RawMessage(`{}`), CreatedAt: t0}
		if err := tx.AddWebhookEvent(ev); err != nil {
			return err
		}
		ep = &app.WebhookEndpoint{StoreID: a, URL: "https://one.example", Secret: "whsec_x", Events: []string{app.EvOrderPaid}, Enabled: true, CreatedAt: t0, UpdatedAt: t0}
		if err := tx.PutWebhookEndpoint(ep); err != nil {
			return err
		}
		for range n {
			if err := tx.AddOutbox(&app.Mail{StoreID: a, To: "x@example.com", Status: app.MailQueued, NextAt: t0, CreatedAt: t0, QueuedAt: t0}); err != nil {
				return err
			}
			d := &app.WebhookDelivery{StoreID: a, EndpointID: ep.ID, EventID: ev.ID, MsgID: ev.MsgID, Type: ev.Type, Status: app.DeliveryPending,
				NextAt: t0, Log: []app.WebhookAttempt{}, CreatedAt: t0, UpdatedAt: t0}
			if err := tx.PutWebhookDelivery(d); err != nil {
				return err
			}
		}
		return nil
	})
}

// testWebhookPull: pulling an endpoint's retries makes its pending
// deliveries due later due now, and nothing else.
func testWebhookPull(e *env) {
	a := e.store("a")
	var ds []*app.WebhookDelivery
	e.update(func(tx app.Tx) error {
		ev := &app.WebhookEvent{StoreID: a, MsgID: "msg_1", Type: app.EvOrderPaid, Data: json.RawMessage(`{}`), CreatedAt: t0}
		if err := tx.AddWebhookEvent(ev); err != nil {
			return err
		}
		var eps []*app.WebhookEndpoint
		for _, u := range []string{"https://one.example", "https://two.example"} {
			w := &app.WebhookEndpoint{StoreID: a, URL: u, Secret: "whsec_x", Events: []string{app.EvOrderPaid}, Enabled: true, CreatedAt: t0, UpdatedAt: t0}
			if err := tx.PutWebhookEndpoint(w); err != nil {
				return err
			}
			eps = append(eps, w)
		}
		for i, spec := range []struct {
			ep     int
			status string
			next   time.Duration
		}{{0, app.DeliveryPending, time.Hour}, {0, app.DeliveryPending, 0}, {0, app.DeliveryFailed, time.Hour}, {1, app.DeliveryPending, time.Hour}} {
			d := &app.WebhookDelivery{StoreID: a, EndpointID: eps[spec.ep].ID, EventID: ev.ID, MsgID: fmt.Sprint("msg_", i), Type: ev.Type,
				Status: spec.status, NextAt: t0.Add(spec.next), Log: []app.WebhookAttempt{}, CreatedAt: t0, UpdatedAt: t0}
			if err := tx.PutWebhookDelivery(d); err != nil {
				return err
			}
			ds = append(ds, d)
		}
		n, err := tx.PullWebhookRetries(a, eps[0].ID, t0.Add(time.Second))
		e.same("pulled", n, 1)
		return err
	})
	e.view(func(tx app.Tx) error {
		due, err := tx.DueWebhookDeliveries(t0.Add(time.Second), 10)
		var got []uint64
		for _, d := range due {
			got = append(got, d.ID)
			if d.ID == ds[0].ID {
				e.same("pulled next attempt", d.NextAt.UTC(), t0.Add(time.Second))
			}
		}
		e.same("due after the pull", fmt.Sprint(got), fmt.Sprint([]uint64{ds[1].ID, ds[0].ID}))
		return err
	})
}
