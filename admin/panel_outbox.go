package admin

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
	var page app.Page[*app.Mail]
	err = p.h.svc.DB.View(func(tx app.Tx) error {
		var err error
		page, err = tx.Outbox(st.ID, lp)
		return err
	})
	if err != nil {
		return err
	}
	v.Title, v.Tab = "Outbox", "outbox"
	v.Data = outboxData{Mails: page.Items, Pager: p.pager(storePath(st, "outbox/"), "outbox", st.ID, lp, page.Next)}
	return p.render(c, fiber.StatusOK, "outbox", v)
}
