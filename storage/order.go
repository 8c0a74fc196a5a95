package storage

import (
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
	var o app.Order
	if err := getJSON(t.b(bOrders), keyOf(storeID).id(id), &o, "order"); err != nil {
		return nil, err
	}
	return &o, nil
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

// PutOrder updates o and its status index.
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

func (t *Tx) putOrder(old, o *app.Order) error {
	if old != nil {
		if err := t.b(bIdxOrdersStatus).Delete(orderStatusKey(old)); err != nil {
			return err
		}
		if err := t.b(bIdxOrdersCust).Delete(orderCustomerKey(old)); err != nil {
			return err
		}
	}
	if err := t.b(bIdxOrdersStatus).Put(orderStatusKey(o), nil); err != nil {
		return err
	}
	if err := t.b(bIdxOrdersCust).Put(orderCustomerKey(o), nil); err != nil {
		return err
	}
	if err := t.putOrderDerived(old, o); err != nil {
		return err
	}
	return putShortJSON(t.b(bOrders), keyOf(o.StoreID).id(o.ID), o)
}

// CustomerOrders pages one customer's orders, newest first.
func (t *Tx) CustomerOrders(storeID, customerID uint64, lp app.ListParams) (app.Page[*app.Order], error) {
	return page(t.b(bIdxOrdersCust), keyOf(storeID).id(customerID), lp, true, recordByIndex[app.Order](t.b(bOrders), storeID, "order"))
}

// Orders pages a store's orders newest first, all or of one status.
func (t *Tx) Orders(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Order], error) {
	if status == "" {
		return page(t.b(bOrders), tenant(storeID), lp, true, decodeJSONRecord[app.Order]("order"))
	}
	return page(t.b(bIdxOrdersStatus), keyOf(storeID).str0(status), lp, true, recordByIndex[app.Order](t.b(bOrders), storeID, "order"))
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
