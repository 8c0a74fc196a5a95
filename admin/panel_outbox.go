package admin

import (
	"net/url"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

type outboxData struct {
	Mails    []*app.Mail
	Next     string
	NotFirst bool
}

// outboxPage serves GET /admin/stores/{id}/outbox/?cursor=: the mail kept in
// the database when no SMTP server is configured, newest first.
func (p *panel) outboxPage(c *fiber.Ctx, v *view) error {
	st := v.Store
	lp := app.ListParams{Sort: app.SortNewest, Limit: panelPageSize}
	if cv := c.Query("cursor"); cv != "" {
		cur, err := p.h.cursors.Decode("panel:outbox", st.ID, app.SortNewest, cv)
		if err != nil {
			return err
		}
		lp.After = cur
	}
	var page app.Page[*app.Mail]
	err := p.h.svc.DB.View(func(tx app.Tx) error {
		var err error
		page, err = tx.Outbox(st.ID, lp)
		return err
	})
	if err != nil {
		return err
	}
	d := outboxData{Mails: page.Items, NotFirst: lp.After != nil}
	if page.Next != nil {
		d.Next = "?cursor=" + url.QueryEscape(p.h.cursors.Encode("panel:outbox", st.ID, page.Next))
	}
	v.Title, v.Tab, v.Data = "Outbox", "outbox", d
	return p.render(c, fiber.StatusOK, "outbox", v)
}
