package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerTicketRoutes(r fiber.Router) {
	ts := h.svc.Tickets
	r.Get("/tickets", listByStatus(h, "tickets:", ts.List, viewTicket)) // without messages
	// GET one, with its messages
	r.Get("/tickets/:tid", getOne(ticketID, ts.Get, viewTicketFull))
	// PATCH {status?, priority?}
	r.Patch("/tickets/:tid", withBody(ticketID, fiber.StatusOK, inStoreWith(ts.Patch), viewTicketFull))
	// POST {message, images?}: a STAFF message; the shopper is emailed. 201 with the ticket.
	r.Post("/tickets/:tid/messages", withBody(ticketID, fiber.StatusCreated, inStoreWith(ts.StaffReply), viewTicketFull))
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
