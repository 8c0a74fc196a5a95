package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerMailRoutes(r fiber.Router) {
	r.Post("/outbox/:mid/retry", h.retryMail)
	r.Get("/mail-templates", h.listMailTemplates)
	r.Get("/mail-templates/:kind", h.getMailTemplate)
	r.Put("/mail-templates/:kind", h.putMailTemplate)
	r.Delete("/mail-templates/:kind", h.deleteMailTemplate)
	r.Get("/mail-templates/:kind/preview", h.previewMailTemplate)
	r.Post("/mail-templates/:kind/test", h.testMailTemplate)
}

// retryMail serves POST stores/{id}/outbox/{mid}/retry/: a failed (or
// queued) mail is queued again, due now; a sent one is 409.
func (h *Handler) retryMail(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "mid", "mail")
	if err != nil {
		return err
	}
	m, err := h.svc.RetryMail(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, m.View())
}

func mailKind(c *fiber.Ctx) (string, error) {
	k := c.Params("kind")
	if _, ok := app.DefaultMailTemplates[k]; !ok {
		return "", app.NotFound("mail template")
	}
	return k, nil
}

// listMailTemplates serves GET stores/{id}/mail-templates/.
func (h *Handler) listMailTemplates(c *fiber.Ctx) error {
	return httpkit.OK(c, storeOf(c).MailTemplateViews())
}

// getMailTemplate serves GET stores/{id}/mail-templates/{kind}/.
func (h *Handler) getMailTemplate(c *fiber.Ctx) error {
	k, err := mailKind(c)
	if err != nil {
		return err
	}
	return httpkit.OK(c, storeOf(c).MailTemplateView(k))
}

// putMailTemplate serves PUT stores/{id}/mail-templates/{kind}/ {subject,
// html, text}: validated by parsing and rendering sample data.
func (h *Handler) putMailTemplate(c *fiber.Ctx) error {
	k, err := mailKind(c)
	if err != nil {
		return err
	}
	var in app.MailTemplate
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	st, err := h.svc.Stores.SetMailTemplate(storeOf(c).ID, k, &in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, st.MailTemplateView(k))
}

// deleteMailTemplate serves DELETE stores/{id}/mail-templates/{kind}/: back
// to the built-in template.
func (h *Handler) deleteMailTemplate(c *fiber.Ctx) error {
	k, err := mailKind(c)
	if err != nil {
		return err
	}
	st, err := h.svc.Stores.SetMailTemplate(storeOf(c).ID, k, nil)
	if err != nil {
		return err
	}
	return httpkit.OK(c, st.MailTemplateView(k))
}

type mailPreview struct {
	Subject string `json:"subject"`
	HTML    string `json:"html"`
	Text    string `json:"text"`
}

// previewMailTemplate serves GET stores/{id}/mail-templates/{kind}/preview/:
// the kind rendered with sample data and the store's branding.
func (h *Handler) previewMailTemplate(c *fiber.Ctx) error {
	k, err := mailKind(c)
	if err != nil {
		return err
	}
	m, err := h.svc.PreviewMail(storeOf(c), k, nil)
	if err != nil {
		return err
	}
	return httpkit.OK(c, mailPreview{Subject: m.Subject, HTML: m.HTML, Text: m.Text})
}

// testMailTemplate serves POST stores/{id}/mail-templates/{kind}/test/: the
// sample rendering is queued to the admin who asks.
func (h *Handler) testMailTemplate(c *fiber.Ctx) error {
	k, err := mailKind(c)
	if err != nil {
		return err
	}
	m, err := h.svc.TestMail(storeOf(c), k, adminOf(c).Email)
	if err != nil {
		return err
	}
	return httpkit.OK(c, m.View())
}
