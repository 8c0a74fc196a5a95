package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// rawRequest writes raw bytes on a new connection and returns what the
// server answers until it closes the connection (or 10 s pass).
func rawRequest(t *testing.T, addr, raw string) string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if raw != "" {
		if _, err := io.WriteString(conn, raw); err != nil {
			t.Fatal(err)
		}
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server neither answered nor closed within 10s (got %q)", b)
	}
	return string(b)
}

// TestServe431: an oversized request line or headers is 431 in the envelope,
// not a 500 with an ERROR log line (issue 14.3).
func TestServe431(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir())
	for name, raw := range map[string]string{
		"header":       "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 10<<10) + "\r\n\r\n",
		"request line": "GET /healthz?" + strings.Repeat("q", 10<<10) + " HTTP/1.1\r\nHost: x\r\n\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			got := rawRequest(t, s.addr, raw)
			if !strings.HasPrefix(got, "HTTP/1.1 431") || !strings.Contains(got, `"error_code":"request_headers_too_large"`) ||
				!strings.Contains(got, "X-Content-Type-Options: nosniff") {
				t.Fatalf("got %q, want 431 request_headers_too_large with nosniff", got)
			}
		})
	}
	// a header just under the limit is served
	got := rawRequest(t, s.addr, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: "+strings.Repeat("a", 6<<10)+"\r\n\r\n")
	if !strings.HasPrefix(got, "HTTP/1.1 200") {
		t.Fatalf("6 KiB header: got %q", got)
	}
	if strings.Contains(s.stderr.String(), "level=ERROR") {
		t.Fatalf("ERROR logged:\n%s", s.stderr)
	}
}

// TestServeRequestTimeout: a request that does not arrive in time is 408
// request_timeout; a connection that sends nothing is closed without a byte
// (issue 14.8). The timeout is configured short for the test.
func TestServeRequestTimeout(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir(), "STOREFRONT_HTTP__READ_TIMEOUT=300ms", "STOREFRONT_HTTP__IDLE_TIMEOUT=300ms")
	t.Run("Slow", func(t *testing.T) {
		got := rawRequest(t, s.addr, "POST /api/v1/customer/auth/login/ HTTP/1.1\r\nHost: x\r\n") // headers never end
		if !strings.HasPrefix(got, "HTTP/1.1 408") || !strings.Contains(got, `"error_code":"request_timeout"`) {
			t.Fatalf("got %q, want 408 request_timeout", got)
		}
	})
	t.Run("SlowBody", func(t *testing.T) {
		got := rawRequest(t, s.addr, "POST /api/v1/customer/auth/login/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\"")
		if !strings.HasPrefix(got, "HTTP/1.1 408") || !strings.Contains(got, `"error_code":"request_timeout"`) {
			t.Fatalf("got %q, want 408 request_timeout", got)
		}
	})
	t.Run("Nothing", func(t *testing.T) {
		if got := rawRequest(t, s.addr, ""); got != "" {
			t.Fatalf("a connection with no request got %q, want nothing", got)
		}
	})
	// keepAliveAfterOne opens a connection and reads one answered request
	// on it, leaving it open (keep-alive) with a 10 s read deadline.
	keepAliveAfterOne := func(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
		t.Helper()
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		_, _ = io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("got %v %v", resp, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		return conn, br
	}
	t.Run("IdleKeepAlive", func(t *testing.T) {
		_, br := keepAliveAfterOne(t, s.addr)
		rest, _ := io.ReadAll(br) // idle: closed after the idle timeout without a word
		if len(rest) != 0 {
			t.Fatalf("an idle keep-alive connection got %q, want nothing", rest)
		}
	})
	t.Run("SlowSecondRequest", func(t *testing.T) {
		// a keep-alive connection's next request is held to the idle
		// timeout (the connection arms its deadlines: web/server.go)
		conn, br := keepAliveAfterOne(t, s.addr)
		_, _ = io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n") // headers never end
		rest, err := io.ReadAll(br)
		if err != nil {
			t.Fatalf("the server neither answered nor closed within 10s: %v (got %q)", err, rest)
		}
		if got := string(rest); !strings.HasPrefix(got, "HTTP/1.1 408") || !strings.Contains(got, `"error_code":"request_timeout"`) {
			t.Fatalf("got %q, want 408 request_timeout", got)
		}
	})
	t.Run("SlowSecondBody", func(t *testing.T) {
		// its body too (ReadTimeout from its headers: web.Server.tuneServer)
		conn, br := keepAliveAfterOne(t, s.addr)
		_, _ = io.WriteString(conn, "POST /api/v1/customer/auth/login/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
		rest, err := io.ReadAll(br)
		if err != nil {
			t.Fatalf("the server neither answered nor closed within 10s: %v (got %q)", err, rest)
		}
		if got := string(rest); !strings.HasPrefix(got, "HTTP/1.1 408") || !strings.Contains(got, `"error_code":"request_timeout"`) {
			t.Fatalf("got %q, want 408 request_timeout", got)
		}
	})
	if strings.Contains(s.stderr.String(), "level=ERROR") {
		t.Fatalf("ERROR logged:\n%s", s.stderr)
	}
}

var metricsAddrRE = regexp.MustCompile(`metrics_addr=(127\.0\.0\.1:\d+)`)

// TestServeMetricsAddr: with http.metrics_addr /metrics leaves the public
// listener; http.metrics_token guards it (issue 14.7).
func TestServeMetricsAddr(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir(), "STOREFRONT_HTTP__METRICS_ADDR=127.0.0.1:0", "STOREFRONT_HTTP__METRICS_TOKEN=scrape-secret")
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil; { // the log is written asynchronously
		if m = metricsAddrRE.FindStringSubmatch(s.stderr.String()); m == nil && time.Now().After(deadline) {
			t.Fatalf("no metrics_addr logged:\n%s", s.stderr)
		}
		runtime.Gosched()
	}
	if resp, env := do(t, "GET", "http://"+s.addr+"/metrics", nil, nil); resp.StatusCode != 404 || env.ErrorCode != "not_found" {
		t.Fatalf("public /metrics: got %d %q, want 404", resp.StatusCode, env.ErrorCode)
	}
	if resp, env := do(t, "GET", "http://"+m[1]+"/metrics", nil, nil); resp.StatusCode != 401 || env.ErrorCode != "unauthorized" {
		t.Fatalf("/metrics without the token: got %d %q, want 401", resp.StatusCode, env.ErrorCode)
	}
	if resp, _ := do(t, "GET", "http://"+m[1]+"/metrics", nil, map[string]string{"Authorization": "Bearer wrong"}); resp.StatusCode != 401 {
		t.Fatalf("/metrics with a wrong token: got %d, want 401", resp.StatusCode)
	}
	resp, err := http.DefaultClient.Do(mustReq(t, "GET", "http://"+m[1]+"/metrics", "Bearer scrape-secret"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "storefront_build_info") {
		t.Fatalf("/metrics with the token: got %d %.200s", resp.StatusCode, body)
	}
}

func mustReq(t *testing.T, method, url, auth string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	return req
}

// TestServeShutdownDrain: after SIGTERM the server keeps accepting for
// http.shutdown_delay, readiness is 503 and responses close their
// connections, so requests sent while shutdown begins are served (issue 14.8).
func TestServeShutdownDrain(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir(), "STOREFRONT_HTTP__SHUTDOWN_DELAY=3s")
	base := "http://" + s.addr
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}
	get := func(path string) *http.Response {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatalf("GET %s during the drain: %v", path, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	if resp := get("/healthz"); resp.StatusCode != 200 || resp.Close {
		t.Fatalf("before: got %d close=%v", resp.StatusCode, resp.Close)
	}
	s.cancel() // what SIGTERM does
	deadline := time.Now().Add(2 * time.Second)
	for {
		resp := get("/readyz") // the first may still travel on the old keep-alive connection
		if resp.StatusCode == 503 {
			if !resp.Close {
				t.Fatal("a response while draining did not close its connection")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("/readyz did not turn 503 after SIGTERM")
		}
	}
	for i := 0; i < 5; i++ { // each on a new connection, all served
		if resp := get("/healthz"); resp.StatusCode != 200 || !resp.Close {
			t.Fatalf("during the drain: got %d close=%v, want 200 and Connection: close", resp.StatusCode, resp.Close)
		}
	}
	if code := s.stop(t); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// TestServeWarnsPublicMetrics: /metrics public on the main address (no
// metrics_addr, no metrics_token) is a WARN at start; either setting ends it
// (issue 27 point 9).
func TestServeWarnsPublicMetrics(t *testing.T) {
	t.Parallel()
	const warning = "/metrics is public"
	for _, tc := range []struct {
		name  string
		env   []string
		warns bool
	}{
		{"Public", nil, true},
		{"Token", []string{"STOREFRONT_HTTP__METRICS_TOKEN=scrape-secret"}, false},
		{"SeparateListener", []string{"STOREFRONT_HTTP__METRICS_ADDR=127.0.0.1:0"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, t.TempDir(), tc.env...)
			s.stop(t)
			log := s.stderr.String()
			if strings.Contains(log, warning) != tc.warns || (tc.warns && !strings.Contains(log, "level=WARN")) {
				t.Fatalf("warning %q logged: %v, want %v:\n%s", warning, !tc.warns, tc.warns, log)
			}
		})
	}
}
