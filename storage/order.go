package storage

import (
	"fmt"
	"time"

	"storefront/app"
)

// CreateOrder assigns o.ID and stores o with its indexes.
func (t *Tx) CreateOrder(o *app.Order) error {
	id, err := t.NextID(o.StoreID, "order")
	if err != nil {
		return err
	}
	o.ID = id
	return t.putOrder(nil, o)
}

// Order returns one order.
func (t *Tx) Order(storeID, id uint64) (*app.Order, error) {
	k := keyOf(storeID).id(id)
	v := t.b(bOrders).Get(k)
	if v == nil {
		return nil, app.NotFound("order")
	}
	return storedOrder(k, v)
}

// OrdersByID returns the orders of ids that exist, in ids' order.
func (t *Tx) OrdersByID(storeID uint64, ids []uint64) ([]*app.Order, error) {
	out := make([]*app.Order, 0, len(ids))
	for _, id := range ids {
		o, err := t.Order(storeID, id)
		if app.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// PutOrder updates o and its indexes.
func (t *Tx) PutOrder(o *app.Order) error {
	old, err := t.Order(o.StoreID, o.ID)
	if err != nil {
		return err
	}
	return t.putOrder(old, o)
}

func orderStatusKey(o *app.Order) []byte { return keyOf(o.StoreID).str0(o.Status).id(o.ID) }
func orderCustomerKey(o *app.Order) []byte {
	return keyOf(o.StoreID).id(o.CustomerID).id(o.ID)
}

// putOrder writes o over old (nil: a new order) with its indexes and
// derived data. Index keys that do not change (the customer's when an
// order is paid) are left as they are.
func (t *Tx) putOrder(old, o *app.Order) error {
	sameStatus, sameCustomer := old != nil && old.Status == o.Status, old != nil && old.CustomerID == o.CustomerID
	if old != nil && !sameStatus {
		if err := t.b(bIdxOrdersStatus).Delete(orderStatusKey(old)); err != nil {
			return err
		}
	}
	if old != nil && !sameCustomer {
		if err := t.b(bIdxOrdersCust).Delete(orderCustomerKey(old)); err != nil {
			return err
		}
	}
	if !sameStatus {
		if err := t.b(bIdxOrdersStatus).Put(orderStatusKey(o), nil); err != nil {
			return err
		}
	}
	if !sameCustomer {
		if err := t.b(bIdxOrdersCust).Put(orderCustomerKey(o), nil); err != nil {
			return err
		}
	}
	if err := t.putOrderDerived(old, o); err != nil {
		return err
	}
	v, err := encodeOrder(o)
	if err != nil {
		return err
	}
	if err := t.b(bOrders).Put(keyOf(o.StoreID).id(o.ID), v); err != nil {
		return fmt.Errorf("storage: put order: %w", err)
	}
	return nil
}

// CustomerOrders pages one customer's orders, newest first.
func (t *Tx) CustomerOrders(storeID, customerID uint64, lp app.ListParams) (app.Page[*app.Order], error) {
	return page(t.b(bIdxOrdersCust), keyOf(storeID).id(customerID), lp, true, t.orderByIndex(storeID))
}

// Orders pages a store's orders newest first, all or of one status.
func (t *Tx) Orders(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Order], error) {
	if status == "" {
		return page(t.b(bOrders), tenant(storeID), lp, true, orderRecord)
	}
	return page(t.b(bIdxOrdersStatus), keyOf(storeID).str0(status), lp, true, t.orderByIndex(storeID))
}

// PendingOrdersBefore lists a store's PENDING orders created before before.
func (t *Tx) PendingOrdersBefore(storeID uint64, before time.Time) ([]*app.Order, error) {
	var out []*app.Order
	err := walk(t.b(bIdxOrdersStatus), keyOf(storeID).str0(app.OrderPending), nil, false, func(k, _ []byte) (bool, error) {
		o, err := t.Order(storeID, idFromKeyEnd(k))
		if err != nil {
			return false, err
		}
		if !o.CreatedAt.Before(before) {
			return false, nil // ids grow with time: the rest are newer
		}
		out = append(out, o)
		return true, nil
	})
	return out, err
}

// orderRecord is the page decoder of the orders bucket.
func orderRecord(k, v []byte) (*app.Order, bool, error) {
	o, err := storedOrder(k, v)
	return o, err == nil, err
}

// orderByIndex is the page decoder of an order index (keys ending in the id).
func (t *Tx) orderByIndex(sid uint64) func(k, v []byte) (*app.Order, bool, error) {
	return func(k, _ []byte) (*app.Order, bool, error) {
		o, err := t.Order(sid, idFromKeyEnd(k))
		return o, err == nil, err
	}
}
