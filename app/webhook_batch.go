package app

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// webhookBatch is how many deliveries a worker leases at a time.
const webhookBatch = 100

// claimant is this worker's id in the leases it takes.
func (ww *WebhookWorker) claimant() string {
	if ww.id == "" {
		ww.id = "webhooks-" + RandomHex(8)
	}
	return ww.id
}

// timeout is the bound of one request.
func (ww *WebhookWorker) timeout() time.Duration {
	if ww.Timeout <= 0 {
		return 10 * time.Second
	}
	return ww.Timeout
}

// leaseSpan is the worker's lease: Lease, else DefaultLease or, with a long
// request timeout, three of them (a send may take half the lease).
func (ww *WebhookWorker) leaseSpan() time.Duration {
	if ww.Lease > 0 {
		return ww.Lease
	}
	return max(DefaultLease, 3*ww.timeout())
}

// claim leases a batch of due deliveries to l; when nothing is due it
// writes nothing (a wake per order must stay cheap).
func (ww *WebhookWorker) claim(l Lease) ([]*WebhookDelivery, error) {
	due, err := view(ww.DB, func(tx Tx) ([]*WebhookDelivery, error) { return tx.DueWebhookDeliveries(ww.Now(), 1) })
	if err != nil || len(due) == 0 {
		return nil, err
	}
	err = ww.DB.Update(func(tx Tx) error {
		var err error
		due, err = tx.ClaimDueWebhookDeliveries(ww.Now(), l, webhookBatch)
		return err
	})
	return due, err
}

// deliveryRun is one leased batch being delivered.
type deliveryRun struct {
	ww      *WebhookWorker
	ctx     context.Context
	h       leaseHolder
	slots   chan struct{} // the deliveries in flight
	stop    atomic.Bool   // an attempt could not be recorded, or the lead is gone
	started []atomic.Bool
	mu      sync.Mutex
	err     error
}

// deliverBatch delivers leased deliveries: up to PerEndpoint at once to one
// endpoint and Concurrency in all, so a slow endpoint does not hold the
// others up and a burst drains at the speed its receivers answer. It stops
// starting deliveries as soon as one attempt cannot be recorded (at most the
// ones in flight then are sent twice), the lease runs short or the lead is
// gone; the deliveries it did not start are given back. It returns how many
// it attempted.
func (ww *WebhookWorker) deliverBatch(ctx context.Context, h leaseHolder, due []*WebhookDelivery) (int, error) {
	r := &deliveryRun{ww: ww, ctx: ctx, h: h, slots: make(chan struct{}, positive(ww.Concurrency, 32)),
		started: make([]atomic.Bool, len(due))}
	var wg sync.WaitGroup
	for _, idx := range byEndpoint(due) {
		q := make(chan int, len(idx))
		for _, i := range idx {
			q <- i
		}
		close(q)
		for range min(positive(ww.PerEndpoint, 8), len(idx)) {
			wg.Go(func() {
				for i := range q {
					r.deliver(due, i)
				}
			})
		}
	}
	wg.Wait()
	n := 0
	var back []*WebhookDelivery
	for i, d := range due {
		if r.started[i].Load() {
			n++
		} else {
			back = append(back, d)
		}
	}
	ww.giveBack(back, h.lease.Claimant)
	return n, r.err
}

// deliver makes the attempt of due[i] unless the run has stopped.
func (r *deliveryRun) deliver(due []*WebhookDelivery, i int) {
	r.slots <- struct{}{}
	defer func() { <-r.slots }()
	if r.stop.Load() || r.ctx.Err() != nil || !r.h.mayStart() {
		r.stop.Store(true)
		return
	}
	r.started[i].Store(true)
	if err := r.ww.attempt(r.ctx, due[i], r.h.lease.Claimant); err != nil {
		r.stop.Store(true)
		r.mu.Lock()
		if r.err == nil {
			r.err = err
		}
		r.mu.Unlock()
	}
}

// byEndpoint groups the indexes of ds by endpoint, in order.
func byEndpoint(ds []*WebhookDelivery) [][]int {
	type ep struct{ store, id uint64 }
	at := map[ep]int{}
	var out [][]int
	for i, d := range ds {
		k := ep{d.StoreID, d.EndpointID}
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, nil)
		}
		out[j] = append(out[j], i)
	}
	return out
}

// giveBack ends the leases of deliveries that were claimed but not
// attempted (best effort: a lease not given back lapses).
func (ww *WebhookWorker) giveBack(ds []*WebhookDelivery, claimant string) {
	if len(ds) == 0 {
		return
	}
	err := ww.DB.Update(func(tx Tx) error {
		for _, d := range ds {
			if err := tx.EndDeliveryLease(d.StoreID, d.ID, claimant); err != nil && !IsNotFound(err) && ErrorCode(err) != EConflict {
				return err
			}
		}
		return nil
	})
	if err != nil {
		ww.Log.Warn("webhooks: giving back unsent deliveries (their leases will lapse)", "err", err)
	}
}

func positive(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}
