package storagetest

import (
	"encoding/json"
	"fmt"
	"time"

	"storefront/app"
)

// testMailDue: queued mail is due from its next attempt (whole seconds),
// soonest first across stores; sent and failed mail is not due.
func testMailDue(e *env) {
	a, b := e.store("a"), e.store("b")
	mk := func(sid uint64, subject, status string, next time.Time) *app.Mail {
		return &app.Mail{StoreID: sid, To: "x@example.com", Subject: subject, Status: status, NextAt: next, CreatedAt: t0, QueuedAt: t0}
	}
	ms := []*app.Mail{
		mk(a, "later", app.MailQueued, t0.Add(time.Minute)),
		mk(b, "now", app.MailQueued, t0),
		mk(a, "sent", app.MailSent, t0),
		mk(a, "failed", app.MailFailed, t0),
		mk(a, "this second", app.MailQueued, t0.Add(500*time.Millisecond)),
	}
	e.update(func(tx app.Tx) error {
		for _, m := range ms {
			if err := tx.AddOutbox(m); err != nil {
				return err
			}
		}
		return nil
	})
	due := func(at time.Time, limit int) []string { return dueMail(e, at, limit) }
	// Within one second: by store, then id (the order of the bbolt due keys).
	e.same("due at t0", due(t0, 10), []string{"this second", "now"})
	e.same("limit", due(t0, 1), []string{"this second"})
	e.same("due a minute on", due(t0.Add(time.Minute), 10), []string{"this second", "now", "later"})
	// Sending takes a mail out of the queue; a retry puts it back later.
	e.update(func(tx app.Tx) error {
		m, err := tx.Mail(b, ms[1].ID)
		if err != nil {
			return err
		}
		m.Status, m.SentAt = app.MailSent, t0
		if err := tx.PutMail(m); err != nil {
			return err
		}
		m, err = tx.Mail(a, ms[4].ID)
		if err != nil {
			return err
		}
		m.Attempts, m.NextAt = 1, t0.Add(2*time.Minute)
		return tx.PutMail(m)
	})
	e.same("after a send and a retry", due(t0.Add(time.Minute), 10), []string{"later"})
	e.same("retry due", due(t0.Add(2*time.Minute), 10), []string{"later", "this second"})
	e.view(func(tx app.Tx) error {
		m, err := tx.Mail(a, ms[4].ID)
		if err != nil {
			return err
		}
		e.same("stored attempts", m.Attempts, 1)
		_, err = tx.Mail(b, ms[4].ID) // another store's id
		e.want(err, app.ENotFound)
		return nil
	})
}

// dueMail returns the subjects of the mail due at at, in the due order.
func dueMail(e *env, at time.Time, limit int) []string {
	var out []string
	e.view(func(tx app.Tx) error {
		got, err := tx.DueMail(at, limit)
		for _, m := range got {
			out = append(out, m.Subject)
		}
		return err
	})
	return out
}

// testWebhooks: events, endpoints and deliveries with their due list and
// per-endpoint log; deleting an endpoint removes its deliveries.
func testWebhooks(e *env) {
	a, b := e.store("a"), e.store("b")
	ev := &app.WebhookEvent{StoreID: a, MsgID: "msg_1", Type: app.EvOrderPaid, Data: json.RawMessage(`{"x":1}`), CreatedAt: t0}
	w1 := &app.WebhookEndpoint{StoreID: a, URL: "https://one.example", Secret: "whsec_x", Events: []string{app.EvOrderPaid}, Enabled: true, CreatedAt: t0, UpdatedAt: t0}
	w2 := &app.WebhookEndpoint{StoreID: a, URL: "https://two.example", Secret: "whsec_y", Events: []string{app.EvOrderPaid}, Enabled: true, CreatedAt: t0, UpdatedAt: t0}
	wb := &app.WebhookEndpoint{StoreID: b, URL: "https://b.example", Secret: "whsec_z", Events: []string{app.EvOrderPaid}, Enabled: true, CreatedAt: t0, UpdatedAt: t0}
	var ds []*app.WebhookDelivery
	e.update(func(tx app.Tx) error {
		if err := tx.AddWebhookEvent(ev); err != nil {
			return err
		}
		for _, w := range []*app.WebhookEndpoint{w1, w2, wb} {
			if err := tx.PutWebhookEndpoint(w); err != nil {
				return err
			}
		}
		for i, w := range []*app.WebhookEndpoint{w1, w1, w1, w2} {
			d := &app.WebhookDelivery{StoreID: a, EndpointID: w.ID, EventID: ev.ID, MsgID: ev.MsgID, Type: ev.Type, Status: app.DeliveryPending,
				NextAt: t0.Add(time.Duration(3-i) * time.Second), Log: []app.WebhookAttempt{}, CreatedAt: t0, UpdatedAt: t0}
			if err := tx.PutWebhookDelivery(d); err != nil {
				return err
			}
			ds = append(ds, d)
		}
		return nil
	})
	if ev.ID == 0 || w1.ID == 0 || w1.ID == w2.ID || ds[0].ID == ds[1].ID {
		e.t.Fatalf("ids not assigned: event %d, endpoints %d %d, deliveries %d %d", ev.ID, w1.ID, w2.ID, ds[0].ID, ds[1].ID)
	}
	checkWebhookEndpoints(e, a, b, ev, w2)
	got := sorted(e, func(d *app.WebhookDelivery) string { return fmt.Sprint(d.ID) }, func(tx app.Tx, lp app.ListParams) (app.Page[*app.WebhookDelivery], error) {
		return tx.WebhookDeliveries(a, w1.ID, lp)
	})
	e.same("an endpoint's deliveries, newest first", got, ids(ds[2].ID, ds[1].ID, ds[0].ID))
	due := func(at time.Time) []string { return dueDeliveries(e, at) }
	e.same("due, soonest first", due(t0.Add(3*time.Second)), ids(ds[3].ID, ds[2].ID, ds[1].ID, ds[0].ID))
	e.same("due at t0+1s", due(t0.Add(time.Second)), ids(ds[3].ID, ds[2].ID))
	// A success leaves the due list; a failure is due at its next attempt.
	testWebhookRetry(e, a, ds, due)
	// Deleting an endpoint takes its deliveries (and their due entries) along.
	e.update(func(tx app.Tx) error { return tx.DeleteWebhookEndpoint(a, w1.ID) })
	e.want(e.db.Update(func(tx app.Tx) error { return tx.DeleteWebhookEndpoint(a, w1.ID) }), app.ENotFound)
	e.want(e.db.Update(func(tx app.Tx) error { return tx.DeleteWebhookEndpoint(b, w2.ID) }), app.ENotFound)
	e.same("due after the delete", due(t0.Add(2*time.Hour)), []string(nil))
	e.view(func(tx app.Tx) error {
		_, err := tx.WebhookDelivery(a, ds[0].ID)
		e.want(err, app.ENotFound)
		if _, err := tx.WebhookDelivery(a, ds[3].ID); err != nil {
			return err
		}
		list, err := tx.WebhookEndpoints(a)
		e.same("endpoints left", len(list), 1)
		return err
	})
}

// checkWebhookEndpoints checks the event and the endpoints as stored, per store.
func checkWebhookEndpoints(e *env, a, b uint64, ev *app.WebhookEvent, w2 *app.WebhookEndpoint) {
	e.view(func(tx app.Tx) error {
		got, err := tx.WebhookEvent(a, ev.ID)
		if err != nil {
			return err
		}
		e.same("event", got.MsgID+" "+got.Type+" "+string(got.Data), "msg_1 order.paid {\"x\":1}")
		_, err = tx.WebhookEvent(b, ev.ID)
		e.want(err, app.ENotFound)
		list, err := tx.WebhookEndpoints(a)
		if err != nil {
			return err
		}
		e.same("endpoints by id", len(list), 2)
		e.same("endpoint order", list[0].URL+" "+list[1].URL, "https://one.example https://two.example")
		_, err = tx.WebhookEndpoint(b, w2.ID) // ids are per store: b has only 1
		e.want(err, app.ENotFound)
		return nil
	})
}

// dueDeliveries returns the ids of the deliveries due at at, soonest first.
func dueDeliveries(e *env, at time.Time) []string {
	var out []string
	e.view(func(tx app.Tx) error {
		got, err := tx.DueWebhookDeliveries(at, 10)
		for _, d := range got {
			out = append(out, fmt.Sprint(d.ID))
		}
		return err
	})
	return out
}

// testWebhookRetry checks that a success leaves the due list and a failure
// is due at its next attempt.
func testWebhookRetry(e *env, a uint64, ds []*app.WebhookDelivery, due func(time.Time) []string) {
	e.update(func(tx app.Tx) error {
		d, err := tx.WebhookDelivery(a, ds[3].ID)
		if err != nil {
			return err
		}
		d.Status, d.Attempts = app.DeliverySucceeded, 1
		d.Log = append(d.Log, app.WebhookAttempt{At: t0, StatusCode: 200, LatencyMS: 3})
		if err := tx.PutWebhookDelivery(d); err != nil {
			return err
		}
		d, err = tx.WebhookDelivery(a, ds[2].ID)
		if err != nil {
			return err
		}
		d.Attempts, d.NextAt = 1, t0.Add(time.Hour)
		return tx.PutWebhookDelivery(d)
	})
	e.same("after a success and a retry", due(t0.Add(3*time.Second)), ids(ds[1].ID, ds[0].ID))
	e.view(func(tx app.Tx) error {
		d, err := tx.WebhookDelivery(a, ds[3].ID)
		if err != nil {
			return err
		}
		e.same("stored log", fmt.Sprintf("%s %d %d", d.Status, len(d.Log), d.Log[0].StatusCode), "succeeded 1 200")
		return nil
	})
}
