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
	lp, err := h.listParams(c, "outbox")
	if err != nil {
		return err
	}
	page, err := h.svc.Outbox(storeOf(c).ID, lp)
	if err != nil {
		return err
	}
	h.staff.RecordRead(c, adminOf(c), storeOf(c).ID, "api", "outbox.read")
	return sendPage(h, c, "outbox", page, viewMail)
}
