package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// TestBackupBeforeMigration: opening a database of an older schema copies it
// into the backup folder (and logs the file) before the migration runs; the
// copy is the database as it was, and a current database is not copied.
func TestBackupBeforeMigration(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "storefront.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put([]byte("marker"), []byte("before")) }); err != nil {
		t.Fatal(err)
	}
	db.Close()

	// A binary one schema ahead, whose migration rewrites the marker.
	oldSchema, oldMigrations := currentSchema, migrations
	t.Cleanup(func() { currentSchema, migrations = oldSchema, oldMigrations })
	currentSchema = SchemaVersion + 1
	migrations = append(append([]func(*bolt.Tx) error{}, oldMigrations...), func(tx *bolt.Tx) error {
		return tx.Bucket(bMeta).Put([]byte("marker"), []byte("after"))
	})
	var logged bytes.Buffer
	backups := filepath.Join(dir, "bk")
	db, err = Open(path, Options{BackupDir: backups, Log: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	var marker, version string
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		marker, version = string(tx.Bucket(bMeta).Get([]byte("marker"))), string(tx.Bucket(bMeta).Get([]byte("schema_version")))
		return nil
	})
	db.Close()
	if want := fmt.Sprint(SchemaVersion + 1); marker != "after" || version != want {
		t.Fatalf("migrated database: marker %q schema %q, want after %s", marker, version, want)
	}
	files, _ := filepath.Glob(filepath.Join(backups, fmt.Sprintf("storefront-schema%d-*.db", SchemaVersion)))
	if len(files) != 1 {
		t.Fatalf("got backups %v, want one storefront-schema%d-*.db", files, SchemaVersion)
	}
	if !strings.Contains(logged.String(), "backup before schema migration") || !strings.Contains(logged.String(), files[0]) {
		t.Fatalf("log %q does not name the backup", logged.String())
	}
	copyDB, err := bolt.Open(files[0], 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	_ = copyDB.View(func(tx *bolt.Tx) error {
		marker, version = string(tx.Bucket(bMeta).Get([]byte("marker"))), string(tx.Bucket(bMeta).Get([]byte("schema_version")))
		return nil
	})
	copyDB.Close()
	if want := fmt.Sprint(SchemaVersion); marker != "before" || version != want {
		t.Fatalf("backup: marker %q schema %q, want before %s", marker, version, want)
	}

	// Opening the now current database copies nothing more.
	db, err = Open(path, Options{BackupDir: backups})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if entries, _ := os.ReadDir(backups); len(entries) != 1 {
		t.Fatalf("got %d files in the backup folder, want 1", len(entries))
	}
}

// TestSchemaTwo: a schema-1 file (what binaries before the compact order form
// wrote) opens, keeps its orders readable and leaves a schema-1 copy; a
// schema-1 binary refuses the file afterwards instead of failing on the
// compact records it cannot read (TestSchemaThree: every older form).
func TestSchemaTwo(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "storefront.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	old := &app.Order{StoreID: 1, ID: 7, Status: app.OrderPending, Currency: "USD", Total: 1250}
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		raw, err := json.Marshal(old) // an order as schema-1 binaries wrote it
		if err != nil {
			return err
		}
		if err := tx.Bucket(bOrders).Put(keyOf(1).id(7), raw); err != nil {
			return err
		}
		return tx.Bucket(bMeta).Put([]byte("schema_version"), []byte("1"))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	backups := filepath.Join(dir, "bk")
	if db, err = Open(path, Options{BackupDir: backups}); err != nil {
		t.Fatal(err)
	}
	var got *app.Order
	err = db.View(func(tx app.Tx) error {
		var err error
		got, err = tx.Order(1, 7)
		return err
	})
	db.Close()
	if err != nil || got.Total != 1250 || got.Status != app.OrderPending {
		t.Fatalf("order after the upgrade: %+v, %v", got, err)
	}
	if files, _ := filepath.Glob(filepath.Join(backups, "storefront-schema1-*.db")); len(files) != 1 {
		t.Fatalf("got backups %v, want one storefront-schema1-*.db", files)
	}

	oldSchema, oldMigrations := currentSchema, migrations
	t.Cleanup(func() { currentSchema, migrations = oldSchema, oldMigrations })
	currentSchema, migrations = 1, nil // a binary of schema 1
	if _, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("schema version %d, newer than this binary's 1", SchemaVersion)) {
		t.Fatalf("a schema-1 binary opened the file: %v", err)
	}
}
