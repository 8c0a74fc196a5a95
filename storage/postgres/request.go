package postgres

import "storefront/app"

// CreateRequest assigns r.ID from the kind's sequence and stores r.
func (t *Tx) CreateRequest(r *app.Request) error {
	id, err := t.NextID(r.StoreID, r.Kind+"_request")
	if err != nil {
		return err
	}
	r.ID = id
	return t.putRequest(r)
}

// Request returns one request of a kind.
func (t *Tx) Request(storeID uint64, kind string, id uint64) (*app.Request, error) {
	if !text(kind) {
		return nil, app.NotFound(kind + " request")
	}
	var r app.Request
	if err := t.get(storeID, &r, kind+" request", `SELECT doc FROM requests WHERE store_id = $1 AND kind = $2 AND id = $3`,
		i64(storeID), kind, i64(id)); err != nil {
		return nil, err
	}
	return &r, nil
}

// PutRequest updates r.
func (t *Tx) PutRequest(r *app.Request) error {
	if _, err := t.Request(r.StoreID, r.Kind, r.ID); err != nil {
		return err
	}
	return t.putRequest(r)
}

func (t *Tx) putRequest(r *app.Request) error {
	raw, err := encode(r)
	if err != nil {
		return err
	}
	return t.exec(r.StoreID, "put request", `INSERT INTO requests (store_id, kind, id, order_id, status, doc) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (store_id, kind, id) DO UPDATE SET order_id = excluded.order_id, status = excluded.status, doc = excluded.doc`,
		i64(r.StoreID), r.Kind, i64(r.ID), i64(r.OrderID), r.Status, raw)
}

// OrderRequests lists an order's requests of a kind, newest first.
func (t *Tx) OrderRequests(storeID uint64, kind string, orderID uint64) ([]*app.Request, error) {
	if !text(kind) {
		return []*app.Request{}, nil
	}
	return all[app.Request](t, storeID, "requests", `SELECT doc FROM requests WHERE store_id = $1 AND order_id = $2 AND kind = $3 ORDER BY id DESC`,
		i64(storeID), i64(orderID), kind)
}

// Requests pages a store's requests of a kind newest first, all or of one status.
func (t *Tx) Requests(storeID uint64, kind, status string, lp app.ListParams) (app.Page[*app.Request], error) {
	if !text(kind) || !text(status) {
		return app.Page[*app.Request]{Items: []*app.Request{}}, nil
	}
	if status == "" {
		return docList[app.Request](t, storeID, "requests", `FROM requests WHERE store_id = $1 AND kind = $2`,
			[]any{i64(storeID), kind}, byID(true), lp)
	}
	return docList[app.Request](t, storeID, "requests", `FROM requests WHERE store_id = $1 AND kind = $2 AND status = $3`,
		[]any{i64(storeID), kind, status}, byID(true), lp)
}
