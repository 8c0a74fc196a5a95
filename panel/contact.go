package panel

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// messagesPage serves GET /admin/stores/{id}/messages/?cursor=: the contact
// form's messages, every unread one first, then newest first (a rows page
// whose cursors are of its own order's scope).
func (p *panel) messagesPage(c *fiber.Ctx, v *view) error {
	msgs, pg, err := listPage(p, c, v, "messages:unread_first", storePath(v.Store, "messages/"),
		func(storeID uint64, lp app.ListParams) (app.Page[*app.ContactMessage], error) {
			return p.h.svc.Contact.List(storeID, nil, true, lp)
		})
	if err != nil {
		return err
	}
	v.Title, v.Tab, v.Data = "Messages", "messages", rows[*app.ContactMessage]{Rows: msgs, Pager: pg}
	return p.render(c, fiber.StatusOK, "messages", v)
}

// messageID reads the path's contact message id.
var messageID = pathID("mid", "contact message")

// setMessageRead serves POST /admin/stores/{id}/messages/{mid}/read/ {read=true|false}.
func (p *panel) setMessageRead(c *fiber.Ctx, v *view, id uint64) error {
	state := readForm(c, nil, "read")["read"]
	if state != "true" && state != "false" {
		return app.Invalid("read", "must be true or false")
	}
	if _, err := p.h.svc.Contact.SetRead(v.Store.ID, id, state == "true"); err != nil {
		return err
	}
	marked := " marked unread."
	if state == "true" {
		marked = " marked read."
	}
	return p.redirect(c, v, storePath(v.Store, "messages/"), ok1("Message #"+strconv.FormatUint(id, 10)+marked))
}

// replyMessage serves POST /admin/stores/{id}/messages/{mid}/reply/
// {message}: the answer goes to the sender by email (through the outbox) and
// the message is marked read, in one transaction.
func (p *panel) replyMessage(c *fiber.Ctx, v *view, id uint64) error {
	m, err := p.h.svc.Contact.Reply(v.Store.ID, id, v.Admin.Email, readForm(c, nil, "message")["message"])
	back := storePath(v.Store, "messages/")
	if err != nil {
		if httpStatus := p.formError(c, v, err); httpStatus >= 500 || app.IsNotFound(err) {
			return err
		}
		msg := "Message #" + strconv.FormatUint(id, 10) + ": the reply was not sent: "
		for _, m := range v.Fields {
			msg += m
		}
		return p.redirect(c, v, back, &flash{Kind: "error", Message: msg})
	}
	return p.redirect(c, v, back, ok1("Reply to "+m.Email+" queued in the outbox; message #"+strconv.FormatUint(id, 10)+" marked read."))
}
