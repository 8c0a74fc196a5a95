package admin

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerWebhookRoutes(r fiber.Router) {
	r.Get("/webhooks", h.listWebhooks)
	r.Post("/webhooks", h.createWebhook)
	r.Get("/webhooks/:wid", h.getWebhook)
	r.Patch("/webhooks/:wid", h.patchWebhook)
	r.Delete("/webhooks/:wid", h.deleteWebhook)
	r.Get("/webhooks/:wid/deliveries", h.listDeliveries)
	r.Post("/webhooks/:wid/deliveries/:did/redeliver", h.redeliver)
}

// webhookView is an endpoint on the wire; Secret only in the creation answer.
type webhookView struct {
	ID             uint64     `json:"id"`
	URL            string     `json:"url"`
	Description    string     `json:"description"`
	Events         []string   `json:"events"`
	Enabled        bool       `json:"enabled"`
	DisabledReason string     `json:"disabled_reason"`
	FailingSince   *time.Time `json:"failing_since"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
	Secret         string     `json:"secret,omitempty"`
}

func viewWebhook(w *app.WebhookEndpoint) any { return webhookViewOf(w, false) }

func webhookViewOf(w *app.WebhookEndpoint, withSecret bool) webhookView {
	v := webhookView{ID: w.ID, URL: w.URL, Description: w.Description, Events: w.Events, Enabled: w.Enabled,
		DisabledReason: w.DisabledReason, CreatedAt: app.UTC(w.CreatedAt), UpdatedAt: app.UTC(w.UpdatedAt)}
	if !w.FailingSince.IsZero() {
		t := app.UTC(w.FailingSince)
		v.FailingSince = &t
	}
	if withSecret {
		v.Secret = w.Secret
	}
	return v
}

// deliveryView is a delivery with its attempt log.
type deliveryView struct {
	ID            uint64               `json:"id"`
	EndpointID    uint64               `json:"endpoint_id"`
	EventID       uint64               `json:"event_id"`
	MsgID         string               `json:"msg_id"`
	Type          string               `json:"type"`
	Status        string               `json:"status"`
	Attempts      int                  `json:"attempts"`
	NextAttemptAt *time.Time           `json:"next_attempt_at"`
	Log           []app.WebhookAttempt `json:"log"`
	CreatedAt     time.Time            `json:"created_at"`
	UpdatedAt     time.Time            `json:"updated_at"`
}

func viewDelivery(d *app.WebhookDelivery) any {
	v := deliveryView{ID: d.ID, EndpointID: d.EndpointID, EventID: d.EventID, MsgID: d.MsgID, Type: d.Type, Status: d.Status,
		Attempts: d.Attempts, Log: d.Log, CreatedAt: app.UTC(d.CreatedAt), UpdatedAt: app.UTC(d.UpdatedAt)}
	if d.Status == app.DeliveryPending {
		t := app.UTC(d.NextAt)
		v.NextAttemptAt = &t
	}
	for i := range v.Log {
		v.Log[i].At = app.UTC(v.Log[i].At)
	}
	return v
}

func webhookID(c *fiber.Ctx) (uint64, error) { return httpkit.PathID(c, "wid", "webhook endpoint") }

// listWebhooks serves GET stores/{id}/webhooks/.
func (h *Handler) listWebhooks(c *fiber.Ctx) error {
	list, err := h.svc.Webhooks.List(storeOf(c).ID)
	if err != nil {
		return err
	}
	return httpkit.SendAll(c, list, viewWebhook)
}

// createWebhook serves POST stores/{id}/webhooks/ {url, events, description?,
// enabled?}; data.secret is shown only here.
func (h *Handler) createWebhook(c *fiber.Ctx) error {
	var in app.WebhookInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	w, err := h.svc.Webhooks.Create(storeOf(c).ID, in)
	if err != nil {
		return err
	}
	return httpkit.Created(c, webhookViewOf(w, true))
}

// getWebhook serves GET stores/{id}/webhooks/{wid}/.
func (h *Handler) getWebhook(c *fiber.Ctx) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	w, err := h.svc.Webhooks.Get(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewWebhook(w))
}

// patchWebhook serves PATCH stores/{id}/webhooks/{wid}/ {url?, events?,
// description?, enabled?}.
func (h *Handler) patchWebhook(c *fiber.Ctx) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	var in app.WebhookInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	w, err := h.svc.Webhooks.Update(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewWebhook(w))
}

// deleteWebhook serves DELETE stores/{id}/webhooks/{wid}/.
func (h *Handler) deleteWebhook(c *fiber.Ctx) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	if err := h.svc.Webhooks.Delete(storeOf(c).ID, id); err != nil {
		return err
	}
	return httpkit.OK(c, nil)
}

// listDeliveries serves GET stores/{id}/webhooks/{wid}/deliveries/ (newest first).
func (h *Handler) listDeliveries(c *fiber.Ctx) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	scope := "deliveries:" + c.Params("wid")
	lp, err := h.listParams(c, scope)
	if err != nil {
		return err
	}
	page, err := h.svc.Webhooks.Deliveries(storeOf(c).ID, id, lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, scope, page, viewDelivery)
}

// redeliver serves POST stores/{id}/webhooks/{wid}/deliveries/{did}/redeliver/.
func (h *Handler) redeliver(c *fiber.Ctx) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	did, err := httpkit.PathID(c, "did", "delivery")
	if err != nil {
		return err
	}
	d, err := h.svc.Webhooks.Redeliver(storeOf(c).ID, id, did)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewDelivery(d))
}
