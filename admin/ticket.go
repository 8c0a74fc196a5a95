package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerTicketRoutes(r fiber.Router) {
	r.Get("/tickets", h.listTickets)
	ts := h.svc.Tickets
	// GET one, with its messages
	r.Get("/tickets/:tid", getOne(ticketID, ts.Get, viewTicketFull))
	// PATCH {status?, priority?}
	r.Patch("/tickets/:tid", withBody(ticketID, fiber.StatusOK, h.patchTicket, viewTicketFull))
	// POST {message, images?}: a STAFF message; the shopper is emailed. 201 with the ticket.
	r.Post("/tickets/:tid/messages", withBody(ticketID, fiber.StatusCreated, h.replyTicket, viewTicketFull))
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
	return sendList(h, c, "tickets:"+status, func(lp app.ListParams) (app.Page[*app.Ticket], error) {
		return h.svc.Tickets.List(storeOf(c).ID, status, lp)
	}, viewTicket)
}

func (h *Handler) replyTicket(c *fiber.Ctx, id string, in app.TicketReply) (*app.Ticket, error) {
	return h.svc.Tickets.StaffReply(storeOf(c).ID, id, in)
}

func (h *Handler) patchTicket(c *fiber.Ctx, id string, in app.TicketPatch) (*app.Ticket, error) {
	return h.svc.Tickets.Patch(storeOf(c).ID, id, in)
}
