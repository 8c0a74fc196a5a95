package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
	"time"

	"storefront/app"
	"storefront/app/config"
	"storefront/storage"
	"storefront/storage/postgres"
	"storefront/web"
)

// database is the storage a server runs on: the bbolt file (driver bolt) or
// a PostgreSQL database shared with other binaries (driver postgres).
type database struct {
	app.DB
	bolt *storage.DB  // driver bolt, else nil
	pg   *postgres.DB // driver postgres, else nil
}

// openDatabase opens the configured storage; on PostgreSQL it applies the
// pending migrations (once, whatever the number of binaries starting).
func openDatabase(cfg *config.Config, log *slog.Logger) (*database, error) {
	if cfg.Storage.Driver == config.DriverPostgres {
		pg, err := postgres.Open(cfg.Storage.Postgres.URL, postgres.Options{MaxConns: int32(cfg.Storage.Postgres.MaxConns)})
		if err != nil {
			return nil, err
		}
		return &database{DB: pg, pg: pg}, nil
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot make data_dir: %w", err)
	}
	db, err := storage.Open(cfg.DBPath(), storage.Options{BackupDir: cfg.Backups.Dir, Log: log})
	if err != nil {
		return nil, err
	}
	db.Log = log // the full-disk warnings
	return &database{DB: db, bolt: db}, nil
}

// Ready reports whether the database takes writes: 503 storage_full while
// the disk is full (bbolt: the data folder's; PostgreSQL: the server
// answered disk_full), else whether it answers.
func (d *database) Ready() error {
	if d.bolt != nil {
		return d.bolt.Ready()
	}
	return d.pg.Ready()
}

// Close closes the database.
func (d *database) Close() error {
	if d.pg != nil {
		return d.pg.Close()
	}
	return d.bolt.Close()
}

// stats reads the figures /metrics reports.
func (d *database) stats(svc *app.Services) web.DBStats {
	if d.bolt != nil {
		return dbStats(d.bolt, svc)
	}
	s := d.pg.Pool().Stat()
	return web.DBStats{
		CachedPages:   svc.Catalog.CachedPages(),
		CachedDetails: svc.Catalog.CachedDetails(), CachedDetailBytes: svc.Catalog.CachedDetailBytes(),
		StorageFull: d.pg.Full(), StorageFullErrors: d.pg.FullErrors(),
		Pool: &web.PoolStats{
			MaxConns: int(s.MaxConns()), TotalConns: int(s.TotalConns()), IdleConns: int(s.IdleConns()),
			AcquiredConns: int(s.AcquiredConns()), Acquires: s.AcquireCount(), EmptyAcquires: s.EmptyAcquireCount(),
			AcquireWait: s.AcquireDuration(), CanceledAcquires: s.CanceledAcquireCount(),
		},
	}
}

// errBackupsOnPostgres answers the backup commands and API on PostgreSQL.
var errBackupsOnPostgres = app.Errorf(app.EConflict,
	"backups of a PostgreSQL database are the database's job: use pg_dump, or continuous archiving with point-in-time recovery (PITR); storefront backup copies the bolt file only")

// migrateCmd is `storefront migrate status [--config FILE]`: the schema
// migrations of this binary and when each was applied (PostgreSQL), and
// `storefront migrate up`: apply the pending ones (serve does it too).
func migrateCmd(args []string, e env) int {
	if len(args) == 0 || (args[0] != "status" && args[0] != "up") {
		fmt.Fprintf(e.stderr, "storefront migrate: want status or up\n\n%s", usage)
		return 2
	}
	sub := args[0]
	cfg, rest, code := loadConfig("migrate "+sub, args[1:], e)
	if code != 0 {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(e.stderr, "storefront migrate %s: unexpected argument %q\n\n%s", sub, rest[0], usage)
		return 2
	}
	if cfg.Storage.Driver != config.DriverPostgres {
		fmt.Fprintf(e.stdout, "storage.driver is bolt: the bbolt file migrates itself when the server opens it (schema version %d)\n", storage.SchemaVersion)
		return 0
	}
	db, err := postgres.Open(cfg.Storage.Postgres.URL, postgres.Options{MaxConns: 2, NoMigrate: true})
	if err != nil {
		fmt.Fprintln(e.stderr, "storefront migrate:", err)
		return 1
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if sub == "up" {
		done, err := db.Migrate(ctx)
		if err != nil {
			fmt.Fprintln(e.stderr, "storefront migrate:", err)
			return 1
		}
		fmt.Fprintf(e.stdout, "applied %d migration(s) %v\n", len(done), done)
	}
	ms, err := db.MigrationStatus(ctx)
	if err != nil {
		fmt.Fprintln(e.stderr, "storefront migrate:", err)
		return 1
	}
	printMigrations(e.stdout, ms)
	for _, m := range ms {
		if m.AppliedAt == nil {
			return 3 // pending: scripts can tell
		}
	}
	return 0
}

func printMigrations(w io.Writer, ms []postgres.Migration) {
	fmt.Fprintf(w, "%-8s %-24s %s\n", "VERSION", "NAME", "APPLIED")
	for _, m := range ms {
		at := "pending"
		if m.AppliedAt != nil {
			at = m.AppliedAt.Format(time.RFC3339)
		}
		fmt.Fprintf(w, "%-8d %-24s %s\n", m.Version, m.Name, at)
	}
}

// migrateDataCmd is `storefront migrate-data --from bolt:PATH --to
// postgres:URL [--force]`: it copies every record of a stopped bbolt
// database into PostgreSQL (migrated first) and verifies the copy by counts
// and sampled checksums. A target holding data is refused unless --force,
// which empties it first.
func migrateDataCmd(args []string, e env) int {
	fs := flag.NewFlagSet("storefront migrate-data", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	from := fs.String("from", "", "the source: bolt:PATH of a storefront.db (the server stopped)")
	to := fs.String("to", "", "the target: postgres:URL (postgres://user:password@host:5432/db)")
	force := fs.Bool("force", false, "empty a target that holds data first")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	path, okFrom := strings.CutPrefix(*from, "bolt:")
	url, okTo := strings.CutPrefix(*to, "postgres:")
	if !okFrom || !okTo || path == "" || url == "" || fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "storefront migrate-data: want --from bolt:PATH --to postgres:URL [--force]\n\n%s", usage)
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(e.stderr, "storefront migrate-data:", err); return 1 }
	if _, err := os.Stat(path); err != nil {
		return fail(err)
	}
	src, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		return fail(fmt.Errorf("%w (stop the server using it first)", err))
	}
	defer src.Close()
	dst, err := postgres.Open(url, postgres.Options{MaxConns: 4})
	if err != nil {
		return fail(err)
	}
	defer dst.Close()
	if err := emptyTarget(dst, *force); err != nil {
		return fail(err)
	}
	start := time.Now()
	rep, err := dst.Import(func(fn func(postgres.ImportRecord) error) error {
		return src.Export(func(r storage.Record) error {
			return fn(postgres.ImportRecord{Bucket: r.Bucket, Key: r.Key, Value: r.Value})
		})
	})
	if err != nil {
		return fail(err)
	}
	printImport(e.stdout, rep, time.Since(start))
	return 0
}

// emptyTarget refuses a migration target that holds data, or with force
// empties it.
func emptyTarget(dst *postgres.DB, force bool) error {
	ctx := context.Background()
	empty, err := dst.Empty(ctx)
	if err != nil || empty {
		return err
	}
	if !force {
		return errors.New("the target database already holds data; pass --force to empty it first")
	}
	return dst.Clear(ctx)
}

// printImport writes the records copied per bucket and the verification.
func printImport(w io.Writer, rep postgres.ImportReport, took time.Duration) {
	buckets := make([]string, 0, len(rep.Counts))
	total := 0
	for b, n := range rep.Counts {
		buckets = append(buckets, b)
		total += n
	}
	sort.Strings(buckets)
	for _, b := range buckets {
		fmt.Fprintf(w, "%-22s %8d\n", b, rep.Counts[b])
	}
	fmt.Fprintf(w, "copied %d records in %s; counts match, %d sampled records match by checksum\n",
		total, took.Round(time.Millisecond), rep.Checked)
}
