package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/textproto"
	"time"
)

// Outbox delivery limits.
const (
	mailBackoffBase = 30 * time.Second
	mailBackoffMax  = time.Hour
	// DefaultMailMaxAge is how long a mail is retried before it is failed.
	DefaultMailMaxAge = 48 * time.Hour
	outboxBatch       = 50
)

// MailBackoff is the wait before attempt n+1 after n failed attempts:
// 30s, 1m, 2m, 4m ... capped at one hour.
func MailBackoff(n int) time.Duration {
	d := mailBackoffBase
	for i := 1; i < n && d < mailBackoffMax; i++ {
		d *= 2
	}
	return min(d, mailBackoffMax)
}

// OutboxWorker sends the queued mail of the outbox through a transport,
// retrying temporary failures with exponential backoff. Everything it knows
// is in the database, so a restart or an SMTP outage loses nothing. Each
// mail is leased before it is sent, so workers of several processes never
// send the same mail; a mail whose SMTP send succeeded but whose "sent" mark
// was lost (kill -9 between the two) is sent again, at least once, with the
// same Message-ID.
type OutboxWorker struct {
	DB        DB
	Transport Mailer // nil: nothing is sent, mail stays queued
	Now       Clock
	Log       *slog.Logger
	MaxAge    time.Duration // 0: DefaultMailMaxAge
	// Leads reports whether this process runs the cluster's workers (nil:
	// always; on PostgreSQL one process leads at a time, so one worker
	// sends each mail).
	Leads func() bool
	// PublicURL is the link of a store's brand without a store.url.
	PublicURL string
	// Lease is how long a claim on a batch holds (0: DefaultLease); a send
	// starts only while half of it is left.
	Lease time.Duration
	id    string // the claimant of this worker's leases
	wake  chan struct{}
}

// NewOutboxWorker returns the worker of s's outbox over s.Mailer.
func NewOutboxWorker(s *Services) *OutboxWorker {
	return &OutboxWorker{DB: s.DB, Transport: s.Mailer, Now: s.Now, Log: s.Log, PublicURL: s.Opt.PublicURL, wake: make(chan struct{}, 1)}
}

// Wake asks a running worker to look at the outbox now.
func (w *OutboxWorker) Wake() { wakeUp(w.wake) }

// Run sends due mail until ctx ends: at start, when woken, and every tick.
func (w *OutboxWorker) Run(ctx context.Context, tick time.Duration) {
	runLoop(ctx, w.wake, tick, func() {
		if w.Leads != nil && !w.Leads() {
			return
		}
		if _, err := w.runOnce(ctx); err != nil {
			w.Log.Error("outbox", "err", err)
		}
	})
}

// RunOnce makes one attempt at every mail due now and returns how many it
// attempted. Tests call it directly with a frozen clock. Each batch is
// leased before anything is sent (ClaimDueMail): a mail another worker
// holds is not due here, and a batch stops at the first attempt that cannot
// be recorded or when this process stops leading.
func (w *OutboxWorker) RunOnce() (int, error) { return w.runOnce(context.Background()) }

// runOnce is RunOnce until ctx ends: a mail being sent then is finished and
// recorded, and the rest of its batch is given back at once (due for the
// next process, not after the lease), so a stop waits for one send, not for
// the backlog.
func (w *OutboxWorker) runOnce(ctx context.Context) (int, error) {
	if w.Transport == nil {
		return 0, nil
	}
	total := 0
	for ctx.Err() == nil {
		h := newLease(w.claimant(), w.Now, w.Lease, w.Leads)
		due, unrendered, err := w.claim(h.lease)
		if err != nil {
			return total, err
		}
		n, err := w.sendBatch(ctx, h, due, unrendered)
		total += n
		if err != nil || n < len(due) || len(due) < outboxBatch {
			return total, err
		}
	}
	return total, nil
}

// claimant is this worker's id in the leases it takes.
func (w *OutboxWorker) claimant() string {
	if w.id == "" {
		w.id = "outbox-" + RandomHex(8)
	}
	return w.id
}

// claim leases a batch of due mail to l and renders it (outside the write:
// rendering is the costly part). A batch that cannot be rendered for want
// of its store is given back.
func (w *OutboxWorker) claim(l Lease) ([]*Mail, map[int]error, error) {
	due, err := view(w.DB, func(tx Tx) ([]*Mail, error) { return tx.DueMail(w.Now(), 1) })
	if err != nil || len(due) == 0 {
		return nil, nil, err // nothing due: no write (a wake per order must stay cheap)
	}
	err = w.DB.Update(func(tx Tx) error {
		var err error
		due, err = tx.ClaimDueMail(w.Now(), l, outboxBatch)
		return err
	})
	if err != nil || len(due) == 0 {
		return nil, nil, err
	}
	var unrendered map[int]error
	err = w.DB.View(func(tx Tx) error {
		var err error
		unrendered, err = renderMails(tx, w.PublicURL, due)
		return err
	})
	if err != nil {
		w.giveBack(due, l.Claimant)
		return nil, nil, err
	}
	return due, unrendered, nil
}

// sendBatch sends the leased mails one at a time while the lease and the
// lead allow, until ctx ends, and stops at the first attempt it cannot
// record (the database is gone, or another worker took the lease over): at
// most that one mail is sent twice. The mails it did not start are given
// back. It returns how many it attempted.
func (w *OutboxWorker) sendBatch(ctx context.Context, h leaseHolder, due []*Mail, unrendered map[int]error) (int, error) {
	for i, m := range due {
		if ctx.Err() != nil || !h.mayStart() {
			w.giveBack(due[i:], h.lease.Claimant)
			return i, nil
		}
		var renderErr error
		if e := unrendered[i]; e != nil {
			renderErr = PermanentError(fmt.Errorf("rendering the mail: %w", e))
		}
		if err := w.attempt(m, renderErr, h.lease.Claimant); err != nil {
			w.giveBack(due[i+1:], h.lease.Claimant)
			return i + 1, fmt.Errorf("outbox: recording mail %d of store %d (batch stopped): %w", m.ID, m.StoreID, err)
		}
	}
	return len(due), nil
}

// giveBack ends the leases of mails that were claimed but not sent, so
// that they are due again at once (best effort: a lease not given back
// lapses).
func (w *OutboxWorker) giveBack(ms []*Mail, claimant string) {
	if len(ms) == 0 {
		return
	}
	err := w.DB.Update(func(tx Tx) error {
		for _, m := range ms {
			if err := tx.EndMailLease(m.StoreID, m.ID, claimant); err != nil && !IsNotFound(err) && ErrorCode(err) != EConflict {
				return err
			}
		}
		return nil
	})
	if err != nil {
		w.Log.Warn("outbox: giving back unsent mail (its lease will lapse)", "err", err)
	}
}

// PermanentError marks err as one that retrying cannot fix: the outbox
// fails the mail at once (a transport's malformed recipient, a mail that
// cannot be rendered).
func PermanentError(err error) error { return permanent{err} }

type permanent struct{ error }

func (permanent) Permanent() bool { return true }
func (p permanent) Unwrap() error { return p.error }

// attempt sends m, rendered (unless rendering failed with renderErr), and
// records the outcome under claimant's lease; a sent mail keeps what was
// sent. The error is the recording's: the lease was lost, or the database.
func (w *OutboxWorker) attempt(m *Mail, renderErr error, claimant string) error {
	sendErr := renderErr
	if sendErr == nil {
		sendErr = w.Transport.Send(*m)
	}
	if sendErr != nil {
		w.Log.Warn("outbox: send failed", "store_id", m.StoreID, "mail_id", m.ID, "err", sendErr)
	}
	err := w.DB.Update(func(tx Tx) error {
		if err := tx.EndMailLease(m.StoreID, m.ID, claimant); err != nil {
			return err
		}
		cur, err := tx.Mail(m.StoreID, m.ID)
		if err != nil || cur.State() != MailQueued {
			return err
		}
		w.settle(cur, m, sendErr, UTC(tx.Now()))
		return tx.PutMail(cur)
	})
	if IsNotFound(err) {
		return nil // the mail is gone (its store was deleted)
	}
	return err
}

// settle moves cur on after an attempt to send m that ended with sendErr.
func (w *OutboxWorker) settle(cur, m *Mail, sendErr error, now time.Time) {
	maxAge := w.MaxAge
	if maxAge == 0 {
		maxAge = DefaultMailMaxAge
	}
	cur.Attempts++
	switch {
	case sendErr == nil:
		// what was sent is kept, an account mail's code masked: the
		// shopper has it, nobody who reads the outbox may
		m.Data = cur.Data
		kept := m.MaskCodes()
		cur.Status, cur.SentAt, cur.LastError = MailSent, now, ""
		cur.Subject, cur.Text, cur.HTML, cur.Data = kept.Subject, kept.Text, kept.HTML, nil
	case permanentMailError(sendErr):
		cur.Status, cur.LastError = MailFailed, sendErr.Error()
	case now.Sub(cmp.Or(cur.QueuedAt, cur.CreatedAt)) >= maxAge:
		cur.Status, cur.LastError = MailFailed, "gave up after "+itoa(cur.Attempts)+" attempts: "+sendErr.Error()
	default:
		cur.LastError, cur.NextAt = sendErr.Error(), now.Add(MailBackoff(cur.Attempts))
	}
}

// permanentMailError reports whether retrying cannot help: an SMTP 5xx reply
// or an error that says so (a malformed recipient).
func permanentMailError(err error) bool {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code >= 500
	}
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

// RetryMail queues a failed mail again, due now (admin), and returns it as
// the outbox shows it (codes masked: the send renders them again from its
// data). Errors: not_found, conflict (sent already).
func (s *Services) RetryMail(storeID, id uint64) (*Mail, error) {
	var m *Mail
	err := s.DB.Update(func(tx Tx) error {
		var err error
		if m, err = tx.Mail(storeID, id); err != nil {
			return err
		}
		if m.State() == MailSent {
			return Errorf(EConflict, "this mail was sent already")
		}
		m.Status, m.NextAt, m.QueuedAt, m.Attempts = MailQueued, UTC(tx.Now()), UTC(tx.Now()), 0
		return tx.PutMail(m)
	})
	if err != nil {
		return m, err
	}
	s.Kick()
	// Shown rendered, as the outbox lists it: outside the write, and for
	// display only (the retry stands if the store cannot be read now).
	ms := []*Mail{m}
	_ = s.DB.View(func(tx Tx) error { return renderMasked(tx, s.Opt.PublicURL, ms) })
	return ms[0], nil
}

func wakeUp(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// wakeGap is the least time between two runs of a worker that a wake starts:
// under a checkout load every order wakes both workers, and a look at the
// outbox per order cost more CPU than the mail it never found. A burst of
// commits is looked at once, at most this much later.
const wakeGap = 10 * time.Millisecond

// runLoop calls fn at once, then whenever woken (at most once per wakeGap)
// or every tick, until ctx ends.
func runLoop(ctx context.Context, wake chan struct{}, tick time.Duration, fn func()) {
	if tick <= 0 {
		tick = 10 * time.Second
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		ran := time.Now()
		fn()
		select {
		case <-ctx.Done():
			return
		case <-wake:
			if d := wakeGap - time.Since(ran); d > 0 {
				gap := time.NewTimer(d)
				select {
				case <-ctx.Done():
					gap.Stop()
					return
				case <-gap.C:
				}
			}
		case <-t.C:
		}
	}
}
