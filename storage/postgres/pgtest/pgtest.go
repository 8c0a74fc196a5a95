// Package pgtest gives tests a fresh PostgreSQL database each. The server is
// the one of STOREFRONT_TEST_POSTGRES_URL (make test starts a throwaway one,
// scripts/with-postgres.sh). Without the variable the Postgres variants of the
// tests are skipped with a message, unless CI=true, where they fail.
// It is imported by tests only.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/storage/postgres"
)

// EnvURL names the variable holding the URL of a server tests may create
// databases on.
const EnvURL = "STOREFRONT_TEST_POSTGRES_URL"

// ServerURL returns the server's URL, or skips t (fails it under CI=true)
// when there is none.
func ServerURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: run the tests with make test (it starts a throwaway PostgreSQL)", EnvURL)
		}
		t.Skipf("PostgreSQL variant skipped: %s is not set (make test starts a throwaway server)", EnvURL)
	}
	return u
}

// NewDatabase creates an empty database, dropped when t ends, and returns its URL.
func NewDatabase(t testing.TB) string {
	t.Helper()
	base := ServerURL(t)
	cfg, err := pgx.ParseConfig(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvURL, err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "sf_test_" + hex.EncodeToString(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect to the test server: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE template0 ENCODING 'UTF8'"); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if conn, err := pgx.ConnectConfig(ctx, cfg); err == nil {
			conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			conn.Close(ctx)
		}
	})
	u := *cfg
	u.Database = name
	return dsn(&u)
}

// dsn renders a connection config as a key=value string.
func dsn(c *pgx.ConnConfig) string {
	s := "dbname=" + c.Database + " user=" + c.User + " host=" + c.Host + " sslmode=disable"
	if c.Port != 0 {
		s += " port=" + strconv.Itoa(int(c.Port))
	}
	if c.Password != "" {
		s += " password=" + c.Password
	}
	return s
}

// Open opens a fresh migrated database, closed when t ends.
func Open(t testing.TB) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(NewDatabase(t), postgres.Options{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
