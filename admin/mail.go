package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerMailRoutes(r fiber.Router) {
	// a failed (or queued) mail is queued again, due now; a sent one is 409
	r.Post("/outbox/:mid/retry", onOne(pathID("mid", "mail"), inStore(h.svc.RetryMail), viewMail))
	r.Get("/mail-templates", h.listMailTemplates)
	r.Get("/mail-templates/:kind", onOne(mailKind, h.getMailTemplate, asIs[app.MailTemplateView]))
	r.Put("/mail-templates/:kind", withBody(mailKind, fiber.StatusOK, h.putMailTemplate, asIs[app.MailTemplateView]))
	r.Delete("/mail-templates/:kind", onOne(mailKind, h.deleteMailTemplate, asIs[app.MailTemplateView]))
	r.Get("/mail-templates/:kind/preview", onOne(mailKind, h.previewMailTemplate, asIs[mailPreview]))
	r.Post("/mail-templates/:kind/test", onOne(mailKind, h.testMailTemplate, viewMail))
}

// mailKind reads the path's mail template kind.
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
func (h *Handler) getMailTemplate(c *fiber.Ctx, k string) (app.MailTemplateView, error) {
	return storeOf(c).MailTemplateView(k), nil
}

// putMailTemplate serves PUT stores/{id}/mail-templates/{kind}/ {subject,
// html, text}: validated by parsing and rendering sample data.
func (h *Handler) putMailTemplate(c *fiber.Ctx, k string, in app.MailTemplate) (app.MailTemplateView, error) {
	st, err := h.svc.Stores.SetMailTemplate(storeOf(c).ID, k, &in)
	if err != nil {
		return app.MailTemplateView{}, err
	}
	return st.MailTemplateView(k), nil
}

// deleteMailTemplate serves DELETE stores/{id}/mail-templates/{kind}/: back
// to the built-in template.
func (h *Handler) deleteMailTemplate(c *fiber.Ctx, k string) (app.MailTemplateView, error) {
	st, err := h.svc.Stores.SetMailTemplate(storeOf(c).ID, k, nil)
	if err != nil {
		return app.MailTemplateView{}, err
	}
	return st.MailTemplateView(k), nil
}

type mailPreview struct {
	Subject string `json:"subject"`
	HTML    string `json:"html"`
	Text    string `json:"text"`
}

// previewMailTemplate serves GET stores/{id}/mail-templates/{kind}/preview/:
// the kind rendered with sample data and the store's branding.
func (h *Handler) previewMailTemplate(c *fiber.Ctx, k string) (mailPreview, error) {
	m, err := h.svc.PreviewMail(storeOf(c), k, nil)
	return mailPreview{Subject: m.Subject, HTML: m.HTML, Text: m.Text}, err
}

// testMailTemplate serves POST stores/{id}/mail-templates/{kind}/test/: the
// sample rendering is queued to the admin who asks.
func (h *Handler) testMailTemplate(c *fiber.Ctx, k string) (*app.Mail, error) {
	return h.svc.TestMail(storeOf(c), k, adminOf(c).Email)
}
