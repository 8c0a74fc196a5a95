package postgres

import (
	"strings"
	"time"

	"storefront/app"
)

// CreateOrder assigns o.ID and stores o.
func (t *Tx) CreateOrder(o *app.Order) error {
	id, err := t.NextID(o.StoreID, "order")
	if err != nil {
		return err
	}
	o.ID = id
	return t.putOrder(o)
}

// Order returns one order.
func (t *Tx) Order(storeID, id uint64) (*app.Order, error) {
	var o app.Order
	if err := t.get(storeID, &o, "order", `SELECT doc FROM orders WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &o, nil
}

// OrdersByID returns the orders of ids that exist, in ids' order, read in
// one statement (an export reads 500 at a time).
func (t *Tx) OrdersByID(storeID uint64, ids []uint64) ([]*app.Order, error) {
	want := make([]int64, len(ids))
	for i, id := range ids {
		want[i] = i64(id)
	}
	found, err := all[app.Order](t, storeID, "orders", `SELECT doc FROM orders WHERE store_id = $1 AND id = ANY($2)`, i64(storeID), want)
	if err != nil {
		return nil, err
	}
	byID := make(map[uint64]*app.Order, len(found))
	for _, o := range found {
		byID[o.ID] = o
	}
	out := make([]*app.Order, 0, len(found))
	for _, id := range ids {
		if o := byID[id]; o != nil {
			out = append(out, o)
		}
	}
	return out, nil
}

// PutOrder updates o.
func (t *Tx) PutOrder(o *app.Order) error {
	if _, err := t.Order(o.StoreID, o.ID); err != nil {
		return err
	}
	return t.putOrder(o)
}

func (t *Tx) putOrder(o *app.Order) error {
	raw, err := encode(o)
	if err != nil {
		return err
	}
	r := app.RowOf(o)
	search, digits := orderSearchKey(o)
	return t.exec(o.StoreID, "put order", `INSERT INTO orders (store_id, id, customer_id, status, total, created_at, doc,
			payment_status, payment_method, currency, refunded, items, email, receiver_name, phone, email_key, search, phone_digits, test)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
		ON CONFLICT (store_id, id) DO UPDATE SET customer_id = excluded.customer_id, status = excluded.status,
			total = excluded.total, created_at = excluded.created_at, doc = excluded.doc,
			payment_status = excluded.payment_status, payment_method = excluded.payment_method, currency = excluded.currency,
			refunded = excluded.refunded, items = excluded.items, email = excluded.email, receiver_name = excluded.receiver_name,
			phone = excluded.phone, email_key = excluded.email_key, search = excluded.search, phone_digits = excluded.phone_digits, test = excluded.test`,
		i64(o.StoreID), i64(o.ID), i64(o.CustomerID), o.Status, int64(o.Total), o.CreatedAt, raw,
		o.PaymentStatus, o.PaymentMethod, o.Currency, int64(o.RefundedAmount), int64(r.Items),
		bs(o.Email), bs(o.ReceiverName), bs(o.Phone), bs(strings.ToLower(o.Email)), search, digits, o.Test)
}

// CustomerOrders pages one customer's orders, newest first.
func (t *Tx) CustomerOrders(storeID, customerID uint64, lp app.ListParams) (app.Page[*app.Order], error) {
	return docList[app.Order](t, storeID, "orders", `FROM orders WHERE store_id = $1 AND customer_id = $2`,
		[]any{i64(storeID), i64(customerID)}, byID(true), lp)
}

// Orders pages a store's orders newest first, all or of one status.
func (t *Tx) Orders(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Order], error) {
	if status == "" {
		return docList[app.Order](t, storeID, "orders", `FROM orders WHERE store_id = $1`, []any{i64(storeID)}, byID(true), lp)
	}
	if !text(status) {
		return app.Page[*app.Order]{Items: []*app.Order{}}, nil
	}
	return docList[app.Order](t, storeID, "orders", `FROM orders WHERE store_id = $1 AND status = $2`,
		[]any{i64(storeID), status}, byID(true), lp)
}

// PendingOrdersBefore lists a store's PENDING orders created before before,
// by id. (The bbolt backend stops at the first newer one, ids growing with
// time; here several processes' clocks may differ, so the time is compared.)
func (t *Tx) PendingOrdersBefore(storeID uint64, before time.Time) ([]*app.Order, error) {
	out, err := all[app.Order](t, storeID, "orders", `SELECT doc FROM orders WHERE store_id = $1 AND status = $2 AND created_at < $3 ORDER BY id`,
		i64(storeID), app.OrderPending, before)
	if len(out) == 0 {
		out = nil
	}
	return out, err
}
