package storage_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"storefront/app"
	"storefront/app/imaging"
	"storefront/storage"
)

// TestMeasureMediaStores compares the two ways to keep uploaded images that
// a backup includes: the bbolt buckets (the choice) and content-addressed
// files under data_dir. It writes 5,000 images (three real renditions each,
// one upload per transaction / per fsynced file set), reads them back in a
// random order, and backs each up. Run: MEDIA_MEASURE=1 go test ./storage
// -run TestMeasureMediaStores -v (figures in docs/decisions.md).
func TestMeasureMediaStores(t *testing.T) {
	if os.Getenv("MEDIA_MEASURE") == "" {
		t.Skip("set MEDIA_MEASURE=1 to measure (about a minute, 1 GB of disk)")
	}
	n := 5000
	if s := os.Getenv("MEDIA_MEASURE_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	// One photo-like 2000x1500 upload, processed for real: its renditions'
	// sizes are what each stored image weighs.
	src := image.NewRGBA(image.Rect(0, 0, 2000, 1500))
	rng := rand.New(rand.NewPCG(1, 2))
	for y := 0; y < 1500; y++ {
		for x := 0; x < 2000; x++ {
			src.Set(x, y, color.RGBA{uint8(x/8 + rng.IntN(24)), uint8(y/6 + rng.IntN(24)), uint8((x+y)/16 + rng.IntN(24)), 255})
		}
	}
	var up bytes.Buffer
	jpeg.Encode(&up, src, &jpeg.Options{Quality: 85})
	res, err := imaging.Process("file", up.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	per := 0
	for _, b := range res.Files {
		per += len(b)
	}
	t.Logf("one image: upload %d bytes; renditions 160=%d 480=%d 1200=%d (%d bytes)", up.Len(), len(res.Files[160]), len(res.Files[480]), len(res.Files[1200]), per)
	hashes := make([]string, n)
	for i := range hashes {
		s := sha256.Sum256([]byte(fmt.Sprint("image", i)))
		hashes[i] = hex.EncodeToString(s[:])
	}
	dir := t.TempDir()

	// bbolt: one Update per upload (renditions + refs).
	db, err := storage.Open(filepath.Join(dir, "bolt", "storefront.db"), storage.Options{})
	if err != nil {
		if err := os.MkdirAll(filepath.Join(dir, "bolt"), 0o700); err != nil {
			t.Fatal(err)
		}
		if db, err = storage.Open(filepath.Join(dir, "bolt", "storefront.db"), storage.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	defer db.Close()
	t0 := time.Now()
	for _, h := range hashes {
		if err := db.Update(func(tx app.Tx) error {
			return tx.PutMedia(&app.Media{StoreID: 1, Hash: h, Ext: "jpg", Files: res.Files})
		}); err != nil {
			t.Fatal(err)
		}
	}
	boltWrite := time.Since(t0)
	order := rng.Perm(n)
	t0 = time.Now()
	for _, i := range order {
		if err := db.View(func(tx app.Tx) error {
			_, err := tx.MediaFile(1, hashes[i], 480)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	boltRead := time.Since(t0)
	t0 = time.Now()
	boltSize, err := db.BackupToFile(filepath.Join(dir, "bolt-backup.db"))
	if err != nil {
		t.Fatal(err)
	}
	boltBackup := time.Since(t0)

	// Files: data_dir/media/{store}/{sha[:2]}/{sha}-{w}.jpg, each fsynced,
	// renamed into place; the backup copies the tree (plus the database).
	root := filepath.Join(dir, "files", "media", "1")
	t0 = time.Now()
	for _, h := range hashes {
		d := filepath.Join(root, h[:2])
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		for w, b := range res.Files {
			p := filepath.Join(d, fmt.Sprintf("%s-%d.jpg", h, w))
			f, err := os.CreateTemp(d, ".up-*")
			if err != nil {
				t.Fatal(err)
			}
			f.Write(b)
			if err := f.Sync(); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if err := os.Rename(f.Name(), p); err != nil {
				t.Fatal(err)
			}
		}
		df, _ := os.Open(d)
		df.Sync()
		df.Close()
	}
	fileWrite := time.Since(t0)
	t0 = time.Now()
	for _, i := range order {
		h := hashes[i]
		if _, err := os.ReadFile(filepath.Join(root, h[:2], h+"-480.jpg")); err != nil {
			t.Fatal(err)
		}
	}
	fileRead := time.Since(t0)
	t0 = time.Now()
	var fileSize int64
	var files int
	dst := filepath.Join(dir, "files-backup")
	err = filepath.WalkDir(filepath.Join(dir, "files"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(dir, "files"), p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o700); err != nil {
			return err
		}
		fileSize += int64(len(b))
		files++
		return os.WriteFile(filepath.Join(dst, rel), b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	fileBackup := time.Since(t0)
	var dirBlocks int64
	filepath.WalkDir(filepath.Join(dir, "files"), func(p string, d fs.DirEntry, err error) error {
		if fi, err := d.Info(); err == nil && !d.IsDir() {
			dirBlocks += (fi.Size() + 4095) / 4096 * 4096
		}
		return nil
	})
	fi, _ := os.Stat(filepath.Join(dir, "bolt", "storefront.db"))
	lat := func(d time.Duration) string { return (d / time.Duration(n)).Round(time.Microsecond).String() }
	rows := []string{
		fmt.Sprintf("bbolt: write %v (%s/image), read 480 %v (%s/image), db file %.0f MB, backup %.0f MB in %v",
			boltWrite.Round(time.Millisecond), lat(boltWrite), boltRead.Round(time.Millisecond), lat(boltRead), float64(fi.Size())/1e6, float64(boltSize)/1e6, boltBackup.Round(time.Millisecond)),
		fmt.Sprintf("files: write %v (%s/image), read 480 %v (%s/image), %d files %.0f MB (%.0f MB on 4 KiB blocks), backup copy %v",
			fileWrite.Round(time.Millisecond), lat(fileWrite), fileRead.Round(time.Millisecond), lat(fileRead), files, float64(fileSize)/1e6, float64(dirBlocks)/1e6, fileBackup.Round(time.Millisecond)),
	}
	sort.Strings(rows)
	for _, r := range rows {
		t.Log(r)
	}
}
