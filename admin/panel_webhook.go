package admin

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

func (p *panel) registerWebhookRoutes(r fiber.Router, st string) {
	r.Get(st+"/webhooks", p.store(p.webhooksPage))
	r.Post(st+"/webhooks", p.store(p.createWebhook))
	r.Get(st+"/webhooks/:wid", p.store(p.webhookPage))
	r.Post(st+"/webhooks/:wid/enabled", p.store(p.setWebhookEnabled))
	r.Post(st+"/webhooks/:wid/delete", p.store(p.deleteWebhook))
	r.Post(st+"/webhooks/:wid/deliveries/:did/redeliver", p.store(p.redeliverWebhook))
}

type webhooksData struct {
	Endpoints []*app.WebhookEndpoint
	Types     []string
	URL       string
	Checked   map[string]bool
}

// webhooksPage serves GET /admin/stores/{id}/webhooks/.
func (p *panel) webhooksPage(c *fiber.Ctx, v *view) error {
	return p.showWebhooks(c, v, fiber.StatusOK, "", map[string]bool{})
}

func (p *panel) showWebhooks(c *fiber.Ctx, v *view, status int, url string, checked map[string]bool) error {
	list, err := p.h.svc.Webhooks.List(v.Store.ID)
	if err != nil {
		return err
	}
	v.Title, v.Tab = "Webhooks", "webhooks"
	v.Data = webhooksData{Endpoints: list, Types: app.EventTypes, URL: url, Checked: checked}
	return p.render(c, status, "webhooks", v)
}

// createWebhook serves POST /admin/stores/{id}/webhooks/: the secret is shown once.
func (p *panel) createWebhook(c *fiber.Ctx, v *view) error {
	url := formValue(c, "url")
	events := []string{}
	checked := map[string]bool{}
	for _, t := range app.EventTypes {
		if c.FormValue("event_"+t) == "on" {
			events = append(events, t)
			checked[t] = true
		}
	}
	w, err := p.h.svc.Webhooks.Create(v.Store.ID, app.WebhookInput{URL: &url, Events: &events})
	if err != nil {
		return p.showWebhooks(c, v, p.formError(c, v, err), url, checked)
	}
	return p.redirect(c, v, storePath(v.Store, "webhooks/"+strconv.FormatUint(w.ID, 10)+"/"), &flash{Kind: "ok",
		Message: "Endpoint created. Copy its signing secret now: it is not shown again.", Secret: w.Secret})
}

type webhookData struct {
	Endpoint   *app.WebhookEndpoint
	Deliveries []*app.WebhookDelivery
	Pager
}

func (p *panel) webhookOf(c *fiber.Ctx, v *view) (*app.WebhookEndpoint, error) {
	id, err := strconv.ParseUint(c.Params("wid"), 10, 64)
	if err != nil {
		return nil, app.NotFound("webhook endpoint")
	}
	return p.h.svc.Webhooks.Get(v.Store.ID, id)
}

// webhookPage serves GET /admin/stores/{id}/webhooks/{wid}/: the endpoint
// and its delivery log, newest first.
func (p *panel) webhookPage(c *fiber.Ctx, v *view) error {
	w, err := p.webhookOf(c, v)
	if err != nil {
		return err
	}
	scope := "deliveries:" + c.Params("wid")
	lp, err := p.listParams(c, scope, v.Store.ID)
	if err != nil {
		return err
	}
	page, err := p.h.svc.Webhooks.Deliveries(v.Store.ID, w.ID, lp)
	if err != nil {
		return err
	}
	base := storePath(v.Store, "webhooks/"+strconv.FormatUint(w.ID, 10)+"/")
	v.Title, v.Tab = "Webhook "+w.URL, "webhooks"
	v.Data = webhookData{Endpoint: w, Deliveries: page.Items, Pager: p.pager(base, scope, v.Store.ID, lp, page.Next)}
	return p.render(c, fiber.StatusOK, "webhook", v)
}

// setWebhookEnabled serves POST /admin/stores/{id}/webhooks/{wid}/enabled/ {enabled}.
func (p *panel) setWebhookEnabled(c *fiber.Ctx, v *view) error {
	w, err := p.webhookOf(c, v)
	if err != nil {
		return err
	}
	on := c.FormValue("enabled") == "true"
	if _, err := p.h.svc.Webhooks.Update(v.Store.ID, w.ID, app.WebhookInput{Enabled: &on}); err != nil {
		return err
	}
	msg := "Endpoint disabled: no new deliveries."
	if on {
		msg = "Endpoint enabled."
	}
	return p.redirect(c, v, storePath(v.Store, "webhooks/"+strconv.FormatUint(w.ID, 10)+"/"), ok1(msg))
}

// deleteWebhook serves POST /admin/stores/{id}/webhooks/{wid}/delete/.
func (p *panel) deleteWebhook(c *fiber.Ctx, v *view) error {
	w, err := p.webhookOf(c, v)
	if err != nil {
		return err
	}
	if err := p.h.svc.Webhooks.Delete(v.Store.ID, w.ID); err != nil {
		return err
	}
	return p.redirect(c, v, storePath(v.Store, "webhooks/"), ok1("Endpoint deleted."))
}

// redeliverWebhook serves POST /admin/stores/{id}/webhooks/{wid}/deliveries/{did}/redeliver/.
func (p *panel) redeliverWebhook(c *fiber.Ctx, v *view) error {
	w, err := p.webhookOf(c, v)
	if err != nil {
		return err
	}
	did, err := strconv.ParseUint(c.Params("did"), 10, 64)
	if err != nil {
		return app.NotFound("delivery")
	}
	if _, err := p.h.svc.Webhooks.Redeliver(v.Store.ID, w.ID, did); err != nil {
		return err
	}
	return p.redirect(c, v, storePath(v.Store, "webhooks/"+strconv.FormatUint(w.ID, 10)+"/"), ok1("Delivery queued again."))
}
