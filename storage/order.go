package storage

import (
	"bytes"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

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
	o, err := decodeOrder(v)
	if err != nil {
		return nil, err
	}
	if t.tx.Writable() {
		t.seeOrder(k, bytes.Clone(v), o)
	}
	return o, nil
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
	k := keyOf(o.StoreID).id(o.ID)
	v := t.b(bOrders).Get(k)
	if v == nil {
		return app.NotFound("order")
	}
	if m, ok := t.orders[string(k)]; ok && bytes.Equal(m.raw, v) {
		return t.putOrder(&m.was, o)
	}
	old, err := decodeOrder(v)
	if err != nil {
		return err
	}
	was := orderWasOf(old)
	return t.putOrder(&was, o)
}

func orderStatusKey(o *app.Order) []byte { return keyOf(o.StoreID).str0(o.Status).id(o.ID) }
func orderCustomerKey(o *app.Order) []byte {
	return keyOf(o.StoreID).id(o.CustomerID).id(o.ID)
}

// orderWas is what writing over a stored order must undo: its index keys
// and what it added to its day's stats.
type orderWas struct {
	status, customer, stats []byte
	n, gross, refunded      int64
}

func orderWasOf(o *app.Order) orderWas {
	n, g, r := app.OrderStatsOf(o)
	return orderWas{status: orderStatusKey(o), customer: orderCustomerKey(o), stats: statsKey(o.StoreID, o.CreatedAt, o.Currency),
		n: n, gross: int64(g), refunded: int64(r)}
}

// seenOrder is an order this transaction read or wrote: its stored bytes
// and what a write over them must undo. PutOrder uses it when the stored
// bytes are still these (so it is exact whatever wrote in between), instead
// of decoding the order a second time: a verification reads the order, then
// writes it.
type seenOrder struct {
	raw []byte
	was orderWas
}

// maxSeenOrders bounds the memo of a transaction (a group commit carries
// at most maxGroup writes; a job walking every order does not need it).
const maxSeenOrders = 2 * maxGroup

// seeOrder remembers o as stored at k in raw; raw must not change.
func (t *Tx) seeOrder(k, raw []byte, o *app.Order) {
	if t.orders == nil {
		t.orders = map[string]seenOrder{}
	}
	if _, ok := t.orders[string(k)]; !ok && len(t.orders) >= maxSeenOrders {
		return
	}
	t.orders[string(k)] = seenOrder{raw: raw, was: orderWasOf(o)}
}

// putOrder writes o over the stored order was describes (nil: a new order)
// with its indexes and derived data.
func (t *Tx) putOrder(was *orderWas, o *app.Order) error {
	status, customer := orderStatusKey(o), orderCustomerKey(o)
	if was != nil && !bytes.Equal(was.status, status) {
		if err := t.b(bIdxOrdersStatus).Delete(was.status); err != nil {
			return err
		}
	}
	if was != nil && !bytes.Equal(was.customer, customer) {
		if err := t.b(bIdxOrdersCust).Delete(was.customer); err != nil {
			return err
		}
	}
	if was == nil || !bytes.Equal(was.status, status) {
		if err := t.b(bIdxOrdersStatus).Put(status, nil); err != nil {
			return err
		}
	}
	if was == nil || !bytes.Equal(was.customer, customer) {
		if err := t.b(bIdxOrdersCust).Put(customer, nil); err != nil {
			return err
		}
	}
	if err := t.putOrderDerived(was, o); err != nil {
		return err
	}
	k := keyOf(o.StoreID).id(o.ID)
	v, err := encodeOrder(o)
	if err != nil {
		return err
	}
	if err := t.b(bOrders).Put(k, v); err != nil {
		return fmt.Errorf("storage: put order: %w", err)
	}
	t.seeOrder(k, v, o)
	return nil
}

// CustomerOrders pages one customer's orders, newest first.
func (t *Tx) CustomerOrders(storeID, customerID uint64, lp app.ListParams) (app.Page[*app.Order], error) {
	return page(t.b(bIdxOrdersCust), keyOf(storeID).id(customerID), lp, true, orderByIndex(t.b(bOrders), storeID))
}

// Orders pages a store's orders newest first, all or of one status.
func (t *Tx) Orders(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Order], error) {
	if status == "" {
		return page(t.b(bOrders), tenant(storeID), lp, true, orderRecord)
	}
	return page(t.b(bIdxOrdersStatus), keyOf(storeID).str0(status), lp, true, orderByIndex(t.b(bOrders), storeID))
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
func orderRecord(_, v []byte) (*app.Order, bool, error) {
	o, err := decodeOrder(v)
	return o, err == nil, err
}

// orderByIndex is the page decoder of an order index (keys ending in the id).
func orderByIndex(orders *bolt.Bucket, sid uint64) func(k, v []byte) (*app.Order, bool, error) {
	return func(k, _ []byte) (*app.Order, bool, error) {
		v := orders.Get(keyOf(sid).id(idFromKeyEnd(k)))
		if v == nil {
			return nil, false, app.NotFound("order")
		}
		return orderRecord(k, v)
	}
}
