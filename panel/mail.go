package panel

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

func (p *panel) registerMailRoutes(r fiber.Router, st string) {
	r.Post(st+"/outbox/:mid/retry", p.store(with(pathID("mid", "mail"), p.retryMail)))
	r.Get(st+"/mail-templates", p.store(p.mailTemplatesPage))
	r.Get(st+"/mail-templates/:kind", p.store(p.mailTemplatePage))
	r.Post(st+"/mail-templates/:kind", p.store(p.saveMailTemplate))
	r.Post(st+"/mail-templates/:kind/reset", p.store(p.resetMailTemplate))
	r.Post(st+"/mail-templates/:kind/test", p.store(p.testMailTemplate))
}

// retryMail serves POST /admin/stores/{id}/outbox/{mid}/retry/.
func (p *panel) retryMail(c *fiber.Ctx, v *view, id uint64) error {
	if _, err := p.h.svc.RetryMail(v.Store.ID, id); err != nil {
		return err
	}
	return p.redirect(c, v, storePath(v.Store, "outbox/"), ok1("Mail queued again."))
}

// mailTemplatesPage serves GET /admin/stores/{id}/mail-templates/.
func (p *panel) mailTemplatesPage(c *fiber.Ctx, v *view) error {
	v.Title, v.Tab, v.Data = "Mail templates", "notifications", rows[app.MailTemplateView]{Rows: v.Store.MailTemplateViews()}
	return p.render(c, fiber.StatusOK, "mail_templates", v)
}

type mailTemplateData struct {
	Template app.MailTemplateView
	Preview  app.Mail
	// PreviewHTML is the rendered mail for the sandboxed iframe (srcdoc).
	PreviewHTML string
}

// mailTemplatePage serves GET /admin/stores/{id}/mail-templates/{kind}/:
// the template in force, its preview, the override form.
func (p *panel) mailTemplatePage(c *fiber.Ctx, v *view) error {
	kind := c.Params("kind")
	if _, ok := app.DefaultMailTemplates[kind]; !ok {
		return app.NotFound("mail template")
	}
	return p.showMailTemplate(c, v, fiber.StatusOK, v.Store.MailTemplateView(kind), nil)
}

func (p *panel) showMailTemplate(c *fiber.Ctx, v *view, status int, t app.MailTemplateView, draft *app.MailTemplate) error {
	pv, err := p.h.svc.PreviewMail(v.Store, t.Kind, draft)
	if err != nil {
		pv, _ = p.h.svc.PreviewMail(v.Store, t.Kind, nil)
	}
	v.Title, v.Tab = "Mail template "+t.Kind, "notifications"
	v.Data = mailTemplateData{Template: t, Preview: pv, PreviewHTML: pv.HTML}
	c.Set(fiber.HeaderContentSecurityPolicy, mailPreviewCSP)
	return p.render(c, status, "mail_template", v)
}

// saveMailTemplate serves POST /admin/stores/{id}/mail-templates/{kind}/:
// with preview=1 it only renders the draft.
func (p *panel) saveMailTemplate(c *fiber.Ctx, v *view) error {
	kind := c.Params("kind")
	if _, ok := app.DefaultMailTemplates[kind]; !ok {
		return app.NotFound("mail template")
	}
	fv := readForm(c, nil, "subject", "html", "text", "preview")
	in := app.MailTemplate{Subject: fv["subject"], HTML: fv["html"], Text: fv["text"]}
	draft := app.MailTemplateView{Kind: kind, Subject: in.Subject, HTML: in.HTML, Text: in.Text, Overridden: v.Store.MailTemplateView(kind).Overridden}
	if fv["preview"] != "" {
		if err := app.CheckMailTemplate(kind, in); err != nil {
			return p.showMailTemplate(c, v, p.formError(c, v, err), draft, nil)
		}
		return p.showMailTemplate(c, v, fiber.StatusOK, draft, &in)
	}
	st, err := p.h.svc.Stores.SetMailTemplate(v.Store.ID, kind, &in)
	if err != nil {
		return p.showMailTemplate(c, v, p.formError(c, v, err), draft, nil)
	}
	return p.redirect(c, v, storePath(st, "mail-templates/"+kind+"/"), ok1("Template saved: this store's mail of this kind now uses it."))
}

// resetMailTemplate serves POST /admin/stores/{id}/mail-templates/{kind}/reset/.
func (p *panel) resetMailTemplate(c *fiber.Ctx, v *view) error {
	st, err := p.h.svc.Stores.SetMailTemplate(v.Store.ID, c.Params("kind"), nil)
	if err != nil {
		return err
	}
	return p.redirect(c, v, storePath(st, "mail-templates/"+c.Params("kind")+"/"), ok1("Back to the built-in template."))
}

// testMailTemplate serves POST /admin/stores/{id}/mail-templates/{kind}/test/:
// the sample is queued to the admin's own address.
func (p *panel) testMailTemplate(c *fiber.Ctx, v *view) error {
	m, err := p.h.svc.TestMail(v.Store, c.Params("kind"), v.Admin.Email)
	if err != nil {
		return err
	}
	return p.redirect(c, v, storePath(v.Store, "outbox/"), ok1("Test mail queued to "+m.To+"."))
}
