package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerTicketRoutes(r fiber.Router) {
	r.Get("/tickets", h.listTickets)
	r.Get("/tickets/:tid", h.getTicket)
	r.Patch("/tickets/:tid", h.patchTicket)
	r.Post("/tickets/:tid/messages", h.replyTicket)
}

// ticketView is the staff's view: the shopper's view plus who and which order.
type ticketView struct {
	app.TicketView
	CustomerID uint64 `json:"customer_id"`
}

func viewTicket(t *app.Ticket) any {
	return ticketView{TicketView: t.View(false), CustomerID: t.CustomerID}
}

func viewTicketFull(t *app.Ticket) any {
	return ticketView{TicketView: t.View(true), CustomerID: t.CustomerID}
}

func ticketID(c *fiber.Ctx) (string, error) {
	return httpkit.PathUUID(c, "tid", "ticket")
}

// listTickets serves GET stores/{id}/tickets/ (?status=), newest first, without messages.
func (h *Handler) listTickets(c *fiber.Ctx) error {
	status := c.Query("status")
	scope := "tickets:" + status
	lp, err := h.listParams(c, scope)
	if err != nil {
		return err
	}
	page, err := h.svc.Tickets.List(storeOf(c).ID, status, lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, scope, page, viewTicket)
}

// getTicket serves GET stores/{id}/tickets/{tid}/ with messages.
func (h *Handler) getTicket(c *fiber.Ctx) error {
	id, err := ticketID(c)
	if err != nil {
		return err
	}
	t, err := h.svc.Tickets.Get(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewTicketFull(t))
}

// replyTicket serves POST stores/{id}/tickets/{tid}/messages/ {message, images?}:
// a STAFF message; the shopper is emailed. 201 with the ticket.
func (h *Handler) replyTicket(c *fiber.Ctx) error {
	id, err := ticketID(c)
	if err != nil {
		return err
	}
	var in app.TicketReply
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	t, err := h.svc.Tickets.StaffReply(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.Created(c, viewTicketFull(t))
}

// patchTicket serves PATCH stores/{id}/tickets/{tid}/ {status?, priority?}.
func (h *Handler) patchTicket(c *fiber.Ctx) error {
	id, err := ticketID(c)
	if err != nil {
		return err
	}
	var in app.TicketPatch
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	t, err := h.svc.Tickets.Patch(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewTicketFull(t))
}
