package shop

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// pageTemplate is one page: the layout, the partials and the page's file.
type pageTemplate struct{ t *template.Template }

// pageMeta is what the layout writes in <head> for a page.
type pageMeta struct {
	Title       string // the page's own title; the layout adds the store's name
	Description string
	Canonical   string // path of the page's canonical URL ("" : none)
	Image       string // OpenGraph image URL
	OGType      string // "website" when empty
	NoIndex     bool   // cart, checkout, account, errors
	// JSONLD are structured-data objects, written as application/ld+json.
	JSONLD []any
	// OG are more OpenGraph properties (product:price:amount ...).
	OG []metaTag
}

// metaTag is one <meta property content>.
type metaTag struct{ Property, Content string }

// view is the data every template gets.
type view struct {
	Meta pageMeta
	Rq   *request
	Data any
	// Base is the request's scheme and host ("https://shop.example"):
	// canonical and OpenGraph URLs are absolute.
	Base string
}

// loadTemplates parses every page with the layout and the partials. A file
// of the same name in themeDir replaces the embedded one.
func (s *Shop) loadTemplates(themeDir string) (map[string]*pageTemplate, error) {
	files, err := fs.Glob(embedded, "templates/*.html")
	if err != nil {
		return nil, err
	}
	read := func(name string) (string, error) {
		if themeDir != "" {
			b, err := os.ReadFile(filepath.Join(themeDir, name))
			if err == nil {
				return string(b), nil
			}
			if !os.IsNotExist(err) {
				return "", err
			}
		}
		b, err := embedded.ReadFile("templates/" + name)
		return string(b), err
	}
	var shared []string // layout and partials, parsed into every page
	for _, f := range files {
		if n := path.Base(f); n == "layout.html" || strings.HasPrefix(n, "_") {
			shared = append(shared, n)
		}
	}
	pages := map[string]*pageTemplate{}
	for _, f := range files {
		n := path.Base(f)
		if n == "layout.html" || strings.HasPrefix(n, "_") {
			continue
		}
		t := template.New("page:" + n).Funcs(s.funcs())
		for _, part := range append(shared, n) {
			text, err := read(part)
			if err != nil {
				return nil, fmt.Errorf("shop template %s: %w", part, err)
			}
			if _, err := t.New(part).Parse(text); err != nil {
				return nil, fmt.Errorf("shop template %s: %w", part, err)
			}
		}
		if t.Lookup("layout") == nil || t.Lookup("main") == nil {
			return nil, fmt.Errorf("shop template %s: needs the layout and a main block", n)
		}
		pages[strings.TrimSuffix(n, ".html")] = &pageTemplate{t: t}
	}
	return pages, nil
}

// funcs are the template functions.
func (s *Shop) funcs() template.FuncMap {
	return template.FuncMap{
		"t":     msg,
		"tf":    msgf,
		"asset": s.assets.url,
		"money": formatMoney,
		"url":   safeURL,
		"jsonld": func(v any) (template.JS, error) {
			b, err := json.Marshal(v) // json escapes <, > and & (no </script> inside)
			return template.JS(b), err
		},
		"date":     formatDate,
		"datetime": formatDateTime,
		"pages":    contentLinks,
		"stars": func(n int) string {
			n = min(max(n, 0), 5)
			return strings.Repeat("★", n) + strings.Repeat("☆", 5-n)
		},
		"card": func(p productCard, currency string) cardView { return cardView{productCard: p, Currency: currency} },
		// cardAt is card for the i-th card of a grid: the first row loads eagerly
		"cardAt": func(p productCard, currency string, i int) cardView {
			return cardView{productCard: p, Currency: currency, Eager: i < 4}
		},
	}
}

// render writes page name with data as an HTML answer, gzipped when the
// client takes it. For a page the page cache is filling (rq.capture), it
// hands the bytes to the cache instead, which sends them.
func (s *Shop) render(c *fiber.Ctx, rq *request, status int, name string, meta pageMeta, data any) error {
	p := s.pages[name]
	if p == nil {
		return fmt.Errorf("shop: no page template %q", name)
	}
	buf := s.bufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer s.bufs.Put(buf)
	base := s.baseURL(c)
	meta.Canonical, meta.Image = absURL(base, meta.Canonical), absURL(base, meta.Image)
	if err := p.t.ExecuteTemplate(buf, "layout", view{Meta: meta, Rq: rq, Data: data, Base: base}); err != nil {
		return fmt.Errorf("shop: page %s: %w", name, err)
	}
	private := meta.NoIndex || rq.Customer != nil
	if rq.capture != nil {
		*rq.capture = cachedPage{status: status, private: private, body: bytes.Clone(buf.Bytes())}
		return nil
	}
	sendPage(c, status, private, buf.Bytes(), nil, false)
	return nil
}

// sendPage writes an HTML answer: body, or gz, its gzip, when the client
// takes gzip (gz nil: compressed here when worth it). body is copied unless
// keep says it stays unchanged for as long as the response needs it.
func sendPage(c *fiber.Ctx, status int, private bool, body, gz []byte, keep bool) {
	c.Status(status)
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	if private {
		c.Set(fiber.HeaderCacheControl, "private, no-store")
	} else {
		c.Set(fiber.HeaderCacheControl, "no-cache")
	}
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	if len(body) > 1400 && strings.Contains(c.Get(fiber.HeaderAcceptEncoding), "gzip") {
		if gz == nil {
			gz = gzipBytes(body)
		}
		c.Set(fiber.HeaderContentEncoding, "gzip")
		c.Response().SetBodyRaw(gz) // gz is the answer's own or a cached page's
		return
	}
	if keep {
		c.Response().SetBodyRaw(body)
		return
	}
	c.Response().SetBody(body) // a copy: body may be a pooled buffer
}

// gzipBytes compresses b (fast level: pages are made per request).
func gzipBytes(b []byte) []byte {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write(b)
	zw.Close()
	return gz.Bytes()
}

// localBase is the fiber local that holds the request's base URL.
const localBase = "shop.base"

// setBase works out and keeps the scheme and host of the absolute URLs
// (canonical, og:url, JSON-LD, the sitemap, checkout's return) of a page of
// st: the Host that chose st when it is one of st's own, else st's
// configured address (app.ShopHost.BaseURL). A request with a made-up Host
// that fell through to the default store thus never names that host.
func (s *Shop) setBase(c *fiber.Ctx, st *app.Store) string {
	base := s.cfg.Host.BaseURL(st, c.Hostname(), s.publicURL)
	c.Locals(localBase, base)
	return base
}

// baseURL is the request's base URL (setBase; the public URL before it).
func (s *Shop) baseURL(c *fiber.Ctx) string {
	if b, ok := c.Locals(localBase).(string); ok {
		return b
	}
	return strings.TrimSuffix(s.publicURL, "/")
}

// absURL makes a path on this site absolute; other URLs are kept.
func absURL(base, u string) string {
	if strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") {
		return base + u
	}
	return u
}

// redirect answers a POST with 303 See Other to path (POST-redirect-GET).
func redirect(c *fiber.Ctx, path string) error {
	return c.Redirect(path, fiber.StatusSeeOther)
}
