package postgres

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/app"
)

// Announcements between the processes sharing the database travel by
// LISTEN/NOTIFY on one channel. A payload is
// origin|kind|store id|base64 data; a process ignores its own.
const channel = "storefront_events"

var _ app.Broadcaster = (*DB)(nil)

// listener is the state of the LISTEN connection.
type listener struct {
	once   sync.Once
	origin string
	fn     func(app.Event)
	stop   context.CancelFunc
	done   chan struct{}
}

// Transactional announcements: the statements that write a store, a
// catalog record or a revocation also NOTIFY (RETURNING pg_notify), so the
// announcement is part of the transaction: PostgreSQL delivers it when, and
// only when, the transaction commits (a process killed right after its
// commit still has announced it), folds identical ones of one transaction
// into one, and it costs no extra round trip. Broadcast does not send these
// kinds again.
var transactional = map[string]bool{app.EventStore: true, app.EventCatalog: true, app.EventRevocation: true}

// announce is the clause that makes a write statement announce the event
// given as its parameter $n (Tx.event).
func announce(n int) string {
	return " RETURNING pg_notify('" + channel + "', $" + strconv.Itoa(n) + "::text)"
}

// event is the payload announcing a change made by this transaction.
func (t *Tx) event(kind string, storeID uint64, data []byte) string {
	return t.db.payload(app.Event{Kind: kind, StoreID: storeID, Data: data})
}

func (db *DB) payload(ev app.Event) string {
	return db.ln.origin + "|" + ev.Kind + "|" + strconv.FormatUint(ev.StoreID, 10) + "|" + base64.RawStdEncoding.EncodeToString(ev.Data)
}

// Broadcast announces ev to the other processes (NOTIFY, delivered at once);
// the kinds the transactions announce themselves are already on their way.
func (db *DB) Broadcast(ev app.Event) error {
	if transactional[ev.Kind] {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := db.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, db.payload(ev)); err != nil {
		return fmt.Errorf("postgres: notify: %w", err)
	}
	return nil
}

// OnBroadcast starts listening (once) and hands the other processes'
// announcements to fn. After the connection was lost and made again, fn gets
// an event with Lost set: announcements may have been missed meanwhile.
func (db *DB) OnBroadcast(fn func(app.Event)) {
	db.ln.once.Do(func() {
		db.ln.fn = fn
		ctx, cancel := context.WithCancel(context.Background())
		db.ln.stop, db.ln.done = cancel, make(chan struct{})
		ready := make(chan struct{})
		go db.listen(ctx, ready)
		select { // the first LISTEN, so that no change after start is missed
		case <-ready:
		case <-time.After(10 * time.Second):
		}
	})
}

func (db *DB) listen(ctx context.Context, ready chan struct{}) {
	defer close(db.ln.done)
	first := true
	for ctx.Err() == nil {
		err := db.listenOnce(ctx, func() {
			if first {
				first = false
				close(ready)
			} else {
				db.ln.fn(app.Event{Lost: true})
			}
		})
		if ctx.Err() != nil {
			return
		}
		db.log("listen for announcements: %v; reconnecting", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// listenOnce holds one LISTEN connection until it fails or ctx ends.
func (db *DB) listenOnce(ctx context.Context, listening func()) error {
	conn, err := pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		ev, origin, err := parseEvent(n.Payload)
		if err != nil {
			db.log("bad announcement %q: %v", n.Payload, err)
			continue
		}
		if origin != db.ln.origin {
			db.ln.fn(ev)
		}
	}
}

func parseEvent(p string) (app.Event, string, error) {
	parts := strings.SplitN(p, "|", 4)
	if len(parts) != 4 {
		return app.Event{}, "", errors.New("want 4 parts")
	}
	id, err := strconv.ParseUint(parts[2], 10, 64)
	if err != nil {
		return app.Event{}, "", err
	}
	data, err := base64.RawStdEncoding.DecodeString(parts[3])
	if err != nil {
		return app.Event{}, "", err
	}
	return app.Event{Kind: parts[1], StoreID: id, Data: data}, parts[0], nil
}

// log reports a background problem (the listener, the leader).
func (db *DB) log(format string, args ...any) {
	if db.Logf != nil {
		db.Logf(format, args...)
	}
}
