package postgres

import (
	"cmp"
	"errors"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/app"
)

// The outbox workers' leases (app.Lease, migration 0015). A claim is one
// UPDATE of the due rows whose lease is free, picked with FOR UPDATE SKIP
// LOCKED: a row another transaction is claiming or recording is skipped, not
// waited for, and two claims never return the same row. Ending a lease is an
// UPDATE that matches only while the row is leased to the claimant, in the
// transaction that records the attempt: a worker whose lease was taken over
// (it lapsed while the worker had lost the lead) cannot record, and stops.
// No store lock is taken by a claim: nothing reads the lease columns under
// one.

const claimMail = `UPDATE outbox o SET claimant = $3, lease_until = $4
	FROM (SELECT store_id, id FROM outbox
		WHERE send_at IS NOT NULL AND send_at < $1 AND (lease_until IS NULL OR lease_until <= $5)
		ORDER BY date_trunc('second', send_at), store_id, id LIMIT $2 FOR UPDATE SKIP LOCKED) c
	WHERE o.store_id = c.store_id AND o.id = c.id
	RETURNING o.doc::text`

const claimDeliveries = `UPDATE webhook_deliveries w SET claimant = $3, lease_until = $4
	FROM (SELECT store_id, id FROM webhook_deliveries
		WHERE due IS NOT NULL AND due < $1 AND (lease_until IS NULL OR lease_until <= $5)
		ORDER BY date_trunc('second', due), store_id, id LIMIT $2 FOR UPDATE SKIP LOCKED) c
	WHERE w.store_id = c.store_id AND w.id = c.id
	RETURNING w.doc::text`

// ClaimDueMail leases to l up to limit queued mails due at now whose lease
// is free, soonest first.
func (t *Tx) ClaimDueMail(now time.Time, l app.Lease, limit int) ([]*app.Mail, error) {
	ms, err := dueDocs[app.Mail](t, "claimed mail", claimMail, now, limit, l.Claimant, l.Until, now)
	slices.SortFunc(ms, func(a, b *app.Mail) int { return dueOrder(a.NextAt, b.NextAt, a.StoreID, b.StoreID, a.ID, b.ID) })
	return ms, err
}

// ClaimDueWebhookDeliveries leases to l up to limit pending deliveries due
// at now whose lease is free, soonest first.
func (t *Tx) ClaimDueWebhookDeliveries(now time.Time, l app.Lease, limit int) ([]*app.WebhookDelivery, error) {
	ds, err := dueDocs[app.WebhookDelivery](t, "claimed deliveries", claimDeliveries, now, limit, l.Claimant, l.Until, now)
	slices.SortFunc(ds, func(a, b *app.WebhookDelivery) int {
		return dueOrder(a.NextAt, b.NextAt, a.StoreID, b.StoreID, a.ID, b.ID)
	})
	return ds, err
}

// dueOrder is the order of the due queries: by second, store, id (RETURNING
// has no order of its own).
func dueOrder(at, bt time.Time, as, bs, a, b uint64) int {
	return cmp.Or(cmp.Compare(at.Unix(), bt.Unix()), cmp.Compare(as, bs), cmp.Compare(a, b))
}

// EndMailLease ends claimant's lease on a mail.
func (t *Tx) EndMailLease(storeID, id uint64, claimant string) error {
	return t.endLease("outbox", "mail", storeID, id, claimant)
}

// EndDeliveryLease ends claimant's lease on a delivery.
func (t *Tx) EndDeliveryLease(storeID, id uint64, claimant string) error {
	return t.endLease("webhook_deliveries", "delivery", storeID, id, claimant)
}

// endLease clears the lease of a row of table if claimant holds it: the
// row stays locked until the transaction ends, so the attempt it records
// cannot race another claim.
func (t *Tx) endLease(table, what string, storeID, id uint64, claimant string) error {
	n, err := t.execN(storeID, "end lease", `UPDATE `+table+` SET claimant = NULL, lease_until = NULL
		WHERE store_id = $1 AND id = $2 AND claimant = $3`, i64(storeID), i64(id), claimant)
	if err != nil || n == 1 {
		return err
	}
	var one int
	err = t.queryRow(`SELECT 1 FROM `+table+` WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)).Scan(&one)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return app.NotFound(what)
	case err != nil:
		return t.fail(err)
	}
	return app.Errorf(app.EConflict, "the lease on this %s was taken over", what)
}

// PullWebhookRetries makes the pending deliveries of an endpoint due after
// now due at now (the due column and the document's next attempt).
func (t *Tx) PullWebhookRetries(storeID, endpointID uint64, now time.Time) (int, error) {
	n, err := t.execN(storeID, "pull webhook retries", `UPDATE webhook_deliveries
		SET due = $3, doc = jsonb_set(doc::jsonb, '{next_attempt_at}', to_jsonb($4::text))::json
		WHERE store_id = $1 AND endpoint_id = $2 AND due > $3`,
		i64(storeID), i64(endpointID), now, now.UTC().Format(time.RFC3339Nano))
	return int(n), err
}
