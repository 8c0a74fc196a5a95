package admin

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
	"storefront/httpkit/staff"
)

// The audit log is written in one place per entry point: the middleware of
// the authenticated JSON API (auditAPI) and the panel's authed wrapper (for
// POSTs) both call record after the handler, with the route's pattern; no
// handler records anything itself. Reads (GET) are not recorded, except the
// outbox's (recordRead); writes are recorded when they succeeded or were
// refused (403).

// auditAPI is the middleware of the authenticated JSON API that records its writes.
func (h *Handler) auditAPI(c *fiber.Ctx) error {
	err := c.Next()
	status := c.Response().StatusCode()
	if err != nil {
		status = apiStatus(err)
	}
	var sid uint64
	if st := storeOf(c); st != nil {
		sid = st.ID
	}
	h.svc.Record(c, adminOf(c), sid, "api", status)
	return err
}

// apiStatus is the status the error handler will write for err.
func apiStatus(err error) int {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fe.Code
	}
	return httpkit.StatusOfError(err)
}

func (h *Handler) registerAuditRoutes(r fiber.Router) {
	r.Get("/audit-log", h.listAudit)
}

func viewAudit(e *app.AuditEntry) any { return e.View() }

// listAudit serves GET /api/v1/admin/audit-log/ (owner): newest first, filtered.
func (h *Handler) listAudit(c *fiber.Ctx) error {
	f, err := staff.ReadAuditFilter(c)
	if err != nil {
		return err
	}
	return sendList(h, c, staff.AuditScope(f), func(lp app.ListParams) (app.Page[*app.AuditEntry], error) {
		return h.svc.Audit.List(f, lp)
	}, viewAudit)
}
