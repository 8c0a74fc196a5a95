package storage

import (
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// The leases of the outbox workers (app.Lease): which worker holds a mail or
// a delivery it is sending, until when. One process uses a bbolt file, so a
// lease never outlives it: the bucket is emptied at every open, is not part
// of allBuckets (nor of an export), and holds nothing but the claims in
// flight. The semantics are PostgreSQL's (storage/postgres/lease.go), where
// the workers of several processes share the rows.
var bLeases = []byte("leases") // kind|sid|id -> until (unix ns, 8 bytes) | claimant

// Lease kinds, the first byte of a lease key.
const (
	leaseMail     byte = 'm'
	leaseDelivery byte = 'd'
)

// resetLeases empties the lease bucket (at open: no worker is in flight).
func resetLeases(tx *bolt.Tx) error {
	if tx.Bucket(bLeases) != nil {
		if err := tx.DeleteBucket(bLeases); err != nil {
			return fmt.Errorf("storage: reset leases: %w", err)
		}
	}
	_, err := tx.CreateBucket(bLeases)
	return err
}

func leaseKey(kind byte, sid, id uint64) []byte {
	return tkey(make([]byte, 0, 17)).code(kind).id(sid).id(id)
}

// leaseFree reports whether item kind/sid/id may be claimed at now.
func (t *Tx) leaseFree(kind byte, sid, id uint64, now time.Time) bool {
	v := t.b(bLeases).Get(leaseKey(kind, sid, id))
	if len(v) < 8 {
		return true
	}
	return app.LeaseFree(string(v[8:]), time.Unix(0, int64(binary.BigEndian.Uint64(v))), now)
}

// putLease leases item kind/sid/id to l.
func (t *Tx) putLease(kind byte, sid, id uint64, l app.Lease) error {
	v := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(l.Claimant)), uint64(l.Until.UnixNano()))
	return t.b(bLeases).Put(leaseKey(kind, sid, id), append(v, l.Claimant...))
}

// endLease ends claimant's lease on item kind/sid/id (conflict when the
// item is leased to another or not at all).
func (t *Tx) endLease(kind byte, sid, id uint64, claimant string) error {
	k := leaseKey(kind, sid, id)
	v := t.b(bLeases).Get(k)
	if len(v) < 8 || string(v[8:]) != claimant {
		return app.Errorf(app.EConflict, "the lease on this item was taken over")
	}
	return t.b(bLeases).Delete(k)
}

// claimDue walks a due bucket (due|sid|id -> nil) up to now and leases to l
// the first limit items whose lease is free, calling add with each.
func (t *Tx) claimDue(due []byte, kind byte, now time.Time, l app.Lease, limit int, add func(sid, id uint64) error) error {
	end := string(timeKey(now))
	n := 0
	c := t.b(due).Cursor()
	for k, _ := c.First(); k != nil && n < limit; k, _ = c.Next() {
		if len(k) != 24 || string(k[:8]) > end {
			break
		}
		sid, id := u64From(k[8:16]), u64From(k[16:24])
		if !t.leaseFree(kind, sid, id, now) {
			continue
		}
		if err := add(sid, id); err != nil {
			return err
		}
		if err := t.putLease(kind, sid, id, l); err != nil {
			return err
		}
		n++
	}
	return nil
}

// ClaimDueMail leases to l up to limit queued mails due at now whose lease
// is free, soonest first.
func (t *Tx) ClaimDueMail(now time.Time, l app.Lease, limit int) ([]*app.Mail, error) {
	var out []*app.Mail
	err := t.claimDue(bOutboxDue, leaseMail, now, l, limit, func(sid, id uint64) error {
		m, err := t.Mail(sid, id)
		out = append(out, m)
		return err
	})
	return out, err
}

// EndMailLease ends claimant's lease on a mail.
func (t *Tx) EndMailLease(storeID, id uint64, claimant string) error {
	if _, err := t.Mail(storeID, id); err != nil {
		return err
	}
	return t.endLease(leaseMail, storeID, id, claimant)
}

// ClaimDueWebhookDeliveries leases to l up to limit pending deliveries due
// at now whose lease is free, soonest first.
func (t *Tx) ClaimDueWebhookDeliveries(now time.Time, l app.Lease, limit int) ([]*app.WebhookDelivery, error) {
	var out []*app.WebhookDelivery
	err := t.claimDue(bWebhookDue, leaseDelivery, now, l, limit, func(sid, id uint64) error {
		d, err := t.WebhookDelivery(sid, id)
		if err != nil {
			return fmt.Errorf("storage: due delivery: %w", err)
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// EndDeliveryLease ends claimant's lease on a delivery.
func (t *Tx) EndDeliveryLease(storeID, id uint64, claimant string) error {
	if _, err := t.WebhookDelivery(storeID, id); err != nil {
		return err
	}
	return t.endLease(leaseDelivery, storeID, id, claimant)
}

// PullWebhookRetries makes the pending deliveries of an endpoint due after
// now due at now.
func (t *Tx) PullWebhookRetries(storeID, endpointID uint64, now time.Time) (int, error) {
	var later []*app.WebhookDelivery
	err := walk(t.b(bIdxDeliveriesEP), keyOf(storeID).id(endpointID), nil, false, func(k, _ []byte) (bool, error) {
		d, err := t.WebhookDelivery(storeID, idFromKeyEnd(k))
		if err != nil {
			return false, err
		}
		if d.Status == app.DeliveryPending && d.NextAt.After(now) {
			later = append(later, d)
		}
		return true, nil
	})
	if err != nil {
		return 0, err
	}
	for _, d := range later {
		d.NextAt = now
		if err := t.PutWebhookDelivery(d); err != nil {
			return 0, err
		}
	}
	return len(later), nil
}
