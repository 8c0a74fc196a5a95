package browser

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"storefront/testenv"
)

// Owner account every server of the harness starts with.
const (
	OwnerEmail    = "owner@example.com"
	OwnerPassword = "owner-password"
)

// Binary is the storefront binary, built once per test run.
func Binary(t testing.TB) string { return testenv.Binary(t) }

// ServerOptions choose the data a server starts with.
type ServerOptions struct {
	// Demo seeds the demo store (STOREFRONT_DEMO=true).
	Demo bool
	// DataDir is the data folder; empty: a fresh folder under the test's temp dir.
	DataDir string
	// Seed, when set, runs before the server starts with the path of the
	// database file (data_dir/storefront.db), which the server then opens: a
	// test fills it through the storage layer (fast for 100k rows) and closes it.
	Seed func(dbPath string) error
	// Env adds STOREFRONT_* variables (KEY=value).
	Env []string
}

// Server is one running storefront binary on 127.0.0.1 on a free port.
type Server struct {
	// URL is the base URL, such as http://127.0.0.1:41234 (no trailing slash).
	URL     string
	DataDir string

	t    testing.TB
	cmd  *exec.Cmd
	done chan struct{} // closed when the process closed its log

	mu    sync.Mutex
	token string // the owner's admin API token
	logs  bytes.Buffer
}

// StartServer builds the binary (once), starts `storefront serve` and
// returns when the server listens. The server is killed when the test ends.
func StartServer(t testing.TB, opt ServerOptions) *Server {
	t.Helper()
	bin := Binary(t)
	dir := opt.DataDir
	if dir == "" {
		dir = t.TempDir()
	}
	if opt.Seed != nil {
		if err := opt.Seed(filepath.Join(dir, "storefront.db")); err != nil {
			t.Fatalf("seed: %v", err)
		}
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(),
		"STOREFRONT_DATA_DIR="+dir,
		"STOREFRONT_HTTP__ADDR=127.0.0.1:0",
		"STOREFRONT_HTTP__LOG_REQUESTS=false",
		"STOREFRONT_LOG__FORMAT=json",
		"STOREFRONT_ADMIN__EMAIL="+OwnerEmail,
		"STOREFRONT_ADMIN__PASSWORD="+OwnerPassword,
		"STOREFRONT_AUTH__BCRYPT_COST=4",
		"STOREFRONT_RATELIMIT__API_PER_SECOND=0",
	)
	if opt.Demo {
		cmd.Env = append(cmd.Env, "STOREFRONT_DEMO=true")
	}
	cmd.Env = append(cmd.Env, opt.Env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &Server{t: t, cmd: cmd, DataDir: dir, done: make(chan struct{})}
	t.Cleanup(s.Stop)
	addrc := make(chan string, 1)
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var line struct {
				Msg   string `json:"msg"`
				Addr  string `json:"addr"`
				Level string `json:"level"`
			}
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
				addrc <- line.Addr
			}
			s.mu.Lock()
			if s.logs.Len() < 1<<20 {
				s.logs.Write(sc.Bytes())
				s.logs.WriteByte('\n')
			}
			s.mu.Unlock()
		}
	}()
	select {
	case addr := <-addrc:
		s.URL = "http://" + addr
	case <-s.done:
		t.Fatalf("the server exited before listening:\n%s", s.Logs())
	case <-time.After(60 * time.Second):
		t.Fatalf("the server did not listen within 60s:\n%s", s.Logs())
	}
	return s
}

// Stop kills the server and waits for it (idempotent).
func (s *Server) Stop() {
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
	_ = s.cmd.Wait()
}

// Logs is what the server wrote to its log so far (JSON lines).
func (s *Server) Logs() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logs.String()
}

// Request sends a request with an optional admin bearer token and returns the
// status and body.
func (s *Server) Request(t testing.TB, method, path, token, contentType string, body io.Reader) (int, []byte, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	return resp.StatusCode, raw, resp.Header
}

// API sends a JSON request to the admin (or storefront) API, checks the
// status and decodes the envelope's data into out (when not nil).
func (s *Server) API(t testing.TB, method, path, token string, body any, wantStatus int, out any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	status, raw, _ := s.Request(t, method, path, token, "application/json", r)
	if status != wantStatus {
		t.Fatalf("%s %s: got %d, want %d: %s", method, path, status, wantStatus, raw)
	}
	if out != nil {
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(raw, &env); err != nil || json.Unmarshal(env.Data, out) != nil {
			t.Fatalf("%s %s: bad body %s", method, path, raw)
		}
	}
}

// Login logs in to the admin API and returns the token.
func (s *Server) Login(t testing.TB, email, password string) string {
	t.Helper()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	s.API(t, "POST", "/api/v1/admin/auth/login/", "", map[string]string{"email": email, "password": password}, 200, &out)
	return out.AccessToken
}

// OwnerToken is an admin API token of the owner (logged in once per server).
func (s *Server) OwnerToken(t testing.TB) string {
	t.Helper()
	s.mu.Lock()
	tok := s.token
	s.mu.Unlock()
	if tok != "" {
		return tok
	}
	tok = s.Login(t, OwnerEmail, OwnerPassword)
	s.mu.Lock()
	s.token = tok
	s.mu.Unlock()
	return tok
}

// Store is a store made through the admin API.
type Store struct {
	ID     uint64 `json:"id"`
	APIKey string `json:"api_key"`
}

// CreateStore makes a store (USD) through the admin API.
func (s *Server) CreateStore(t testing.TB, name, subdomain string) Store {
	t.Helper()
	var st Store
	s.API(t, "POST", "/api/v1/admin/stores/", s.OwnerToken(t), map[string]string{"name": name, "subdomain": subdomain, "currency": "USD"}, 201, &st)
	// In test mode (a new store starts with it off): the tests pay through the sandbox.
	s.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/payments/", st.ID), s.OwnerToken(t), map[string]any{"payments_live": false}, 200, nil)
	return st
}

// CreateStaff makes a staff account of one store through the admin API.
func (s *Server) CreateStaff(t testing.TB, email, password string, storeID uint64) {
	t.Helper()
	s.API(t, "POST", "/api/v1/admin/users/", s.OwnerToken(t), map[string]any{"email": email, "password": password, "role": "staff", "store_id": storeID}, 201, nil)
}
