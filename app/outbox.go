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
// is in the database, so a restart or an SMTP outage loses nothing. Run one
// per database: a mail whose SMTP send succeeded but whose "sent" mark was
// lost (kill -9 between the two) is sent again, at least once.
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
	wake      chan struct{}
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
		if _, err := w.RunOnce(); err != nil {
			w.Log.Error("outbox", "err", err)
		}
	})
}

// RunOnce makes one attempt at every mail due now and returns how many it
// attempted. Tests call it directly with a frozen clock.
func (w *OutboxWorker) RunOnce() (int, error) {
	if w.Transport == nil {
		return 0, nil
	}
	total := 0
	for {
		var due []*Mail
		var unrendered map[int]error
		err := w.DB.View(func(tx Tx) error {
			var err error
			if due, err = tx.DueMail(w.Now(), outboxBatch); err != nil {
				return err
			}
			unrendered, err = renderMails(tx, w.PublicURL, due)
			return err
		})
		if err != nil {
			return total, err
		}
		for i, m := range due {
			var renderErr error
			if e := unrendered[i]; e != nil {
				renderErr = PermanentError(fmt.Errorf("rendering the mail: %w", e))
			}
			w.attempt(m, renderErr)
		}
		total += len(due)
		if len(due) < outboxBatch {
			return total, nil
		}
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
// records the outcome; a sent mail keeps what was sent.
func (w *OutboxWorker) attempt(m *Mail, renderErr error) {
	maxAge := w.MaxAge
	if maxAge == 0 {
		maxAge = DefaultMailMaxAge
	}
	sendErr := renderErr
	if sendErr == nil {
		sendErr = w.Transport.Send(*m)
	}
	err := w.DB.Update(func(tx Tx) error {
		cur, err := tx.Mail(m.StoreID, m.ID)
		if err != nil || cur.State() != MailQueued {
			return err
		}
		now := UTC(tx.Now())
		cur.Attempts++
		switch {
		case sendErr == nil:
			cur.Status, cur.SentAt, cur.LastError = MailSent, now, ""
			cur.Subject, cur.Text, cur.HTML, cur.Data = m.Subject, m.Text, m.HTML, nil
		case permanentMailError(sendErr):
			cur.Status, cur.LastError = MailFailed, sendErr.Error()
		case now.Sub(cmp.Or(cur.QueuedAt, cur.CreatedAt)) >= maxAge:
			cur.Status, cur.LastError = MailFailed, "gave up after "+itoa(cur.Attempts)+" attempts: "+sendErr.Error()
		default:
			cur.LastError, cur.NextAt = sendErr.Error(), now.Add(MailBackoff(cur.Attempts))
		}
		return tx.PutMail(cur)
	})
	if err != nil {
		w.Log.Error("outbox: recording an attempt", "store_id", m.StoreID, "mail_id", m.ID, "err", err)
	}
	if sendErr != nil {
		w.Log.Warn("outbox: send failed", "store_id", m.StoreID, "mail_id", m.ID, "err", sendErr)
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
// the outbox shows it. Errors: not_found, conflict (sent already).
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
	_ = s.DB.View(func(tx Tx) error { _, err := renderMails(tx, s.Opt.PublicURL, ms); return err })
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
