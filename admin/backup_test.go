package admin_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"storefront/admin"
	"storefront/app"
	"storefront/storage"
	"storefront/testenv"
)

// backupEnv wires a server whose admin API has backups into a temp folder
// (testenv leaves admin.Config's Backup empty).
type backupEnv struct {
	*testenv.Env
	backups *storage.BackupDir
	fail    error
	staff   string
	shopper string
}

func newBackupEnv(t *testing.T) *backupEnv {
	t.Helper()
	be := &backupEnv{}
	be.Env = testenv.NewWith(t, testenv.Options{Backend: testenv.BackendBolt, Admin: admin.Config{
		Backup: func() (string, int64, error) {
			if be.fail != nil {
				return "", 0, be.fail
			}
			res, err := be.backups.Create()
			return res.File.Name, res.File.SizeBytes, err
		},
		Backups: func() ([]admin.BackupFile, error) {
			files, err := be.backups.List()
			out := make([]admin.BackupFile, len(files))
			for i, f := range files {
				out[i] = admin.BackupFile{File: f.Name, SizeBytes: f.SizeBytes, CreatedAt: app.UTC(f.CreatedAt).Format(time.RFC3339)}
			}
			return out, err
		},
	}})
	be.backups = &storage.BackupDir{DB: be.Bolt, Dir: filepath.Join(be.Dir, "backups"), Keep: 2}
	sid, _ := be.Store("Shop")
	be.staff = be.Staff(sid, "staff@example.com")
	_, be.shopper = be.Shopper(sid, "ada@example.com")
	return be
}

type backupData struct {
	File      string `json:"file"`
	SizeBytes int64  `json:"size_bytes"`
	CreatedAt string `json:"created_at"`
}

func TestBackupCreate(t *testing.T) {
	t.Parallel()
	e := newBackupEnv(t)
	var b backupData
	e.Do(testenv.Req{Method: "POST", Path: "/api/v1/admin/backups/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &b)
	info, err := os.Stat(filepath.Join(e.backups.Dir, b.File))
	if err != nil {
		t.Fatalf("backup file %q: %v", b.File, err)
	}
	if info.Size() != b.SizeBytes || b.SizeBytes == 0 {
		t.Fatalf("size_bytes %d, file has %d", b.SizeBytes, info.Size())
	}
	// The copy is a database holding the store.
	cp, err := storage.Open(filepath.Join(e.backups.Dir, b.File), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	var n int
	cp.View(func(tx app.Tx) error { all, err := tx.Stores(); n = len(all); return err })
	if n != 1 {
		t.Fatalf("backup has %d stores, want 1", n)
	}
}

func TestBackupList(t *testing.T) {
	t.Parallel()
	e := newBackupEnv(t)
	var l struct {
		Items      []backupData `json:"items"`
		NextCursor *string      `json:"next_cursor"`
		HasMore    bool         `json:"has_more"`
	}
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/backups/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 0 || l.HasMore || l.NextCursor != nil {
		t.Fatalf("got %+v, want an empty complete list", l)
	}
	var made []string
	for i := 0; i < 3; i++ {
		var b backupData
		e.Do(testenv.Req{Method: "POST", Path: "/api/v1/admin/backups", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &b)
		made = append(made, b.File)
	}
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/backups/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 2 { // backups.keep is 2 here
		t.Fatalf("got %d backups, want 2 (retention)", len(l.Items))
	}
	if l.Items[0].File != made[2] || l.Items[1].File != made[1] {
		t.Fatalf("got %s, %s; want %s, %s (newest first)", l.Items[0].File, l.Items[1].File, made[2], made[1])
	}
	if l.Items[0].SizeBytes == 0 || l.Items[0].CreatedAt == "" {
		t.Fatalf("item %+v lacks size or time", l.Items[0])
	}
}

func TestBackupAccess(t *testing.T) {
	t.Parallel()
	e := newBackupEnv(t)
	cases := []struct {
		name, method, token string
		status              int
		code                string
	}{
		{"ErrNoToken create", "POST", "", 401, "unauthorized"},
		{"ErrNoToken list", "GET", "", 401, "unauthorized"},
		{"ErrStaff create", "POST", e.staff, 403, "forbidden"},
		{"ErrStaff list", "GET", e.staff, 403, "forbidden"},
		{"ErrShopperToken", "POST", e.shopper, 401, "unauthorized"},
		{"ErrGarbageToken", "GET", "not-a-token", 401, "unauthorized"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: tc.method, Path: "/api/v1/admin/backups/", Token: tc.token}).Expect(t, tc.status, tc.code)
		})
	}
	files, _ := e.backups.List()
	if len(files) != 0 {
		t.Fatalf("refused requests made %d backups", len(files))
	}
}

func TestBackupFailureIsInternal(t *testing.T) {
	t.Parallel()
	e := newBackupEnv(t)
	e.fail = errors.New("storage: write backup: disk full at /secret/path")
	r := e.Do(testenv.Req{Method: "POST", Path: "/api/v1/admin/backups/", Token: e.OwnerToken}).Expect(t, 500, "internal")
	if r.Body.Message != "internal error" {
		t.Fatalf("message %q leaks the cause", r.Body.Message)
	}
}

func TestBackupNotConfigured(t *testing.T) {
	t.Parallel()
	e := testenv.New(t) // admin.Config without Backup
	e.Do(testenv.Req{Method: "POST", Path: "/api/v1/admin/backups/", Token: e.OwnerToken}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/backups/", Token: e.OwnerToken}).Expect(t, 404, "not_found")
}
