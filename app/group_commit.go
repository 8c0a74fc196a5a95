package app

import "sync/atomic"

// groupCommit runs the hot checkout writes: order initiation (OrderService)
// and payment verification (PaymentService) share one, so that they group
// with each other. Alone, a write runs as a plain Update: waiting for company
// would only add the batch delay. With others in flight it joins DB.Batch, which commits the
// whole group with one fsync. Either way fn has committed (fsynced) when it
// returns nil, and fn must be idempotent, for Batch may run it twice.
type groupCommit struct{ inflight atomic.Int32 }

func (g *groupCommit) run(db DB, fn func(Tx) error) error {
	defer g.inflight.Add(-1)
	if g.inflight.Add(1) == 1 {
		return db.Update(fn)
	}
	return db.Batch(fn)
}
