package panel

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

type outboxData struct {
	Mails []*app.Mail
	Pager
}

// outboxPage serves GET /admin/stores/{id}/outbox/?cursor=: the mail kept in
// the database when no SMTP server is configured, newest first.
func (p *panel) outboxPage(c *fiber.Ctx, v *view) error {
	mails, pg, err := listPage(p, c, v, "outbox", storePath(v.Store, "outbox/"), p.h.svc.Outbox)
	if err != nil {
		return err
	}
	p.h.staff.RecordRead(c, v.Admin, v.Store.ID, "panel", "outbox.read")
	v.Title, v.Tab, v.Data = "Outbox", "outbox", outboxData{Mails: mails, Pager: pg}
	return p.render(c, fiber.StatusOK, "outbox", v)
}
