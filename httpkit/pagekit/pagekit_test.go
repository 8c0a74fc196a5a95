package pagekit_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/pagekit"
)

var files = fstest.MapFS{
	"t/layout.html":       {Data: []byte(`{{define "layout"}}<h1>{{template "main" .}}</h1>{{template "_foot.html" .}}{{end}}`)},
	"t/_foot.html":        {Data: []byte(`<footer>foot</footer>`)},
	"t/home.html":         {Data: []byte(`{{define "main"}}home {{.}}{{end}}`)},
	"t/about.html":        {Data: []byte(`{{define "main"}}about{{end}}`)},
	"s/site.css":          {Data: []byte(strings.Repeat("body{color:red}\n", 200))},
	"broken/a.html":       {Data: []byte(`{{define "main"}}{{.Nope`)},
	"noblock/a.html":      {Data: []byte(`plain`)},
	"noblock/layout.html": {Data: []byte(`{{define "layout"}}x{{end}}`)},
}

func opts(theme string) pagekit.TemplateOptions {
	return pagekit.TemplateOptions{Dir: "t", ThemeDir: theme, Layout: "layout", Block: "main", Need: []string{"home"}}
}

func exec(t *testing.T, ts *pagekit.Templates, name string, data any) string {
	t.Helper()
	var b bytes.Buffer
	if err := ts.Execute(&b, name, data); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestTemplatesThemeOverride(t *testing.T) {
	t.Parallel()
	ts, err := pagekit.ParseTemplates(files, opts(""))
	if err != nil {
		t.Fatal(err)
	}
	if got := exec(t, ts, "home", "A"); got != "<h1>home A</h1><footer>foot</footer>" {
		t.Fatalf("embedded: %q", got)
	}
	theme := t.TempDir()
	// the theme replaces one page and one partial; the rest stay embedded
	os.WriteFile(filepath.Join(theme, "home.html"), []byte(`{{define "main"}}themed {{.}}{{end}}`), 0o600)
	os.WriteFile(filepath.Join(theme, "_foot.html"), []byte(`<footer>mine</footer>`), 0o600)
	ts, err = pagekit.ParseTemplates(files, opts(theme))
	if err != nil {
		t.Fatal(err)
	}
	if got := exec(t, ts, "home", "B"); got != "<h1>themed B</h1><footer>mine</footer>" {
		t.Fatalf("themed: %q", got)
	}
	if got := exec(t, ts, "about", nil); got != "<h1>about</h1><footer>mine</footer>" {
		t.Fatalf("about: %q", got)
	}
	if err := ts.Execute(&bytes.Buffer{}, "nope", nil); err == nil {
		t.Fatal("an unknown page rendered")
	}
	// a broken theme file fails the parse, at start-up
	os.WriteFile(filepath.Join(theme, "about.html"), []byte(`{{define "main"}}{{end`), 0o600)
	if _, err := pagekit.ParseTemplates(files, opts(theme)); err == nil || !strings.Contains(err.Error(), "about.html") {
		t.Fatalf("broken theme file: %v", err)
	}
}

func TestTemplatesRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opt  pagekit.TemplateOptions
		want string
	}{
		{"syntax", pagekit.TemplateOptions{Dir: "broken"}, "a.html"},
		{"no block", pagekit.TemplateOptions{Dir: "noblock", Layout: "layout", Block: "main"}, "needs the layout"},
		{"missing page", pagekit.TemplateOptions{Dir: "t", Layout: "layout", Block: "main", Need: []string{"cart"}}, "cart.html is missing"},
	} {
		if _, err := pagekit.ParseTemplates(files, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// serve runs one request through a Fiber app with handler h.
func serve(t *testing.T, h fiber.Handler, method, path string, hdr map[string]string, body string) *http.Response {
	t.Helper()
	a := fiber.New()
	a.All("/*", h)
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := a.Test(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func readAll(t *testing.T, r *http.Response) string {
	t.Helper()
	var rd io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		rd = zr
	}
	b, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSendGzipAndETag(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("<p>hello</p>", 500)
	send := func(c *fiber.Ctx) error {
		pagekit.Send(c, pagekit.Page{Status: 200, Body: []byte(big), Caching: pagekit.Revalidate})
		return nil
	}
	plain := serve(t, send, "GET", "/", nil, "")
	etag := plain.Header.Get("ETag")
	if plain.StatusCode != 200 || plain.Header.Get("Content-Encoding") != "" || readAll(t, plain) != big || !strings.HasPrefix(etag, `W/"`) {
		t.Fatalf("plain: %d %q %q", plain.StatusCode, plain.Header.Get("Content-Encoding"), etag)
	}
	if plain.Header.Get("Cache-Control") != "no-cache" || plain.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("headers: %v", plain.Header)
	}
	gz := serve(t, send, "GET", "/", map[string]string{"Accept-Encoding": "gzip, br"}, "")
	if gz.Header.Get("Content-Encoding") != "gzip" || gz.Header.Get("ETag") != etag || readAll(t, gz) != big {
		t.Fatalf("gzip: %q %q", gz.Header.Get("Content-Encoding"), gz.Header.Get("ETag"))
	}
	for _, tc := range []struct {
		inm    string
		status int
	}{{etag, 304}, {`"x", ` + strings.TrimPrefix(etag, "W/"), 304}, {"*", 304}, {`W/"0-1"`, 200}, {"", 200}} {
		r := serve(t, send, "GET", "/", map[string]string{"If-None-Match": tc.inm}, "")
		if r.StatusCode != tc.status {
			t.Errorf("If-None-Match %q: %d, want %d", tc.inm, r.StatusCode, tc.status)
		}
		if tc.status == 304 && readAll(t, r) != "" {
			t.Errorf("304 with a body")
		}
	}
	// an error page is never 304, and a small page is not compressed
	small := func(c *fiber.Ctx) error {
		pagekit.Send(c, pagekit.Page{Status: 404, Body: []byte("<p>no</p>")})
		return nil
	}
	r := serve(t, small, "GET", "/", map[string]string{"If-None-Match": "*", "Accept-Encoding": "gzip"}, "")
	if r.StatusCode != 404 || r.Header.Get("Content-Encoding") != "" || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("small 404: %d %q %q", r.StatusCode, r.Header.Get("Content-Encoding"), r.Header.Get("Cache-Control"))
	}
}

func TestAssetsFingerprinted(t *testing.T) {
	t.Parallel()
	as, err := pagekit.LoadAssets(files, "s", "/assets/")
	if err != nil {
		t.Fatal(err)
	}
	u, err := as.URL("site.css")
	if err != nil || !strings.HasPrefix(u, "/assets/site.") || !strings.HasSuffix(u, ".css") || len(u) != len("/assets/site.12345678.css") {
		t.Fatalf("URL %q %v", u, err)
	}
	if _, err := as.URL("nope.css"); err == nil {
		t.Fatal("an unknown file has a URL")
	}
	h := func(c *fiber.Ctx) error {
		if !as.Serve(c, strings.TrimPrefix(c.Path(), "/assets/")) {
			return c.SendStatus(404)
		}
		return nil
	}
	r := serve(t, h, "GET", u, map[string]string{"Accept-Encoding": "gzip"}, "")
	if r.StatusCode != 200 || r.Header.Get("Content-Encoding") != "gzip" || r.Header.Get("Content-Type") != "text/css; charset=utf-8" ||
		r.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || readAll(t, r) != string(files["s/site.css"].Data) {
		t.Fatalf("asset: %d %v", r.StatusCode, r.Header)
	}
	for _, stale := range []string{"/assets/site.css", "/assets/site.00000000.css", "/assets/nope.css"} {
		if r := serve(t, h, "GET", stale, nil, ""); r.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", stale, r.StatusCode)
		}
	}
}

func TestCSRFRefusals(t *testing.T) {
	t.Parallel()
	k := pagekit.NewCSRF([]byte(strings.Repeat("k", 32)), "test")
	good := k.Token("session", "abc")
	if len(good) != 32 || !k.Valid(good, "session", "abc") {
		t.Fatalf("token %q refused", good)
	}
	other := pagekit.NewCSRF([]byte(strings.Repeat("k", 32)), "other")
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"another session", k.Valid(good, "session", "abd")},
		{"parts shifted", k.Valid(good, "sessiona", "bc")},
		{"another purpose", other.Valid(good, "session", "abc")},
		{"empty", k.Valid("", "session", "abc")},
		{"truncated", k.Valid(good[:31], "session", "abc")},
	} {
		if tc.ok {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	seed := pagekit.SeedCookie{Name: "seed", Path: "/"}
	h := func(c *fiber.Ctx) error {
		if c.Method() == fiber.MethodGet {
			return c.SendString(k.Token("form", seed.Ensure(c)))
		}
		s, found := seed.Get(c)
		if !found || !k.FormOK(c, "form", s) {
			return c.SendStatus(403)
		}
		return c.SendStatus(204)
	}
	r := serve(t, h, "GET", "/", nil, "")
	tok := readAll(t, r)
	ck := r.Header.Get("Set-Cookie")
	if !strings.Contains(ck, "HttpOnly") || !strings.Contains(strings.ToLower(ck), "samesite=lax") {
		t.Fatalf("seed cookie %q", ck)
	}
	cookie := strings.Split(ck, ";")[0]
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
	for _, tc := range []struct {
		name   string
		hdr    map[string]string
		body   string
		status int
	}{
		{"token and cookie", form, "csrf=" + tok, 204},
		{"no token", form, "", 403},
		{"wrong token", form, "csrf=" + strings.Repeat("0", 32), 403},
		{"no cookie", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "csrf=" + tok, 403},
		{"another cookie", map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Cookie": "seed=" + strings.Repeat("a", 32)},
			"csrf=" + url.QueryEscape(tok), 403},
	} {
		if r := serve(t, h, "POST", "/", tc.hdr, tc.body); r.StatusCode != tc.status {
			t.Errorf("%s: %d, want %d", tc.name, r.StatusCode, tc.status)
		}
	}
}

func TestDecodeFormFieldErrors(t *testing.T) {
	t.Parallel()
	fields := []pagekit.Field{{Name: "name", Max: 5}, {Name: "password", Type: "password", Max: 10}, {Name: "note", Max: 3}}
	vals, err := pagekit.DecodeForm([]byte("name=+Ann+&password=+pw+&other=x"), 100, fields)
	if err != nil || vals["name"] != "Ann" || vals["password"] != " pw " || vals["note"] != "" || vals["other"] != "" {
		t.Fatalf("%v %q", err, vals)
	}
	for _, tc := range []struct {
		body  string
		field string
	}{
		{"name=Annabel", "name"},
		{"note=%ff%fe", "note"},
		{"name=%zz", "body"},
		{strings.Repeat("x", 101), "body"},
	} {
		_, err := pagekit.DecodeForm([]byte(tc.body), 100, fields)
		if fe := pagekit.ProblemOf(err).Fields; fe[tc.field] == "" {
			t.Errorf("%q: errors %v, want one on %s", tc.body, fe, tc.field)
		}
	}
	if p := pagekit.ProblemOf(app.Errorf(app.EConflict, "taken")); p.Status != 409 || p.Fields != nil || p.Internal {
		t.Fatalf("conflict: %+v", p)
	}
	if p := pagekit.ProblemOf(errors.New("disk on fire")); p.Status != 500 || !p.Internal {
		t.Fatalf("internal: %+v", p)
	}
}

func TestDecodeFormTyped(t *testing.T) {
	t.Parallel()
	fields := []pagekit.Field{{Name: "note", Max: 3, Clip: true}, {Name: "n", Max: 20}, {Name: "id", Max: 20}, {Name: "on", Max: 3}}
	vals, err := pagekit.DecodeForm([]byte("note=abcdef&n=7&id=42&on=yes"), 100, fields)
	var v app.Validation
	n, id := vals.Int(&v, "n", 1, 0, 10, "bad n"), vals.ID(&v, "id", "bad id")
	if err != nil || vals["note"] != "abcd" || n != 7 || id != 42 || !vals.On("on") || v.Err() != nil {
		t.Fatalf("%v %q %d %d %v", err, vals, n, id, v.Err())
	}
	for _, tc := range []struct {
		body, field string
	}{{"n=11", "n"}, {"n=x", "n"}, {"id=-1", "id"}, {"id=1.5", "id"}} {
		vals, _ := pagekit.DecodeForm([]byte(tc.body), 100, fields)
		var v app.Validation
		vals.Int(&v, "n", 1, 0, 10, "bad")
		vals.ID(&v, "id", "bad")
		if !v.Has(tc.field) || vals.On("on") {
			t.Errorf("%q: %v, want an error on %s", tc.body, v.Err(), tc.field)
		}
	}
	if vals, _ := pagekit.DecodeForm(nil, 100, fields); vals.Int(&v, "n", 1, 0, 10, "") != 1 || vals.ID(&v, "id", "") != 0 {
		t.Fatal("defaults")
	}
}

func TestCSPBuilder(t *testing.T) {
	t.Parallel()
	got := pagekit.BaseCSP().Set("img-src", "'self'", "https:").Set("base-uri", "'self'").String()
	want := "default-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; img-src 'self' https:"
	if got != want {
		t.Fatalf("CSP %q, want %q", got, want)
	}
}

func TestLocalPath(t *testing.T) {
	t.Parallel()
	for next, want := range map[string]bool{
		"/account/": true, "/admin/stores/1/?q=a%2Fb": true, "": false, "account": false, "//evil.example/": false,
		"/\\evil.example": false, "/a\\b": false, "/a\r\nSet-Cookie: x": false, "/a\tb": false, "https://evil.example/": false,
		"/" + strings.Repeat("a", 500): false,
	} {
		if got := pagekit.LocalPath(next); got != want {
			t.Errorf("LocalPath(%q) = %v, want %v", next, got, want)
		}
	}
}

// TestSendHoles: a page with holes (MakeHoles: its parts compressed once)
// reads, gzipped or not, as the parts joined with the fill: for an empty
// part, a part that repeats itself, no fill, a fill as long as the hole
// (its CRC worked out from one made once) and a fill too long for one
// stored block (compressed per request then); the gzip reader checks the
// CRC-32 and the length. The ETag is the same gzipped or not, differs with
// the fill, and a GET naming it is 304.
func TestSendHoles(t *testing.T) {
	t.Parallel()
	hole := []byte("HOLE")
	page := []byte(strings.Repeat(`<form><input name="csrf" value="`, 80) + "HOLEHOLE" + `"></form>` + strings.Repeat("tail ", 300))
	holes := pagekit.MakeHoles(page, hole)
	if pagekit.MakeHoles([]byte("no hole"), hole) != nil {
		t.Fatal("MakeHoles of a page without a hole is not nil")
	}
	etags := map[string]bool{}
	for _, fill := range []string{"0123456789abcdef0123456789abcdef", "", "abcd", strings.Repeat("x", 70000)} {
		send := func(c *fiber.Ctx) error {
			pagekit.Send(c, pagekit.Page{Status: 200, Holes: holes, Fill: fill})
			return nil
		}
		want := strings.ReplaceAll(string(page), "HOLE", fill)
		gz := serve(t, send, "GET", "/", map[string]string{"Accept-Encoding": "gzip"}, "")
		if gz.Header.Get("Content-Encoding") != "gzip" || readAll(t, gz) != want {
			t.Fatalf("fill of %d: gzip %q, not the joined page", len(fill), gz.Header.Get("Content-Encoding"))
		}
		plain := serve(t, send, "GET", "/", nil, "")
		if readAll(t, plain) != want || plain.Header.Get("ETag") != gz.Header.Get("ETag") || plain.Header.Get("ETag") != pagekit.ETag([]byte(want)) {
			t.Fatalf("fill of %d: plain body or ETag differs (%q, %q)", len(fill), plain.Header.Get("ETag"), gz.Header.Get("ETag"))
		}
		etags[plain.Header.Get("ETag")] = true
		if again := serve(t, send, "GET", "/", map[string]string{"If-None-Match": plain.Header.Get("ETag")}, ""); again.StatusCode != 304 {
			t.Fatalf("fill of %d: If-None-Match of its ETag: %d, want 304", len(fill), again.StatusCode)
		}
	}
	if len(etags) != 4 {
		t.Fatalf("the four fills gave %d ETags", len(etags))
	}
}

// BenchmarkGzip: a 20 KB page compressed per request (a cart or account
// page) with the kit's pooled writer, against a new writer per page (what
// Gzip did before the pool).
func BenchmarkGzip(b *testing.B) {
	page := []byte(strings.Repeat(`<li class="line"><a href="/products/p/">Product</a> <span>$12.50</span></li>`, 270))
	b.Run("pooled", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			pagekit.Gzip(page, gzip.BestSpeed)
		}
	})
	b.Run("new_writer", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			var out bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
			zw.Write(page)
			zw.Close()
		}
	})
}

func TestDecodeFormMoney(t *testing.T) {
	t.Parallel()
	fields := []pagekit.Field{{Name: "m", Max: 20}}
	for _, tc := range []struct {
		body     string
		optional bool
		want     app.Money
		bad      bool
	}{
		{"m=12.50", false, 1250, false}, {"m=", true, 0, false}, {"", true, 0, false},
		{"m=", false, 0, true}, {"m=1.234", true, 0, true}, {"m=ten", false, 0, true},
	} {
		vals, _ := pagekit.DecodeForm([]byte(tc.body), 100, fields)
		var v app.Validation
		got := vals.Money(&v, "m", tc.optional, "bad amount")
		if got != tc.want || v.Has("m") != tc.bad {
			t.Errorf("%q optional %v: %d, %v; want %d, error %v", tc.body, tc.optional, got, v.Err(), tc.want, tc.bad)
		}
	}
}
