package shop

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// Support tickets: the services the API's ticket routes call
// (web/ticket.go). Another shopper's ticket is the 404 page.

func (s *Shop) registerTicketRoutes(a *fiber.App) {
	a.Get("/account/tickets", s.page(signedIn(s.ticketsPage)))
	a.Get("/account/tickets/new", s.page(signedIn(s.ticketNewPage)))
	create := accountForm{ticketFields, ticketNewView, s.ticketCreate}
	a.Post("/account/tickets/new", s.form(signedIn(s.send(create)), signedIn(s.again(create))))
	a.Get("/account/tickets/:ticket_id", s.page(s.onTicket(s.ticketPage)))
	a.Post("/account/tickets/:ticket_id/reply", s.page(s.onTicket(s.ticketReply)))
}

// onTicket is signedIn for a page of the shopper's ticket the path names
// (another shopper's: the 404 page).
func (s *Shop) onTicket(fn func(c *fiber.Ctx, rq *request, t *app.Ticket) error) pageFunc {
	return signedIn(func(c *fiber.Ctx, rq *request) error {
		id, err := httpkit.PathUUID(c, "ticket_id", "ticket")
		if err != nil {
			return err
		}
		t, err := s.svc.Tickets.Mine(rq.shopper(), id)
		if err != nil {
			return err
		}
		return fn(c, rq, t)
	})
}

var (
	ticketFields = []fieldSpec{
		{Name: "subject", Max: app.MaxTicketSubject, Required: true},
		{Name: "category", Type: "select", Max: 20, Options: app.TicketCategories},
		{Name: "order_id", Type: "text", Auto: "off", Max: 20},
		{Name: "description", Type: "textarea", Max: app.MaxTicketMessage, Required: true},
	}
	replyFields = []fieldSpec{{Name: "message", Type: "textarea", Max: app.MaxTicketMessage, Required: true}}
)

// ticketsPage serves GET /account/tickets/ (?cursor=): newest first.
func (s *Shop) ticketsPage(c *fiber.Ctx, rq *request) error {
	lp, err := s.listAfter(c, rq, "tickets", "cursor", app.DefaultLimit)
	if err != nil {
		return err
	}
	pg, err := s.svc.Tickets.ListMine(rq.shopper(), lp)
	if err != nil {
		return err
	}
	v := listView[*app.Ticket]{Items: pg.Items, Notice: notice(c, rq.L), Next: s.nextURL(rq, "/account/tickets/?cursor=", "tickets", pg.Next)}
	return s.render(c, rq, fiber.StatusOK, "account_tickets", pageMeta{Title: rq.L.T("account.tickets.title"), NoIndex: true}, v)
}

var ticketNewView = formPage("ticket.new", "/account/tickets/new", false, ticketFields, link{"/account/tickets/", "account.tickets.back"})

// ticketNewPage serves GET /account/tickets/new (?order_id= prefilled).
func (s *Shop) ticketNewPage(c *fiber.Ctx, rq *request) error {
	vals := map[string]string{"category": app.TicketGeneral}
	if id, err := strconv.ParseUint(c.Query("order_id"), 10, 64); err == nil && id > 0 {
		vals["order_id"], vals["category"] = strconv.FormatUint(id, 10), app.TicketOrder
	}
	return s.showForm(c, rq, fiber.StatusOK, ticketNewView(rq, vals))
}

// ticketCreate sends POST /account/tickets/new (the API's POST tickets).
func (s *Shop) ticketCreate(c *fiber.Ctx, rq *request, vals map[string]string) (string, error) {
	in := app.TicketInput{Subject: vals["subject"], Description: vals["description"], Category: vals["category"]}
	if o := vals["order_id"]; o != "" {
		id, err := strconv.ParseUint(o, 10, 64)
		if err != nil || id == 0 {
			return "", app.Invalid("order_id", "must be a positive integer")
		}
		in.OrderID = &id
	}
	t, err := s.svc.Tickets.Create(rq.shopper(), in)
	if err != nil {
		return "", err
	}
	return "/account/tickets/" + t.ID + "/?m=opened", nil
}

// ticketView is what a ticket's page shows.
type ticketView struct {
	Ticket app.TicketView
	Notice string
	Reply  formView
}

func (s *Shop) showTicket(c *fiber.Ctx, rq *request, status int, t *app.Ticket, reply formView, note string) error {
	v := ticketView{Ticket: t.View(true), Reply: reply, Notice: note}
	return s.render(c, rq, status, "account_ticket", pageMeta{Title: v.Ticket.TicketNumber + " " + t.Subject, NoIndex: true}, v)
}

func (s *Shop) replyForm(rq *request, id string, vals map[string]string) formView {
	return newForm(rq, "/account/tickets/"+id+"/reply", "account.ticket.reply.submit", replyFields, vals)
}

// ticketPage serves GET /account/tickets/{id}/: the ticket, its messages
// and the reply form.
func (s *Shop) ticketPage(c *fiber.Ctx, rq *request, t *app.Ticket) error {
	return s.showTicket(c, rq, fiber.StatusOK, t, s.replyForm(rq, t.ID, nil), notice(c, rq.L))
}

// ticketReply serves POST /account/tickets/{id}/reply (the API's POST messages).
func (s *Shop) ticketReply(c *fiber.Ctx, rq *request, t *app.Ticket) error {
	vals, err := decodeAccountForm(c.Body(), replyFields)
	if err == nil {
		_, err = s.svc.Tickets.Reply(rq.shopper(), t.ID, app.TicketReply{Message: vals["message"]})
	}
	if err != nil {
		if app.ErrorCode(err) == app.ENotFound {
			return err
		}
		f := s.replyForm(rq, t.ID, vals)
		return f.refuse(err, func(status int) error { return s.showTicket(c, rq, status, t, f, "") })
	}
	return redirect(c, "/account/tickets/"+t.ID+"/?m=replied")
}
