package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/app"
)

// Limiter is app.Limiter on the database: the login and other limits count
// across every process (a shopper's five wrong passwords are five wherever
// they land). A key holds one row per window length; a new window resets it.
type Limiter struct {
	db    *DB
	now   func() time.Time
	takes atomic.Int64
}

var _ app.Limiter = (*Limiter)(nil)

// Limiter returns the shared limiter on the clock now (nil: time.Now).
func (db *DB) Limiter(now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{db: db, now: now}
}

func windowOf(now time.Time, w time.Duration) time.Time {
	if w <= 0 {
		return now
	}
	return now.Truncate(w)
}

// Take implements app.Limiter.
func (l *Limiter) Take(key string, window time.Duration) (int, time.Duration, error) {
	now := l.now()
	start := windowOf(now, window)
	var n int
	err := l.db.shared(func(ctx context.Context) error {
		return l.db.pool.QueryRow(ctx, `INSERT INTO limits (key, window_ms, start, n) VALUES ($1, $2, $3, 1)
			ON CONFLICT (key, window_ms) DO UPDATE
			SET n = CASE WHEN limits.start = excluded.start THEN limits.n + 1 ELSE 1 END, start = excluded.start
			RETURNING n`, []byte(key), window.Milliseconds(), start).Scan(&n)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("postgres: take limit: %w", err)
	}
	if l.takes.Add(1)%1000 == 0 { // now and then, drop the windows long past
		_ = l.db.sharedExec("sweep limits", `DELETE FROM limits WHERE start < $1`, now.Add(-25*time.Hour))
	}
	return n, start.Add(window).Sub(now), nil
}

// Refund implements app.Limiter.
func (l *Limiter) Refund(key string, window time.Duration) error {
	start := windowOf(l.now(), window)
	return l.db.sharedExec("refund limit", `UPDATE limits SET n = greatest(n - 1, 0) WHERE key = $1 AND window_ms = $2 AND start = $3`,
		[]byte(key), window.Milliseconds(), start)
}

// Count implements app.Limiter.
func (l *Limiter) Count(key string, window time.Duration) (int, error) {
	start := windowOf(l.now(), window)
	var n int
	err := l.db.shared(func(ctx context.Context) error {
		err := l.db.pool.QueryRow(ctx, `SELECT n FROM limits WHERE key = $1 AND window_ms = $2 AND start = $3`,
			[]byte(key), window.Milliseconds(), start).Scan(&n)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: count limit: %w", err)
	}
	return n, nil
}
