package admin

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
	"storefront/httpkit/staff"
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
}

// BackupFile is one file in the backups folder.
type BackupFile struct {
	File      string `json:"file"`
	SizeBytes int64  `json:"size_bytes"`
	CreatedAt string `json:"created_at"`
}

// Handler holds what the admin handlers call: the staff services and
// helpers the panel calls too (httpkit/staff).
type Handler struct {
	cfg     Config
	svc     staff.Staff
	cursors app.CursorCodec
}

type localKey int

const (
	keyAdmin localKey = iota
	keyStore
)

// Register mounts the admin JSON API on r.
func Register(r fiber.Router, svc *app.Services, cfg Config) *Handler {
	h := &Handler{cfg: cfg, svc: staff.New(svc, cfg.TrustedProxies), cursors: app.CursorCodec{Secret: cfg.CursorSecret}}
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
	return h
}

// UploadAllowed reports whether a request's headers carry a valid admin
// bearer token, and the store of its admin. The server asks it (with the
// panel's, httpkit.AnyUpload) before it reads an upload's body (web.Server's
// UploadAuth), so an anonymous client cannot make it read a large one, and
// one store's staff cannot take every upload slot; the routes still check
// everything as usual once the body is read.
func (h *Handler) UploadAllowed(authorization string, _ func(name string) string) (store uint64, ok bool) {
	if len(authorization) <= 7 || !strings.EqualFold(authorization[:7], "Bearer ") {
		return 0, false
	}
	u, err := h.svc.Admins.Authenticate(strings.TrimSpace(authorization[7:]))
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
	if segs := staff.RouteSegs(c.Path(), "/api/v1/admin"); !staff.EnrolRoute(segs) && h.svc.Admins.MustEnrolTOTP(u, h.svc.Stores.Get) {
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
	if err := app.Allow(adminOf(c), true, c.Method(), staff.RouteSegs(c.Path(), "/api/v1/admin")[2:]); err != nil {
		return err
	}
	return c.Next()
}

// authorize refuses a route outside a store that the admin's role does not
// hold (app.GlobalRoutePerms; 403 forbidden). A store's routes are checked
// by storeScope once the store is known to be the admin's.
func (h *Handler) authorize(c *fiber.Ctx) error {
	segs := staff.RouteSegs(c.Path(), "/api/v1/admin")
	if staff.IsStoreRoute(segs) {
		return c.Next()
	}
	if err := app.Allow(adminOf(c), false, c.Method(), segs); err != nil {
		return err
	}
	return c.Next()
}

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
