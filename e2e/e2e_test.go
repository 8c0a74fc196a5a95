// Package e2e runs the real storefront binary: start, write, kill -9,
// restart, and check that every acknowledged write survived.
package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// binary builds the storefront binary once per test run.
func binary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "storefront")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type server struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string
	out  *bytes.Buffer
}

// start runs `storefront serve` on dataDir and waits (bounded) until /healthz answers.
func start(t *testing.T, bin, dataDir string) *server {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(),
		"STOREFRONT_DATA_DIR="+dataDir,
		"STOREFRONT_HTTP__ADDR="+addr,
		"STOREFRONT_HTTP__PUBLIC_URL=http://"+addr,
		"STOREFRONT_ADMIN__EMAIL=owner@example.com",
		"STOREFRONT_ADMIN__PASSWORD=owner-password",
		"STOREFRONT_RATELIMIT__API_PER_SECOND=0",
	)
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, cmd: cmd, base: "http://" + addr, out: out}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	client := http.Client{Timeout: time.Second}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := client.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not become healthy: %v\n%s", err, out)
		}
		// wait for the process to get further; the loop is bounded by the deadline
		runtimeGosched()
	}
}

func runtimeGosched() { time.Sleep(20 * time.Millisecond) }

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

func (s *server) kill9() {
	s.t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		s.t.Fatal(err)
	}
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
