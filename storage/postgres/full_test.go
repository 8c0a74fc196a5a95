package postgres_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"storefront/app"
	"storefront/httpkit"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// wantStorageFull checks that err is the app's 507 storage_full with Retry-After.
func wantStorageFull(t *testing.T, err error) {
	t.Helper()
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Code != app.EStorageFull || ae.RetryAfter != postgres.StorageFullRetry {
		t.Fatalf("got %v (%#v), want app error storage_full with Retry-After %d", err, err, postgres.StorageFullRetry)
	}
	if got := httpkit.StatusOfError(err); got != 507 {
		t.Fatalf("storage_full answers %d, want 507", got)
	}
}

// TestDiskFullMapping: SQLSTATE 53100 (disk_full), wrapped as the store layer
// wraps statement errors, becomes storage_full as bbolt's ENOSPC does; the
// database remembers it (Full, FullErrors) and warns once a minute, a
// committed write clears it, and other errors pass through unchanged.
func TestDiskFullMapping(t *testing.T) {
	var warns []string
	db := &postgres.DB{Logf: func(f string, a ...any) { warns = append(warns, fmt.Sprintf(f, a...)) }}
	full := fmt.Errorf("postgres: insert order: %w", &pgconn.PgError{Code: "53100", Message: "could not extend file \"base/16384/16385\": No space left on device"})
	wantStorageFull(t, db.CheckFullForTest(true, full))
	wantStorageFull(t, db.CheckFullForTest(false, full)) // a read that needed temp space
	if !db.Full() || db.FullErrors() != 2 {
		t.Fatalf("Full=%v FullErrors=%d, want true 2", db.Full(), db.FullErrors())
	}
	if len(warns) != 1 {
		t.Fatalf("warnings %q, want one a minute", warns)
	}
	if err := db.CheckFullForTest(false, nil); err != nil || !db.Full() {
		t.Fatalf("a read ended the full state (err %v)", err)
	}
	if err := db.CheckFullForTest(true, nil); err != nil || db.Full() {
		t.Fatalf("a committed write did not end the full state (err %v)", err)
	}
	for _, code := range []string{"40001", "40P01", "23505", "53200", "53300", "57014"} {
		other := fmt.Errorf("postgres: x: %w", &pgconn.PgError{Code: code})
		if err := db.CheckFullForTest(true, other); err != other {
			t.Fatalf("SQLSTATE %s: got %v, want it unchanged", code, err)
		}
	}
	if db.FullErrors() != 2 || db.Full() {
		t.Fatalf("other errors counted as full: %d", db.FullErrors())
	}
}

// TestDiskFullFromServer raises disk_full in a real PostgreSQL transaction
// (PL/pgSQL RAISE with ERRCODE 'disk_full', the SQLSTATE of a file that
// cannot grow): Update answers storage_full, readiness says so until its
// probe write succeeds, which ends the state.
func TestDiskFullFromServer(t *testing.T) {
	db := pgtest.Open(t)
	err := db.Update(func(tx app.Tx) error {
		return postgres.TxExecForTest(tx, `DO $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`)
	})
	wantStorageFull(t, err)
	if !db.Full() || db.FullErrors() != 1 {
		t.Fatalf("Full=%v FullErrors=%d, want true 1", db.Full(), db.FullErrors())
	}
	// The disk has room (it never lacked it): the probe write of Ready
	// succeeds and ends the state.
	if err := db.Ready(); err != nil || db.Full() {
		t.Fatalf("Ready: %v, Full=%v; want nil, false", err, db.Full())
	}
}

// TestDiskFullAtStart: a process whose database server's disk is still
// full is not ready from its first probe, before any request failed: the
// first Ready tries its one-row write (made to fail here by a trigger that
// raises disk_full), and the state ends once the write succeeds.
func TestDiskFullAtStart(t *testing.T) {
	db := pgtest.Open(t)
	if err := db.Update(func(tx app.Tx) error {
		if err := postgres.TxExecForTest(tx, `CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`); err != nil {
			return err
		}
		return postgres.TxExecForTest(tx, `CREATE TRIGGER full_disk BEFORE INSERT OR UPDATE ON meta FOR EACH ROW WHEN (NEW.name = 'ready-probe') EXECUTE FUNCTION full_disk()`)
	}); err != nil {
		t.Fatal(err)
	}
	wantStorageFull(t, db.Ready())
	wantStorageFull(t, db.Ready()) // still full: it probes while full
	if err := db.Update(func(tx app.Tx) error { return postgres.TxExecForTest(tx, `DROP TRIGGER full_disk ON meta`) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Ready(); err != nil || db.Full() {
		t.Fatalf("Ready after space came back: %v, Full=%v; want nil, false", err, db.Full())
	}
}
