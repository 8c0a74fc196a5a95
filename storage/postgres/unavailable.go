package postgres

import (
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"storefront/app"
)

// A database that cannot be reached (down, restarting, the network lost)
// is answered 503 storage_unavailable with Retry-After, not 500 internal:
// the client did nothing wrong and nothing was written. The pool makes new
// connections by itself once the server is back (a dead connection is
// closed when it fails, never handed out again), as do the LISTEN and the
// leader's connections (notify.go, leader.go).

// UnavailableRetry is the Retry-After of storage_unavailable, in seconds.
const UnavailableRetry = 5

// connLost reports whether err means the server could not be reached or
// dropped the connection: SQLSTATE class 08 (connection exception), 57P01-03
// (the server shutting down, crashed, or still starting), a failed connect, a
// network error, or a failure before anything was sent.
func connLost(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || pgconn.SafeToRetry(err)
}

// unavailable turns a lost connection into storage_unavailable (logged at
// most once every 10 seconds); other errors pass through.
func (db *DB) unavailable(err error) error {
	if err == nil || !connLost(err) {
		return err
	}
	var ae *app.Error
	if errors.As(err, &ae) { // already an answer of its own
		return err
	}
	now := time.Now().UnixNano()
	if last := db.unavailWarn.Load(); now-last >= int64(10*time.Second) && db.unavailWarn.CompareAndSwap(last, now) {
		db.log("storage: the database cannot be reached; requests answer 503 storage_unavailable until it is back (logged every 10s at most): %v", err)
	}
	return &app.Error{Code: app.EStorageUnavailable, Message: "the database cannot be reached; retry later", RetryAfter: UnavailableRetry}
}
