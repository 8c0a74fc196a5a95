package shop

import (
	"compress/gzip"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/pagekit"
)

// The page cache: the browse pages a guest sees (home, grids, product,
// blog, content) are the same for every guest of a store but for the CSRF
// token of their forms, so a page is rendered once with a placeholder for
// the token and served from memory, the token put in per request. An entry
// is good while the store (config, name, domains) and its
// catalog (app.CatalogVersion: every product, stock, rating or category
// write) are unchanged, and for at most pageTTL, which bounds how stale the
// rest can be (posts); a page is not served past the instant a flash deal
// of its store starts or ends (app.LiveDeals.Until). A signed-in shopper,
// or a guest with a cart cookie, is never served from it: the layout may
// show what is theirs.

const (
	// pageTTL is how long a cached page is served at most.
	pageTTL = 2 * time.Second
	// pageCacheMax bounds the entries (about 15 KB each with the gzip: some
	// 15 MB at most, whatever URLs a client makes up); a full cache is emptied.
	pageCacheMax = 1024
	// pageKeyMax: a longer URL is rendered, not cached.
	pageKeyMax = 512
)

// csrfPlaceholder stands for the CSRF token in a cached page: the same
// length and alphabet as a token (32 hex digits), which no other text of a
// page has (a test checks it never leaks).
var csrfPlaceholder = []byte("c5rfc5rfc5rfc5rfc5rfc5rfc5rfc5rf")

// cachedPage is one rendered page.
type cachedPage struct {
	status  int
	private bool
	body    []byte
	gz      []byte // body gzipped, when it has no token to put in
	// holes is body cut at each csrfPlaceholder, its parts compressed
	// once (nil: it has none).
	holes   *pagekit.Holes
	etag    string // of body, when it has no holes
	expires time.Time
	// firm: expires is when a flash deal starts or ends, and the page is
	// not served a moment past it.
	firm bool
	// renewing: one request is rendering the page again; the others get
	// this one meanwhile (for at most pageTTL more), not a render each.
	renewing bool
}

// pageKey names a page of one version of a store: ByHost hands out one
// *app.Store per version (a change of the store builds new ones), so the
// pointer is the version, even when two changes share a timestamp.
type pageKey struct {
	store *app.Store
	// base is the page's base URL (request.Base): one of the store's own
	// hosts, or its configured address. Never a Host no store owns, so a
	// made-up Host neither poisons nor multiplies the entries.
	base    string
	catalog app.CatalogVersion
	uri     string
	// lang is the page's language (the store's locale): a version of a
	// store has one, so this only says outright that a page in one
	// language is never served for another.
	lang string
}

type pageCache struct {
	mu sync.Mutex
	m  map[pageKey]*cachedPage
}

// get returns the page of k, or nil when the caller is to render it: a
// page past its time is rendered again by the first request that finds it,
// and served to the others until the new one is in (or pageTTL passed).
func (pc *pageCache) get(k pageKey, now time.Time) *cachedPage {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	p := pc.m[k]
	switch {
	case p == nil || now.After(p.expires.Add(pageTTL)) || (p.firm && !now.Before(p.expires)):
		return nil
	case !now.After(p.expires):
		return p
	case p.renewing:
		return p
	}
	p.renewing = true
	return nil
}

func (pc *pageCache) put(k pageKey, p *cachedPage) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.m == nil || len(pc.m) >= pageCacheMax {
		pc.m = make(map[pageKey]*cachedPage, 256)
	}
	pc.m[k] = p
}

// cachedPage wraps a browse page's handler with the page cache.
func (s *Shop) cachedPage(fn pageFunc) fiber.Handler {
	return s.page(func(c *fiber.Ctx, rq *request) error {
		uri := c.Request().URI().RequestURI()
		if c.Method() != fiber.MethodGet || rq.Customer != nil || len(uri) > pageKeyMax ||
			c.Cookies(cookieSession) != "" || c.Cookies(cookieCart) != "" {
			return fn(c, rq)
		}
		k := pageKey{store: rq.Store, base: rq.Base, lang: rq.Look.Lang,
			catalog: s.svc.Catalog.Version(rq.Store.ID), uri: string(uri)}
		now := s.svc.Now() // the clock of the deals' Until (keepPage)
		if p := s.cache.get(k, now); p != nil {
			s.sendCached(c, rq, p)
			return nil
		}
		p := &cachedPage{}
		rq.csrf, rq.capture = string(csrfPlaceholder), p
		err := fn(c, rq)
		rq.csrf, rq.capture = "", nil
		if err != nil || p.body == nil {
			return err // an error page, or a redirect: not cached
		}
		if p.holes = pagekit.MakeHoles(p.body, csrfPlaceholder); p.holes == nil {
			p.etag = pagekit.ETag(p.body)
			if len(p.body) > 1400 {
				p.gz = pagekit.Gzip(p.body, gzip.BestSpeed)
			}
		}
		if p.status == fiber.StatusOK {
			s.keepPage(k, p, rq.Store.ID, now)
		}
		s.sendCached(c, rq, p)
		return nil
	})
}

// keepPage caches p for pageTTL, or until a deal of the store starts or
// ends when that comes first.
func (s *Shop) keepPage(k pageKey, p *cachedPage, storeID uint64, now time.Time) {
	p.expires = now.Add(pageTTL)
	deals, err := s.svc.Catalog.Deals(storeID)
	if err != nil {
		return // not cached
	}
	if until := deals.Expires(p.expires); until.Before(p.expires) {
		p.expires, p.firm = until, true
	}
	s.cache.put(k, p)
}

// sendCached sends a cached page with the request's CSRF token in it. The
// cached bytes are never changed, so a page without a token is handed to
// the response as it is (no copy).
func (s *Shop) sendCached(c *fiber.Ctx, rq *request, p *cachedPage) {
	pg := pagekit.Page{Status: p.status, Caching: caching(p.private), Body: p.body, Gzip: p.gz, Keep: true, ETag: p.etag}
	if p.holes != nil {
		pg.Holes = p.holes
		if _, seeded := s.csrfSeed().Get(c); seeded {
			pg.Fill = rq.FormToken()
		} // else a fresh browser: no token, no cookie (csrfOK)
	}
	pagekit.Send(c, pg)
}
