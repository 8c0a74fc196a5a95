package shop

import (
	"errors"
	"time"

	"storefront/app/i18n"
	"storefront/httpkit/pagekit"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// The contact form: POST-redirect-GET, the API's limits and rate limit.

// contactForm is the contact form as typed, with its messages.
type contactForm struct {
	app.ContactInput
	Errors map[string]string
	Alert  string // a message for the whole form
	Sent   bool
}

// maxTextForm bounds the body of the contact and review forms (5,000
// characters of any script, percent-encoded).
const maxTextForm = 64 << 10

// contactFields are the contact form's fields: a longer value is clipped
// so that the service's message about it shows.
var contactFields = []pagekit.Field{{Name: "name", Max: app.MaxContactName, Clip: true}, {Name: "email", Max: 254, Clip: true},
	{Name: "phone", Max: app.MaxContactPhone, Clip: true}, {Name: "subject", Max: app.MaxContactSubject, Clip: true},
	{Name: "message", Max: app.MaxContactMessage, Clip: true}}

// decodeContactForm reads the contact form's fields, bounded.
func decodeContactForm(body []byte) (contactForm, error) {
	f, err := pagekit.DecodeForm(body, maxTextForm, contactFields)
	return contactForm{ContactInput: app.ContactInput{Name: f["name"], Email: f["email"], Phone: f["phone"], Subject: f["subject"],
		Message: f["message"]}}, err
}

// contactPage serves GET /contact/ (?sent=1 after a message went).
func (s *Shop) contactPage(c *fiber.Ctx, rq *request) error {
	return s.renderContact(c, rq, fiber.StatusOK, contactForm{Sent: c.Query("sent") == "1"})
}

func (s *Shop) renderContact(c *fiber.Ctx, rq *request, status int, f contactForm) error {
	meta := pageMeta{Title: rq.L.T("contact.title"), Description: rq.L.TF("contact.desc", rq.Look.Name), Canonical: "/contact/",
		NoIndex: f.Sent || f.Errors != nil || f.Alert != ""}
	return s.render(c, rq, status, "contact", meta, f)
}

// contactSubmit serves POST /contact/: ContactService.Submit as the API's
// POST contact/ (same limits and rate limit, by client IP); a refused form
// comes back with its messages and values.
func (s *Shop) contactSubmit(c *fiber.Ctx, rq *request) error {
	f, err := decodeContactForm(c.Body())
	if err != nil {
		return err
	}
	lim := app.Limit{Key: "contact|" + s.proxies.ClientIP(c), Max: s.cfg.ContactPerMinute, Window: time.Minute}
	if err := app.TakeAll(s.svc.Limits, "too many requests; retry later", lim); err != nil { // Max 0: none
		if app.ErrorCode(err) != app.ERateLimited {
			return err
		}
		f.Alert = rq.L.T("contact.err.many")
		return s.renderContact(c, rq, fiber.StatusTooManyRequests, f)
	}
	if _, err = s.svc.Contact.Submit(rq.Store.ID, f.ContactInput); err == nil {
		return redirect(c, "/contact/?sent=1")
	}
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Code != app.EValidation {
		return err
	}
	f.Errors = contactErrors(rq.L, ae.Fields)
	return s.renderContact(c, rq, fiber.StatusBadRequest, f)
}

// contactErrors words the service's field errors for a shopper.
func contactErrors(l *i18n.Catalog, fields map[string]string) map[string]string {
	out := map[string]string{}
	for k, m := range fields {
		switch k {
		case "name":
			m = l.TF("contact.err.name", app.MaxContactName)
		case "email":
			m = l.T("contact.err.email")
		case "message":
			m = l.TF("contact.err.msg", app.MaxContactMessage)
		case "phone":
			m = l.TF("contact.err.long", app.MaxContactPhone)
		case "subject":
			m = l.TF("contact.err.long", app.MaxContactSubject)
		}
		out[k] = m
	}
	return out
}
