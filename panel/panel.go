package panel

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/pagekit"
	"storefront/httpkit/staff"
)

// panelFS holds the panel's templates and static files, built into the binary.
//
//go:embed templates/*.html static/*
var panelFS embed.FS

// panel is the server-rendered admin UI at /admin/: its parsed files, and
// its sessions in the shared state (sessions).
type panel struct {
	h *Handler
	parsedPanel
	sessions *sessions
	// loginKey signs the second step of a login (totpTicket) and keys the
	// CSRF tokens (csrf): of a session, or of the login form's seed cookie.
	loginKey []byte
	csrf     pagekit.CSRF
}

// Config is what the panel needs besides the services.
type Config struct {
	CursorSecret []byte
	// TrustedProxies (http.trusted_proxies) are believed about the client address.
	TrustedProxies []string
	// ShopURL is the address of a store's shop window, for the panel's
	// "View shop" link (nil or "": no link, as with shop.enabled false).
	ShopURL func(st *app.Store) string
}

// Handler holds what the panel's pages call: the staff services and
// helpers the admin JSON API calls too (httpkit/staff).
type Handler struct {
	cfg     Config
	svc     staff.Staff
	cursors app.CursorCodec
	p       *panel
}

// Register mounts the server-rendered panel at /admin/. Templates are
// parsed at the first registration, once per process (panelFiles): a broken
// template panics at start-up, never mid-request.
func Register(r fiber.Router, svc *app.Services, cfg Config) *Handler {
	h := &Handler{cfg: cfg, svc: staff.New(svc, cfg.TrustedProxies), cursors: app.CursorCodec{Secret: cfg.CursorSecret}}
	files, err := panelFiles()
	if err != nil {
		panic(fmt.Sprintf("admin panel: %v", err))
	}
	h.p = newPanel(h, files)
	h.p.routes(r)
	return h
}

// UploadAllowed reports whether a request's headers carry a live panel
// session cookie, and the store of its admin (see admin.Handler.UploadAllowed).
func (h *Handler) UploadAllowed(_ string, cookie func(name string) string) (store uint64, ok bool) {
	sess, found := h.p.sessions.get(cookie(sessionCookie))
	if !found {
		return 0, false
	}
	u, err := h.svc.Admins.Get(sess.AdminID)
	if err != nil {
		return 0, false
	}
	return u.StoreID, true
}

// parsedPanel is the panel's static files and parsed page templates.
type parsedPanel struct {
	static *pagekit.Assets
	pages  *pagekit.Templates
}

// panelFiles parses the embedded files once per process: they never change,
// and parsed templates are safe for concurrent use, so every server of the
// process (a test binary starts hundreds) shares them.
var panelFiles = sync.OnceValues(func() (parsedPanel, error) { return parsePanel(panelFS) })

// parsePanel parses the panel's static files and templates from fsys.
func parsePanel(fsys fs.FS) (parsedPanel, error) {
	static, err := pagekit.LoadAssets(fsys, "static", "/admin/static/")
	if err != nil {
		return parsedPanel{}, err
	}
	pages, err := parsePages(fsys, static)
	if err != nil {
		return parsedPanel{}, err
	}
	return parsedPanel{static: static, pages: pages}, nil
}

func newPanel(h *Handler, files parsedPanel) *panel {
	ttl := h.svc.Opt.AdminTTL
	if ttl <= 0 {
		ttl = 12 * time.Hour
	}
	// Several processes sharing the database share the sessions and the
	// login form's key: a browser's requests may land on any of them.
	shared := h.svc.Shared
	loginKey := []byte(app.RandomHex(32))
	if shared != nil {
		if k, err := h.svc.Secret("admin-panel-login"); err == nil {
			loginKey = k
		}
	}
	return &panel{
		h:           h,
		parsedPanel: files,
		sessions:    newSessions(h.svc.Now, ttl, shared),
		loginKey:    loginKey,
		csrf:        pagekit.NewCSRF(loginKey, "panel"),
	}
}

// routes lists every panel route. Paths are written without the trailing
// slash; Fiber answers both.
func (p *panel) routes(r fiber.Router) {
	r.Get("/admin/static/:file", p.serveStatic)
	r.Get("/admin/login", p.loginPage)
	r.Post("/admin/login", p.loginPost)
	r.Post("/admin/logout", p.authed(p.logout))

	r.Get("/favicon.ico", p.favicon)
	r.Get("/admin", p.authed(p.dashboard))
	r.Get("/admin/audit", p.authed(p.auditPage))
	r.Get("/admin/totp", p.authed(p.totpPage))
	r.Post("/admin/totp", p.authed(p.startTOTP))
	r.Post("/admin/totp/confirm", p.authed(p.confirmTOTP))
	r.Get("/admin/password", p.authed(p.passwordPage))
	r.Post("/admin/password", p.authed(p.changePassword))
	// owner-only, as is the audit log: authed asks the route table (app.GlobalRoutePerms)
	r.Post("/admin/stores", p.authed(p.createStore))
	r.Get("/admin/users", p.authed(p.usersPage))
	r.Post("/admin/users", p.authed(p.createUser))
	r.Post("/admin/users/totp-policy", p.authed(p.totpPolicy))
	r.Post("/admin/users/:uid/delete", p.authed(with(pathID("uid", "admin user"), p.deleteUser)))

	p.storeRoutes(r)
	p.catalogRoutes(r)
	p.contentRoutes(r)
	p.orderRoutes(r)
	p.customerRoutes(r)
	p.registerNotifyRoutes(r, storeRoot)

	// Anything else under /admin/ is the panel's own 404 page, not the JSON one.
	r.All("/admin/*", p.notFound)
}

// storeRoot is the root of one store's pages.
const storeRoot = "/admin/stores/:sid"

// storeRoutes are a store's own pages: name, activity, key, configuration
// and settings.
func (p *panel) storeRoutes(r fiber.Router) {
	r.Get(storeRoot, p.store(p.storePage))
	r.Post(storeRoot+"/name", p.store(p.renameStore))
	p.confirmRoutes(r, "/active", p.askSetActive, p.setStoreActive)
	p.confirmRoutes(r, "/rotate-key", p.askRotateKey, p.rotateStoreKey)
	r.Post(storeRoot+"/config", p.store(p.saveConfig))
	r.Post(storeRoot+"/payments", p.store(p.savePayments))
	r.Post(storeRoot+"/payments/test-order", p.store(p.payTestOrder))
	r.Get(storeRoot+"/settings", p.store(p.settingsIndex))
	r.Get(storeRoot+"/settings/history", p.store(p.settingsHistoryPage))
	p.confirmRoutes(r, "/settings/history/:vid", p.askRestoreSettings, with(pathID("vid", "settings version"), p.restoreSettings))
	r.Get(storeRoot+"/settings/:section", p.store(p.settingsPage))
	r.Post(storeRoot+"/settings/:section", p.store(p.saveSettings))
}

// catalogRoutes are the categories and products.
func (p *panel) catalogRoutes(r fiber.Router) {
	category := pathRecord("cid", "category", p.h.svc.Catalog.Category) // the :cid category of the store
	r.Get(storeRoot+"/categories", p.store(p.categoriesPage))
	r.Post(storeRoot+"/categories", p.store(p.createCategory))
	r.Get(storeRoot+"/categories/:cid", p.store(with(category, p.categoryPage)))
	r.Post(storeRoot+"/categories/:cid", p.store(with(categoryID, p.updateCategory)))
	p.confirmRoutes(r, "/categories/:cid/delete", askOn(category, p.askDeleteCategory), with(categoryID, p.deleteCategory))

	// before the editor's /products/:pid
	r.Post(storeRoot+"/products/bulk", p.store(p.bulkProducts))
	r.Post(storeRoot+"/products/new/images", p.store(p.createProductWithImages))
	r.Get(storeRoot+"/products/export", p.store(p.exportProductsPage))
	r.Get(storeRoot+"/products/import", p.store(p.importProductsPage))
	r.Post(storeRoot+"/products/import", p.store(p.importProducts))
	p.productEditor().routes(p, r, p.productsPage)
	r.Post(storeRoot+"/products/:pid/images", p.store(with(p.productEditor().record, p.uploadImages)))
	r.Post(storeRoot+"/products/:pid/images/:index/up", p.store(p.moveImage("up")))
	r.Post(storeRoot+"/products/:pid/images/:index/first", p.store(p.moveImage("first")))
	r.Post(storeRoot+"/products/:pid/images/:index/delete", p.store(p.moveImage("delete")))
	r.Post(storeRoot+"/products/:pid/images/:index/alt", p.store(with(p.productEditor().record, p.setImageAlt)))
}

// contentRoutes are the coupons, blog posts, flash deals, bundles and outbox.
func (p *panel) contentRoutes(r fiber.Router) {
	p.couponEditor().routes(p, r, p.couponsPage)
	r.Post(storeRoot+"/coupons/:cpid/active", p.store(with(p.couponEditor().record, p.setCouponActive)))
	// every post (drafts included), deal and bundle, newest first
	p.postEditor().routes(p, r, rowsPage(p, "blog-posts", "Blog posts", "blog", "posts", p.h.svc.Content.Posts))
	p.dealEditor().routes(p, r, rowsPage(p, "flash-deals", "Flash deals", "deals", "deals", p.deals))
	p.bundleEditor().routes(p, r, rowsPage(p, "bundles", "Bundles", "bundles", "bundles", p.h.svc.Content.AllBundles))

	r.Get(storeRoot+"/outbox", p.store(p.outboxPage()))
}

// orderRoutes are the orders and the cancellation and refund requests.
func (p *panel) orderRoutes(r fiber.Router) {
	order := pathRecord("oid", "order", p.h.svc.Orders.Order) // the :oid order of the store
	r.Get(storeRoot+"/orders", p.store(p.ordersPage))
	r.Get(storeRoot+"/orders/export", p.store(p.exportOrders))
	r.Post(storeRoot+"/orders/bulk", p.store(p.bulkOrders))
	r.Post(storeRoot+"/orders/bulk-ship", p.store(p.bulkShipOrders))
	r.Get(storeRoot+"/orders/:oid", p.store(with(order, p.orderPage)))
	r.Get(storeRoot+"/orders/:oid/invoice", p.store(with(order, p.orderPrint("invoice"))))
	r.Get(storeRoot+"/orders/:oid/packing-slip", p.store(with(order, p.orderPrint("packing"))))
	p.confirmRoutes(r, "/orders/:oid/status", askOn(order, p.askMoveOrder), with(orderID, p.moveOrder))
	r.Post(storeRoot+"/orders/:oid/tracking", p.store(with(orderID, p.setTracking)))
	r.Post(storeRoot+"/orders/:oid/ship", p.store(with(orderID, p.shipOrder)))
	r.Post(storeRoot+"/orders/:oid/undo-delivered", p.store(with(orderID, p.undoDelivered)))
	r.Post(storeRoot+"/orders/:oid/notes", p.store(with(orderID, p.addNote)))
	p.confirmRoutes(r, "/orders/:oid/cancel", askOn(order, p.askCancelOrder), with(orderID, p.cancelOrder))
	p.confirmRoutes(r, "/orders/:oid/refund", askOn(order, p.askRefundOrder), with(orderID, p.refundOrder))

	for _, k := range requestKinds {
		r.Get(storeRoot+"/"+k.path, p.store(p.requestsPage(k)))
		r.Get(storeRoot+"/"+k.path+"/:rid", p.store(p.requestPage(k)))
		r.Post(storeRoot+"/"+k.path+"/:rid/approve", p.store(p.decideRequest(k, true)))
		r.Post(storeRoot+"/"+k.path+"/:rid/reject", p.store(p.decideRequest(k, false)))
	}
}

// customerRoutes are the reviews, tickets, messages and customers.
func (p *panel) customerRoutes(r fiber.Router) {
	r.Get(storeRoot+"/reviews", p.store(p.reviewsPage))
	r.Post(storeRoot+"/reviews/bulk", p.store(p.moderateReviews))
	r.Post(storeRoot+"/reviews/:rvid/approve", p.store(p.moderateReview(true)))
	r.Post(storeRoot+"/reviews/:rvid/reject", p.store(p.moderateReview(false)))

	r.Get(storeRoot+"/tickets", p.store(p.ticketsPage))
	r.Get(storeRoot+"/tickets/:tid", p.store(with(p.pathTicket, p.ticketPage)))
	r.Post(storeRoot+"/tickets/:tid", p.store(with(p.pathTicket, p.patchTicket)))
	r.Post(storeRoot+"/tickets/:tid/reply", p.store(with(p.pathTicket, p.replyTicket)))

	r.Get(storeRoot+"/messages", p.store(p.messagesPage))
	r.Post(storeRoot+"/messages/:mid/read", p.store(with(messageID, p.setMessageRead)))
	r.Post(storeRoot+"/messages/:mid/reply", p.store(with(messageID, p.replyMessage)))

	// the store's customer accounts, newest first, read-only
	r.Get(storeRoot+"/customers", p.store(rowsPage(p, "customers", "Customers", "customers", "customers", p.h.svc.Customers.List)))
	r.Get(storeRoot+"/customers/:cuid", p.store(with(pathID("cuid", "customer"), p.customerPage)))
}

// storeTabs is the navigation of a store's pages, in order. A new page of
// the panel is one line here plus its route.
var storeTabs = []tab{
	{Key: "overview", Label: "Overview", Path: ""},
	{Key: "settings", Label: "Settings", Path: "settings/"},
	{Key: "categories", Label: "Categories", Path: "categories/"},
	{Key: "products", Label: "Products", Path: "products/"},
	{Key: "coupons", Label: "Coupons", Path: "coupons/"},
	{Key: "deals", Label: "Flash deals", Path: "flash-deals/"},
	{Key: "bundles", Label: "Bundles", Path: "bundles/"},
	{Key: "blog", Label: "Blog", Path: "blog-posts/"},
	{Key: "orders", Label: "Orders", Path: "orders/"},
	{Key: "cancellations", Label: "Cancellations", Path: "cancellations/"},
	{Key: "refunds", Label: "Refunds", Path: "refunds/"},
	{Key: "reviews", Label: "Reviews", Path: "reviews/"},
	{Key: "tickets", Label: "Tickets", Path: "tickets/"},
	{Key: "messages", Label: "Messages", Path: "messages/"},
	{Key: "customers", Label: "Customers", Path: "customers/"},
	{Key: "outbox", Label: "Outbox", Path: "outbox/"},
	{Key: "notifications", Label: "Notifications", Path: "notifications/"},
	{Key: "webhooks", Label: "Webhooks", Path: "webhooks/"},
}

type tab struct {
	Key, Label, Path string
}

// tabsFor is the store navigation without the pages u's role may not open.
func tabsFor(u *app.AdminUser) []tab {
	out := make([]tab, 0, len(storeTabs))
	for _, t := range storeTabs {
		if app.Allow(u, true, fiber.MethodGet, staff.RouteSegs(t.Path, "")) == nil {
			out = append(out, t)
		}
	}
	return out
}

// view is what every page template gets: the layout's parts and the page's Data.
type view struct {
	Title  string
	Admin  *app.AdminUser
	Owner  bool
	CSRF   string
	Store  *app.Store
	Tab    string
	Tabs   []tab
	Flash  *flash
	Error  string
	Fields map[string]string
	Data   any
	// ShopURL is the store's shop window ("" : none), for "View shop".
	ShopURL string

	sid string // session id, to set a flash
}

// Can reports whether the admin holds permission p (app.RolePerms): the
// templates hide or disable what the admin may not do.
func (v *view) Can(p string) bool { return v.Admin.Has(app.Perm(p)) }

// MayChange reports whether the admin may change a store setting
// (app.SettingPerms: "domains", "config.payments_live").
func (v *view) MayChange(setting string) bool {
	return v.Admin != nil && app.MayChange(v.Admin, setting)
}

// flash is a one-time message shown on the next page. Secret is shown once
// in a code box (a new API key).
type flash = pagekit.Flash

type pageFunc func(c *fiber.Ctx, v *view) error

// panelHeaders are the security headers of every panel response. form-action
// allows Stripe Checkout: "Pay a test order" with a Stripe method redirects
// there after its form (the browser applies form-action to that redirect).
var panelHeaders = pagekit.SecurityHeaders{ReferrerPolicy: "same-origin", CSP: panelCSP().String()}

func panelCSP() *pagekit.CSP {
	return pagekit.BaseCSP().Set("img-src", "'self'", "https:", "http:").Set("form-action", "'self'", app.StripeCheckoutOrigin)
}

// mailPreviewCSP is the policy of the mail template page: its preview is a
// sandboxed srcdoc iframe (no script, an origin of its own), which takes the
// page's policy, and a mail is styled inline (style attributes and
// elements, as mail programs need). Without 'unsafe-inline' the preview
// showed the mail unstyled. The page itself has no inline style.
var mailPreviewCSP = panelCSP().Set("style-src", "'self'", "'unsafe-inline'").String()

// securityHeaders are set on every panel response.
func securityHeaders(c *fiber.Ctx) { panelHeaders.Set(c) }

// sessionToken is the CSRF token of a session's forms.
func (p *panel) sessionToken(sid string) string { return p.csrf.Token("panel-session", sid) }

// authed runs fn for a logged-in admin. Without a live session it redirects
// to the login page; a POST must carry the session's CSRF token (else 403).
func (p *panel) authed(fn pageFunc) fiber.Handler {
	return func(c *fiber.Ctx) error {
		securityHeaders(c)
		c.Set(fiber.HeaderCacheControl, "no-store")
		sid := c.Cookies(sessionCookie)
		sess, found := p.sessions.get(sid)
		if !found {
			return p.toLogin(c)
		}
		u, err := p.h.svc.Admins.Get(sess.AdminID)
		if app.IsNotFound(err) || (err == nil && u.TokenVersion != sess.Version) { // deleted, or the password changed
			p.sessions.drop(sid)
			return p.toLogin(c)
		}
		v := &view{CSRF: p.sessionToken(sid), sid: strings.Clone(sid)}
		if err != nil {
			return p.fail(c, v, err)
		}
		v.Admin, v.Owner = u, u.Role == app.RoleOwner
		if c.Method() == fiber.MethodPost && !p.csrf.FormOK(c, "panel-session", sid) {
			return p.errorPage(c, v, fiber.StatusForbidden, "This form has expired or did not come from this panel. Go back, reload the page and try again.")
		}
		segs := staff.RouteSegs(c.Path(), "/admin")
		if !staff.EnrolRoute(segs) && p.h.svc.Admins.MustEnrolTOTP(u, p.h.svc.Stores.Get) {
			return c.Redirect("/admin/totp/", fiber.StatusSeeOther)
		}
		if !staff.IsStoreRoute(segs) {
			err = app.Allow(u, false, c.Method(), segs)
		}
		if err == nil {
			err = fn(c, v)
		}
		if err != nil {
			err = p.fail(c, v, err)
		}
		p.recordPanel(c, v)
		return err
	}
}

// store is authed plus the :sid store, which the admin must be allowed to see
// (another store is the 404 page, never a hint that it exists).
func (p *panel) store(fn pageFunc) fiber.Handler {
	return p.authed(func(c *fiber.Ctx, v *view) error {
		id, err := strconv.ParseUint(c.Params("sid"), 10, 64)
		if err != nil || id == 0 || !v.Admin.CanAccess(id) {
			return app.NotFound("store")
		}
		st, err := p.h.svc.Stores.Get(id)
		if err != nil {
			return err
		}
		v.Store, v.Tabs = st, tabsFor(v.Admin)
		if p.h.cfg.ShopURL != nil {
			v.ShopURL = p.h.cfg.ShopURL(st)
		}
		if err := app.Allow(v.Admin, true, c.Method(), staff.RouteSegs(c.Path(), "/admin")[2:]); err != nil {
			return err
		}
		return fn(c, v)
	})
}

// toLogin redirects to the login page, coming back to this page after it.
func (p *panel) toLogin(c *fiber.Ctx) error {
	target := "/admin/login/"
	if c.Method() == fiber.MethodGet {
		if next := string(c.Request().URI().RequestURI()); safeNext(next) != "/admin/" {
			target += "?next=" + url.QueryEscape(next)
		}
	}
	return c.Redirect(target, fiber.StatusSeeOther)
}

// safeNext keeps a post-login redirect inside the panel.
func safeNext(next string) string {
	if !pagekit.LocalPath(next) || !strings.HasPrefix(next, "/admin/") ||
		strings.HasPrefix(next, "/admin/login") || strings.HasPrefix(next, "/admin/logout") {
		return "/admin/"
	}
	return next
}

// redirect ends a successful form: a flash for the next page, then 303 (post/redirect/get).
func (p *panel) redirect(c *fiber.Ctx, v *view, to string, f *flash) error {
	if f != nil {
		p.sessions.setFlash(v.sid, f)
	}
	return c.Redirect(to, fiber.StatusSeeOther)
}

func ok1(msg string) *flash { return pagekit.OK(msg) }

// panelPageSize is the length of a list page in the panel.
const panelPageSize = 25

// listParams reads ?cursor= of a newest-first panel list named scope
// ("products", "outbox", ...); a bad cursor is validation_failed (400 page).
func (p *panel) listParams(c *fiber.Ctx, scope string, storeID uint64) (app.ListParams, error) {
	lp := app.ListParams{Sort: app.SortNewest, Limit: panelPageSize}
	if cv := c.Query("cursor"); cv != "" {
		cur, err := p.h.cursors.Decode("panel:"+scope, storeID, app.SortNewest, cv)
		if err != nil {
			return lp, err
		}
		lp.After = cur
	}
	return lp, nil
}

// Pager is the paging links of a list page (template "pager").
type Pager struct {
	Base     string // the list's path and filter: its first page
	Next     string // what to append to Base for the next page ("?cursor=..." or "&cursor=..."), "" on the last page
	NotFirst bool
}

func (p *panel) pager(base, scope string, storeID uint64, lp app.ListParams, next *app.Cursor) Pager {
	pg := Pager{Base: base, NotFirst: lp.After != nil}
	if next != nil {
		sep := "?"
		if strings.Contains(base, "?") {
			sep = "&"
		}
		pg.Next = sep + "cursor=" + url.QueryEscape(p.h.cursors.Encode("panel:"+scope, storeID, next))
	}
	return pg
}

// numbered is where a list paged by number (?page=) is: the page, how many
// there are, and the links to the pages before and after ("" at an end).
type numbered struct {
	Page, Pages int
	Prev, Next  string
}

// readPage reads ?page= of a list paged by number (1 when absent); bad is
// the problem of a value that is not a whole number of at least 1.
func readPage(c *fiber.Ctx, bad string) (int, error) {
	n, err := strconv.Atoi(c.Query("page", "1"))
	if err != nil || n < 1 {
		return 0, app.Invalid("page", bad)
	}
	return n, nil
}

// numberedPages places page among the pages of size rows that hold total,
// of the list at base with the filters params.
func numberedPages(base string, params url.Values, page, total, size int) numbered {
	n := numbered{Page: page, Pages: max(1, (total+size-1)/size)}
	if page > 1 {
		n.Prev = pageLink(base, params, page-1)
	}
	if page < n.Pages {
		n.Next = pageLink(base, params, page+1)
	}
	return n
}

// pageLink is page n of the list at base with the filters params (its
// first page without ?page=).
func pageLink(base string, params url.Values, n int) string {
	ps := url.Values{}
	maps.Copy(ps, params)
	if n > 1 {
		ps.Set("page", strconv.Itoa(n))
	}
	if len(ps) == 0 {
		return base
	}
	return base + "?" + ps.Encode()
}

// listPage reads the page of the store's newest-first list named scope
// (?cursor=) from list, and the pager of that list at base.
func listPage[T any](p *panel, c *fiber.Ctx, v *view, scope, base string,
	list func(storeID uint64, lp app.ListParams) (app.Page[T], error)) ([]T, Pager, error) {
	lp, err := p.listParams(c, scope, v.Store.ID)
	if err != nil {
		return nil, Pager{}, err
	}
	page, err := list(v.Store.ID, lp)
	if err != nil {
		return nil, Pager{}, err
	}
	return page.Items, p.pager(base, scope, v.Store.ID, lp, page.Next), nil
}

// rows are a plain list page's rows and paging links.
type rows[T any] struct {
	Rows []T
	Pager
}

// rowsPage serves GET of a plain list page: the store's newest-first list
// at path (?cursor=), under its title and tab, drawn by template page.
func rowsPage[T any](p *panel, path, title, tab, page string, list func(storeID uint64, lp app.ListParams) (app.Page[T], error)) pageFunc {
	return func(c *fiber.Ctx, v *view) error {
		items, pg, err := listPage(p, c, v, path, storePath(v.Store, path+"/"), list)
		if err != nil {
			return err
		}
		v.Title, v.Tab, v.Data = title, tab, rows[T]{Rows: items, Pager: pg}
		return p.render(c, fiber.StatusOK, page, v)
	}
}

// storePath is the path of a store's page ("" for the overview).
func storePath(st *app.Store, rest string) string {
	return "/admin/stores/" + strconv.FormatUint(st.ID, 10) + "/" + rest
}

// render writes page name with v (pagekit: executed into a buffer first,
// so that a failing template never sends half a page; gzipped, no-store).
func (p *panel) render(c *fiber.Ctx, status int, name string, v *view) error {
	if v.Flash == nil && v.sid != "" {
		v.Flash = p.sessions.popFlash(v.sid)
	}
	var buf bytes.Buffer
	if err := p.pages.Execute(&buf, name, v); err != nil {
		return fmt.Errorf("admin panel: %w", err)
	}
	pagekit.Send(c, pagekit.Page{Status: status, Body: buf.Bytes(), Keep: true, Caching: pagekit.NoStore})
	return nil
}

// formError puts err on v for a form shown again, and returns the page status.
// Internal errors are logged and read "internal error".
func (p *panel) formError(c *fiber.Ctx, v *view, err error) int {
	pr := pagekit.ProblemOf(err)
	if pr.Internal {
		p.logError(c, err)
	}
	v.Error, v.Fields = pr.Message, pr.Fields
	return pr.Status
}

// showAgain shows a refused form again: show draws it with the status of
// err, whose problems formError put on v. A record gone meanwhile is the
// 404 page instead.
func (p *panel) showAgain(c *fiber.Ctx, v *view, err error, show func(status int) error) error {
	if app.IsNotFound(err) {
		return err
	}
	return show(p.formError(c, v, err))
}

// fail shows the error page for err.
func (p *panel) fail(c *fiber.Ctx, v *view, err error) error {
	pr := pagekit.ProblemOf(err)
	msg := pr.Message
	switch {
	case pr.Internal:
		p.logError(c, err)
		msg = "Something went wrong on our side. The details are in the server log."
	case pr.Status == fiber.StatusNotFound:
		msg = "There is nothing here, or it is not yours to see."
	case pr.Status == fiber.StatusBadRequest && len(pr.Fields) > 0:
		msg += " (" + pr.FieldsText(fieldLabel) + ")"
	}
	return p.errorPage(c, v, pr.Status, msg)
}

func (p *panel) logError(c *fiber.Ctx, err error) {
	p.h.svc.Log.Error("admin panel", "request_id", string(c.Response().Header.Peek("X-Request-ID")),
		"method", c.Method(), "path", c.Path(), "err", err.Error())
}

type errorData struct {
	Status  int
	Heading string
	Message string
}

func (p *panel) errorPage(c *fiber.Ctx, v *view, status int, msg string) error {
	heading := pagekit.Heading(status)
	v.Title, v.Data = heading, errorData{Status: status, Heading: heading, Message: msg}
	v.Store, v.Tabs = nil, nil
	if err := p.render(c, status, "error", v); err != nil {
		p.logError(c, err)
		return c.Status(fiber.StatusInternalServerError).SendString("internal error")
	}
	return nil
}

// notFound answers every unknown path under /admin/.
func (p *panel) notFound(c *fiber.Ctx) error {
	securityHeaders(c)
	v := &view{}
	sid := c.Cookies(sessionCookie)
	if sess, found := p.sessions.get(sid); found {
		if u, err := p.h.svc.Admins.Get(sess.AdminID); err == nil && u.TokenVersion == sess.Version {
			v.Admin, v.Owner, v.CSRF = u, u.Role == app.RoleOwner, p.sessionToken(sid)
		}
	}
	return p.errorPage(c, v, fiber.StatusNotFound, "There is no such page in the admin panel.")
}

// serveStatic serves the embedded CSS, JS and icon under fingerprinted
// names (panel.1a2b3c4d.css), gzipped and immutable.
func (p *panel) serveStatic(c *fiber.Ctx) error {
	securityHeaders(c)
	if !p.static.Serve(c, c.Params("file")) {
		return p.notFound(c)
	}
	return nil
}

// parsePages parses each page template (templates/NAME.html) with the layout
// and the shared partials (templates/_*.html) into one set per page, named by
// the file without .html.
func parsePages(fsys fs.FS, static *pagekit.Assets) (*pagekit.Templates, error) {
	funcs := template.FuncMap{
		"has":   func(list []string, s string) bool { return slices.Contains(list, s) },
		"money": func(m app.Money, currency string) string { return m.String() + " " + currency },
		"when": func(t time.Time) string {
			if t.IsZero() {
				return "—"
			}
			return t.UTC().Format("2006-01-02 15:04 UTC")
		},
		"asset":        static.URL,
		"storePath":    storePath,
		"inc":          func(i int) int { return i + 1 },
		"lower":        strings.ToLower,
		"hasPrefix":    strings.HasPrefix,
		"field":        fieldLabel,
		"ticketNumber": app.TicketNumber,
	}
	return pagekit.ParseTemplates(fsys, pagekit.TemplateOptions{Dir: "templates", Funcs: funcs, Layout: "layout", Block: "content",
		Need: []string{"login", "error", "dashboard", "store", "categories", "category", "products", "product", "users", "outbox",
			"orders", "order", "requests", "request", "reviews", "tickets", "ticket", "messages", "customers", "customer",
			"posts", "post", "deals", "deal", "bundles", "bundle", "coupons", "coupon", "products_import", "settings",
			"confirm", "audit", "invoice", "packing", "password"}})
}
