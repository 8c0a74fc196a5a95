package panel

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

func (p *panel) registerWebhookRoutes(r fiber.Router, st string) {
	endpoint := pathRecord("wid", "webhook endpoint", p.h.svc.Webhooks.Get) // the :wid endpoint of the store
	r.Get(st+"/webhooks", p.store(p.webhooksPage))
	r.Post(st+"/webhooks", p.store(p.createWebhook))
	r.Get(st+"/webhooks/:wid", p.store(with(endpoint, p.webhookPage)))
	r.Post(st+"/webhooks/:wid/enabled", p.store(with(endpoint, p.setWebhookEnabled)))
	r.Post(st+"/webhooks/:wid", p.store(with(endpoint, p.updateWebhook)))
	p.confirmRoutes(r, "/webhooks/:wid/delete", askOn(endpoint, p.askDeleteWebhook), with(endpoint, p.deleteWebhook))
	r.Post(st+"/webhooks/:wid/test", p.store(with(endpoint, p.testWebhook)))
	r.Post(st+"/webhooks/:wid/deliveries/:did/redeliver", p.store(with(endpoint, p.redeliverWebhook)))
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

// readWebhookForm reads an endpoint's URL and its ticked events.
func readWebhookForm(c *fiber.Ctx) (url string, events []string, checked map[string]bool) {
	names := []string{"url"}
	for _, t := range app.EventTypes {
		names = append(names, "event_"+t)
	}
	fv := readForm(c, nil, names...)
	events, checked = []string{}, map[string]bool{}
	for _, t := range app.EventTypes {
		if fv.On("event_" + t) {
			events = append(events, t)
			checked[t] = true
		}
	}
	return fv["url"], events, checked
}

// createWebhook serves POST /admin/stores/{id}/webhooks/: the secret is shown once.
func (p *panel) createWebhook(c *fiber.Ctx, v *view) error {
	url, events, checked := readWebhookForm(c)
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
	// the edit form: every event type, the endpoint's ticked
	Types   []string
	Checked map[string]bool
	URL     string
}

// webhookPage serves GET /admin/stores/{id}/webhooks/{wid}/: the endpoint
// and its delivery log, newest first.
func (p *panel) webhookPage(c *fiber.Ctx, v *view, w *app.WebhookEndpoint) error {
	checked := map[string]bool{}
	for _, t := range w.Events {
		checked[t] = true
	}
	return p.showWebhook(c, v, fiber.StatusOK, w, w.URL, checked)
}

// showWebhook renders an endpoint's page with the edit form as given.
func (p *panel) showWebhook(c *fiber.Ctx, v *view, status int, w *app.WebhookEndpoint, url string, checked map[string]bool) error {
	base := storePath(v.Store, "webhooks/"+strconv.FormatUint(w.ID, 10)+"/")
	deliveries, pg, err := listPage(p, c, v, "deliveries:"+c.Params("wid"), base,
		func(storeID uint64, lp app.ListParams) (app.Page[*app.WebhookDelivery], error) {
			return p.h.svc.Webhooks.Deliveries(storeID, w.ID, lp)
		})
	if err != nil {
		return err
	}
	v.Title, v.Tab = "Webhook "+w.URL, "webhooks"
	v.Data = webhookData{Endpoint: w, Deliveries: deliveries, Pager: pg, Types: app.EventTypes, Checked: checked, URL: url}
	return p.render(c, status, "webhook", v)
}

// updateWebhook serves POST /admin/stores/{id}/webhooks/{wid}/ {url, event_<type>}.
func (p *panel) updateWebhook(c *fiber.Ctx, v *view, w *app.WebhookEndpoint) error {
	url, events, checked := readWebhookForm(c)
	if _, err := p.h.svc.Webhooks.Update(v.Store.ID, w.ID, app.WebhookInput{URL: &url, Events: &events}); err != nil {
		return p.showWebhook(c, v, p.formError(c, v, err), w, url, checked)
	}
	return p.redirect(c, v, storePath(v.Store, "webhooks/"+strconv.FormatUint(w.ID, 10)+"/"), ok1("Endpoint saved."))
}

func (p *panel) askDeleteWebhook(c *fiber.Ctx, v *view, w *app.WebhookEndpoint) (*confirmData, error) {
	base := storePath(v.Store, "webhooks/"+strconv.FormatUint(w.ID, 10)+"/")
	return &confirmData{Heading: "Delete the webhook endpoint " + w.URL + "?",
		Message: "No more events are sent to it and its delivery log is deleted with it. This cannot be undone.",
		Action:  base + "delete/", Button: "Delete the endpoint", Back: base}, nil
}

// setWebhookEnabled serves POST /admin/stores/{id}/webhooks/{wid}/enabled/ {enabled}.
func (p *panel) setWebhookEnabled(c *fiber.Ctx, v *view, w *app.WebhookEndpoint) error {
	on := formOn(c, "enabled")
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
func (p *panel) deleteWebhook(c *fiber.Ctx, v *view, w *app.WebhookEndpoint) error {
	if err := p.h.svc.Webhooks.Delete(v.Store.ID, w.ID); err != nil {
		return err
	}
	return p.redirect(c, v, storePath(v.Store, "webhooks/"), ok1("Endpoint deleted."))
}

// redeliverWebhook serves POST /admin/stores/{id}/webhooks/{wid}/deliveries/{did}/redeliver/.
func (p *panel) redeliverWebhook(c *fiber.Ctx, v *view, w *app.WebhookEndpoint) error {
	did, err := strconv.ParseUint(c.Params("did"), 10, 64)
	if err != nil {
		return app.NotFound("delivery")
	}
	if _, err := p.h.svc.Webhooks.Redeliver(v.Store.ID, w.ID, did); err != nil {
		return err
	}
	return p.redirect(c, v, storePath(v.Store, "webhooks/"+strconv.FormatUint(w.ID, 10)+"/"), ok1("Delivery queued again."))
}

// testWebhook serves POST /admin/stores/{id}/webhooks/{wid}/test/: sends a
// webhook.test event to the endpoint now and shows its answer.
func (p *panel) testWebhook(c *fiber.Ctx, v *view, w *app.WebhookEndpoint) error {
	res, err := p.h.svc.Webhooks.SendTest(c.Context(), v.Store.ID, w.ID)
	if err != nil {
		return err
	}
	back := storePath(v.Store, "webhooks/"+strconv.FormatUint(w.ID, 10)+"/")
	if res.Error != "" {
		return p.redirect(c, v, back, &flash{Kind: "error", Message: "Test webhook failed: " + res.Error})
	}
	msg := "Test webhook sent: the endpoint answered HTTP " + strconv.Itoa(res.StatusCode) + " in " +
		strconv.FormatInt(res.LatencyMS, 10) + " ms."
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return p.redirect(c, v, back, &flash{Kind: "error", Message: msg + " Only a 2xx acknowledges a delivery."})
	}
	return p.redirect(c, v, back, ok1(msg))
}
