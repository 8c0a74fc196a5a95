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
// The read is audited ("outbox.read"); once SMTP is configured the codes of
// account mails are masked.
func (h *Handler) listOutbox(c *fiber.Ctx) error {
	lp, err := h.listParams(c, "outbox")
	if err != nil {
		return err
	}
	page, err := h.outbox(storeOf(c).ID, lp)
	if err != nil {
		return err
	}
	h.recordRead(c, adminOf(c), storeOf(c).ID, "api", "outbox.read")
	return sendPage(h, c, "outbox", page, viewMail)
}

// outbox is a page of the outbox as admins may see it (codes masked when
// mail goes out by SMTP).
func (h *Handler) outbox(storeID uint64, lp app.ListParams) (app.Page[*app.Mail], error) {
	page, err := h.svc.Outbox(storeID, lp)
	if err != nil || !h.svc.MaskCodes {
		return page, err
	}
	for i, m := range page.Items {
		page.Items[i] = m.MaskCodes()
	}
	return page, nil
}
