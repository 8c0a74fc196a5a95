package storage

import (
	"errors"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"storefront/app"
)

// A full disk (docs/decisions.md, "Operations"): a write that fails because the
// file system has no space (ENOSPC, EDQUOT) is answered 507 storage_full with
// Retry-After instead of 500 internal; the database remembers that it is full
// (readiness 503, a metric) until a write succeeds again, and logs one WARN per
// minute instead of one ERROR per failed request. bbolt rolls the failed
// transaction back, so nothing acknowledged is lost and writes work again as
// soon as there is room.

// StorageFullRetry is the Retry-After of storage_full, in seconds.
const StorageFullRetry = 30

// roomAgain is the free space at which a full database counts as writable
// again: small commits can succeed on a nearly full disk (bbolt reuses freed
// pages) while larger ones still fail, so one success does not end the state.
const roomAgain = 1 << 20

// ErrStorageFull is the error of a write the disk had no room for.
func ErrStorageFull(msg string) *app.Error {
	return &app.Error{Code: app.EStorageFull, Message: msg, RetryAfter: StorageFullRetry}
}

type fullState struct {
	full     atomic.Bool
	errors   atomic.Int64
	lastWarn atomic.Int64 // unix nanoseconds of the last WARN
}

// isNoSpace reports whether err says the file system is out of space.
func isNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// logger is where the database reports a full disk.
func (db *DB) logger() *slog.Logger {
	if db.Log != nil {
		return db.Log
	}
	return slog.Default()
}

// checkWrite turns the outcome of a write transaction into the answer: a
// success clears the full state, a failure for want of space sets it and
// becomes storage_full; other errors pass through.
func (db *DB) checkWrite(err error) error {
	if err == nil {
		if db.full.full.Load() {
			db.roomAgain()
		}
		return nil
	}
	if !isNoSpace(err) {
		return err
	}
	db.full.full.Store(true)
	db.full.errors.Add(1)
	now := time.Now().UnixNano()
	if last := db.full.lastWarn.Load(); now-last >= int64(time.Minute) && db.full.lastWarn.CompareAndSwap(last, now) {
		db.logger().Warn("storage: the disk is full; writes answer 507 storage_full until space is freed (logged once a minute)",
			"path", db.bolt.Path(), "err", err.Error(), "failed_writes", db.full.errors.Load())
	}
	return ErrStorageFull("the server's disk is full; retry later")
}

// Full reports whether the last write failed for want of space (and none
// has succeeded since).
func (db *DB) Full() bool { return db.full.full.Load() }

// FullErrors is the number of writes that failed for want of space.
func (db *DB) FullErrors() int64 { return db.full.errors.Load() }

// roomAgain ends the full state when the disk has room again.
func (db *DB) roomAgain() bool {
	if free := freeBytes(filepath.Dir(db.bolt.Path())); free >= 0 && free < roomAgain {
		return false
	}
	if db.full.full.CompareAndSwap(true, false) {
		db.logger().Info("storage: the disk has room again; writes succeed", "path", db.bolt.Path())
	}
	return true
}

// Ready reports whether the database answers and takes writes: while it is
// full it checks the free space (no traffic reaches a server that says it is
// not ready, so no write would notice that space came back), and otherwise
// too, so a server started on a disk that is still full is not ready from
// its first probe, before any write has failed.
func (db *DB) Ready() error {
	if err := db.Ping(); err != nil {
		return err
	}
	if db.Full() {
		if !db.roomAgain() {
			return ErrStorageFull("the server's disk is full")
		}
		return nil
	}
	if free := freeBytes(filepath.Dir(db.bolt.Path())); free >= 0 && free < roomAgain {
		return ErrStorageFull("the server's disk is full (less than 1 MiB free)")
	}
	return nil
}
