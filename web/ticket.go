package web

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (s *Server) registerTicketRoutes(r fiber.Router) {
	r.Post("/tickets", s.shopper, s.createTicket)
	r.Get("/tickets", s.shopper, s.listMyTickets)
	r.Get("/tickets/:ticket_id", s.shopper, s.getMyTicket)
	r.Post("/tickets/:ticket_id/messages", s.shopper, s.replyMyTicket)
}

// ticketParam reads :ticket_id; anything but a uuid is not_found.
func ticketParam(c *fiber.Ctx) (string, error) {
	return httpkit.PathUUID(c, "ticket_id", "ticket")
}

// createTicket serves POST /api/v1/business/website/tickets/: data is the
// new ticket's id (uuid).
func (s *Server) createTicket(c *fiber.Ctx) error {
	var in app.TicketInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	t, err := s.svc.Tickets.Create(*shopperOf(c), in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, t.ID)
}

// listMyTickets serves GET /api/v1/business/website/tickets/: the shopper's
// tickets, newest first, without their messages.
func (s *Server) listMyTickets(c *fiber.Ctx) error {
	q, err := s.parseList(c, "tickets", nil, app.DefaultLimit, app.MaxLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Tickets.ListMine(*shopperOf(c), q.ListParams)
	if err != nil {
		return err
	}
	return sendList(s, c, "tickets", page, q.Fields, func(t *app.Ticket) any { return t.View(false) }, nil)
}

// getMyTicket serves GET /api/v1/business/website/tickets/{ticket_id}/ with messages.
func (s *Server) getMyTicket(c *fiber.Ctx) error {
	id, err := ticketParam(c)
	if err != nil {
		return err
	}
	t, err := s.svc.Tickets.Mine(*shopperOf(c), id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, t.View(true))
}

// replyMyTicket serves POST /api/v1/business/website/tickets/{ticket_id}/messages/:
// data is the ticket with its messages.
func (s *Server) replyMyTicket(c *fiber.Ctx) error {
	id, err := ticketParam(c)
	if err != nil {
		return err
	}
	var in app.TicketReply
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	t, err := s.svc.Tickets.Reply(*shopperOf(c), id, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, t.View(true))
}
