package shop_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/shop"
	"storefront/testenv"
)

// shopDomain is the shop.domain of the test servers: store "acme" is
// acme.shops.test.
const shopDomain = "shops.test"

// newEnv is a served test server with the shop mounted as main mounts it.
// cfg's Host.Domain defaults to shopDomain.
func newEnv(t testing.TB, cfg shop.Config) *testenv.Env {
	t.Helper()
	if cfg.Host.Domain == "" {
		cfg.Host.Domain = shopDomain
	}
	if cfg.Secret == nil {
		cfg.Secret = []byte("shop-test-secret")
	}
	var sh *shop.Shop
	e := testenv.NewWith(t, testenv.Options{Routes: func(e *testenv.Env) {
		var err error
		if sh, err = shop.New(cfg, e.Svc); err != nil {
			t.Fatal(err)
		}
		sh.Register(e.App)
		shop.MountTestRoutes(sh, e.App)
		e.App.Use(sh.NotFound)
	}})
	return e.Serve()
}

// browser is a shopper's browser: a cookie jar, a Host, no redirects
// followed (tests look at each answer).
type browser struct {
	t    *testing.T
	e    *testenv.Env
	host string
	c    *http.Client
	// lastReturn is the payment return URL the gateway last sent it to.
	lastReturn string
}

func newBrowser(t *testing.T, e *testenv.Env, host string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, e: e, host: host, c: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// page is one answer.
type page struct {
	Status   int
	Header   http.Header
	Body     string
	Location string
}

func (b *browser) do(method, path string, form url.Values) *page {
	b.t.Helper()
	return b.send(method, path, form, nil)
}

// send is do with more request headers (Sec-Fetch-Site, Origin).
func (b *browser) send(method, path string, form url.Values, header map[string]string) *page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.e.Base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Host = b.host
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	// the client keys the jar's cookies by the Host header (as a browser
	// keys them by the site's name): each shop host has its own cookies.
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return &page{Status: resp.StatusCode, Header: resp.Header, Body: string(raw), Location: resp.Header.Get("Location")}
}

// get fetches path.
func (b *browser) get(path string) *page { b.t.Helper(); return b.do(http.MethodGet, path, nil) }

// post submits form to path with the CSRF token of the last page of the
// browser's cookie (from a GET of from first).
func (b *browser) post(from, path string, form url.Values) *page {
	b.t.Helper()
	p := b.get(from)
	if form == nil {
		form = url.Values{}
	}
	if form.Get("csrf") == "" {
		form.Set("csrf", csrfOf(b.t, p.Body))
	}
	return b.do(http.MethodPost, path, form)
}

// token is the browser's CSRF token, as the contact page's form carries
// it; a fresh browser gets none there (a cached page), so it opens the
// sign-in page first, which sets its seed cookie.
func (b *browser) token() string {
	b.t.Helper()
	if tok := csrfOf(b.t, b.get("/contact/").Body); tok != "" {
		return tok
	}
	return csrfOf(b.t, b.get("/account/login/").Body)
}

// csrfRE finds a form's token ("" on a cached page for a fresh browser).
var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]*)"`)

// csrfOf is the CSRF token of the first form of body.
func csrfOf(t *testing.T, body string) string {
	t.Helper()
	m := csrfRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no csrf field in the page:\n%s", body)
	}
	return m[1]
}

// expect fails the test unless p has status and body contains every want.
func (p *page) expect(t *testing.T, status int, want ...string) *page {
	t.Helper()
	if p.Status != status {
		t.Fatalf("status %d, want %d; body:\n%s", p.Status, status, p.Body)
	}
	for _, w := range want {
		if !strings.Contains(p.Body, w) {
			t.Fatalf("page lacks %q:\n%s", w, p.Body)
		}
	}
	return p
}

// lacks fails the test when p's body contains any of bad.
func (p *page) lacks(t *testing.T, bad ...string) *page {
	t.Helper()
	for _, w := range bad {
		if strings.Contains(p.Body, w) {
			t.Fatalf("page has %q:\n%s", w, p.Body)
		}
	}
	return p
}

// hostOf is the shop host of a store made by testenv (its subdomain is
// the slug of its name).
func hostOf(name string) string { return app.Slugify(name) + "." + shopDomain }

var cssURL = regexp.MustCompile(`/assets/shop\.[0-9a-f]{8}\.css`)

// patchConfig merges patch (JSON) into a store's config.
func patchConfig(t *testing.T, e *testenv.Env, storeID uint64, patch string) {
	t.Helper()
	if _, err := e.Svc.Stores.PatchConfig(storeID, []byte(patch)); err != nil {
		t.Fatal(err)
	}
}

// rawConfig merges patch into a store's config in storage, past the
// service's rules (MergeConfig refuses javascript: URLs and the like): a
// config saved before those rules, or by hand, must still render safely.
func rawConfig(t *testing.T, e *testenv.Env, storeID uint64, patch string) {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal([]byte(patch), &p); err != nil {
		t.Fatal(err)
	}
	err := e.DB.Update(func(tx app.Tx) error {
		st, err := tx.Store(storeID)
		if err != nil {
			return err
		}
		var cfg map[string]any
		if err := json.Unmarshal(st.Config, &cfg); err != nil {
			return err
		}
		for k, v := range p {
			if sub, ok := v.(map[string]any); ok {
				if old, ok := cfg[k].(map[string]any); ok {
					for sk, sv := range sub {
						old[sk] = sv
					}
					continue
				}
			}
			cfg[k] = v
		}
		if st.Config, err = json.Marshal(cfg); err != nil {
			return err
		}
		return tx.PutStore(st)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Stores.SetActive(storeID, true); err != nil { // drops the cached config
		t.Fatal(err)
	}
}

// editProduct patches a product made by e.Product.
func editProduct(t *testing.T, e *testenv.Env, storeID, id uint64, in app.ProductInput) *app.Product {
	t.Helper()
	p, err := e.Svc.Catalog.SaveProduct(storeID, id, in)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// post publishes a blog post.
func post(t *testing.T, e *testenv.Env, storeID uint64, title, content string) *app.BlogPost {
	t.Helper()
	st := "PUBLISHED"
	p, err := e.Svc.Content.SavePost(storeID, 0, app.BlogPostInput{Title: &title, Content: &content, Status: &st})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ldRE finds the JSON-LD blocks of a page.
var ldRE = regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`)

// jsonLD decodes every JSON-LD block of body (failing on invalid JSON).
func jsonLD(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, m := range ldRE.FindAllStringSubmatch(body, -1) {
		var v map[string]any
		if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
			t.Fatalf("invalid JSON-LD %q: %v", m[1], err)
		}
		out = append(out, v)
	}
	return out
}

// ldOfType is the first JSON-LD object of type typ (nil: none).
func ldOfType(lds []map[string]any, typ string) map[string]any {
	for _, ld := range lds {
		if ld["@type"] == typ {
			return ld
		}
		if g, ok := ld["@graph"].([]any); ok {
			for _, x := range g {
				if m, ok := x.(map[string]any); ok && m["@type"] == typ {
					return m
				}
			}
		}
	}
	return nil
}
