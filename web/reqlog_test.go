package web_test

import (
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"storefront/testenv"
	"storefront/web"
)

// TestRequestLogLines: with the logger's writer given (as main gives it),
// each request writes one line there in the logger's text format, and a
// request whose path the fast path would have to quote goes through the
// logger instead, quoted as slog quotes it.
func TestRequestLogLines(t *testing.T) {
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
	if got := slow.String(); !strings.Contains(got, `msg=request`) || !strings.Contains(got, `path="/api/v1/business/website/no\"such" status=404`) {
		t.Fatalf("a path with a quote: the logger wrote %q", got)
	}
	if n := strings.Count(fast.String(), "\n"); n != 1 {
		t.Fatalf("the fast path wrote %d lines, want 1: %q", n, fast.String())
	}
}
