package browser_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
)

// corsResult is what the page's fetch of the storefront API reports back.
type corsResult struct {
	OK        bool   `json:"ok"`
	Status    int    `json:"status"`
	RequestID string `json:"request_id"`
	List      bool   `json:"list"` // the body's data.items is an array
	Error     string `json:"error"`
}

// shopOrigin serves a tiny shop page on its own port: another origin than
// the storefront's, as a browser storefront on its own domain is.
func shopOrigin(t *testing.T) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><title>shop</title><link rel="icon" href="data:,"></head><body><p>shop</p></body></html>`)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// fetchProducts runs, in the page, a fetch of the product list with the
// store's key in X-Service-Key (a header that makes the request non-simple:
// the browser sends a preflight first) and awaits its outcome.
func fetchProducts(t *testing.T, p *browser.Page, api, key string) corsResult {
	t.Helper()
	js := `fetch(` + strconv.Quote(api+"/api/v1/business/website/products/") + `, {headers: {"X-Service-Key": ` + strconv.Quote(key) + `}})
  .then(async r => {
    const body = await r.json();
    return {ok: true, status: r.status, request_id: r.headers.get("X-Request-ID") || "", list: Array.isArray((body.data || {}).items), error: ""};
  }, e => ({ok: false, status: 0, request_id: "", list: false, error: String(e)}))`
	res, err := chromedp.Run(p.Context(), chromedp.Evaluate[corsResult](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fetch from the page: %v", err)
	}
	return res
}

// TestCORSBrowser checks CORS in a real browser: a page on another origin
// calls the storefront API with fetch and the X-Service-Key header. Before
// the store lists the page's origin the browser blocks the call (fetch
// rejects); once the store lists it (PATCH .../admin/stores/{id}/
// allowed_origins) the call succeeds and the script reads the JSON and the
// exposed X-Request-ID. Another origin stays blocked, and so does the
// listed origin with the key of a store that does not list it.
func TestCORSBrowser(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{})
	st := srv.CreateStore(t, "CORS Shop", "cors-shop")
	other := srv.CreateStore(t, "Other Shop", "other-shop")
	shop, stranger := shopOrigin(t), shopOrigin(t)

	p := browser.NewPage(t, &browser.Server{URL: shop})
	p.Go("/")
	// The blocked calls below make the browser log CORS errors: expected.
	p.AllowConsoleErrors(srv.URL + "/api/")

	if r := fetchProducts(t, p, srv.URL, st.APIKey); r.OK || !strings.Contains(r.Error, "TypeError") {
		t.Fatalf("before the origin is allowed: got %+v, want fetch to reject", r)
	}

	srv.API(t, "PATCH", "/api/v1/admin/stores/"+strconv.FormatUint(st.ID, 10)+"/", srv.OwnerToken(t),
		map[string]any{"allowed_origins": []string{shop}}, 200, nil)

	r := fetchProducts(t, p, srv.URL, st.APIKey)
	if !r.OK || r.Status != 200 || r.RequestID == "" || !r.List {
		t.Fatalf("allowed origin: got %+v, want 200 with the JSON list and X-Request-ID readable", r)
	}
	// The browser blocks the response of a store that does not list the
	// origin, even though the preflight passed (another store lists it).
	if r := fetchProducts(t, p, srv.URL, other.APIKey); r.OK {
		t.Fatalf("allowed origin, other store's key: got %+v, want fetch to reject", r)
	}

	q := browser.NewPage(t, &browser.Server{URL: stranger})
	q.Go("/")
	q.AllowConsoleErrors(srv.URL + "/api/")
	if r := fetchProducts(t, q, srv.URL, st.APIKey); r.OK {
		t.Fatalf("origin not listed: got %+v, want fetch to reject", r)
	}
}
