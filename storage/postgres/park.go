package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// A read-only transaction has nothing to commit, but its COMMIT is a round
// trip of its own (most views run one statement: a read would cost two).
// So a view that ends cleanly does not send it: its connection is parked,
// still inside the transaction, and the next transaction to take it sends
// that COMMIT first in its own first round trip ([COMMIT, BEGIN, ...]).
// Nothing is lost by the wait: the transaction wrote nothing and holds no
// lock a writer needs (only its tables' ACCESS SHARE and a snapshot). A
// connection nobody takes within parkTTL is committed and released by a
// janitor, so an idle process holds no open transaction for longer.
//
// Transactions take connections through tokens (DB.conns, one per pooled
// connection): a waiting transaction gets whichever comes first, a parked
// connection or a token to acquire one from the pool, so no transaction
// waits in the pool while another's connection sits parked.

// parkTTL is how long a parked connection waits for a taker (tests lengthen it).
var parkTTL atomic.Int64

func init() { parkTTL.Store(int64(2 * time.Millisecond)) }

type parkedConn struct {
	c  *pgxpool.Conn
	at time.Time
}

// parking is the state of the parked connections.
type parking struct {
	conns  chan struct{}   // tokens: one per connection a transaction holds or parked
	parked chan parkedConn // connections inside a finished read transaction
	wake   chan struct{}   // tells the janitor something was parked
	// idle is set while the janitor waits for a wake: only then does a park
	// send one (under load the janitor wakes once per parkTTL, not per read).
	idle atomic.Bool
	stop chan struct{}
	done chan struct{}
}

// errParked marks the failure of a parked transaction's COMMIT: nothing of
// the transaction that sent it ran, so it is run again on another connection.
var errParked = errors.New("postgres: ending a parked read transaction failed")

func (db *DB) startParking(maxConns int32) {
	p := &db.park
	p.conns = make(chan struct{}, maxConns)
	p.parked = make(chan parkedConn, maxConns)
	p.wake = make(chan struct{}, 1)
	p.stop = make(chan struct{})
	p.done = make(chan struct{})
	go db.janitor()
}

// acquire returns a connection for a transaction; parked is set when it is
// inside a finished read transaction whose COMMIT the caller must send first.
func (db *DB) acquire(ctx context.Context) (c *pgxpool.Conn, parked bool, err error) {
	p := &db.park
	select { // a parked connection first: its COMMIT rides along for free
	case pc := <-p.parked:
		return pc.c, true, nil
	default:
	}
	select {
	case pc := <-p.parked:
		return pc.c, true, nil
	case p.conns <- struct{}{}:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	c, err = db.pool.Acquire(ctx)
	if err != nil {
		<-p.conns
		return nil, false, err
	}
	return c, false, nil
}

// release gives a connection back to the pool with its token.
func (db *DB) release(c *pgxpool.Conn) {
	c.Release()
	<-db.park.conns
}

// parkConn parks a connection inside a finished read transaction.
func (db *DB) parkConn(c *pgxpool.Conn) {
	db.park.parked <- parkedConn{c: c, at: time.Now()} // never full: one slot per token
	if db.park.idle.Load() && db.park.idle.CompareAndSwap(true, false) {
		select {
		case db.park.wake <- struct{}{}:
		default:
		}
	}
}

// janitor commits and releases the connections parked for parkTTL. Once
// woken it looks every parkTTL until nothing is parked, then waits for a
// wake again: a park sends one only while it waits (idle), so under load it
// wakes once per parkTTL, not once per read.
func (db *DB) janitor() {
	p := &db.park
	defer close(p.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		// idle first, then look: a connection parked before idle was set
		// is seen by the look, one parked after it sends a wake.
		p.idle.Store(true)
		if len(p.parked) == 0 {
			select {
			case <-p.stop:
				db.unpark(0)
				return
			case <-p.wake:
			}
		}
		p.idle.Store(false)
		select {
		case <-p.wake: // a wake sent just before idle was cleared
		default:
		}
		timer.Reset(time.Duration(parkTTL.Load()))
		select {
		case <-p.stop:
			db.unpark(0)
			return
		case <-timer.C:
		}
		db.unpark(time.Duration(parkTTL.Load()))
	}
}

// unpark commits and releases the connections parked for at least age.
func (db *DB) unpark(age time.Duration) {
	p := &db.park
	for n := len(p.parked); n > 0; n-- {
		var pc parkedConn
		select {
		case pc = <-p.parked:
		default:
			return
		}
		if time.Since(pc.at) < age {
			p.parked <- pc // back in the queue (still a slot: it was just taken)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if _, err := pc.c.Exec(ctx, "COMMIT"); err != nil {
			db.log("ending a parked read transaction: %v", err)
		}
		cancel()
		db.release(pc.c) // a connection still in a transaction is closed by the pool
	}
}

// stopParking ends every parked transaction and the janitor.
func (db *DB) stopParking() {
	if db.park.stop == nil {
		return
	}
	close(db.park.stop)
	<-db.park.done
}

// parkedCommit is the COMMIT a transaction sends first on a parked connection.
func parkedCommit(sql string) queued {
	return queued{what: "end a parked read", sql: sql, wrap: func(err error) error {
		return fmt.Errorf("%w: %w", errParked, err)
	}}
}
