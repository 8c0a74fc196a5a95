package storage

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestGrowthDoesNotWaitForReaders: a write that grows the file by megabytes
// commits while a read transaction stays open (an export, a backup, a slow
// client's page). With the file mapped only as large as it is, bbolt would
// remap it, and the remap waits for the reader to finish.
func TestGrowthDoesNotWaitForReaders(t *testing.T) {
	if initialMmapSize() == 0 {
		t.Skip("this platform keeps bbolt's growth by doubling")
	}
	db, err := Open(filepath.Join(t.TempDir(), "g.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reader, err := db.bolt.Begin(false)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Rollback() // after a failure: lets the blocked write end
	done := make(chan error, 1)
	go func() {
		done <- db.bolt.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("growth-test"))
			if err != nil {
				return err
			}
			for i := range 128 {
				if err := b.Put(u64(uint64(i)), make([]byte, 64<<10)); err != nil {
					return err
				}
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a write that grew the file by 8 MB waited for an open read transaction: the file was remapped")
	}
	if s := db.bolt.Stats(); s.TxStats.GetWrite() == 0 {
		t.Fatalf("stats %+v: nothing written", s.TxStats)
	}
}

// TestBackupSizeIsTheData: with the file mapped ahead, bbolt extends even a
// small file by its 16 MB growth step; a backup copies the data, and the
// free-space check before one (dataSize) asks for what the copy writes, not
// for the file's length.
func TestBackupSizeIsTheData(t *testing.T) {
	if initialMmapSize() == 0 {
		t.Skip("this platform keeps bbolt's growth by doubling")
	}
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("size-test"))
		if err != nil {
			return err
		}
		return b.Put([]byte("k"), make([]byte, 64<<10))
	}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := db.WriteBackup(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if n != db.dataSize() || n >= info.Size() {
		t.Fatalf("backup wrote %d bytes, dataSize %d, file %d: want the backup to equal dataSize, below the file's length", n, db.dataSize(), info.Size())
	}
}
