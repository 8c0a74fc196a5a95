// Package e2e runs the real storefront binary: start, write, kill -9,
// restart, and check that every acknowledged write survived.
package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"storefront/testenv"
)

// binary is the storefront binary, built once per test run.
func binary(t *testing.T) string { return testenv.Binary(t) }

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.RemoveBinary()
	os.Exit(code)
}

type server struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string
	done chan struct{} // closed when the process closed its log

	mu   sync.Mutex
	logs []logLine // every JSON log line
	tail []string  // the last lines of its output, as written
}

// logLine is what the tests read of a log line.
type logLine struct {
	Msg  string `json:"msg"`
	Addr string `json:"addr"`
	Job  string `json:"job"`
}

// start runs `storefront serve` on dataDir on a free port and returns once
// the server logs that it listens (it listens before it says so: no polling).
func start(t *testing.T, bin, dataDir string, env ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(append(os.Environ(), env...),
		"STOREFRONT_DATA_DIR="+dataDir,
		"STOREFRONT_HTTP__ADDR=127.0.0.1:0",
		"STOREFRONT_LOG__FORMAT=json",
		"STOREFRONT_ADMIN__EMAIL=owner@example.com",
		"STOREFRONT_ADMIN__PASSWORD=owner-password",
		"STOREFRONT_RATELIMIT__API_PER_SECOND=0",
		"STOREFRONT_RATELIMIT__UNPAID_ORDERS_PER_HOUR=0", // thousands of orders from one address
	)
	cmd.Env = append(cmd.Env, env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, cmd: cmd, done: make(chan struct{})}
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-s.done; _ = cmd.Wait() })
	addrc := make(chan string, 1)
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.mu.Lock()
			s.tail = append(s.tail[max(0, len(s.tail)-19):], sc.Text())
			s.mu.Unlock()
			var line logLine
			if json.Unmarshal(sc.Bytes(), &line) != nil {
				continue
			}
			s.mu.Lock()
			s.logs = append(s.logs, line)
			s.mu.Unlock()
			if line.Msg == "listening" {
				addrc <- line.Addr
			}
		}
	}()
	select {
	case addr := <-addrc:
		s.base = "http://" + addr
	case <-s.done:
		t.Fatalf("the server exited before listening (%v); its last lines:\n%s", cmd.Wait(), strings.Join(s.tail, "\n"))
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not listen within 30s")
	}
	return s
}

// call sends a JSON request and decodes the envelope's data.
func (s *server) call(method, path, key, token string, body any, wantStatus int, out any) {
	s.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.base+path, r)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("X-Service-Key", key)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != wantStatus {
		s.t.Fatalf("%s %s: got %d, want %d: %s", method, path, resp.StatusCode, wantStatus, raw)
	}
	if out != nil {
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(raw, &env); err != nil || json.Unmarshal(env.Data, out) != nil {
			s.t.Fatalf("%s %s: bad body %s", method, path, raw)
		}
	}
}

// stop ends the server as an operator does (SIGTERM) and waits for it.
func (s *server) stop() {
	s.t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		s.t.Fatal(err)
	}
	<-s.done
	if err := s.cmd.Wait(); err != nil {
		s.t.Fatalf("the server stopped with %v", err)
	}
}

func (s *server) kill9() {
	s.t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		s.t.Fatal(err)
	}
	<-s.done
	_ = s.cmd.Wait()
}

func TestKill9LosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	bin := binary(t)
	dir := t.TempDir()
	s := start(t, bin, dir)

	var login struct {
		AccessToken string `json:"access_token"`
	}
	s.call("POST", "/api/v1/admin/auth/login/", "", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, 200, &login)
	tok := login.AccessToken
	var st struct {
		ID     uint64 `json:"id"`
		APIKey string `json:"api_key"`
	}
	s.call("POST", "/api/v1/admin/stores/", "", tok, map[string]string{"name": "Durable", "subdomain": "durable", "currency": "USD"}, 201, &st)
	// A new store starts with test mode off: these orders go through the sandbox.
	s.call("PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/payments/", st.ID), "", tok, map[string]any{"payments_live": false}, 200, nil)
	// The checkouts return to the store's front-end: its origin is listed.
	s.call("PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/config/", st.ID), "", tok, map[string]any{"callback_origins": []string{"https://shop.example"}}, 200, nil)
	var p struct {
		ID uint64 `json:"id"`
	}
	s.call("POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), "", tok, map[string]any{"name": "Mug", "price": "9.50", "stock": 5}, 201, &p)
	var ini struct {
		OrderID   uint64 `json:"order_id"`
		SessionID string `json:"payment_session_id"`
	}
	s.call("POST", "/api/v1/business/website/payment/initiate/", st.APIKey, "", map[string]any{
		"receiver_name": "Ada", "phone": "+15550100", "address": "1 Loop Rd", "email": "ada@example.com",
		"delivery_fee": "0.00", "currency": "USD", "payment_method": "WALLET_A", "callback_url": "https://shop.example/cb",
		"items": []map[string]any{{"product_id": p.ID, "unit_price": "9.50", "quantity": 2}},
	}, 200, &ini)
	s.kill9()

	s = start(t, bin, dir)
	s.call("POST", "/api/v1/admin/auth/login/", "", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, 200, &login)
	var order struct {
		ID     uint64 `json:"id"`
		Status string `json:"status"`
		Total  string `json:"total"`
	}
	s.call("GET", fmt.Sprintf("/api/v1/admin/stores/%d/orders/%d/", st.ID, ini.OrderID), "", login.AccessToken, nil, 200, &order)
	if order.Status != "PENDING" || order.Total != "19.00" {
		t.Fatalf("order after kill -9: got %+v", order)
	}
	var prod struct {
		Stock int64 `json:"stock"`
	}
	s.call("GET", "/api/v1/business/website/products/mug/", st.APIKey, "", nil, 200, &prod)
	if prod.Stock != 3 {
		t.Fatalf("stock after kill -9: got %d, want 3", prod.Stock)
	}
}
