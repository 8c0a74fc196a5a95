package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/storage/postgres/pgtest"
)

// pgServer drives the throwaway PostgreSQL of scripts/with-postgres.sh (its
// data directory is "data" beside the socket): stop, start and restart it.
type pgServer struct {
	t      *testing.T
	pgCtl  string
	data   string
	asUser []string // runuser -u postgres -- when the tests run as root
}

// thePGServer returns the test server's controls, or skips t when the
// server is not one scripts/with-postgres.sh started on this machine.
func thePGServer(t *testing.T) *pgServer {
	t.Helper()
	cfg, err := pgx.ParseConfig(pgtest.ServerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(cfg.Host, "data")
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if _, err := os.Stat(filepath.Join(data, "postmaster.opts")); err != nil || len(bins) == 0 {
		t.Skip("the PostgreSQL server is not a local one from scripts/with-postgres.sh: it cannot be restarted")
	}
	s := &pgServer{t: t, pgCtl: bins[len(bins)-1], data: data}
	if os.Geteuid() == 0 {
		s.asUser = []string{"runuser", "-u", "postgres", "--"}
	}
	return s
}

func (s *pgServer) ctl(args ...string) {
	s.t.Helper()
	argv := append(append(append([]string{}, s.asUser...), s.pgCtl, "-D", s.data, "-w", "-t", "60"), args...)
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		s.t.Fatalf("pg_ctl %v: %v\n%s", args, err, out)
	}
}

// options returns the server's command-line options as pg_ctl -o takes them
// (postmaster.opts: the binary, then each option double-quoted).
func (s *pgServer) options() string {
	raw, err := os.ReadFile(filepath.Join(s.data, "postmaster.opts"))
	if err != nil {
		s.t.Fatal(err)
	}
	var opts []string
	for _, m := range regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(string(raw), -1) {
		opts = append(opts, "'"+strings.ReplaceAll(m[1], "'", `'\''`)+"'")
	}
	return strings.Join(opts, " ")
}

func (s *pgServer) stop() string {
	opts := s.options()
	s.ctl("stop", "-m", "fast")
	return opts
}

// start and restart write the server's output to its log file: a server
// left on pg_ctl's output would hold the test's pipe open.
func (s *pgServer) start(opts string) { s.ctl("start", "-l", s.logFile(), "-o", opts) }

func (s *pgServer) restart() { s.ctl("restart", "-m", "fast", "-l", s.logFile()) }

func (s *pgServer) logFile() string { return filepath.Join(filepath.Dir(s.data), "server.log") }

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
	pg := thePGServer(t)
	s := startCluster(t, 1)[0]
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

	opts := pg.stop()
	restarted := false
	defer func() {
		if !restarted {
			pg.start(opts)
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
		resp, err := req("GET", products, st.APIKey, "", "")
		unavailable(t, "GET products", resp, err)
		resp, err = req("POST", categories, "", tok, `{"name":"Cups"}`)
		unavailable(t, "POST category", resp, err)
		resp, err = req("POST", "/api/v1/admin/auth/login/", "", "", `{"email":"owner@example.com","password":"owner-password"}`)
		unavailable(t, "login", resp, err)
	}
	if status, raw := s.do("GET", "/readyz", "", "", nil); status != 503 {
		t.Fatalf("readyz with the database down: %d %s, want 503", status, raw)
	}

	pg.start(opts)
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
