package main

import (
	"strings"
	"testing"

	"storefront/storage/postgres/pgtest"
)

// TestMigrateStatus: pending on an empty database (exit 3), applied after
// migrate up (exit 0); bolt says it migrates itself.
func TestMigrateStatus(t *testing.T) {
	t.Parallel()
	url := pgtest.NewDatabase(t)
	environ := testEnviron(t.TempDir(), "STOREFRONT_STORAGE__DRIVER=postgres", "STOREFRONT_STORAGE__POSTGRES__URL="+url)
	code, out, errs := runCmd(t, environ, "migrate", "status")
	if code != 3 || !strings.Contains(out, "pending") || !strings.Contains(out, "init") {
		t.Fatalf("status before: got %d %q %q, want 3 and pending migrations", code, out, errs)
	}
	code, out, errs = runCmd(t, environ, "migrate", "up")
	if code != 0 || strings.Contains(out, "pending") || !strings.Contains(out, "applied") {
		t.Fatalf("up: got %d %q %q", code, out, errs)
	}
	if code, out, _ = runCmd(t, environ, "migrate", "status"); code != 0 || strings.Contains(out, "pending") {
		t.Fatalf("status after: got %d %q", code, out)
	}
	if code, _, errs = runCmd(t, environ, "backup", t.TempDir()+"/b.db"); code != 1 || !strings.Contains(errs, "pg_dump") {
		t.Fatalf("backup on postgres: got %d %q, want 1 and a word about pg_dump", code, errs)
	}
	if code, _, _ = runCmd(t, environ, "migrate", "sideways"); code != 2 {
		t.Fatalf("migrate sideways: got %d, want 2", code)
	}
	if code, out, _ = runCmd(t, testEnviron(t.TempDir()), "migrate", "status"); code != 0 || !strings.Contains(out, "bolt") {
		t.Fatalf("status on bolt: got %d %q", code, out)
	}
}

func TestMigrateDataUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"--from", "x"}, {"--from", "bolt:/a", "--to", "mysql:b"}} {
		if code, _, _ := runCmd(t, nil, append([]string{"migrate-data"}, args...)...); code != 2 {
			t.Fatalf("migrate-data %v: got %d, want 2", args, code)
		}
	}
	if code, _, errs := runCmd(t, nil, "migrate-data", "--from", "bolt:/nonexistent/x.db", "--to", "postgres:dbname=x"); code != 1 || errs == "" {
		t.Fatalf("missing source: got %d %q", code, errs)
	}
}

// TestBinarySIGTERMPostgres: on PostgreSQL too SIGTERM ends the binary with
// exit code 0 (serve closes the database, then its deferred Close runs again:
// it used to panic with "close of closed channel" and exit 2).
func TestBinarySIGTERMPostgres(t *testing.T) {
	t.Parallel()
	url := pgtest.NewDatabase(t)
	p := startBinary(t, cleanEnviron(testEnviron(t.TempDir(), "STOREFRONT_LOG__FORMAT=json",
		"STOREFRONT_STORAGE__DRIVER=postgres", "STOREFRONT_STORAGE__POSTGRES__URL="+url)...))
	p.sigterm(t)
}
