package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mountTmpfs mounts a size-limited tmpfs on a new folder, or skips the test
// when mounting is not permitted (not root). It is unmounted after the test.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("skipping the full-disk test: cannot mount a tmpfs (needs root, as in CI): %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fill writes a ballast file until the file system is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// TestServeDiskFull: with the data folder's disk full, writes answer 507
// storage_full with Retry-After, /readyz is 503, one WARN (no ERROR) is
// logged, a backup is refused up front; when space returns everything works
// again and nothing acknowledged is lost (issue 14.6).
func TestServeDiskFull(t *testing.T) {
	dir := mountTmpfs(t, "8m") // registered before the server: unmounted after it stops
	s := startServer(t, dir, "STOREFRONT_ADMIN__PASSWORD=owner-password", "STOREFRONT_ADMIN__EMAIL=owner@example.com")
	base := "http://" + s.addr
	var login struct {
		Data struct {
			AccessToken string `json:"access_token"`
		} `json:"data"`
	}
	resp, env := do(t, "POST", base+"/api/v1/admin/auth/login/", map[string]string{"email": "owner@example.com", "password": "owner-password"}, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	decodeData(t, env, &login.Data)
	auth := map[string]string{"Authorization": "Bearer " + login.Data.AccessToken}
	resp, env = do(t, "POST", base+"/api/v1/admin/stores/", map[string]string{"name": "Shop", "subdomain": "shop", "currency": "USD"}, auth)
	if resp.StatusCode != 201 && resp.StatusCode != 200 {
		t.Fatalf("create store: %d", resp.StatusCode)
	}
	var st struct {
		ID uint64 `json:"id"`
	}
	decodeData(t, env, &st)
	products := base + fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID)
	ballast := filepath.Join(dir, "ballast")
	fill(t, ballast)

	created, full := 0, false
	desc := strings.Repeat("lorem ipsum ", 400)
	for i := 0; i < 500 && !full; i++ {
		resp, env := do(t, "POST", products, map[string]any{"name": fmt.Sprintf("Product %d", i), "price": "1.00", "stock": 1, "description": desc}, auth)
		switch resp.StatusCode {
		case 201, 200:
			created++
		case 507:
			full = true
			if env.ErrorCode != "storage_full" || resp.Header.Get("Retry-After") == "" {
				t.Fatalf("got 507 %q Retry-After %q, want storage_full with Retry-After", env.ErrorCode, resp.Header.Get("Retry-After"))
			}
		default:
			t.Fatalf("write %d on a full disk: got %d %q, want 200 or 507", i, resp.StatusCode, env.ErrorCode)
		}
	}
	if !full {
		t.Fatal("500 writes on a full disk all succeeded")
	}
	for i := 0; i < 5; i++ { // more failed writes: still one WARN a minute
		if resp, _ := do(t, "POST", products, map[string]any{"name": "More", "price": "1.00", "stock": 1, "description": desc}, auth); resp.StatusCode != 507 {
			t.Fatalf("write on a full disk: got %d, want 507", resp.StatusCode)
		}
	}
	if resp, env := do(t, "GET", base+"/readyz", nil, nil); resp.StatusCode != 503 || env.ErrorCode != "storage_full" {
		t.Fatalf("/readyz on a full disk: got %d %q, want 503 storage_full", resp.StatusCode, env.ErrorCode)
	}
	if resp, env := do(t, "POST", base+"/api/v1/admin/backups/", nil, auth); resp.StatusCode != 507 || env.ErrorCode != "storage_full" {
		t.Fatalf("backup on a full disk: got %d %q, want 507 storage_full", resp.StatusCode, env.ErrorCode)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "backups")); len(entries) != 0 {
		t.Fatalf("a refused backup left files: %v", entries)
	}
	metrics := get(t, base+"/metrics")
	if !strings.Contains(metrics, "storefront_storage_full 1") || !strings.Contains(metrics, "storefront_storage_full_errors_total") {
		t.Fatal("/metrics lacks storefront_storage_full 1")
	}

	if err := os.Remove(ballast); err != nil { // space comes back
		t.Fatal(err)
	}
	if resp, _ := do(t, "GET", base+"/readyz", nil, nil); resp.StatusCode != 200 {
		t.Fatalf("/readyz after space came back: got %d, want 200", resp.StatusCode)
	}
	if resp, _ := do(t, "POST", products, map[string]any{"name": "After", "price": "1.00", "stock": 1}, auth); resp.StatusCode != 201 && resp.StatusCode != 200 {
		t.Fatalf("write after space came back: got %d", resp.StatusCode)
	}
	var list struct {
		Items []struct {
			ID uint64 `json:"id"`
		} `json:"items"`
	}
	_, env = do(t, "GET", products+"?limit=1000&fields=id", nil, auth)
	decodeData(t, env, &list)
	if len(list.Items) != created+1 {
		t.Fatalf("got %d products, want %d acknowledged + 1", len(list.Items), created)
	}
	if resp, _ := do(t, "POST", base+"/api/v1/admin/backups/", nil, auth); resp.StatusCode != 200 {
		t.Fatalf("backup after space came back: got %d", resp.StatusCode)
	}
	if code := s.stop(t); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	logs := s.stderr.String()
	if n := strings.Count(logs, "the disk is full"); n != 1 {
		t.Errorf("got %d full-disk warnings, want 1 (one a minute):\n%s", n, logs)
	}
	if strings.Contains(logs, "level=ERROR") {
		t.Errorf("ERROR logged on a full disk:\n%s", logs)
	}
}

// TestServeStaleBackupTemp: temporary files of a backup killed mid-way are
// removed at start and before each backup (issue 14.7).
func TestServeStaleBackupTemp(t *testing.T) {
	dir := t.TempDir()
	bdir := filepath.Join(dir, "backups")
	if err := os.MkdirAll(bdir, 0o700); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(bdir, "storefront-20260101T000000Z.db.tmp")
	if err := os.WriteFile(stale, []byte("half a backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(bdir, "notes.txt") // not ours: left alone
	if err := os.WriteFile(keep, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, dir, "STOREFRONT_ADMIN__PASSWORD=owner-password", "STOREFRONT_ADMIN__EMAIL=owner@example.com")
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale temp file still there after start: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Fatalf("another file was removed: %v", err)
	}
	// one more appears (a backup killed while the server runs): the next backup removes it
	if err := os.WriteFile(stale, []byte("half a backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, env := do(t, "POST", "http://"+s.addr+"/api/v1/admin/auth/login/", map[string]string{"email": "owner@example.com", "password": "owner-password"}, nil)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	decodeData(t, env, &tok)
	if resp, _ := do(t, "POST", "http://"+s.addr+"/api/v1/admin/backups/", nil, map[string]string{"Authorization": "Bearer " + tok.AccessToken}); resp.StatusCode != 200 {
		t.Fatalf("backup: %d", resp.StatusCode)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale temp file still there after a backup: %v", err)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func decodeData(t *testing.T, env envelope, v any) {
	t.Helper()
	if err := json.Unmarshal(env.Data, v); err != nil {
		t.Fatalf("decode data: %v: %s", err, env.Data)
	}
}

// TestServeDiskFullAtStart: a server started on a disk that is still full
// is not ready from its first probe (503 storage_full), before any write
// failed, and turns ready when space comes back (issue 27 point 9).
func TestServeDiskFullAtStart(t *testing.T) {
	dir := mountTmpfs(t, "8m")
	first := startServer(t, dir)
	if code := first.stop(t); code != 0 {
		t.Fatalf("first start: exit %d", code)
	}
	ballast := filepath.Join(dir, "ballast")
	fill(t, ballast)
	s := startServer(t, dir)
	base := "http://" + s.addr
	if resp, env := do(t, "GET", base+"/readyz", nil, nil); resp.StatusCode != 503 || env.ErrorCode != "storage_full" {
		t.Fatalf("/readyz at start on a full disk: got %d %q, want 503 storage_full", resp.StatusCode, env.ErrorCode)
	}
	if err := os.Remove(ballast); err != nil {
		t.Fatal(err)
	}
	if resp, _ := do(t, "GET", base+"/readyz", nil, nil); resp.StatusCode != 200 {
		t.Fatalf("/readyz after space came back: got %d, want 200", resp.StatusCode)
	}
}
