package panel

import "github.com/gofiber/fiber/v2"

// outboxPage serves GET /admin/stores/{id}/outbox/?cursor=: the mail kept in
// the database when no SMTP server is configured, newest first. Each page
// shown is a read in the audit log (outbox.read).
func (p *panel) outboxPage() pageFunc {
	page := rowsPage(p, "outbox", "Outbox", "outbox", "outbox", p.h.svc.Outbox)
	return func(c *fiber.Ctx, v *view) error {
		err := page(c, v)
		if err == nil {
			p.h.svc.RecordRead(c, v.Admin, v.Store.ID, "panel", "outbox.read")
		}
		return err
	}
}
