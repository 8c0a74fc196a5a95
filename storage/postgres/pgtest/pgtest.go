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
	"fmt"
	"os"
	"strconv"
	"sync"
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
	return dbURL(serverConfig(t), newDatabase(t, "template0", true))
}

// newDatabase creates a database as a copy of template, dropped when t ends
// if drop, and returns its name.
func newDatabase(t testing.TB, template string, drop bool) string {
	t.Helper()
	cfg := serverConfig(t)
	name := "sf_test_" + randomHex()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := exec(ctx, cfg, "CREATE DATABASE "+name+" TEMPLATE "+template+" ENCODING 'UTF8'"); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	if drop {
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_ = exec(ctx, cfg, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		})
	}
	return name
}

func serverConfig(t testing.TB) *pgx.ConnConfig {
	t.Helper()
	cfg, err := pgx.ParseConfig(ServerURL(t))
	if err != nil {
		t.Fatalf("%s: %v", EnvURL, err)
	}
	return cfg
}

// exec runs one statement on the server's default database.
func exec(ctx context.Context, cfg *pgx.ConnConfig, sql string) error {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connect to the test server: %w", err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

func randomHex() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// dbURL renders the server's config with another database as a key=value string.
func dbURL(cfg *pgx.ConnConfig, database string) string {
	s := "dbname=" + database + " user=" + cfg.User + " host=" + cfg.Host + " sslmode=disable"
	if cfg.Port != 0 {
		s += " port=" + strconv.Itoa(int(cfg.Port))
	}
	if cfg.Password != "" {
		s += " password=" + cfg.Password
	}
	return s
}

// The migrated template: one database per schema digest on the server,
// made by the first test process that needs it and copied by every Open
// after (migrating each test's database took most of the PostgreSQL suites'
// time). The test processes that run at once (make test runs several) take
// turns under an advisory lock, and it is made under a temporary name and
// renamed when complete, so a process never copies one half made.
var template struct {
	once sync.Once
	name string
	err  error
}

// templateLockKey is the advisory lock the test processes take turns under
// to make the template (any constant no other code of ours locks).
const templateLockKey = 0x5f7465_6d706c

func migratedTemplate(t testing.TB) string {
	t.Helper()
	cfg := serverConfig(t)
	template.once.Do(func() {
		digest, err := postgres.SchemaDigest()
		if err != nil {
			template.err = err
			return
		}
		template.name = "sf_template_" + digest
		template.err = makeTemplate(cfg, template.name)
	})
	if template.err != nil {
		t.Fatalf("the migrated template database: %v", template.err)
	}
	return template.name
}

// makeTemplate makes the migrated database name unless it is there.
func makeTemplate(cfg *pgx.ConnConfig, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connect to the test server: %w", err)
	}
	defer conn.Close(ctx)
	// Held until conn closes. Without it two processes could both find the
	// template missing and the second rename fail (SQLSTATE 23505).
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", templateLockKey); err != nil {
		return err
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil || n == 1 {
		return err
	}
	tmp := name + "_" + randomHex()
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+tmp+" TEMPLATE template0 ENCODING 'UTF8'"); err != nil {
		return err
	}
	db, err := postgres.Open(dbURL(cfg, tmp), postgres.Options{MaxConns: 1})
	if err == nil {
		db.Close()
		_, err = conn.Exec(ctx, "ALTER DATABASE "+tmp+" RENAME TO "+name)
	}
	_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+tmp+" WITH (FORCE)") // there when not renamed
	return err
}

// Open opens a fresh migrated database, closed when t ends: a copy of the
// migrated template, or under Main an emptied database of an earlier test.
func Open(t testing.TB) *postgres.DB {
	t.Helper()
	cfg := serverConfig(t)
	name := dbPool.take()
	if name == "" {
		name = newDatabase(t, migratedTemplate(t), !dbPool.on)
		dbPool.add(cfg, name)
	}
	db, err := postgres.Open(dbURL(cfg, name), postgres.Options{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Emptied before it is closed: the test's workers have stopped in
		// the cleanups registered after this one.
		cleared := dbPool.on && (empty(cfg, name) == nil || db.Clear(context.Background()) == nil)
		db.Close()
		if cleared {
			dbPool.put(name)
		}
	})
	return db
}

// emptyRows deletes every row of every table but schema_migrations, with
// triggers and foreign keys off (session_replication_role, which the
// superuser of make test's server may set).
const emptyRows = `DO $$
DECLARE r record;
BEGIN
	SET LOCAL session_replication_role = replica;
	FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations' LOOP
		EXECUTE format('DELETE FROM %I', r.tablename);
	END LOOP;
END $$`

// empty empties the database name for the next test: a DELETE of the few
// rows a test left costs the server about 1 ms, where migrate-data's Clear
// (TRUNCATE of the 39 tables, new files for each) cost 0.1 s of CPU and
// 0.6 s, the most of make test-pg's server time. A server that refuses it
// (not a superuser) gets Clear.
func empty(cfg *pgx.ConnConfig, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgx.ParseConfig(dbURL(cfg, name))
	if err != nil {
		return err
	}
	return exec(ctx, c, emptyRows)
}

// Main runs the package's tests (TestMain) with a pool of databases: a
// test's database is emptied when it ends and given to the next test, and
// the pool is dropped at the end. Creating a database costs the server 0.15 s
// of CPU, most of what the HTTP suites on PostgreSQL took.
func Main(m *testing.M) int {
	dbPool.on = true
	code := m.Run()
	dbPool.drop()
	return code
}

type pool struct {
	on   bool // under Main
	mu   sync.Mutex
	cfg  *pgx.ConnConfig // the server, once a database was made
	free []string        // emptied, for the next test
	all  []string        // every database of the pool, dropped at the end
}

var dbPool pool

func (p *pool) take() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) == 0 {
		return ""
	}
	name := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return name
}

func (p *pool) add(cfg *pgx.ConnConfig, name string) {
	if p.on {
		p.mu.Lock()
		p.cfg = cfg
		p.all = append(p.all, name)
		p.mu.Unlock()
	}
}

// put frees an emptied database for the next test; one that could not be
// emptied stays out of the pool (dropped at the end).
func (p *pool) put(name string) {
	p.mu.Lock()
	p.free = append(p.free, name)
	p.mu.Unlock()
}

func (p *pool) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cfg == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, name := range p.all {
		_ = exec(ctx, p.cfg, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
}
