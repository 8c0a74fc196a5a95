package admin

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerWebhookRoutes(r fiber.Router) {
	ws := h.svc.Webhooks
	// POST {url, events, description?, enabled?}: data.secret is shown only
	// in its answer; PATCH {url?, events?, description?, enabled?}.
	resource[*app.WebhookEndpoint, app.WebhookInput]{path: "/webhooks", param: "wid", noun: "webhook endpoint",
		list: listAll(ws.List, viewWebhook),
		get:  ws.Get, save: h.saveWebhook, del: ws.Delete, view: viewWebhook,
		created: func(w *app.WebhookEndpoint) any { return webhookViewOf(w, true) }}.routes(r)
	r.Get("/webhooks/:wid/deliveries", h.listDeliveries)
	r.Post("/webhooks/:wid/deliveries/:did/redeliver", onOne(webhookID, h.redeliver, viewDelivery))
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

// saveWebhook creates an endpoint (id 0) or changes one.
func (h *Handler) saveWebhook(storeID, id uint64, in app.WebhookInput) (*app.WebhookEndpoint, error) {
	if id == 0 {
		return h.svc.Webhooks.Create(storeID, in)
	}
	return h.svc.Webhooks.Update(storeID, id, in)
}

// listDeliveries serves GET stores/{id}/webhooks/{wid}/deliveries/ (newest first).
func (h *Handler) listDeliveries(c *fiber.Ctx) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	return sendList(h, c, "deliveries:"+c.Params("wid"), func(lp app.ListParams) (app.Page[*app.WebhookDelivery], error) {
		return h.svc.Webhooks.Deliveries(storeOf(c).ID, id, lp)
	}, viewDelivery)
}

// redeliver serves POST stores/{id}/webhooks/{wid}/deliveries/{did}/redeliver/.
func (h *Handler) redeliver(c *fiber.Ctx, id uint64) (*app.WebhookDelivery, error) {
	did, err := httpkit.PathID(c, "did", "delivery")
	if err != nil {
		return nil, err
	}
	return h.svc.Webhooks.Redeliver(storeOf(c).ID, id, did)
}
