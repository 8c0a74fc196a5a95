package web_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/testenv"
	"storefront/web"
)

// opsEnv wires a server with the operations routes, as main does
// (testenv mounts the catch-all before a test could add them).
type opsEnv struct {
	*testenv.Env
	down atomic.Bool // readyz fails while set
}

func newOpsEnv(t *testing.T) *opsEnv {
	t.Helper()
	oe := &opsEnv{}
	ops := web.Ops{
		Version: "test-1",
		Ping: func() error {
			if oe.down.Load() {
				return errors.New("storage: database not open")
			}
			return oe.DB.Ping()
		},
		Stats: func() web.DBStats {
			s := oe.Bolt.Bolt().Stats()
			info, _ := os.Stat(oe.Bolt.Bolt().Path())
			return web.DBStats{ReadTx: s.TxN, OpenReadTx: s.OpenTxN, FreePages: s.FreePageN, FileSizeBytes: info.Size(), CachedPages: oe.Svc.Catalog.CachedPages(),
				CachedDetails: oe.Svc.Catalog.CachedDetails(), CachedDetailBytes: oe.Svc.Catalog.CachedDetailBytes()}
		},
	}
	m := web.NewMetrics(ops)
	oe.Env = testenv.NewWith(t, testenv.Options{Backend: testenv.BackendBolt, Web: web.Config{Observe: m.Observe}, Routes: func(e *testenv.Env) {
		if err := web.ServeOpenAPI(e.App); err != nil {
			t.Fatal(err)
		}
		web.RegisterOps(e.App, ops, m)
	}})
	return oe
}

func (e *opsEnv) text(t *testing.T, path string) (int, string, string) {
	t.Helper()
	resp, err := e.App.Test(httptest.NewRequest("GET", path, nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

func TestHealthz(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	for _, p := range []string{"/healthz", "/healthz/"} {
		var d struct{ Status string }
		e.Do(testenv.Req{Method: "GET", Path: p}).Expect(t, 200, "").Decode(t, &d)
		if d.Status != "ok" {
			t.Fatalf("%s: data.status %q, want ok", p, d.Status)
		}
	}
	e.down.Store(true) // liveness does not depend on the database
	e.Do(testenv.Req{Method: "GET", Path: "/healthz"}).Expect(t, 200, "")
}

func TestReadyz(t *testing.T) {
	t.Parallel()
	t.Run("OK", func(t *testing.T) {
		e := newOpsEnv(t)
		e.Do(testenv.Req{Method: "GET", Path: "/readyz"}).Expect(t, 200, "")
	})
	t.Run("ErrDatabaseDown", func(t *testing.T) {
		e := newOpsEnv(t)
		e.down.Store(true)
		r := e.Do(testenv.Req{Method: "GET", Path: "/readyz/"}).Expect(t, 503, "internal")
		if strings.Contains(string(r.Raw), "not open") {
			t.Fatalf("readyz leaks the cause: %s", r.Raw)
		}
	})
	t.Run("ErrDatabaseClosed", func(t *testing.T) {
		e := newOpsEnv(t)
		e.Bolt.Close()
		e.Do(testenv.Req{Method: "GET", Path: "/readyz"}).Expect(t, 503, "internal")
	})
}

// scrape is m's /metrics page.
func scrape(t *testing.T, m *web.Metrics) string {
	t.Helper()
	app := fiber.New()
	app.Get("/metrics", m.Handler())
	resp, err := app.Test(httptest.NewRequest("GET", "/metrics", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func metricValue(t *testing.T, body, series string) float64 {
	t.Helper()
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`)
	m := re.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("series %s missing from:\n%s", series, body)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	st, key, err := e.Svc.Stores.Create(app.NewStore{Name: "Shop", Subdomain: "shop", Currency: "USD"})
	if err != nil {
		t.Fatal(err)
	}
	e.Product(st.ID, 0, "Red Shoe", 1250, 3)
	detail := e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/red-shoe/", Key: key}).Expect(t, 200, "")
	for i := 0; i < 3; i++ {
		e.Do(testenv.Req{Method: "GET", Path: "/healthz"}).Expect(t, 200, "")
	}
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/config/"}).Expect(t, 401, "invalid_api_key")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/no-such-slug/", Key: key}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/other-slug/", Key: key}).Expect(t, 404, "not_found")

	status, ctype, body := e.text(t, "/metrics")
	if status != 200 || !strings.HasPrefix(ctype, "text/plain") {
		t.Fatalf("got %d %q, want 200 text/plain", status, ctype)
	}
	if v := metricValue(t, body, `storefront_http_requests_total{method="GET",route="/healthz",status="200"}`); v != 3 {
		t.Errorf("healthz requests: got %v, want 3", v)
	}
	// Routes are counted by pattern, never by raw path (bounded cardinality).
	if v := metricValue(t, body, `storefront_http_requests_total{method="GET",route="/api/v1/business/website/products/:slug",status="404"}`); v != 2 {
		t.Errorf("product slug 404s: got %v, want 2", v)
	}
	if strings.Contains(body, "no-such-slug") {
		t.Errorf("a raw path reached the labels")
	}
	if v := metricValue(t, body, `storefront_http_request_duration_seconds_count{method="GET",route="/healthz"}`); v != 3 {
		t.Errorf("healthz latency count: got %v, want 3", v)
	}
	if !strings.Contains(body, `storefront_http_request_duration_seconds_bucket{method="GET",route="/healthz",le="0.005"}`) {
		t.Errorf("latency histogram buckets missing")
	}
	if v := metricValue(t, body, "storefront_bbolt_file_size_bytes"); v <= 0 {
		t.Errorf("file size %v, want > 0", v)
	}
	if v := metricValue(t, body, "storefront_bbolt_read_tx_total"); v < 1 {
		t.Errorf("read tx %v, want >= 1", v)
	}
	if v := metricValue(t, body, "storefront_product_detail_cache_entries"); v != 1 {
		t.Errorf("cached details %v, want 1", v)
	}
	// the envelope around the detail's JSON is not kept
	if v, max := metricValue(t, body, "storefront_product_detail_cache_bytes"), float64(len(detail.Raw)); v <= max/2 || v >= max {
		t.Errorf("detail cache bytes %v, want the detail's JSON (less than its %v-byte response)", v, max)
	}
	for _, series := range []string{"storefront_bbolt_free_pages", "storefront_bbolt_open_read_tx", "storefront_category_cache_pages", `storefront_build_info{version="test-1"}`, "go_goroutines"} {
		metricValue(t, body, series)
	}
}

// TestOpenAPIComplete: every JSON route the server registers is in the
// OpenAPI document (HTML pages of the panel and the payment sandbox aside).
func TestOpenAPIComplete(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	status, _, body := e.text(t, "/openapi.json")
	if status != 200 {
		t.Fatalf("openapi.json: %d", status)
	}
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q, want 3.1.0", doc.OpenAPI)
	}
	param := regexp.MustCompile(`:([a-z_]+)`)
	seen := map[string]bool{}
	for _, r := range e.App.GetRoutes(true) {
		if r.Method == "HEAD" || strings.HasPrefix(r.Path, "/admin") || strings.HasPrefix(r.Path, "/sandbox") || strings.HasPrefix(r.Path, "/docs") || r.Path == "/" || r.Path == "/favicon.ico" {
			continue
		}
		p := param.ReplaceAllString(r.Path, "{$1}")
		if !strings.HasPrefix(p, "/healthz") && !strings.HasPrefix(p, "/readyz") && p != "/metrics" && p != "/openapi.json" && !strings.HasPrefix(p, "/media/") && !strings.HasSuffix(p, "/") {
			p += "/"
		}
		key := r.Method + " " + p
		if seen[key] {
			continue
		}
		seen[key] = true
		if doc.Paths[p][strings.ToLower(r.Method)] == nil {
			t.Errorf("%s is not in the OpenAPI document", key)
		}
	}
	for _, must := range []string{"GET /healthz", "GET /readyz", "GET /metrics", "POST /api/v1/admin/backups/", "GET /api/v1/business/website/config/"} {
		if !seen[must] {
			t.Errorf("route %s not registered", must)
		}
	}
}

// TestMetricsCopyLabels: Fiber hands Observe strings that point into request
// buffers reused later; the series must keep the values of their first request.
func TestMetricsCopyLabels(t *testing.T) {
	t.Parallel()
	m := web.NewMetrics(web.Ops{Version: "x"})
	buf := []byte("GET/shared/route")
	method, route := unsafe.String(&buf[0], 3), unsafe.String(&buf[3], 13)
	m.Observe(route, method, 200, time.Millisecond)
	copy(buf, "PUT/changed/rout")
	m.Observe("/shared/route", "GET", 200, time.Millisecond)

	b := scrape(t, m)
	if v := metricValue(t, b, `storefront_http_requests_total{method="GET",route="/shared/route",status="200"}`); v != 2 {
		t.Fatalf("got %v, want 2 requests on one series:\n%s", v, b)
	}
	if strings.Contains(b, "PUT") {
		t.Fatalf("a label changed with the reused buffer:\n%s", b)
	}
}

// TestMetricsManySeries: series that share a slot of Observe's cache (the
// first two routes mix to the same one) and more series than it has slots,
// observed interleaved, each count exactly their own requests.
func TestMetricsManySeries(t *testing.T) {
	t.Parallel()
	m := web.NewMetrics(web.Ops{Version: "x"})
	routes := []string{"/a/xx/z", "/b/xx/z"}
	for i := range 60 {
		routes = append(routes, "/r/"+strings.Repeat("x", i%7)+strconv.Itoa(i))
	}
	want := map[string]int{}
	for round := 1; round <= 4; round++ {
		for i, r := range routes {
			for _, method := range []string{"GET", "POST"} {
				for _, st := range []int{200, 404} {
					if i%4 < round { // series seen 1 to 4 times, in turns
						m.Observe(r, method, st, time.Millisecond)
						want[fmt.Sprintf(`storefront_http_requests_total{method=%q,route=%q,status="%d"}`, method, r, st)]++
					}
				}
			}
		}
	}
	// One pass over the page: a regexp per series over the whole page cost
	// 24 s of CPU under the race detector (250 series, 1,600 lines).
	got := map[string]string{}
	for _, line := range strings.Split(scrape(t, m), "\n") {
		if i := strings.LastIndexByte(line, ' '); i > 0 && !strings.HasPrefix(line, "#") {
			got[line[:i]] = line[i+1:]
		}
	}
	for series, n := range want {
		if v, ok := got[series]; !ok || v != strconv.Itoa(n) {
			t.Fatalf("%s = %q (present: %v), want %d", series, v, ok, n)
		}
	}
}

func BenchmarkMetricsObserve(b *testing.B) {
	m := web.NewMetrics(web.Ops{Version: "x"})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m.Observe("/api/v1/business/website/products", "GET", 200, time.Millisecond)
	}
}

// TestDocsPage: /docs/ serves the embedded reference page under a strict CSP,
// and the vendored renderer it loads, from this server (no CDN).
func TestDocsPage(t *testing.T) {
	t.Parallel()
	e := newOpsEnv(t)
	for _, path := range []string{"/docs/", "/docs"} {
		resp, err := e.App.Test(httptest.NewRequest("GET", path, nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%s: got %d %s, want 200 text/html", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		csp := resp.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		for _, want := range []string{`spec-url="/openapi.json"`, `src="/docs/redoc.standalone.js"`} {
			if !strings.Contains(string(body), want) {
				t.Errorf("%s: page lacks %s", path, want)
			}
		}
		if strings.Contains(string(body), "https://") {
			t.Errorf("%s: the page loads something from elsewhere: %s", path, body)
		}
	}
	resp, err := e.App.Test(httptest.NewRequest("GET", "/docs/redoc.standalone.js", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") || !strings.Contains(string(js[:300]), "Version: "+web.RedocVersion) {
		t.Fatalf("renderer: got %d %s %.120q", resp.StatusCode, resp.Header.Get("Content-Type"), js)
	}
	// no request to another host: the CDN logo and icons, the telemetry
	for _, external := range []string{"https://cdn.", "//cdn.", "otel.cloud.redocly.com"} {
		if i := strings.Index(string(js), external); i >= 0 {
			t.Errorf("the served renderer still names %q: %q", external, js[max(0, i-80):min(len(js), i+120)])
		}
	}
	if !strings.Contains(string(js), "data:image/svg+xml,") {
		t.Errorf("the served renderer lacks the local logo")
	}
}
