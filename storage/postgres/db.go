// Package postgres implements app.DB on PostgreSQL with pgx (pgxpool, plain
// SQL, no ORM), for several binaries sharing one database.
//
// Every record is a row of its entity's table: the key and the columns that
// lists filter and sort on, and the record itself as JSON (the same documents
// the bbolt backend stores). Lists are keyset pages on real indexes whose
// cursor keys are byte for byte those of the bbolt backend, so a cursor stays
// good across a migration and clients see the same opaque strings.
//
// Writes: every write transaction takes, before it touches a store, a
// transaction-scoped advisory lock on that store (store 0 for the global
// records: stores' subdomains and keys, admins). Writers of one store thus
// run one at a time, in every process, like bbolt's single writer, and each
// statement of READ COMMITTED sees every write committed before: the domain's
// read-check-write functions (stock, coupon uses, one review per shopper,
// one pending request, per-store sequences, idempotency keys) stay exact
// across processes. Deadlocks (two stores locked in opposite orders) and
// serialization failures are retried: the domain's functions are re-runnable.
// Reads run in REPEATABLE READ READ ONLY transactions: one snapshot, no locks.
//
// postgres imports app and pgx. It must not import web, admin or storage.
package postgres

import (
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"storefront/app"
)

// DB is a PostgreSQL database implementing app.DB.
type DB struct {
	pool *pgxpool.Pool
	// stores memoizes decoded store records for SharedStore.
	stores sync.Map // store id -> memoStore
	// Now is the clock of every transaction; tests freeze it.
	Now func() time.Time
	// Timeout bounds one transaction (with its retries).
	Timeout time.Duration
	// Logf reports problems of the background connections (nil: silent).
	Logf func(format string, args ...any)

	ln listener // LISTEN/NOTIFY announcements (notify.go)

	full fullState // disk_full answers (full.go)

	cache recordCache // per-store records served under the lock (storecache.go)

	closeOnce sync.Once // Close runs once: serve closes explicitly and by defer

	unavailWarn atomic.Int64 // unix nanoseconds of the last "cannot be reached" WARN (unavailable.go)
}

var _ app.DB = (*DB)(nil)
var _ app.Tx = (*Tx)(nil)

// Options tune Open.
type Options struct {
	// MaxConns caps the pool (0: the URL's pool_max_conns, else DefaultMaxConns).
	MaxConns int32
	// NoMigrate opens without applying migrations (migrate status).
	NoMigrate bool
	// Tracer, when set, sees every statement and batch of the pool's
	// connections (tests count the round trips of a request with it).
	Tracer pgx.QueryTracer
}

// DefaultMaxConns is the pool size of a process unless the configuration or
// the URL's pool_max_conns sets one: max(8, 2 x CPUs), not pgxpool's max(4,
// CPUs). A transaction holds its connection while the binary works between
// its statements: 64 clients' catalog pages (issue 13, before they were
// cached) on a two-CPU machine mostly waited for one of 4 connections, and the waits and
// hand-offs cost the binary CPU: 60-77 us a page at 4 connections, 46-59 us
// at 8 (same sittings, load 9), with more pages served and no more of the
// server's CPU per page.
func DefaultMaxConns() int32 { return int32(max(8, 2*runtime.NumCPU())) }

// Open connects to the database at url (a postgres:// URL or a key=value
// string), checks that it answers and applies the pending migrations under
// an advisory lock, so that binaries starting together migrate once.
func Open(url string, opt Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: bad storage.postgres.url: %w", err)
	}
	switch {
	case opt.MaxConns > 0:
		cfg.MaxConns = opt.MaxConns
	case !strings.Contains(url, "pool_max_conns"):
		cfg.MaxConns = DefaultMaxConns()
	}
	if opt.Tracer != nil {
		cfg.ConnConfig.Tracer = opt.Tracer
	}
	if cfg.AfterConnect, err = onConnect(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connect %s@%s/%s: %w", cfg.ConnConfig.User, cfg.ConnConfig.Host, cfg.ConnConfig.Database, err)
	}
	db := &DB{pool: pool, Now: time.Now, Timeout: time.Minute}
	db.ln.origin = fmt.Sprintf("%x", randomBytes(8))
	if !opt.NoMigrate {
		if _, err := db.Migrate(ctx); err != nil {
			db.Close()
			return nil, err
		}
		if err := db.stampDocs(); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

// Close stops listening and closes the pool. It is safe to call more than
// once (and from several goroutines): the calls after the first do nothing.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		if db.ln.stop != nil {
			db.ln.stop()
			<-db.ln.done
		}
		db.pool.Close()
	})
	return nil
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	crand.Read(b)
	return b
}

// Pool exposes the pool for its statistics.
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// Ping checks that the database answers.
func (db *DB) Ping() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := db.pool.Ping(ctx); err != nil {
		return db.unavailable(fmt.Errorf("postgres: ping: %w", err))
	}
	return nil
}

// View runs fn in a read-only transaction on one snapshot.
func (db *DB) View(fn func(app.Tx) error) error {
	return db.run(false, fn)
}

// Update runs fn in a write transaction and commits on nil. fn may run more
// than once (after a deadlock or serialization failure).
func (db *DB) Update(fn func(app.Tx) error) error { return db.run(true, fn) }

// Batch is Update: PostgreSQL groups concurrent commits itself.
func (db *DB) Batch(fn func(app.Tx) error) error { return db.run(true, fn) }

// maxAttempts bounds the retries of a transaction that keeps failing on
// serialization or deadlock.
const maxAttempts = 30

// run runs fn in a transaction (retried on serialization failures and
// deadlocks); a disk_full answer becomes storage_full (full.go), a lost
// connection storage_unavailable (unavailable.go).
func (db *DB) run(write bool, fn func(app.Tx) error) error {
	return db.unavailable(db.checkFull(write, db.runTx(write, fn)))
}

func (db *DB) runTx(write bool, fn func(app.Tx) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), db.Timeout)
	defer cancel()
	for attempt := 1; ; attempt++ {
		err := db.attempt(ctx, write, fn)
		if err == nil || !retryable(err) || attempt == maxAttempts || ctx.Err() != nil {
			return err
		}
		// Back off a little, more after each attempt, with jitter.
		d := time.Duration(attempt) * time.Millisecond
		d += rand.N(d + time.Millisecond)
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return err
		}
	}
}

func (db *DB) attempt(ctx context.Context, write bool, fn func(app.Tx) error) (err error) {
	t := &Tx{ctx: ctx, now: db.Now(), write: write, db: db}
	defer func() {
		if p := recover(); p != nil {
			t.end()
			panic(p)
		}
		t.end()
	}()
	if err = fn(t); err != nil {
		if t.err != nil && (retryable(t.err) || t.deferred) {
			// The function may have wrapped or replaced it; a write sent
			// late failed first (its error reached a later statement).
			return t.err
		}
		return err
	}
	if t.err != nil { // a failed statement the function did not report
		return t.err
	}
	return t.commit()
}

// retryable reports a serialization failure or a deadlock.
func retryable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	return false
}

// Secret returns the 32-byte secret stored as name, creating it on first use
// (the first process to store it wins; every process then reads the same).
func (db *DB) Secret(name string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	fresh := make([]byte, 32)
	if _, err := crand.Read(fresh); err != nil {
		return nil, err
	}
	// When another process inserts the same secret at the same moment, this
	// INSERT waits for its commit and then does nothing, while the SELECT
	// still reads the snapshot taken before it: no row. The statement run
	// again sees the other's secret. (Two binaries starting together on a new
	// database hit it: TestClusterSendsOnce.)
	var out []byte
	var err error
	for range 3 {
		err = db.pool.QueryRow(ctx, `WITH ins AS (
			INSERT INTO meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value)
			SELECT value FROM ins UNION ALL SELECT value FROM meta WHERE name = $1 LIMIT 1`, "secret:"+name, fresh).Scan(&out)
		if !errors.Is(err, pgx.ErrNoRows) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: make secret %s: %w", name, err)
	}
	return out, nil
}

// Tx is one transaction; it implements app.Tx. Its statements go out in
// pipelines (pipeline.go): BEGIN, the store locks and the writes whose
// result nothing waits for are sent with the next statement that returns
// something, or with COMMIT.
type Tx struct {
	ctx      context.Context
	conn     *pgxpool.Conn // acquired at the first statement
	queue    []queued      // statements not sent yet
	deferred bool          // t.err came from a statement sent late
	now      time.Time
	write    bool
	db       *DB
	locked   []uint64              // stores this write transaction holds the lock of
	err      error                 // the first infrastructure error, returned at commit
	snaps    map[uint64]*storeSnap // counters read with each lock (storecache.go)
	dirty    map[uint64]bool       // stores whose cached records this transaction wrote
}

// Now is the transaction's clock.
func (t *Tx) Now() time.Time { return t.now }

// noLock is a store id meaning "no store lock" (statements on rows that no
// read-check-write depends on, such as expired revocations).
const noLock = ^uint64(0)

// lock takes the write lock of a store (0: the global records) once per
// transaction. In a read transaction it does nothing.
func (t *Tx) lock(storeID uint64) error {
	if !t.write || storeID == noLock {
		return nil
	}
	for _, id := range t.locked {
		if id == storeID {
			return nil
		}
	}
	// Sent with the next statement: nothing of the store is read or written
	// before the lock is granted, and the round trip is saved.
	if err := t.enqueue(fmt.Sprintf("lock store %d", storeID), `SELECT pg_advisory_xact_lock($1)`, int64(storeID)); err != nil {
		return err
	}
	t.locked = append(t.locked, storeID)
	return t.readCounters(storeID)
}

// fail records the first infrastructure error: the transaction will not
// commit even if the caller drops it.
func (t *Tx) fail(err error) error {
	if t.err == nil {
		t.err = err
	}
	return err
}

// NextID allocates the next id of a per-store sequence.
func (t *Tx) NextID(storeID uint64, seq string) (uint64, error) {
	if err := t.lock(storeID); err != nil {
		return 0, err
	}
	if n, ok, err := t.nextLocal(storeID, seq); ok || err != nil {
		return n, err
	}
	var n int64
	err := t.queryRow(`INSERT INTO counters (store_id, name, value) VALUES ($1, $2, 1)
		ON CONFLICT (store_id, name) DO UPDATE SET value = counters.value + 1 RETURNING value`, int64(storeID), seq).Scan(&n)
	if err != nil {
		return 0, t.fail(fmt.Errorf("postgres: next id %s: %w", seq, err))
	}
	t.noteCounter(storeID, seq, n) // the counters read with the lock came before it
	return uint64(n), nil
}

// exec runs a write statement after taking the store's lock. It is sent
// with the next statement that returns something (or COMMIT): its error, a
// unique violation included, is the transaction's and comes back from there.
func (t *Tx) exec(storeID uint64, what, sql string, args ...any) error {
	if err := t.lock(storeID); err != nil {
		return err
	}
	return t.enqueue(what, sql, args...)
}

// execN is exec returning the number of rows it touched.
func (t *Tx) execN(storeID uint64, what, sql string, args ...any) (int64, error) {
	if err := t.lock(storeID); err != nil {
		return 0, err
	}
	tag, err := t.execNow(what, sql, args...)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

// mapErr turns a unique violation into conflict and wraps everything else.
func (t *Tx) mapErr(what string, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "store_domains_pkey" {
		return t.fail(&app.Error{Code: app.EConflict, Message: "a domain of the store is used by another store",
			Fields: map[string]string{"domains": "already used by another store"}})
	}
	if errors.As(err, &pe) && pe.Code == "23505" {
		return t.fail(&app.Error{Code: app.EConflict, Message: what + ": already exists"})
	}
	return t.fail(fmt.Errorf("postgres: %s: %w", what, err))
}

// get reads one JSON document into v, or returns not_found naming what.
func (t *Tx) get(storeID uint64, v any, what, sql string, args ...any) error {
	raw, err := t.raw(storeID, what, sql, args...)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return t.fail(fmt.Errorf("postgres: decode %s: %w", what, err))
	}
	return nil
}

// raw reads one bytes column, or returns not_found naming what.
func (t *Tx) raw(storeID uint64, what, sql string, args ...any) ([]byte, error) {
	if err := t.lock(storeID); err != nil {
		return nil, err
	}
	var raw []byte
	err := t.queryRow(sql, args...).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, app.NotFound(what)
	}
	if err != nil {
		return nil, t.fail(fmt.Errorf("postgres: read %s: %w", what, err))
	}
	return raw, nil
}

// exists reports whether a query returns a row.
func (t *Tx) exists(storeID uint64, what, sql string, args ...any) (bool, error) {
	if err := t.lock(storeID); err != nil {
		return false, err
	}
	var one int
	err := t.queryRow(sql, args...).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, t.fail(fmt.Errorf("postgres: read %s: %w", what, err))
	}
	return true, nil
}

// id64 reads one bigint column; ok is false when there is no row.
func (t *Tx) id64(storeID uint64, what, sql string, args ...any) (uint64, bool, error) {
	if err := t.lock(storeID); err != nil {
		return 0, false, err
	}
	var id int64
	err := t.queryRow(sql, args...).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, t.fail(fmt.Errorf("postgres: read %s: %w", what, err))
	}
	return uint64(id), true, nil
}

// all reads every JSON document a query returns.
func all[T any](t *Tx, storeID uint64, what, sql string, args ...any) ([]*T, error) {
	if err := t.lock(storeID); err != nil {
		return nil, err
	}
	rows, err := t.query(sql, args...)
	if err != nil {
		return nil, t.fail(fmt.Errorf("postgres: list %s: %w", what, err))
	}
	defer rows.Close()
	out := []*T{}
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			return nil, t.fail(fmt.Errorf("postgres: list %s: %w", what, err))
		}
		var x T
		if err := json.Unmarshal(raw, &x); err != nil {
			return nil, t.fail(fmt.Errorf("postgres: decode %s: %w", what, err))
		}
		out = append(out, &x)
	}
	if err := rows.Err(); err != nil {
		return nil, t.fail(fmt.Errorf("postgres: list %s: %w", what, err))
	}
	return out, nil
}

// encode is json.Marshal with the package's error.
func encode(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("postgres: encode: %w", err)
	}
	return raw, nil
}

func i64(v uint64) int64 { return int64(v) }

// bs is a string for a bytea column (identifiers compared byte for byte).
func bs(s string) []byte { return []byte(s) }

// text reports whether s can be a parameter of a text column (PostgreSQL
// text holds valid UTF-8 without NUL); a lookup of another string finds nothing.
func text(s string) bool { return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 }
