package panel

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// ticketsPage serves GET /admin/stores/{id}/tickets/ (?status=all by default,
// OPEN, IN_PROGRESS, RESOLVED, CLOSED; ?cursor=), newest first.
func (p *panel) ticketsPage(c *fiber.Ctx, v *view) error {
	d, err := filteredPage(p, c, v, "tickets", statusAll, app.TicketStatuses, p.h.svc.Tickets.List)
	if err != nil {
		return err
	}
	v.Title, v.Tab, v.Data = "Tickets", "tickets", d
	return p.render(c, fiber.StatusOK, "tickets", v)
}

// ticketForm is what was typed in the ticket page's forms.
type ticketForm struct {
	Reply    string
	Status   string
	Priority string
}

type ticketData struct {
	Base       string
	Ticket     *app.Ticket
	Number     string
	Customer   *app.Customer // nil when the account is gone
	Statuses   []string
	Priorities []string
	Form       ticketForm
}

func (p *panel) pathTicket(c *fiber.Ctx, v *view) (*app.Ticket, error) {
	id, ok := app.ParseUUID(c.Params("tid"))
	if !ok {
		return nil, app.NotFound("ticket")
	}
	return p.h.svc.Tickets.Get(v.Store.ID, id)
}

// ticketPage serves GET /admin/stores/{id}/tickets/{tid}/: the conversation,
// the reply form and the status/priority form.
func (p *panel) ticketPage(c *fiber.Ctx, v *view, t *app.Ticket) error {
	return p.showTicket(c, v, fiber.StatusOK, t, ticketForm{Status: t.Status, Priority: t.Priority})
}

func (p *panel) showTicket(c *fiber.Ctx, v *view, status int, t *app.Ticket, form ticketForm) error {
	d := ticketData{Base: storePath(v.Store, "tickets/"), Ticket: t, Number: app.TicketNumber(t.Number),
		Statuses: app.TicketStatuses, Priorities: app.TicketPriorities, Form: form}
	cust, err := p.h.svc.Customers.Get(v.Store.ID, t.CustomerID)
	switch {
	case err == nil:
		d.Customer = cust
	case !app.IsNotFound(err):
		return err
	}
	v.Title, v.Tab, v.Data = d.Number+" "+t.Subject, "tickets", d
	return p.render(c, status, "ticket", v)
}

// replyTicket serves POST /admin/stores/{id}/tickets/{tid}/reply/ {message}.
func (p *panel) replyTicket(c *fiber.Ctx, v *view, t *app.Ticket) error {
	msg := formValue(c, "message")
	saved, err := p.h.svc.Tickets.StaffReply(v.Store.ID, t.ID, app.TicketReply{Message: msg})
	if err != nil {
		form := ticketForm{Reply: msg, Status: t.Status, Priority: t.Priority}
		return p.showAgain(c, v, err, func(status int) error { return p.showTicket(c, v, status, t, form) })
	}
	return p.redirect(c, v, storePath(v.Store, "tickets/"+saved.ID+"/"), ok1("Reply sent to the customer."))
}

// patchTicket serves POST /admin/stores/{id}/tickets/{tid}/ {status, priority}.
func (p *panel) patchTicket(c *fiber.Ctx, v *view, t *app.Ticket) error {
	form := ticketForm{Status: formValue(c, "status"), Priority: formValue(c, "priority")}
	saved, err := p.h.svc.Tickets.Patch(v.Store.ID, t.ID, app.TicketPatch{Status: &form.Status, Priority: &form.Priority})
	if err != nil {
		return p.showAgain(c, v, err, func(status int) error { return p.showTicket(c, v, status, t, form) })
	}
	return p.redirect(c, v, storePath(v.Store, "tickets/"+saved.ID+"/"), ok1("Ticket "+app.TicketNumber(saved.Number)+" is now "+saved.Status+", priority "+saved.Priority+"."))
}
