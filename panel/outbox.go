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
	st := v.Store
	lp, err := p.listParams(c, "outbox", st.ID)
	if err != nil {
		return err
	}
	page, err := p.h.svc.Outbox(st.ID, lp)
	if err != nil {
		return err
	}
	p.h.staff.RecordRead(c, v.Admin, st.ID, "panel", "outbox.read")
	v.Title, v.Tab = "Outbox", "outbox"
	v.Data = outboxData{Mails: page.Items, Pager: p.pager(storePath(st, "outbox/"), "outbox", st.ID, lp, page.Next)}
	return p.render(c, fiber.StatusOK, "outbox", v)
}
