package shop

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// The contact form: POST-redirect-GET, the API's limits and rate limit.

// contactForm is the contact form as typed, with its messages.
type contactForm struct {
	Name, Email, Phone, Subject, Message string
	Errors                               map[string]string
	Alert                                string // a message for the whole form
	Sent                                 bool
}

// decodeContactForm reads the contact form's fields, bounded.
func decodeContactForm(get func(string) string) contactForm {
	return contactForm{Name: trimText(get("name"), app.MaxContactName), Email: trimText(get("email"), 254),
		Phone: trimText(get("phone"), app.MaxContactPhone), Subject: trimText(get("subject"), app.MaxContactSubject),
		Message: trimText(get("message"), app.MaxContactMessage)}
}

// contactPage serves GET /contact/ (?sent=1 after a message went).
func (s *Shop) contactPage(c *fiber.Ctx, rq *request) error {
	return s.renderContact(c, rq, fiber.StatusOK, contactForm{Sent: c.Query("sent") == "1"})
}

func (s *Shop) renderContact(c *fiber.Ctx, rq *request, status int, f contactForm) error {
	meta := pageMeta{Title: msg("contact.title"), Description: msgf("contact.desc", rq.Look.Name), Canonical: "/contact/",
		NoIndex: f.Sent || f.Errors != nil || f.Alert != ""}
	return s.render(c, rq, status, "contact", meta, f)
}

// contactSubmit serves POST /contact/: ContactService.Submit as the API's
// POST contact/ (same limits and rate limit, by client IP); a refused form
// comes back with its messages and values.
func (s *Shop) contactSubmit(c *fiber.Ctx, rq *request) error {
	f := decodeContactForm(func(k string) string { return c.FormValue(k) })
	if s.cfg.ContactPerMinute > 0 {
		lim := app.Limit{Key: "contact|" + s.proxies.ClientIP(c), Max: s.cfg.ContactPerMinute, Window: time.Minute}
		if err := app.TakeAll(s.svc.Limits, "too many requests; retry later", lim); err != nil {
			if app.ErrorCode(err) != app.ERateLimited {
				return err
			}
			f.Alert = msg("contact.err.many")
			return s.renderContact(c, rq, fiber.StatusTooManyRequests, f)
		}
	}
	_, err := s.svc.Contact.Submit(rq.Store.ID, app.ContactInput{Name: f.Name, Email: f.Email, Phone: f.Phone,
		Subject: f.Subject, Message: f.Message})
	if err == nil {
		return redirect(c, "/contact/?sent=1")
	}
	var ae *app.Error
	if !asAppError(err, &ae) || ae.Code != app.EValidation {
		return err
	}
	f.Errors = contactErrors(ae.Fields)
	return s.renderContact(c, rq, fiber.StatusBadRequest, f)
}

// contactErrors words the service's field errors for a shopper.
func contactErrors(fields map[string]string) map[string]string {
	out := map[string]string{}
	for k, m := range fields {
		switch k {
		case "name":
			m = msgf("contact.err.name", app.MaxContactName)
		case "email":
			m = msg("contact.err.email")
		case "message":
			m = msgf("contact.err.msg", app.MaxContactMessage)
		case "phone":
			m = msgf("contact.err.long", app.MaxContactPhone)
		case "subject":
			m = msgf("contact.err.long", app.MaxContactSubject)
		}
		out[k] = m
	}
	return out
}
