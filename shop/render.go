package shop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"strings"
	"sync"

	"storefront/httpkit/pagekit"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/i18n"
)

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

// loadTemplates parses every page with the layout and the partials once
// (pagesIn clones the set per language). A file of the same name in
// themeDir replaces the embedded one.
func (s *Shop) loadTemplates(themeDir string) (*pagekit.Templates, error) {
	return pagekit.ParseTemplates(embedded, pagekit.TemplateOptions{Dir: "templates", ThemeDir: themeDir,
		Funcs: s.funcs(), Layout: "layout", Block: "main"})
}

// pagesIn returns the templates in lang, with its functions (langFuncs),
// cloned from base on first use.
func (s *Shop) pagesIn(lang string) (*pagekit.Templates, error) {
	if t, ok := s.pages.Load(lang); ok {
		return t.(*pagekit.Templates), nil
	}
	t, err := s.base.Clone(langFuncs(s.msgs.For(lang)))
	if err != nil {
		return nil, err
	}
	kept, _ := s.pages.LoadOrStore(lang, t)
	return kept.(*pagekit.Templates), nil
}

// langFuncs are the template functions that speak language l.
func langFuncs(l *i18n.Catalog) template.FuncMap {
	return template.FuncMap{
		"t":        l.T,
		"tf":       l.TF,
		"money":    func(m app.Money, currency string) string { return l.Money(int64(m), currency) },
		"date":     l.Date,
		"datetime": l.DateTime,
	}
}

// funcs are the template functions.
func (s *Shop) funcs() template.FuncMap {
	fm := template.FuncMap{
		"asset":   s.assets.URL,
		"url":     safeURL,
		"picture": picture,
		"jsonld": func(v any) (template.JS, error) {
			b, err := json.Marshal(v) // json escapes <, > and & (no </script> inside)
			return template.JS(b), err
		},
		"pages": contentLinks,
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
	maps.Copy(fm, langFuncs(s.msgs.For("en")))
	return fm
}

// render writes page name with data as an HTML answer, gzipped when the
// client takes it. For a page the page cache is filling (rq.capture), it
// hands the bytes to the cache instead, which sends them.
func (s *Shop) render(c *fiber.Ctx, rq *request, status int, name string, meta pageMeta, data any) error {
	buf := s.bufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer s.bufs.Put(buf)
	base := s.baseURL(c)
	meta.Canonical, meta.Image = absURL(base, meta.Canonical), absURL(base, meta.Image)
	pages, err := s.pagesIn(rq.Look.Lang)
	if err != nil {
		return fmt.Errorf("shop: %w", err)
	}
	if err := pages.Execute(buf, name, view{Meta: meta, Rq: rq, Data: data, Base: base}); err != nil {
		return fmt.Errorf("shop: %w", err)
	}
	private := meta.NoIndex || rq.Customer != nil
	if rq.capture != nil {
		*rq.capture = cachedPage{status: status, private: private, body: bytes.Clone(buf.Bytes())}
		return nil
	}
	pagekit.Send(c, pagekit.Page{Status: status, Body: buf.Bytes(), Caching: caching(private)}) // copied: buf is pooled
	return nil
}

// caching is how a page may be kept: a private one not at all.
func caching(private bool) pagekit.Caching {
	if private {
		return pagekit.PrivateNoStore
	}
	return pagekit.Revalidate
}

// localBase is the fiber local that holds the request's base URL.
const localBase = "shop.base"

// setBase works out and keeps the scheme and host of the absolute URLs
// (canonical, og:url, JSON-LD, the sitemap, checkout's return) of a page of
// st: the Host that chose st when it is one of st's own, else st's
// configured address (app.ShopHost.BaseURL). A request with a made-up Host
// that fell through to the default store thus never names that host.
func (s *Shop) setBase(c *fiber.Ctx, st *app.Store, host string) string {
	base := s.bases.of(s, st, host)
	c.Locals(localBase, base)
	return base
}

// baseMemo keeps setBase's answer per version of a store and Host: the
// answer reads the public URL anew each time (url.Parse), about a twentieth
// of a cached page's cost. Bounded like the page cache: a full memo is
// emptied (a made-up Host adds an entry).
type baseMemo struct {
	mu sync.Mutex
	m  map[baseKey]string
}

type baseKey struct {
	store *app.Store // one per version of a store (pageKey)
	host  string
}

func (bm *baseMemo) of(s *Shop, st *app.Store, host string) string {
	bm.mu.Lock()
	defer bm.mu.Unlock()
	if base, ok := bm.m[baseKey{st, host}]; ok {
		return base
	}
	if bm.m == nil || len(bm.m) >= pageCacheMax {
		bm.m = make(map[baseKey]string)
	}
	base := s.cfg.Host.BaseURL(st, host, s.publicURL)
	bm.m[baseKey{st, strings.Clone(host)}] = base
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
