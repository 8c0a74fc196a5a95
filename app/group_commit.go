package app

// groupCommit runs the hot checkout writes: order initiation (OrderService)
// and payment verification (PaymentService) share one, so that they group
// with each other. Every write goes through DB.Batch, whose group commit
// (storage/batch.go) does not wait for company: a lone write commits at
// once, and writes arriving while a commit is being written go together in
// the next one, with one fsync. It used to run a write that found no other
// in flight as a plain Update; under load that took bbolt's writer lock for a
// one-write commit while the others queued behind it (issue 15: at 64
// connections about one write per commit). fn has committed (fsynced) when
// run returns nil, and fn must be idempotent, for Batch may run it twice.
type groupCommit struct{}

func (g *groupCommit) run(db DB, fn func(Tx) error) error { return db.Batch(fn) }
