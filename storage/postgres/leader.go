package postgres

import (
	"context"
	"hash/fnv"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// Leader is one process's bid to run the cluster-wide jobs (pending-order
// expiry, mail and webhook workers): the process holding a session advisory
// lock on its own connection leads; when it dies its connection closes, the
// lock is released and another process takes it within Interval.
type Leader struct {
	db       *DB
	key      int64
	leading  atomic.Bool
	Interval time.Duration
	stop     context.CancelFunc
	done     chan struct{}
}

// Lead starts bidding for the lead of name until Stop.
func (db *DB) Lead(name string) *Leader {
	h := fnv.New64a()
	h.Write([]byte("storefront leader " + name))
	l := &Leader{db: db, key: int64(h.Sum64() | 1<<63), Interval: time.Second, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	l.stop = cancel
	go l.run(ctx)
	return l
}

// Leading reports whether this process leads now.
func (l *Leader) Leading() bool { return l.leading.Load() }

// Stop gives the lead up (closing the connection releases the lock).
func (l *Leader) Stop() {
	l.stop()
	<-l.done
}

func (l *Leader) run(ctx context.Context) {
	defer close(l.done)
	defer l.leading.Store(false)
	for ctx.Err() == nil {
		err := l.hold(ctx)
		l.leading.Store(false)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			l.db.log("leader election: %v; retrying", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(l.Interval):
		}
	}
}

// hold bids on one connection: every Interval it tries the lock until it
// has it, then checks that the connection (and so the lock) is alive.
func (l *Leader) hold(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, l.db.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	for {
		if l.leading.Load() {
			if _, err := conn.Exec(ctx, `SELECT 1`); err != nil {
				return err
			}
		} else {
			var got bool
			if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, l.key).Scan(&got); err != nil {
				return err
			}
			l.leading.Store(got)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(l.Interval):
		}
	}
}
