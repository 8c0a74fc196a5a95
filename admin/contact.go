package admin

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

func (h *Handler) registerContactRoutes(r fiber.Router) {
	r.Get("/contact-messages", h.listContactMessages)
	r.Patch("/contact-messages/:mid", withBody(pathID("mid", "contact message"), fiber.StatusOK, h.patchContactMessage, viewContact))
	r.Post("/contact-messages/:mid/reply", withBody(pathID("mid", "contact message"), fiber.StatusCreated, h.replyContactMessage, viewContact))
}

// contactView is the staff's view of a contact message.
type contactView struct {
	app.ContactView
	Replies   []contactReplyView `json:"replies"`
	UpdatedAt time.Time          `json:"updated_at"`
}

// contactReplyView is one answer sent by email.
type contactReplyView struct {
	By      string    `json:"by"`
	Message string    `json:"message"`
	MailID  uint64    `json:"mail_id"`
	SentAt  time.Time `json:"sent_at"`
}

func viewContact(m *app.ContactMessage) any {
	v := contactView{ContactView: m.View(), UpdatedAt: app.UTC(m.UpdatedAt), Replies: []contactReplyView{}}
	for _, r := range m.Replies {
		v.Replies = append(v.Replies, contactReplyView{By: r.By, Message: r.Message, MailID: r.MailID, SentAt: app.UTC(r.SentAt)})
	}
	return v
}

// messageInput is the body of a reply; readInput of a PATCH.
type (
	messageInput struct {
		Message string `json:"message"`
	}
	readInput struct {
		IsRead *bool `json:"is_read"`
	}
)

// replyContactMessage serves POST stores/{id}/contact-messages/{mid}/reply/
// {message}: the answer is mailed to the sender through the outbox (subject
// "Re: ..." and the original quoted) and the message is marked read, in one
// transaction; 201 with the message and its replies.
func (h *Handler) replyContactMessage(c *fiber.Ctx, id uint64, in messageInput) (*app.ContactMessage, error) {
	return h.svc.Contact.Reply(storeOf(c).ID, id, adminOf(c).Email, in.Message)
}

// boolQuery reads an optional true/false query parameter.
func boolQuery(c *fiber.Ctx, name string) (*bool, error) {
	switch c.Query(name) {
	case "":
		return nil, nil
	case "true", "1":
		t := true
		return &t, nil
	case "false", "0":
		f := false
		return &f, nil
	}
	return nil, app.Invalid(name, "must be true or false")
}

// listContactMessages serves GET stores/{id}/contact-messages/, newest first.
// ?is_read=true|false keeps one kind; ?unread_first=true lists every unread
// message before the read ones.
func (h *Handler) listContactMessages(c *fiber.Ctx) error {
	read, err := boolQuery(c, "is_read")
	if err != nil {
		return err
	}
	unreadFirst, err := boolQuery(c, "unread_first")
	if err != nil {
		return err
	}
	uf := unreadFirst != nil && *unreadFirst
	scope := "contact-messages"
	switch {
	case read != nil && *read:
		scope += ":read"
	case read != nil:
		scope += ":unread"
	case uf:
		scope += ":unread_first"
	}
	return sendList(h, c, scope, func(lp app.ListParams) (app.Page[*app.ContactMessage], error) {
		return h.svc.Contact.List(storeOf(c).ID, read, uf, lp)
	}, viewContact)
}

// patchContactMessage serves PATCH stores/{id}/contact-messages/{mid}/ {is_read}.
func (h *Handler) patchContactMessage(c *fiber.Ctx, id uint64, in readInput) (*app.ContactMessage, error) {
	if in.IsRead == nil {
		return nil, app.Invalid("is_read", "is required")
	}
	return h.svc.Contact.SetRead(storeOf(c).ID, id, *in.IsRead)
}
