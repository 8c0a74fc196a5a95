package postgres

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migration is one versioned SQL file of migrations/ (NNNN_name.sql).
type Migration struct {
	Version   int
	Name      string
	SQL       string
	AppliedAt *time.Time // nil: pending
}

// lockMigrate is the advisory lock key of migrations (store locks are >= 0).
const lockMigrate = -1

// migrations lists the embedded migrations in version order.
func migrations() ([]Migration, error) {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []Migration
	for _, n := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(n, "migrations/"), ".sql")
		num, name, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("postgres: migration %s: the name must start with its version", n)
		}
		sql, err := migrationFiles.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: name, SQL: string(sql)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("postgres: migration versions must run 1, 2, 3...; found %d at %d", m.Version, i+1)
		}
	}
	return out, nil
}

// writerSchema names the setting that tells the database which migrations a
// connection's binary knows (migration 0013): the triggers that make up for
// an earlier binary's writes in a rolling upgrade skip the writes of a binary
// that knows their migration.
const writerSchema = "storefront.schema"

// onConnect is the pool's AfterConnect. In one round trip per connection it
// sets writerSchema to the newest migration of this binary. A session setting rather than a
// startup parameter: PgBouncer refuses a connection whose startup packet
// holds a parameter it does not know, and keeps a SET for the session.
func onConnect() (func(context.Context, *pgx.Conn) error, error) {
	all, err := migrations()
	if err != nil {
		return nil, err
	}
	schema := strconv.Itoa(all[len(all)-1].Version)
	return func(ctx context.Context, c *pgx.Conn) error {
		if _, err := c.Exec(ctx, `SELECT set_config($1, $2, false)`, writerSchema, schema); err != nil {
			return fmt.Errorf("postgres: set up a connection: %w", err)
		}
		return nil
	}, nil
}

const createMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    integer PRIMARY KEY,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now())`

// Migrate applies the pending migrations, each in its own transaction, while
// holding a session advisory lock: a binary starting beside others waits for
// the first one's migrations and then finds nothing to do. It returns the
// versions it applied.
func (db *DB) Migrate(ctx context.Context) ([]int, error) {
	all, err := migrations()
	if err != nil {
		return nil, err
	}
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("postgres: migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(lockMigrate)); err != nil {
		return nil, fmt.Errorf("postgres: migrate: lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(lockMigrate))
	if _, err := conn.Exec(ctx, createMigrationsTable); err != nil {
		return nil, fmt.Errorf("postgres: migrate: %w", err)
	}
	applied, err := appliedMigrations(ctx, conn.Conn())
	if err != nil {
		return nil, err
	}
	for v := range applied {
		if v > len(all) {
			return nil, fmt.Errorf("postgres: the database has migration %d, newer than this binary's %d", v, len(all))
		}
	}
	var done []int
	for _, m := range all {
		if applied[m.Version] {
			continue
		}
		if err := applyMigration(ctx, conn.Conn(), m); err != nil {
			return done, err
		}
		done = append(done, m.Version)
	}
	return done, nil
}

// appliedMigrations returns the versions recorded in schema_migrations.
func appliedMigrations(ctx context.Context, conn *pgx.Conn) (map[int]bool, error) {
	applied := map[int]bool{}
	rows, err := conn.Query(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("postgres: migrate: %w", err)
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return nil, fmt.Errorf("postgres: migrate: %w", err)
		}
		applied[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: migrate: %w", err)
	}
	return applied, nil
}

// applyMigration runs m's SQL and Go step and records it, in one transaction.
func applyMigration(ctx context.Context, conn *pgx.Conn, m Migration) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrate %d: %w", m.Version, err)
	}
	if _, err := tx.Exec(ctx, m.SQL); err != nil {
		tx.Rollback(ctx)
		return fmt.Errorf("postgres: migration %04d_%s: %w", m.Version, m.Name, err)
	}
	if step := goSteps[m.Version]; step != nil {
		if err := step(ctx, tx); err != nil {
			tx.Rollback(ctx)
			return fmt.Errorf("postgres: migration %04d_%s: %w", m.Version, m.Name, err)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
		tx.Rollback(ctx)
		return fmt.Errorf("postgres: migrate %d: %w", m.Version, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: migrate %d: %w", m.Version, err)
	}
	return nil
}

// MigrationStatus lists every migration of this binary with the time it was
// applied to the database (nil: pending).
func (db *DB) MigrationStatus(ctx context.Context) ([]Migration, error) {
	all, err := migrations()
	if err != nil {
		return nil, err
	}
	var exists bool
	if err := db.pool.QueryRow(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return nil, fmt.Errorf("postgres: migration status: %w", err)
	}
	if !exists {
		return all, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT version, applied_at FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("postgres: migration status: %w", err)
	}
	defer rows.Close()
	at := map[int]time.Time{}
	for rows.Next() {
		var v int
		var t time.Time
		if err := rows.Scan(&v, &t); err != nil {
			return nil, fmt.Errorf("postgres: migration status: %w", err)
		}
		at[v] = t
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range all {
		if t, ok := at[all[i].Version]; ok {
			t := t.UTC()
			all[i].AppliedAt = &t
		}
	}
	for v := range at {
		if v > len(all) {
			all = append(all, Migration{Version: v, Name: "(unknown to this binary)"})
		}
	}
	return all, nil
}

// SchemaDigest is a digest of the migrations and the doc version this binary
// writes: binaries with the same digest make the same empty database (the
// tests copy one migrated template per digest, pgtest.Open).
func SchemaDigest() (string, error) {
	all, err := migrations()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "doc %d\n", docVersion)
	for _, m := range all {
		fmt.Fprintf(h, "%d %s %d\n%s\n", m.Version, m.Name, len(m.SQL), m.SQL)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
