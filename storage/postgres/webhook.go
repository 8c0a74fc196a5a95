package postgres

import (
	"time"

	"storefront/app"
)

// AddWebhookEvent stores e with a new id.
func (t *Tx) AddWebhookEvent(e *app.WebhookEvent) error {
	id, err := t.NextID(e.StoreID, "event")
	if err != nil {
		return err
	}
	e.ID = id
	return t.putWebhookEvent(e)
}

func (t *Tx) putWebhookEvent(e *app.WebhookEvent) error {
	raw, err := encode(e)
	if err != nil {
		return err
	}
	return t.exec(e.StoreID, "add event", `INSERT INTO webhook_events (store_id, id, doc) VALUES ($1, $2, $3)`, i64(e.StoreID), i64(e.ID), raw)
}

// WebhookEvent returns one event.
func (t *Tx) WebhookEvent(storeID, id uint64) (*app.WebhookEvent, error) {
	var e app.WebhookEvent
	if err := t.get(storeID, &e, "event", `SELECT doc FROM webhook_events WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &e, nil
}

// PutWebhookEndpoint creates (ID 0) or updates an endpoint.
func (t *Tx) PutWebhookEndpoint(w *app.WebhookEndpoint) error {
	if w.ID == 0 {
		id, err := t.NextID(w.StoreID, "webhook_endpoint")
		if err != nil {
			return err
		}
		w.ID = id
	}
	raw, err := encode(w)
	if err != nil {
		return err
	}
	if err := t.changedCached(w.StoreID); err != nil {
		return err
	}
	return t.exec(w.StoreID, "put webhook endpoint", `INSERT INTO webhook_endpoints (store_id, id, doc) VALUES ($1, $2, $3)
		ON CONFLICT (store_id, id) DO UPDATE SET doc = excluded.doc`, i64(w.StoreID), i64(w.ID), raw)
}

// WebhookEndpoint returns one endpoint.
func (t *Tx) WebhookEndpoint(storeID, id uint64) (*app.WebhookEndpoint, error) {
	var w app.WebhookEndpoint
	if err := t.get(storeID, &w, "webhook endpoint", `SELECT doc FROM webhook_endpoints WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &w, nil
}

// WebhookEndpoints lists a store's endpoints by id (in a write
// transaction from the process's cache, storecache.go).
func (t *Tx) WebhookEndpoints(storeID uint64) ([]*app.WebhookEndpoint, error) {
	return cachedDocs[app.WebhookEndpoint](t, cacheKey{store: storeID, kind: cacheEndpoints}, "webhook endpoints",
		`SELECT doc FROM webhook_endpoints WHERE store_id = $1 ORDER BY id`, i64(storeID))
}

// DeleteWebhookEndpoint removes an endpoint and its deliveries.
func (t *Tx) DeleteWebhookEndpoint(storeID, id uint64) error {
	if _, err := t.WebhookEndpoint(storeID, id); err != nil {
		return err
	}
	if err := t.exec(storeID, "delete webhook deliveries", `DELETE FROM webhook_deliveries WHERE store_id = $1 AND endpoint_id = $2`, i64(storeID), i64(id)); err != nil {
		return err
	}
	if err := t.changedCached(storeID); err != nil {
		return err
	}
	return t.exec(storeID, "delete webhook endpoint", `DELETE FROM webhook_endpoints WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id))
}

// PutWebhookDelivery creates (ID 0) or updates a delivery and its due time
// (only pending deliveries are due).
func (t *Tx) PutWebhookDelivery(d *app.WebhookDelivery) error {
	if d.ID == 0 {
		id, err := t.NextID(d.StoreID, "webhook_delivery")
		if err != nil {
			return err
		}
		d.ID = id
	}
	raw, err := encode(d)
	if err != nil {
		return err
	}
	var due any
	if d.Status == app.DeliveryPending {
		due = d.NextAt
	}
	return t.exec(d.StoreID, "put webhook delivery", `INSERT INTO webhook_deliveries (store_id, id, endpoint_id, due, doc) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (store_id, id) DO UPDATE SET endpoint_id = excluded.endpoint_id, due = excluded.due, doc = excluded.doc`,
		i64(d.StoreID), i64(d.ID), i64(d.EndpointID), due, raw)
}

// WebhookDelivery returns one delivery.
func (t *Tx) WebhookDelivery(storeID, id uint64) (*app.WebhookDelivery, error) {
	var d app.WebhookDelivery
	if err := t.get(storeID, &d, "delivery", `SELECT doc FROM webhook_deliveries WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &d, nil
}

// WebhookDeliveries pages an endpoint's deliveries, newest first.
func (t *Tx) WebhookDeliveries(storeID, endpointID uint64, lp app.ListParams) (app.Page[*app.WebhookDelivery], error) {
	return docList[app.WebhookDelivery](t, storeID, "deliveries", `FROM webhook_deliveries WHERE store_id = $1 AND endpoint_id = $2`,
		[]any{i64(storeID), i64(endpointID)}, byID(true), lp)
}

// DueWebhookDeliveries returns up to limit pending deliveries of every store
// due at or before now, soonest first.
func (t *Tx) DueWebhookDeliveries(now time.Time, limit int) ([]*app.WebhookDelivery, error) {
	return dueDocs[app.WebhookDelivery](t, "deliveries", `SELECT doc::text FROM webhook_deliveries WHERE due IS NOT NULL AND due < $1 ORDER BY date_trunc('second', due), store_id, id LIMIT $2`, now, limit)
}
