package storage

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bberrors "go.etcd.io/bbolt/errors"

	"storefront/app"
)

// SchemaVersion is the version of the layout this code reads and writes. It
// rises with every change an older binary cannot read, even one that needs no
// rewrite: that binary then refuses the file instead of failing on records it
// does not know, and the upgrade leaves a copy to roll back to.
//
//	2: orders and payment-session attempts in compact binary forms
//	3: one form per record: orders, sessions, idempotency records compact
//	4: idx_audit_object (an order's timeline read its store's whole audit log)
//	5: orders may carry a tax part (orderTaxed: tax, invoice, credit notes);
//	   nothing to rewrite, but schema 4 binaries cannot read such an order
const SchemaVersion = 5

// migrations[i] upgrades a database from version i+1 to i+2.
var migrations = []func(*bolt.Tx) error{
	// 1 -> 2: nothing to rewrite (3 rewrites what 1 wrote).
	func(*bolt.Tx) error { return nil },
	migrateOneForm,    // migrate3.go
	indexAuditObjects, // audit.go
	// 4 -> 5: nothing to rewrite: an order of schema 4 has no tax part.
	func(*bolt.Tx) error { return nil },
}

// currentSchema is SchemaVersion; tests of the migration path raise it.
var currentSchema = SchemaVersion

// DB is a bbolt database implementing app.DB.
type DB struct {
	bolt *bolt.DB
	// stores memoizes decoded store records for SharedStore.
	stores sync.Map // store id -> memoStore
	// Now is the clock of every transaction; tests freeze it.
	Now func() time.Time
	// batch is the group commit of Batch.
	batch batcher
	// Log receives the full-disk warnings (nil: slog.Default()).
	Log *slog.Logger

	full fullState // writes failing for want of space (full.go)
}

// Options tune Open.
type Options struct {
	// NoSync turns fsync off; only benchmarks of the baseline may use it.
	NoSync bool
	// ReadOnly opens the file read-only (backups of a stopped database).
	ReadOnly bool
	// BackupDir receives a copy of the file before a schema migration runs
	// (storefront-schemaN-YYYYMMDDTHHMMSSZ.db, never pruned by the backup
	// retention); empty is the folder "backups" beside the file.
	BackupDir string
	// Log gets the line about that copy; nil is slog.Default().
	Log *slog.Logger
}

// initialMmapSize is the address space the file is mapped with when it
// opens. A write that grows the file past its map remaps it, and a remap
// waits for every open read transaction to end while new ones queue behind
// it: under load, a stall of every request (p99 spikes of tens of ms on a
// growing shop; longer behind an export or a backup, which read for
// seconds). 1 GiB defers the first remap to a 1 GiB file. It is address
// space, not memory: a page is resident only once read, and the file grows
// only as data is written (etcd maps 10 GiB for the same reason). Windows
// (where bbolt would grow the file to the map at once) and 32-bit builds keep
// bbolt's growth by doubling.
func initialMmapSize() int {
	if runtime.GOOS == "windows" || strconv.IntSize < 64 {
		return 0
	}
	return 1 << 30
}

// Open opens (creating if needed) the database at path, creates the buckets and
// migrates the schema. A file locked by another process fails within a second.
func Open(path string, opt Options) (*DB, error) {
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, FreelistType: bolt.FreelistMapType, ReadOnly: opt.ReadOnly, NoSync: opt.NoSync,
		InitialMmapSize: initialMmapSize()})
	if err != nil {
		if errors.Is(err, bberrors.ErrTimeout) {
			return nil, fmt.Errorf("storage: open %s: the database is in use by another process", path)
		}
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	db := &DB{bolt: bdb, Now: time.Now}
	if opt.ReadOnly {
		return db, nil
	}
	if err := db.backupBeforeMigration(path, opt); err != nil {
		bdb.Close()
		return nil, err
	}
	if err := bdb.Update(db.init); err != nil {
		bdb.Close()
		return nil, err
	}
	return db, nil
}

func (db *DB) init(tx *bolt.Tx) error {
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("storage: create bucket %s: %w", name, err)
		}
	}
	if err := resetLeases(tx); err != nil {
		return err
	}
	meta := tx.Bucket(bMeta)
	v, err := storedSchema(tx)
	if err != nil {
		return err
	}
	if v == 0 {
		v = currentSchema // a new database starts at the current layout
	}
	if v > currentSchema {
		return fmt.Errorf("storage: the database has schema version %d, newer than this binary's %d", v, currentSchema)
	}
	for ; v < currentSchema; v++ {
		if err := migrations[v-1](tx); err != nil {
			return fmt.Errorf("storage: migrate to schema %d: %w", v+1, err)
		}
	}
	if err := buildDerived(tx); err != nil {
		return err
	}
	if err := buildSearchIndex(tx); err != nil {
		return fmt.Errorf("storage: build the search index: %w", err)
	}
	if err := meta.Put([]byte("schema_version"), []byte(fmt.Sprint(currentSchema))); err != nil {
		return err
	}
	return db.stampDocs(tx)
}

// storedSchema reads the schema version of the file; 0 for a new database.
func storedSchema(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bMeta)
	if meta == nil {
		return 0, nil
	}
	v := 0
	if b := meta.Get([]byte("schema_version")); b != nil {
		if err := json.Unmarshal(b, &v); err != nil {
			return 0, fmt.Errorf("storage: read schema version: %w", err)
		}
	}
	return v, nil
}

// backupBeforeMigration copies the database into the backup folder when its
// schema is older than this binary's, before any migration touches it, and
// logs the file. A failed copy stops the start: no migration without a way back.
func (db *DB) backupBeforeMigration(path string, opt Options) error {
	var from int
	if err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		from, err = storedSchema(tx)
		return err
	}); err != nil {
		return err
	}
	if from == 0 || from >= currentSchema {
		return nil
	}
	dir := opt.BackupDir
	if dir == "" {
		dir = filepath.Join(filepath.Dir(path), "backups")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("storage: backup before migration: %w", err)
	}
	name := fmt.Sprintf("%sschema%d-%s%s", backupPrefix, from, time.Now().UTC().Format(backupStamp), backupSuffix)
	file := filepath.Join(dir, name)
	size, err := db.BackupToFile(file)
	if err != nil {
		return fmt.Errorf("storage: backup before migration: %w", err)
	}
	log := opt.Log
	if log == nil {
		log = slog.Default()
	}
	log.Info("backup before schema migration", "file", file, "size_bytes", size, "from_schema", from, "to_schema", currentSchema)
	return nil
}

// Close closes the database.
func (db *DB) Close() error { return db.bolt.Close() }

// Bolt exposes the bbolt handle for stats and backups.
func (db *DB) Bolt() *bolt.DB { return db.bolt }

// View runs fn in a read-only transaction.
func (db *DB) View(fn func(app.Tx) error) error {
	return db.bolt.View(func(btx *bolt.Tx) error { return fn(db.tx(btx)) })
}

// Update runs fn in a read-write transaction and commits (fsync) on nil.
func (db *DB) Update(fn func(app.Tx) error) error {
	err := db.update(func(t *Tx) error { return fn(t) })
	if err == nil {
		db.batch.commits.Add(1)
	}
	return db.checkWrite(err)
}

// Batch is Update grouped with concurrent callers into one commit (see
// batcher). fn may run twice: when one function of a group fails, the others
// are run again, and the failing one alone.
func (db *DB) Batch(fn func(app.Tx) error) error {
	return db.checkWrite(db.batchRun(func(t *Tx) error { return fn(t) }))
}

func (db *DB) tx(btx *bolt.Tx) *Tx { return &Tx{tx: btx, now: db.Now(), stores: &db.stores} }

// update runs fn in a bbolt write transaction and writes what it left for
// the end (Tx.finish) before the commit.
func (db *DB) update(fn func(*Tx) error) error {
	return db.bolt.Update(func(btx *bolt.Tx) error {
		t := db.tx(btx)
		if err := fn(t); err != nil {
			return err
		}
		return t.finish()
	})
}

// Ping checks that the database answers.
func (db *DB) Ping() error {
	return db.bolt.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bMeta) == nil {
			return errors.New("storage: meta bucket missing")
		}
		return nil
	})
}

// Secret returns the 32-byte secret stored as name, creating it on first use.
func (db *DB) Secret(name string) ([]byte, error) {
	k := []byte("secret:" + name)
	var out []byte
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bMeta).Get(k); v != nil {
			out = bytes.Clone(v)
		}
		return nil
	})
	if out != nil {
		return out, nil
	}
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bMeta)
		if v := meta.Get(k); v != nil {
			out = bytes.Clone(v)
			return nil
		}
		out = make([]byte, 32)
		if _, err := rand.Read(out); err != nil {
			return err
		}
		return meta.Put(k, out)
	})
	if err != nil {
		return nil, fmt.Errorf("storage: make secret %s: %w", name, err)
	}
	return out, nil
}

// WriteBackup writes a consistent copy of the live database to w and returns
// its size (bbolt's transactional copy; writers are not blocked).
func (db *DB) WriteBackup(w io.Writer) (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// dataSize is the size of the data a backup copies (bbolt's Tx.Size: up to
// the highest page in use); the file is larger by what bbolt allocated ahead.
func (db *DB) dataSize() int64 {
	var n int64
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		n = tx.Size()
		return nil
	})
	return n
}

// BackupToFile writes a consistent copy to path (via a temporary file and a
// rename, fsynced), and returns its size.
func (db *DB) BackupToFile(path string) (int64, error) {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, fmt.Errorf("storage: create backup: %w", err)
	}
	n, err := db.WriteBackup(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		if isNoSpace(err) {
			return 0, ErrStorageFull("the disk has no room for the backup")
		}
		return 0, fmt.Errorf("storage: write backup: %w", err)
	}
	return n, nil
}

// Tx is one transaction; it implements app.Tx.
type Tx struct {
	tx     *bolt.Tx
	now    time.Time
	stores *sync.Map // the DB's store memo (SharedStore)
	// restocked are the products whose stock alone changed (PutProductStock),
	// by record key, as written: their docs and index values are written
	// once, by finish, however many checkouts of the transaction (a group
	// commit) took from them.
	restocked map[string]*app.Product
}

// Now is the transaction's clock.
func (t *Tx) Now() time.Time { return t.now }

func (t *Tx) b(name []byte) *bolt.Bucket { return bucket(t.tx, name) }

// NextID allocates the next id of a per-store sequence.
func (t *Tx) NextID(storeID uint64, seq string) (uint64, error) {
	b := t.b(bSeq)
	k := keyOf(storeID).last(seq)
	var n uint64 = 1
	if v := b.Get(k); len(v) == 8 {
		n = idFromKeyEnd(v) + 1
	}
	if err := b.Put(k, u64(n)); err != nil {
		return 0, fmt.Errorf("storage: next id %s: %w", seq, err)
	}
	return n, nil
}

// getJSON decodes the record at k into v, or returns not_found naming what.
func getJSON(b *bolt.Bucket, k []byte, v any, what string) error {
	raw := b.Get(k)
	if raw == nil {
		return app.NotFound(what)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("storage: decode %s: %w", what, err)
	}
	return nil
}

// putJSON encodes v at k.
func putJSON(b *bolt.Bucket, k []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("storage: encode: %w", err)
	}
	if err := b.Put(k, raw); err != nil {
		return fmt.Errorf("storage: put: %w", err)
	}
	return nil
}

// getJSONBytes decodes a JSON record.
func getJSONBytes(raw []byte, v any, what string) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("storage: decode %s: %w", what, err)
	}
	return nil
}
