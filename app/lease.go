package app

import "time"

// Lease is a worker's claim on the outbox items (mails, webhook deliveries)
// it is about to send: taken in the database before anything is sent, so
// that two processes that both believe they lead the cluster (the lead moved
// while one was in a batch) never send the same item. A lease lapses at
// Until; then another worker may claim the item. The worker that holds it
// ends it in the transaction that records the attempt, which fails with
// conflict when the lease was taken over (docs/decisions.md, "Side
// effects: events, mail, the outbox and webhooks").
type Lease struct {
	Claimant string    // the worker's id, random per worker
	Until    time.Time // the claim lapses then
}

// DefaultLease is how long a worker's claim on a batch holds. A worker
// starts a send only while at least half of it is left, so a send may take
// up to half the lease (the SMTP and webhook timeouts are well within it).
const DefaultLease = 2 * time.Minute

// LeaseFree reports whether an item leased to claimant until `until` may be
// claimed at now: it has no lease, or the lease has lapsed.
func LeaseFree(claimant string, until, now time.Time) bool {
	return claimant == "" || !until.After(now)
}

// leaseHolder is what a worker keeps of its lease and its lead: whether it
// may still start a send.
type leaseHolder struct {
	lease Lease
	now   Clock
	span  time.Duration
	leads func() bool
}

// newLease returns a fresh lease of claimant for span from now.
func newLease(claimant string, now Clock, span time.Duration, leads func() bool) leaseHolder {
	if span <= 0 {
		span = DefaultLease
	}
	return leaseHolder{lease: Lease{Claimant: claimant, Until: now().Add(span)}, now: now, span: span, leads: leads}
}

// mayStart reports whether a send may start now: this process still leads
// and at least half the lease is left.
func (h leaseHolder) mayStart() bool {
	if h.leads != nil && !h.leads() {
		return false
	}
	return h.now().Add(h.span / 2).Before(h.lease.Until)
}
