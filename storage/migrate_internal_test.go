package storage

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
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
	if marker != "after" || version != "2" {
		t.Fatalf("migrated database: marker %q schema %q, want after 2", marker, version)
	}
	files, _ := filepath.Glob(filepath.Join(backups, "storefront-schema1-*.db"))
	if len(files) != 1 {
		t.Fatalf("got backups %v, want one storefront-schema1-*.db", files)
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
	if marker != "before" || version != "1" {
		t.Fatalf("backup: marker %q schema %q, want before 1", marker, version)
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
