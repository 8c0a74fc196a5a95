package storage

import (
	"fmt"
	"time"

	"storefront/app"
)

var _ = registerVerifier(verifyDeliveries, bIdxDeliveriesEP, bWebhookDue)

func deliveryEPKey(d *app.WebhookDelivery) []byte { return keyOf(d.StoreID).id(d.EndpointID).id(d.ID) }
func deliveryDueKey(d *app.WebhookDelivery) []byte {
	return tkey(make([]byte, 0, 24)).at(d.NextAt).id(d.StoreID).id(d.ID)
}

// AddWebhookEvent stores e with a new id.
func (t *Tx) AddWebhookEvent(e *app.WebhookEvent) error {
	id, err := t.NextID(e.StoreID, "event")
	if err != nil {
		return err
	}
	e.ID = id
	return putJSON(t.b(bEvents), keyOf(e.StoreID).id(id), e)
}

// WebhookEvent returns one event.
func (t *Tx) WebhookEvent(storeID, id uint64) (*app.WebhookEvent, error) {
	var e app.WebhookEvent
	if err := getJSON(t.b(bEvents), keyOf(storeID).id(id), &e, "event"); err != nil {
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
	return putJSON(t.b(bWebhookEndpoints), keyOf(w.StoreID).id(w.ID), w)
}

// WebhookEndpoint returns one endpoint.
func (t *Tx) WebhookEndpoint(storeID, id uint64) (*app.WebhookEndpoint, error) {
	var w app.WebhookEndpoint
	if err := getJSON(t.b(bWebhookEndpoints), keyOf(storeID).id(id), &w, "webhook endpoint"); err != nil {
		return nil, err
	}
	return &w, nil
}

// WebhookEndpoints lists a store's endpoints by id.
func (t *Tx) WebhookEndpoints(storeID uint64) ([]*app.WebhookEndpoint, error) {
	out := []*app.WebhookEndpoint{}
	err := walk(t.b(bWebhookEndpoints), tenant(storeID), nil, false, func(_, v []byte) (bool, error) {
		var w app.WebhookEndpoint
		if err := getJSONBytes(v, &w, "webhook endpoint"); err != nil {
			return false, err
		}
		out = append(out, &w)
		return true, nil
	})
	return out, err
}

// DeleteWebhookEndpoint removes an endpoint and its deliveries.
func (t *Tx) DeleteWebhookEndpoint(storeID, id uint64) error {
	if _, err := t.WebhookEndpoint(storeID, id); err != nil {
		return err
	}
	var ids []uint64
	if err := walk(t.b(bIdxDeliveriesEP), keyOf(storeID).id(id), nil, false, func(k, _ []byte) (bool, error) {
		ids = append(ids, idFromKeyEnd(k))
		return true, nil
	}); err != nil {
		return err
	}
	for _, did := range ids {
		d, err := t.WebhookDelivery(storeID, did)
		if err != nil {
			return err
		}
		if d.Status == app.DeliveryPending {
			if err := t.b(bWebhookDue).Delete(deliveryDueKey(d)); err != nil {
				return err
			}
		}
		if err := t.b(bIdxDeliveriesEP).Delete(deliveryEPKey(d)); err != nil {
			return err
		}
		if err := t.b(bWebhookDeliveries).Delete(keyOf(storeID).id(did)); err != nil {
			return err
		}
	}
	return t.b(bWebhookEndpoints).Delete(keyOf(storeID).id(id))
}

// PutWebhookDelivery creates (ID 0) or updates a delivery and its indexes.
func (t *Tx) PutWebhookDelivery(d *app.WebhookDelivery) error {
	if d.ID == 0 {
		id, err := t.NextID(d.StoreID, "webhook_delivery")
		if err != nil {
			return err
		}
		d.ID = id
	} else if old, err := t.WebhookDelivery(d.StoreID, d.ID); err == nil {
		if old.Status == app.DeliveryPending {
			if err := t.b(bWebhookDue).Delete(deliveryDueKey(old)); err != nil {
				return err
			}
		}
	} else if !app.IsNotFound(err) {
		return err
	}
	if d.Status == app.DeliveryPending {
		if err := t.b(bWebhookDue).Put(deliveryDueKey(d), nil); err != nil {
			return err
		}
	}
	if err := t.b(bIdxDeliveriesEP).Put(deliveryEPKey(d), nil); err != nil {
		return err
	}
	return putJSON(t.b(bWebhookDeliveries), keyOf(d.StoreID).id(d.ID), d)
}

// WebhookDelivery returns one delivery.
func (t *Tx) WebhookDelivery(storeID, id uint64) (*app.WebhookDelivery, error) {
	var d app.WebhookDelivery
	if err := getJSON(t.b(bWebhookDeliveries), keyOf(storeID).id(id), &d, "delivery"); err != nil {
		return nil, err
	}
	return &d, nil
}

// WebhookDeliveries pages an endpoint's deliveries, newest first.
func (t *Tx) WebhookDeliveries(storeID, endpointID uint64, lp app.ListParams) (app.Page[*app.WebhookDelivery], error) {
	return page(t.b(bIdxDeliveriesEP), keyOf(storeID).id(endpointID), lp, true, func(k, _ []byte) (*app.WebhookDelivery, bool, error) {
		d, err := t.WebhookDelivery(storeID, idFromKeyEnd(k))
		if err != nil {
			return nil, false, err
		}
		return d, true, nil
	})
}

// DueWebhookDeliveries returns pending deliveries due at or before now.
func (t *Tx) DueWebhookDeliveries(now time.Time, limit int) ([]*app.WebhookDelivery, error) {
	end := string(timeKey(now))
	var out []*app.WebhookDelivery
	c := t.b(bWebhookDue).Cursor()
	for k, _ := c.First(); k != nil && len(out) < limit; k, _ = c.Next() {
		if len(k) != 24 || string(k[:8]) > end {
			break
		}
		d, err := t.WebhookDelivery(u64From(k[8:16]), u64From(k[16:24]))
		if err != nil {
			return nil, fmt.Errorf("storage: due delivery: %w", err)
		}
		out = append(out, d)
	}
	return out, nil
}

func verifyDeliveries(t *Tx, want expectKeys) error {
	return t.b(bWebhookDeliveries).ForEach(func(_, v []byte) error {
		var d app.WebhookDelivery
		if err := getJSONBytes(v, &d, "delivery"); err != nil {
			return err
		}
		want.put(bIdxDeliveriesEP, deliveryEPKey(&d), nil)
		if d.Status == app.DeliveryPending {
			want.put(bWebhookDue, deliveryDueKey(&d), nil)
		}
		return nil
	})
}
