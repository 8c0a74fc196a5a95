package postgres

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"storefront/app"
)

// A full disk on PostgreSQL (docs/decisions.md, "Operations"): the server
// refuses a statement it has no room for with SQLSTATE 53100 disk_full (a
// WAL or data file that cannot grow) and rolls the transaction back. That is
// answered as on bbolt (storage/full.go): 507 storage_full with Retry-After,
// one WARN a minute, readiness 503 and the storage_full metrics until a write
// succeeds again.

// sqlDiskFull is PostgreSQL's SQLSTATE for "could not extend file: No space
// left on device" and its kin.
const sqlDiskFull = "53100"

// StorageFullRetry is the Retry-After of storage_full, in seconds (as on bbolt).
const StorageFullRetry = 30

type fullState struct {
	probed   atomic.Bool // Ready has tried a write once (a disk still full at start)
	full     atomic.Bool
	errors   atomic.Int64
	lastWarn atomic.Int64 // unix nanoseconds of the last WARN
}

// isDiskFull reports whether err (wrapped or not) is PostgreSQL's disk_full.
func isDiskFull(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == sqlDiskFull
}

// errStorageFull is the app error of a statement the disk had no room for.
func errStorageFull(msg string) *app.Error {
	return &app.Error{Code: app.EStorageFull, Message: msg, RetryAfter: StorageFullRetry}
}

// checkFull turns the outcome of a transaction into the answer: disk_full
// sets the full state and becomes storage_full; a committed write clears the
// state; other errors pass through.
func (db *DB) checkFull(write bool, err error) error {
	if err == nil {
		if write && db.full.full.CompareAndSwap(true, false) && db.Logf != nil {
			db.Logf("storage: the database has room again; writes succeed")
		}
		return nil
	}
	if !isDiskFull(err) {
		return err
	}
	db.full.full.Store(true)
	db.full.errors.Add(1)
	now := time.Now().UnixNano()
	if last := db.full.lastWarn.Load(); now-last >= int64(time.Minute) && db.full.lastWarn.CompareAndSwap(last, now) && db.Logf != nil {
		db.Logf("storage: the PostgreSQL server's disk is full; writes answer 507 storage_full until space is freed (logged once a minute): %v (failed writes: %d)",
			err, db.full.errors.Load())
	}
	return errStorageFull("the server's disk is full; retry later")
}

// Full reports whether the last transaction failed with disk_full (and no
// write has committed since).
func (db *DB) Full() bool { return db.full.full.Load() }

// FullErrors is the number of transactions that failed with disk_full.
func (db *DB) FullErrors() int64 { return db.full.errors.Load() }

// Ready reports whether the database answers and takes writes. While it is
// full it tries a one-row write (no traffic reaches a server that says it is
// not ready, so no other write would notice that space came back), and at
// its first call too, so a server whose disk is still full is not ready
// from the start.
func (db *DB) Ready() error {
	if err := db.Ping(); err != nil {
		return err
	}
	if !db.Full() && !db.full.probed.CompareAndSwap(false, true) {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := db.pool.Exec(ctx, `INSERT INTO meta (name, value) VALUES ('ready-probe', $1)
		ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`, []byte(time.Now().UTC().Format(time.RFC3339Nano)))
	if err != nil {
		return db.checkFull(true, err)
	}
	return db.checkFull(true, nil)
}
