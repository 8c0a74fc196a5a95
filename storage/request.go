package storage

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

func requestKey(sid uint64, kind string, id uint64) []byte { return keyOf(sid).str0(kind).id(id) }
func requestOrderKey(r *app.Request) []byte {
	return keyOf(r.StoreID).id(r.OrderID).str0(r.Kind).id(r.ID)
}
func requestStatusKey(r *app.Request) []byte {
	return keyOf(r.StoreID).str0(r.Kind).str0(r.Status).id(r.ID)
}

// CreateRequest assigns r.ID from the kind's sequence and stores r with its indexes.
func (t *Tx) CreateRequest(r *app.Request) error {
	id, err := t.NextID(r.StoreID, r.Kind+"_request")
	if err != nil {
		return err
	}
	r.ID = id
	return t.putRequest(nil, r)
}

// Request returns one request of a kind.
func (t *Tx) Request(storeID uint64, kind string, id uint64) (*app.Request, error) {
	var r app.Request
	if err := getJSON(t.b(bRequests), requestKey(storeID, kind, id), &r, kind+" request"); err != nil {
		return nil, err
	}
	return &r, nil
}

// PutRequest updates r and its indexes.
func (t *Tx) PutRequest(r *app.Request) error {
	old, err := t.Request(r.StoreID, r.Kind, r.ID)
	if err != nil {
		return err
	}
	return t.putRequest(old, r)
}

func (t *Tx) putRequest(old, r *app.Request) error {
	if old != nil {
		if err := t.b(bIdxRequestsOrder).Delete(requestOrderKey(old)); err != nil {
			return fmt.Errorf("storage: unindex request: %w", err)
		}
		if err := t.b(bIdxRequestsStatus).Delete(requestStatusKey(old)); err != nil {
			return fmt.Errorf("storage: unindex request: %w", err)
		}
	}
	if err := t.b(bIdxRequestsOrder).Put(requestOrderKey(r), nil); err != nil {
		return fmt.Errorf("storage: index request: %w", err)
	}
	if err := t.b(bIdxRequestsStatus).Put(requestStatusKey(r), nil); err != nil {
		return fmt.Errorf("storage: index request: %w", err)
	}
	return putJSON(t.b(bRequests), requestKey(r.StoreID, r.Kind, r.ID), r)
}

// requestByIndex is a page decoder for request index keys ending in an id.
func requestByIndex(records *bolt.Bucket, sid uint64, kind string) func(k, v []byte) (*app.Request, bool, error) {
	return func(k, _ []byte) (*app.Request, bool, error) {
		var r app.Request
		if err := getJSON(records, requestKey(sid, kind, idFromKeyEnd(k)), &r, kind+" request"); err != nil {
			return nil, false, err
		}
		return &r, true, nil
	}
}

// OrderRequests lists an order's requests of a kind, newest first.
func (t *Tx) OrderRequests(storeID uint64, kind string, orderID uint64) ([]*app.Request, error) {
	var out []*app.Request
	decode := requestByIndex(t.b(bRequests), storeID, kind)
	err := walk(t.b(bIdxRequestsOrder), keyOf(storeID).id(orderID).str0(kind), nil, true, func(k, v []byte) (bool, error) {
		r, _, err := decode(k, v)
		if err != nil {
			return false, err
		}
		out = append(out, r)
		return true, nil
	})
	if out == nil {
		out = []*app.Request{}
	}
	return out, err
}

// Requests pages a store's requests of a kind newest first, all or of one status.
func (t *Tx) Requests(storeID uint64, kind, status string, lp app.ListParams) (app.Page[*app.Request], error) {
	if status == "" {
		return page(t.b(bRequests), keyOf(storeID).str0(kind), lp, true, decodeJSONRecord[app.Request]("request"))
	}
	return page(t.b(bIdxRequestsStatus), keyOf(storeID).str0(kind).str0(status), lp, true, requestByIndex(t.b(bRequests), storeID, kind))
}

var _ = registerVerifier(verifyRequests, bIdxRequestsOrder, bIdxRequestsStatus)

// verifyRequests checks that each request is stored at its own key and puts
// its order and status index keys.
func verifyRequests(t *Tx, want expectKeys) error {
	return t.b(bRequests).ForEach(func(k, v []byte) error {
		var r app.Request
		if err := getJSONBytes(v, &r, "request"); err != nil {
			return err
		}
		if !bytes.Equal(k, requestKey(r.StoreID, r.Kind, r.ID)) {
			return fmt.Errorf("verify: request stored at %x has key %x", k, requestKey(r.StoreID, r.Kind, r.ID))
		}
		want.put(bIdxRequestsOrder, requestOrderKey(&r), nil)
		want.put(bIdxRequestsStatus, requestStatusKey(&r), nil)
		return nil
	})
}
