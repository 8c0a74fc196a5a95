package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

func (h *Handler) registerOutboxRoutes(r fiber.Router) {
	r.Get("/outbox", h.listOutbox)
}

func viewMail(m *app.Mail) any { return m.View() }

// listOutbox serves GET /api/v1/admin/stores/{id}/outbox/ (newest first).
// The read is audited ("outbox.read"); the codes of account mails are
// masked.
func (h *Handler) listOutbox(c *fiber.Ctx) error {
	return sendList(h, c, "outbox", func(lp app.ListParams) (app.Page[*app.Mail], error) {
		page, err := h.svc.Outbox(storeOf(c).ID, lp)
		if err == nil {
			h.svc.RecordRead(c, adminOf(c), storeOf(c).ID, "api", "outbox.read")
		}
		return page, err
	}, viewMail)
}
