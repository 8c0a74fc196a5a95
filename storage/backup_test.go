package storage_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"storefront/app"
	"storefront/storage"
)

func openDB(t *testing.T) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "storefront.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestBackupDirRetention(t *testing.T) {
	db := openDB(t)
	if err := db.Update(func(tx app.Tx) error {
		return tx.CreateStore(&app.Store{Name: "A", Subdomain: "a", Currency: "USD", APIKeyHash: app.HashAPIKey("k")})
	}); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	bd := &storage.BackupDir{DB: db, Dir: filepath.Join(t.TempDir(), "backups"), Keep: 3, Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}}
	var names []string
	for i := 0; i < 5; i++ {
		res, err := bd.Create()
		if err != nil {
			t.Fatal(err)
		}
		if res.File.SizeBytes <= 0 {
			t.Fatalf("size %d, want > 0", res.File.SizeBytes)
		}
		names = append(names, res.File.Name)
		if i < 3 && len(res.Deleted) != 0 {
			t.Fatalf("backup %d deleted %v, want nothing", i, res.Deleted)
		}
		if i >= 3 && (len(res.Deleted) != 1 || res.Deleted[0] != names[i-3]) {
			t.Fatalf("backup %d deleted %v, want [%s]", i, res.Deleted, names[i-3])
		}
		if i != 1 { // two in the same second: the second gets a counter
			mu.Lock()
			now = now.Add(24 * time.Hour)
			mu.Unlock()
		}
	}
	if names[0] != "storefront-20261121T030000Z.db" || names[2] != "storefront-20261122T030000Z-2.db" {
		t.Fatalf("names %v", names)
	}
	list, err := bd.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 {
		t.Fatalf("got %d files, want 3", len(list))
	}
	for i, want := range []string{names[4], names[3], names[2]} {
		if list[i].Name != want {
			t.Fatalf("list[%d] = %s, want %s (newest first)", i, list[i].Name, want)
		}
	}
	// The newest file is a database with the store in it.
	cp, err := storage.Open(list[0].Path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	var n int
	if err := cp.View(func(tx app.Tx) error {
		all, err := tx.Stores()
		n = len(all)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("backup has %d stores, want 1", n)
	}
}

func TestBackupDirListIgnoresOthers(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"notes.txt", "storefront-bad.db", "storefront-20261121T030000Z.db.tmp", "storefront-20261121T030000Z-1.db"} {
		os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600)
	}
	bd := &storage.BackupDir{Dir: dir}
	list, err := bd.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 0 {
		t.Fatalf("got %v, want no backups", list)
	}
	bd.Dir = filepath.Join(dir, "missing")
	if list, err := bd.List(); err != nil || len(list) != 0 {
		t.Fatalf("missing folder: got %v, %v; want empty, nil", list, err)
	}
}
