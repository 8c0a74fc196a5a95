package web_test

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"storefront/testenv"
	"storefront/web"
)

// TestRequestLogLines: with the logger's writer given (as main gives it),
// each request writes one line there in the logger's text format, and a
// request whose path the fast path would have to quote goes through the
// logger instead, quoted as slog quotes it.
func TestRequestLogLines(t *testing.T) {
	t.Parallel()
	var fast, slow testenv.SyncBuffer
	e := testenv.NewWith(t, testenv.Options{Log: slog.New(slog.NewTextHandler(&slow, nil))})
	srv := web.New(web.Config{LogRequests: true, LogWriter: &fast}, e.Svc)
	srv.Mount()
	e.App = srv.App
	_, key := e.Store("Shop A")

	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/config", Key: key}).Expect(t, 200, "")
	line := regexp.MustCompile(`^time=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\S* level=INFO msg=request request_id=[0-9a-f]{8}-[0-9a-z]+ ` +
		`method=GET path=/api/v1/business/website/config status=200 duration_ms=[0-9.e+-]+ store_id=[1-9]\d* ip=\S+\n$`)
	if got := fast.String(); !line.MatchString(got) {
		t.Fatalf("request line %q does not match %s", got, line)
	}
	if strings.Contains(slow.String(), "msg=request") {
		t.Fatalf("the plain line also went through the logger: %q", slow.String())
	}

	e.Do(testenv.Req{Method: "GET", Path: `/api/v1/business/website/no"such`, Key: key}).Expect(t, 404, "not_found")
	if !strings.Contains(slow.String(), `msg=request`) || !strings.Contains(slow.String(), `path="/api/v1/business/website/no\"such" status=404`) {
		t.Fatalf("a path with a quote: the logger wrote %q", slow.String())
	}
	if strings.Count(fast.String(), "\n") != 1 {
		t.Fatalf("the quoted line was also written directly: %q", fast.String())
	}
}

// TestRequestLogOnOneConnection: requests served one after another on one
// keep-alive connection (as main serves, Server.Listener), which lends the
// request id its buffer, each write their own line with their own request
// id, the one the response carries.
func TestRequestLogOnOneConnection(t *testing.T) {
	t.Parallel()
	var out testenv.SyncBuffer
	e := testenv.NewWith(t, testenv.Options{Log: slog.New(slog.NewTextHandler(&out, nil))})
	srv := web.New(web.Config{LogRequests: true}, e.Svc)
	srv.Mount()
	_, key := e.Store("Shop A")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.App.Listener(srv.Listener(ln)) }()
	tr := &http.Transport{MaxConnsPerHost: 1, MaxIdleConnsPerHost: 1}
	t.Cleanup(func() { tr.CloseIdleConnections(); _ = srv.App.Shutdown() })
	client := &http.Client{Transport: tr}
	var ids []string
	for _, path := range []string{"/api/v1/business/website/config", "/api/v1/business/website/no-such-route-with-a-longer-path", "/api/v1/business/website/config"} {
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+path, nil)
		req.Header.Set("X-Service-Key", key)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		ids = append(ids, resp.Header.Get("X-Request-Id"))
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if strings.Contains(l, " msg=request ") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 3 {
		t.Fatalf("got %d request lines, want 3: %q", len(lines), out.String())
	}
	for i, want := range []string{"path=/api/v1/business/website/config status=200", "path=/api/v1/business/website/no-such-route-with-a-longer-path status=404", "path=/api/v1/business/website/config status=200"} {
		if !strings.Contains(lines[i], " request_id="+ids[i]+" method=GET "+want+" ") || ids[i] == "" {
			t.Fatalf("line %d: %q, want request_id=%s and %s", i, lines[i], ids[i], want)
		}
	}
	if ids[0] == ids[2] {
		t.Fatalf("two requests logged one id %s", ids[0])
	}
}

// writeCounter counts the writes to the connections it accepts.
type writeCounter struct {
	net.Listener
	writes *atomic.Int64
}

func (l writeCounter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	return countedConn{c, l.writes}, err
}

type countedConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countedConn) Write(b []byte) (int, error) { c.writes.Add(1); return c.Conn.Write(b) }

// TestLargeResponseOneWrite: a catalog page bigger than fasthttp's default
// 4 KiB buffer leaves the server in one write (web.WriteBuffer), where it
// took two on the counting connection every server connection is.
func TestLargeResponseOneWrite(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	srv := web.New(web.Config{}, e.Svc)
	srv.Mount()
	sid, key := e.Store("Shop A")
	for i := range 24 {
		e.Product(sid, 0, fmt.Sprintf("Product %02d with a name long enough to fill a page", i), 1999, 5)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var writes atomic.Int64
	go func() { _ = srv.App.Listener(srv.Listener(writeCounter{ln, &writes})) }()
	tr := &http.Transport{}
	t.Cleanup(func() { tr.CloseIdleConnections(); _ = srv.App.Shutdown() })
	req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/api/v1/business/website/products/?limit=24", nil)
	req.Header.Set("X-Service-Key", key)
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(body) < 5<<10 || len(body) > web.WriteBuffer-1024 {
		t.Fatalf("status %d, %d bytes: want 200 and a page between 5 KiB and the buffer", resp.StatusCode, len(body))
	}
	if n := writes.Load(); n != 1 {
		t.Fatalf("the %d-byte page took %d writes, want 1", len(body), n)
	}
}
