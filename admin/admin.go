package admin

import (
	"log/slog"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// Config is what the admin side needs besides the services.
type Config struct {
	CursorSecret []byte
	// TrustedProxies (http.trusted_proxies) are believed about the client address.
	TrustedProxies []string
	// Backup writes a consistent copy of the database into the backups folder
	// and returns its file name and size (owner only).
	Backup func() (string, int64, error)
	// Backups lists the backup files, newest first.
	Backups func() ([]BackupFile, error)
	// ShopURL is the address of a store's shop window, for the panel's
	// "View shop" link (nil or "": no link, as with shop.enabled false).
	ShopURL func(st *app.Store) string
}

// BackupFile is one file in the backups folder.
type BackupFile struct {
	File      string `json:"file"`
	SizeBytes int64  `json:"size_bytes"`
	CreatedAt string `json:"created_at"`
}

// services are the parts of the domain the admin handlers call, and nothing
// else (the cart, checkout and payment services are not reachable from here).
type services struct {
	Now app.Clock
	Opt app.Options
	// Outbox pages the mail kept in the database, codes masked
	// (app.Services.AdminOutbox).
	Outbox func(storeID uint64, lp app.ListParams) (app.Page[*app.Mail], error)
	// RetryMail, PreviewMail and TestMail are the outbox and template
	// actions of app.Services.
	RetryMail   func(storeID, id uint64) (*app.Mail, error)
	PreviewMail func(st *app.Store, kind string, draft *app.MailTemplate) (app.Mail, error)
	TestMail    func(st *app.Store, kind, to string) (*app.Mail, error)
	// PayTestOrder is app.Services.PayTestOrder (the "Pay a test order" button).
	PayTestOrder func(storeID uint64, method, email, callbackURL string) (app.TestOrder, error)
	// Shared keeps the panel sessions when several processes share the
	// database (nil: in memory); Secret gives them one login-form key.
	Shared app.SharedState
	Secret func(name string) ([]byte, error)

	Stores    *app.StoreService
	Admins    *app.AdminService
	Catalog   *app.CatalogService
	Customers *app.CustomerService
	Orders    *app.OrderService
	Payments  *app.PaymentService
	Coupons   *app.CouponService
	Requests  *app.RequestService
	Reviews   *app.ReviewService
	Tickets   *app.TicketService
	Contact   *app.ContactService
	Content   *app.ContentService
	Webhooks  *app.WebhookService
	Audit     *app.AuditService
}

// Handler holds what the admin handlers call.
type Handler struct {
	cfg     Config
	svc     services
	log     *slog.Logger
	cursors app.CursorCodec
	proxies httpkit.Proxies // http.trusted_proxies
	// panelSessions are the panel's, for UploadAllowed.
	panelSessions *sessions
}

type localKey int

const (
	keyAdmin localKey = iota
	keyStore
)

// Register mounts the admin JSON API and the panel on r.
func Register(r fiber.Router, svc *app.Services, cfg Config) *Handler {
	h := &Handler{cfg: cfg, log: svc.Log, svc: services{
		Now: svc.Now, Opt: svc.Opt, Outbox: svc.AdminOutbox, Shared: svc.Shared(), Secret: svc.DB.Secret,
		RetryMail: svc.RetryMail, PreviewMail: svc.PreviewMail, TestMail: svc.TestMail, PayTestOrder: svc.PayTestOrder, Webhooks: svc.Webhooks,
		Stores: svc.Stores, Admins: svc.Admins, Catalog: svc.Catalog, Customers: svc.Customers,
		Orders: svc.Orders, Payments: svc.Payments, Coupons: svc.Coupons, Requests: svc.Requests, Reviews: svc.Reviews, Audit: svc.Audit,
		Tickets: svc.Tickets, Contact: svc.Contact, Content: svc.Content}, cursors: app.CursorCodec{Secret: cfg.CursorSecret},
		proxies: httpkit.NewProxies(cfg.TrustedProxies)}
	api := r.Group("/api/v1/admin")
	api.Post("/auth/login", h.login)
	api.Post("/auth/logout", h.logout) // checks its own token: a revoked one is 401 like any other
	authed := api.Group("", h.auth, h.auditAPI, h.authorize)
	authed.Post("/auth/password/change", h.changePassword)
	h.registerUserRoutes(authed)
	h.registerAuditRoutes(authed)
	h.registerBackupRoutes(authed)
	h.registerStoreRoutes(authed)
	st := authed.Group("/stores/:store_id", h.storeScope)
	h.registerStoreScopedRoutes(st)
	h.registerProductCSVRoutes(st) // before the catalog's /products/:pid
	h.registerCatalogRoutes(st)
	h.registerImageRoutes(st)
	h.registerCustomerRoutes(st)
	h.registerOrderRoutes(st)
	h.registerCouponRoutes(st)
	h.registerRequestRoutes(st)
	h.registerReviewRoutes(st)
	h.registerTicketRoutes(st)
	h.registerContactRoutes(st)
	h.registerContentRoutes(st)
	h.registerOutboxRoutes(st)
	h.registerMailRoutes(st)
	h.registerWebhookRoutes(st)
	h.registerSettingsVersionRoutes(st)
	h.registerPanel(r)
	return h
}

// UploadAllowed reports whether a request's headers carry a live admin
// credential, a valid bearer token (admin API) or a live panel session
// cookie, and the store of its admin. The server asks it before it reads an
// upload's body (web.Server's UploadAuth), so an anonymous client cannot make
// it read a large one, and one store's staff cannot take every upload slot;
// the routes still check everything as usual once the body is read.
func (h *Handler) UploadAllowed(authorization string, cookie func(name string) string) (store uint64, ok bool) {
	var u *app.AdminUser
	var err error
	if len(authorization) > 7 && strings.EqualFold(authorization[:7], "Bearer ") {
		u, err = h.svc.Admins.Authenticate(strings.TrimSpace(authorization[7:]))
	} else if h.panelSessions == nil {
		return 0, false
	} else if sess, found := h.panelSessions.get(cookie(sessionCookie)); found {
		u, err = h.svc.Admins.Get(sess.adminID)
	} else {
		return 0, false
	}
	if err != nil {
		return 0, false
	}
	return u.StoreID, true
}

// auth requires an admin bearer token. Shopper tokens never verify here.
//
// Every answer behind it carries a tenant's data (keys, webhook secrets,
// customers, orders, the outbox): it is never stored by a cache.
func (h *Handler) auth(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	tok := bearer(c)
	if tok == "" {
		return app.Errorf(app.EUnauthorized, "missing admin bearer token")
	}
	u, err := h.svc.Admins.Authenticate(tok)
	if err != nil {
		return err
	}
	c.Locals(keyAdmin, u)
	if segs := routeSegs(c.Path(), "/api/v1/admin"); !enrolRoute(segs) && h.svc.Admins.MustEnrolTOTP(u, h.svc.Stores.Get) {
		return app.Errorf(app.EForbidden, "your store requires a second factor: enrol at POST /api/v1/admin/auth/totp/ first")
	}
	return c.Next()
}

// storeScope loads :store_id; a store the admin may not see is not_found.
func (h *Handler) storeScope(c *fiber.Ctx) error {
	id, err := strconv.ParseUint(c.Params("store_id"), 10, 64)
	if err != nil || id == 0 || !adminOf(c).CanAccess(id) {
		return app.NotFound("store")
	}
	st, err := h.svc.Stores.Get(id)
	if err != nil {
		return err
	}
	c.Locals(keyStore, st)
	if err := app.Allow(adminOf(c), true, c.Method(), routeSegs(c.Path(), "/api/v1/admin")[2:]); err != nil {
		return err
	}
	return c.Next()
}

// authorize refuses a route outside a store that the admin's role does not
// hold (app.GlobalRoutePerms; 403 forbidden). A store's routes are checked
// by storeScope once the store is known to be the admin's.
func (h *Handler) authorize(c *fiber.Ctx) error {
	segs := routeSegs(c.Path(), "/api/v1/admin")
	if isStoreRoute(segs) {
		return c.Next()
	}
	if err := app.Allow(adminOf(c), false, c.Method(), segs); err != nil {
		return err
	}
	return c.Next()
}

// enrolRoute reports whether segs are a route an admin who must enrol a
// second factor may still use (the enrolment, /me, the password, logout).
func enrolRoute(segs []string) bool {
	return len(segs) > 0 && (segs[0] == "auth" || segs[0] == "me" || segs[0] == "totp" || segs[0] == "password" || segs[0] == "logout")
}

// routeSegs splits a request path after prefix into its non-empty segments.
func routeSegs(path, prefix string) []string {
	var segs []string
	for _, s := range strings.Split(strings.TrimPrefix(path, prefix), "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	return segs
}

// isStoreRoute reports whether segs are under stores/{id}/.
func isStoreRoute(segs []string) bool { return len(segs) >= 2 && segs[0] == "stores" }

func adminOf(c *fiber.Ctx) *app.AdminUser {
	u, _ := c.Locals(keyAdmin).(*app.AdminUser)
	return u
}

// storeOf returns the store of a /stores/:store_id/ route.
func storeOf(c *fiber.Ctx) *app.Store {
	st, _ := c.Locals(keyStore).(*app.Store)
	return st
}

// listParams reads limit and cursor of an admin list (newest first).
func (h *Handler) listParams(c *fiber.Ctx, scope string) (app.ListParams, error) {
	lp := app.ListParams{Sort: app.SortNewest, Limit: app.DefaultLimit}
	if lv := c.Query("limit"); lv != "" {
		n, err := strconv.Atoi(lv)
		if err != nil || n < 1 {
			return lp, app.Invalid("limit", "must be an integer of at least 1")
		}
		lp.Limit = min(n, app.MaxLimit)
	}
	if cv := c.Query("cursor"); cv != "" {
		cur, err := h.cursors.Decode("admin:"+scope, storeIDParam(c), lp.Sort, cv)
		if err != nil {
			return lp, err
		}
		lp.After = cur
	}
	return lp, nil
}

func storeIDParam(c *fiber.Ctx) uint64 {
	if st := storeOf(c); st != nil {
		return st.ID
	}
	return 0
}

// sendPage writes a page in the list shape, mapping items through view and
// trimming them to ?fields= as the storefront does.
func sendPage[T any](h *Handler, c *fiber.Ctx, scope string, p app.Page[T], view func(T) any) error {
	next := ""
	if p.Next != nil {
		next = h.cursors.Encode("admin:"+scope, storeIDParam(c), p.Next)
	}
	return httpkit.SendList(c, p.Items, view, httpkit.ParseFields(c), next, nil)
}
