package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"storefront/storage/postgres/pgtest"
)

// pgServer is a PostgreSQL server of the test's own (initdb in a temporary
// folder, a unix socket only), so that stopping and restarting it touches no
// other test: make test runs every package against one shared server.
type pgServer struct {
	t      *testing.T
	bin    string // the folder of initdb, pg_ctl, postgres
	dir    string // socket folder; data in dir/data
	opts   string // pg_ctl -o
	asUser []string
}

// ownPGServer starts a throwaway server and returns it with the URL of its
// postgres database. It runs where the PostgreSQL variants run (the suite's
// server is set) and skips when the server binaries are not installed.
func ownPGServer(t *testing.T) (*pgServer, string) {
	t.Helper()
	pgtest.ServerURL(t) // skip (or fail under CI) as every PostgreSQL variant does
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		t.Skip("no PostgreSQL server binaries (initdb) to start a server of this test's own")
	}
	dir, err := os.MkdirTemp("", "sf-pgdown")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	s := &pgServer{t: t, bin: filepath.Dir(bins[len(bins)-1]), dir: dir,
		opts: "-c listen_addresses='' -k " + dir + " -c fsync=off -c full_page_writes=off"}
	if os.Geteuid() == 0 { // the server refuses to run as root
		s.asUser = []string{"runuser", "-u", "postgres", "--"}
		if err := exec.Command("chown", "postgres", dir).Run(); err != nil {
			t.Skipf("cannot hand the folder to the postgres user: %v", err)
		}
	}
	os.Chmod(dir, 0o755)
	s.run("initdb", "-D", s.data(), "-U", "storefront", "--auth=trust", "-E", "UTF8", "--no-sync")
	s.start()
	t.Cleanup(func() { _ = s.cmd("pg_ctl", "-D", s.data(), "-m", "immediate", "-w", "stop").Run() })
	return s, "host=" + dir + " user=storefront dbname=postgres sslmode=disable"
}

func (s *pgServer) data() string { return filepath.Join(s.dir, "data") }

func (s *pgServer) cmd(prog string, args ...string) *exec.Cmd {
	argv := append(append(append([]string{}, s.asUser...), filepath.Join(s.bin, prog)), args...)
	return exec.Command(argv[0], argv[1:]...)
}

func (s *pgServer) run(prog string, args ...string) {
	s.t.Helper()
	if out, err := s.cmd(prog, args...).CombinedOutput(); err != nil {
		s.t.Fatalf("%s %v: %v\n%s", prog, args, err, out)
	}
}

// The server writes to its log file: one left on pg_ctl's output would
// hold the test's pipe open.
func (s *pgServer) ctl(args ...string) {
	s.t.Helper()
	s.run("pg_ctl", append([]string{"-D", s.data(), "-w", "-t", "60", "-l", filepath.Join(s.dir, "server.log")}, args...)...)
}

func (s *pgServer) stop()    { s.ctl("stop", "-m", "fast") }
func (s *pgServer) start()   { s.ctl("start", "-o", s.opts) }
func (s *pgServer) restart() { s.ctl("restart", "-m", "fast", "-o", s.opts) }

// unavailable checks that an answer is 503 storage_unavailable with Retry-After.
func unavailable(t *testing.T, what string, resp *http.Response, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	defer resp.Body.Close()
	var env struct {
		ErrorCode string `json:"error_code"`
	}
	json.NewDecoder(resp.Body).Decode(&env)
	if resp.StatusCode != 503 || env.ErrorCode != "storage_unavailable" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("%s with the database down: got %d %q Retry-After %q, want 503 storage_unavailable with Retry-After",
			what, resp.StatusCode, env.ErrorCode, resp.Header.Get("Retry-After"))
	}
}

// TestPostgresDown: while the database is down every request answers 503
// storage_unavailable with Retry-After and readiness is 503; once it is
// back the same process serves again without a restart, and a restart under
// load answers no request 500.
func TestPostgresDown(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	pg, url := ownPGServer(t)
	s := startClusterOn(t, url, 1)[0]
	var login struct {
		AccessToken string `json:"access_token"`
	}
	s.call("POST", "/api/v1/admin/auth/login/", "", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, 200, &login)
	tok := login.AccessToken
	var st struct {
		ID     uint64 `json:"id"`
		APIKey string `json:"api_key"`
	}
	s.call("POST", "/api/v1/admin/stores/", "", tok, map[string]string{"name": "Down", "subdomain": "down", "currency": "USD"}, 201, &st)
	products := "/api/v1/business/website/products/"
	s.call("GET", products, st.APIKey, "", nil, 200, nil)
	categories := fmt.Sprintf("/api/v1/admin/stores/%d/categories/", st.ID)

	pg.stop()
	restarted := false
	defer func() {
		if !restarted {
			pg.start()
		}
	}()
	req := func(method, path, key, token, body string) (*http.Response, error) {
		r, _ := http.NewRequest(method, s.base+path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		if key != "" {
			r.Header.Set("X-Service-Key", key)
		}
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		return http.DefaultClient.Do(r)
	}
	for range 2 { // the second after the pool noticed
		// another sort than the page read above, which may still be served
		// from memory until the lost announcements' listener drops it
		resp, err := req("GET", products+"?sort=name_asc", st.APIKey, "", "")
		unavailable(t, "GET products", resp, err)
		resp, err = req("POST", categories, "", tok, `{"name":"Cups"}`)
		unavailable(t, "POST category", resp, err)
		resp, err = req("POST", "/api/v1/admin/auth/login/", "", "", `{"email":"owner@example.com","password":"owner-password"}`)
		unavailable(t, "login", resp, err)
	}
	// the shop's pages as the API (issue 38 point 6)
	resp, err := http.Get(s.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("the shop with the database down: got %d Retry-After %q, want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if status, raw := s.do("GET", "/readyz", "", "", nil); status != 503 {
		t.Fatalf("readyz with the database down: %d %s, want 503", status, raw)
	}

	pg.start()
	restarted = true
	eventually(t, 30*time.Second, "readyz 200 once the database is back", func() bool {
		status, _ := s.do("GET", "/readyz", "", "", nil)
		return status == 200
	})
	s.call("GET", products, st.APIKey, "", nil, 200, nil)
	s.call("POST", categories, "", tok, map[string]any{"name": "Cups"}, 201, nil)

	// A fast restart under load: 503s while it is down, never a 500.
	var stop atomic.Bool
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for n := 0; !stop.Load(); n++ {
				var status int
				if i%2 == 0 {
					status, _ = s.do("GET", products, st.APIKey, "", nil)
				} else {
					status, _ = s.do("POST", categories, "", tok, map[string]any{"name": fmt.Sprintf("C%d-%d", i, n)})
				}
				mu.Lock()
				statuses[status]++
				mu.Unlock()
			}
		})
	}
	pg.restart()
	eventually(t, 30*time.Second, "readyz 200 after the restart", func() bool {
		status, _ := s.do("GET", "/readyz", "", "", nil)
		return status == 200
	})
	stop.Store(true)
	wg.Wait()
	for status, n := range statuses {
		if status != 200 && status != 201 && status != 503 {
			t.Errorf("%d answers %d during a restart, want only 200/201 and 503 (all: %v)", n, status, statuses)
		}
	}
	t.Logf("answers during the restart: %v", statuses)
	s.call("GET", products, st.APIKey, "", nil, 200, nil)
}
