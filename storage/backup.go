package storage

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// BackupDir keeps timestamped consistent copies of a database in one folder,
// named storefront-YYYYMMDDTHHMMSSZ.db (UTC), and deletes all but the Keep
// newest after each new one. It is safe for concurrent use: backups run one
// at a time.
type BackupDir struct {
	DB   *DB
	Dir  string
	Keep int
	// Now names the files; nil is time.Now.
	Now func() time.Time

	mu sync.Mutex
}

// BackupFile is one backup in the folder.
type BackupFile struct {
	Name      string // file name, no folder
	Path      string
	SizeBytes int64
	CreatedAt time.Time // from the name, UTC
}

const (
	backupPrefix = "storefront-"
	backupSuffix = ".db"
	backupStamp  = "20060102T150405Z"
)

// backupHeadroom is the space a backup must leave free besides its own size.
const backupHeadroom = 1 << 20

// CleanTemp removes the temporary files of backups that never finished (a
// crash or kill mid-way); main calls it at start and Create before each backup.
// It returns the names removed.
func (b *BackupDir) CleanTemp() []string {
	tmps, _ := filepath.Glob(filepath.Join(b.Dir, backupPrefix+"*"+backupSuffix+".tmp"))
	var out []string
	for _, t := range tmps {
		if os.Remove(t) == nil {
			out = append(out, filepath.Base(t))
		}
	}
	return out
}

// BackupResult is what Create did.
type BackupResult struct {
	File     BackupFile
	Duration time.Duration
	Deleted  []string // names of the old backups removed by retention
}

// Create writes a new backup (temporary file, fsync, rename) and applies the
// retention. The folder is made (0700) when missing.
func (b *BackupDir) Create() (BackupResult, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	start := time.Now()
	now := time.Now
	if b.Now != nil {
		now = b.Now
	}
	if err := os.MkdirAll(b.Dir, 0o700); err != nil {
		return BackupResult{}, fmt.Errorf("storage: make backup folder: %w", err)
	}
	b.CleanTemp() // a backup killed mid-way left its temporary file
	// bbolt's copy is as large as the data, which the file may exceed by up
	// to its growth step: refuse before filling the disk
	need := b.DB.dataSize() + backupHeadroom
	if free := freeBytes(b.Dir); free >= 0 && free < need {
		return BackupResult{}, ErrStorageFull(fmt.Sprintf("not enough free space for a backup: %d bytes needed, %d free", need, free))
	}
	t := now().UTC().Truncate(time.Second)
	name := backupPrefix + t.Format(backupStamp) + backupSuffix
	for n := 2; fileExists(filepath.Join(b.Dir, name)); n++ {
		name = backupPrefix + t.Format(backupStamp) + "-" + strconv.Itoa(n) + backupSuffix
	}
	path := filepath.Join(b.Dir, name)
	size, err := b.DB.BackupToFile(path)
	if err != nil {
		return BackupResult{}, err
	}
	res := BackupResult{File: BackupFile{Name: name, Path: path, SizeBytes: size, CreatedAt: t}}
	res.Deleted, err = b.prune()
	res.Duration = time.Since(start)
	return res, err
}

// List returns the backups in the folder, newest first. A missing folder is
// an empty list.
func (b *BackupDir) List() ([]BackupFile, error) {
	entries, err := os.ReadDir(b.Dir)
	if os.IsNotExist(err) {
		return []BackupFile{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("storage: list backups: %w", err)
	}
	type entry struct {
		f BackupFile
		n int
	}
	var all []entry
	for _, e := range entries {
		t, n, ok := parseBackupName(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // deleted meanwhile
		}
		all = append(all, entry{BackupFile{Name: e.Name(), Path: filepath.Join(b.Dir, e.Name()), SizeBytes: info.Size(), CreatedAt: t}, n})
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].f.CreatedAt.Equal(all[j].f.CreatedAt) {
			return all[i].f.CreatedAt.After(all[j].f.CreatedAt)
		}
		return all[i].n > all[j].n
	})
	out := make([]BackupFile, len(all))
	for i, e := range all {
		out[i] = e.f
	}
	return out, nil
}

// prune deletes all but the Keep newest backups and leftover temporary files.
func (b *BackupDir) prune() ([]string, error) {
	files, err := b.List()
	if err != nil {
		return nil, err
	}
	var deleted []string
	if b.Keep > 0 && len(files) > b.Keep {
		for _, f := range files[b.Keep:] {
			if err := os.Remove(f.Path); err != nil && !os.IsNotExist(err) {
				return deleted, fmt.Errorf("storage: delete old backup: %w", err)
			}
			deleted = append(deleted, f.Name)
		}
	}
	return deleted, nil
}

// parseBackupName reads the time and collision counter of a backup file name.
func parseBackupName(name string) (time.Time, int, bool) {
	rest, ok := strings.CutPrefix(name, backupPrefix)
	if !ok {
		return time.Time{}, 0, false
	}
	rest, ok = strings.CutSuffix(rest, backupSuffix)
	if !ok || len(rest) < len(backupStamp) {
		return time.Time{}, 0, false
	}
	t, err := time.Parse(backupStamp, rest[:len(backupStamp)])
	if err != nil {
		return time.Time{}, 0, false
	}
	n := 1
	if tail := rest[len(backupStamp):]; tail != "" {
		v, ok := strings.CutPrefix(tail, "-")
		if !ok {
			return time.Time{}, 0, false
		}
		if n, err = strconv.Atoi(v); err != nil || n < 2 {
			return time.Time{}, 0, false
		}
	}
	return t.UTC(), n, true
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
