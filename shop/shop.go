package shop

import (
	"bytes"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/i18n"
	"storefront/httpkit"
	"storefront/httpkit/pagekit"
)

// Config is what the shop needs besides the services.
type Config struct {
	// Host chooses the store from the Host header (shop.domain,
	// shop.default_store).
	Host app.ShopHost
	// ThemeDir, when set, holds templates that replace the embedded ones
	// file by file (shop.theme_dir).
	ThemeDir string
	// Secret signs the shop's cookies (the guest cart, the session).
	Secret []byte
	// CursorSecret signs list cursors (the API's, so a cursor means the same).
	CursorSecret []byte
	// SecureCookies marks cookies Secure (the public URL is https).
	SecureCookies bool
	// TrustedProxies are the proxies whose X-Forwarded-* is believed.
	TrustedProxies []string
	// ContactPerMinute bounds contact form posts per client IP (the API's
	// ratelimit.contact_per_minute; 0: none).
	ContactPerMinute int
	// AuthPerMinute, LoginFailures and CodesPerDay are the API's limits
	// (ratelimit.*) on the account forms: the same keys, one budget.
	AuthPerMinute, LoginFailures, CodesPerDay int
}

// services are the parts of the domain the shop calls: the storefront
// API's (app.Storefront), nothing else.
type services struct {
	app.Storefront
	// RefreshTTL is how long a shopper's session lasts (the session cookie's age).
	RefreshTTL time.Duration
	// Shared is the state several processes share (nil: one process): the
	// recent session refreshes (session.go).
	Shared app.SharedState
}

// Shop serves the shop pages of every store.
type Shop struct {
	// refreshes are the recent session refreshes (session.go).
	refreshes refreshes

	cfg Config
	svc services
	log *slog.Logger
	// pages are the templates per language (Look.Lang), each with that
	// language's t, tf, money and date functions, cloned from base the
	// first time a page in the language is drawn (pagesIn): a shop speaks
	// one language, and six clones were a third of a test server's start.
	base  *pagekit.Templates
	pages sync.Map // language -> *pagekit.Templates
	// msgs are the catalogues, with the owner's overrides.
	msgs    i18n.Set
	assets  *pagekit.Assets
	csrf    pagekit.CSRF
	cursors app.CursorCodec
	proxies httpkit.Proxies
	bufs    sync.Pool
	looks   lookCache
	cache   pageCache
	bases   baseMemo
	// publicURL is the server's (http.public_url): the default store's
	// address, and the scheme and port of the stores' shop hosts.
	publicURL string
}

// New loads the templates (embedded, overridden by cfg.ThemeDir) and assets.
func New(cfg Config, svc *app.Services) (*Shop, error) {
	s := &Shop{cfg: cfg, log: svc.Log, cursors: app.CursorCodec{Secret: cfg.CursorSecret}, publicURL: svc.Opt.PublicURL,
		proxies: httpkit.NewProxies(cfg.TrustedProxies), svc: services{Storefront: svc.Storefront(), RefreshTTL: svc.Opt.RefreshTTL, Shared: svc.Shared()}}
	// checkout may return a shopper to the store's own shop host
	svc.Orders.SetShopHost(cfg.Host)
	svc.Stores.SetShopHost(cfg.Host) // no store may claim the shop's own hosts
	s.bufs.New = func() any { return new(bytes.Buffer) }
	s.csrf = pagekit.NewCSRF(cfg.Secret, "shop")
	var err error
	if s.assets, err = pagekit.LoadAssets(embedded, "static", "/assets/"); err != nil { // fingerprinted
		return nil, err
	}
	if s.msgs, err = i18n.Load(cfg.ThemeDir); err != nil {
		return nil, err
	}
	if s.base, err = s.loadTemplates(cfg.ThemeDir); err != nil {
		return nil, err
	}
	return s, nil
}

// Register adds the shop's routes to a: the shop takes / and the paths
// below that the API, panel and operations do not use. Call it after them
// and before the catch-all (NotFound).
func (s *Shop) Register(a *fiber.App) {
	a.Get("/assets/:file", s.serveAsset)
	a.Get("/", s.cachedPage(s.home))
	// Each page family registers its own routes.
	s.registerCatalogRoutes(a)
	s.registerCartRoutes(a)
	s.registerAccountRoutes(a)
	s.registerContentRoutes(a)
}

// NotFound is the catch-all for a GET or HEAD outside the API and the
// panel: the 404 page in the shop's look (a plain one where no shop
// answers). Anything else falls through to the next handler.
func (s *Shop) NotFound(c *fiber.Ctx) error {
	if !isShopPath(c) {
		return c.Next()
	}
	return s.page(func(c *fiber.Ctx, rq *request) error {
		return app.Errorf(app.ENotFound, "no such page")
	})(c)
}

// isShopPath reports whether c may be a shop page: a GET or HEAD outside
// the API, the panel and the documents the server serves.
func isShopPath(c *fiber.Ctx) bool {
	m := c.Method()
	if m != fiber.MethodGet && m != fiber.MethodHead {
		return false
	}
	return !slices.ContainsFunc([]string{"/api/", "/admin", "/media/", "/sandbox/", "/docs", "/openapi", "/healthz", "/readyz", "/metrics"},
		func(pre string) bool { return strings.HasPrefix(c.Path(), pre) })
}

// request is what a page handler knows about its request.
type request struct {
	Store *app.Store
	Look  *look // the store's look, from its config
	// L is the store's language: its texts and formats (Look.L).
	L *i18n.Catalog
	// csrf is the token forms carry, made on first use (FormToken) by
	// mint: a cached page without a form makes none (no HMAC, no seed
	// cookie set).
	csrf string
	mint func() string
	// Customer is the signed-in shopper (nil: a guest).
	Customer *app.Customer
	// Base is the scheme and host of the page's absolute URLs (setBase);
	// host is the request's Host, which chose Store.
	Base, host string
	// capture, when set, receives the rendered page instead of the
	// response (the page cache fills it; pagecache.go).
	capture *cachedPage
}

// FormToken is the CSRF token the page's forms carry.
func (rq *request) FormToken() string {
	if rq.csrf == "" && rq.mint != nil {
		rq.csrf = rq.mint()
	}
	return rq.csrf
}

// pageFunc is a page handler: it renders or redirects.
type pageFunc func(c *fiber.Ctx, rq *request) error

// page wraps fn: it resolves the store from the Host header, sets the
// security headers, checks the CSRF token of a POST and renders fn's error
// as a page.
func (s *Shop) page(fn pageFunc) fiber.Handler { return s.form(fn, nil) }

// form is page for a form's POST whose CSRF check can fail for reasons the
// shopper cannot see (the session expired, the page stayed open for days,
// the cookies were cleared): then again renders the form once more with
// what was typed, a fresh token and the note form.expired (status 403).
// again never acts on the form. Without again it is the error page.
func (s *Shop) form(fn, again pageFunc) fiber.Handler {
	return func(c *fiber.Ctx) error {
		pageHeaders.Set(c)
		host := c.Hostname()
		st, err := s.svc.Stores.ByHost(s.cfg.Host, host)
		if err != nil {
			return s.plainNotFound(c, err)
		}
		lk := s.lookOf(st)
		rq := &request{Store: st, Look: lk, L: lk.L, host: host, Base: s.setBase(c, st, host)}
		s.loadSession(c, rq)
		rq.mint = func() string { return s.csrfToken(c, rq) }
		do := fn
		if c.Method() == fiber.MethodPost && !s.csrfOK(c, rq) {
			if again == nil {
				return s.renderError(c, rq, app.Errorf(app.EForbidden, "%s", rq.L.T("error.csrf")))
			}
			do = again // shows the form again; never fn
		}
		if err := do(c, rq); err != nil {
			return s.renderError(c, rq, err)
		}
		return nil
	}
}

// renderError renders err as the error page with its status (pagekit.Problem):
// not_found is the 404 page, every other app error its status and message;
// an internal error is logged and shown as a plain failure.
func (s *Shop) renderError(c *fiber.Ctx, rq *request, err error) error {
	pr := pagekit.ProblemOf(err)
	if pr.Internal {
		s.log.Error("shop page failed", "path", c.Path(), "err", err)
		pr.Message = rq.L.T("error.internal")
	}
	httpkit.RetryAfter(c, err) // a 503 while the database is lost, a 429: as the API says
	if pr.Code == app.ENotFound {
		return s.render(c, rq, pr.Status, "notfound", pageMeta{Title: rq.L.T("notfound.title"), NoIndex: true}, nil)
	}
	return s.render(c, rq, pr.Status, "error", pageMeta{Title: rq.L.T("error.title"), NoIndex: true}, pr)
}

// plainNotFound answers a host that names no active store: a plain page
// that says so, never another store's shop.
func (s *Shop) plainNotFound(c *fiber.Ctx, err error) error {
	status := fiber.StatusNotFound
	if app.ErrorCode(err) != app.ENotFound {
		s.log.Error("shop: choosing the store", "host", c.Hostname(), "err", err)
		status = fiber.StatusServiceUnavailable
		httpkit.RetryAfter(c, err)
	}
	pagekit.SendPlain(c, status, "Not found", "There is no shop at this address.", "")
	return nil
}
