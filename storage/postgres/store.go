package postgres

import (
	"bytes"
	"encoding/json"
	"fmt"

	"storefront/app"
)

// CreateStore assigns s.ID and stores s; a taken subdomain is conflict.
func (t *Tx) CreateStore(s *app.Store) error {
	taken, err := t.exists(0, "store", `SELECT 1 FROM stores WHERE subdomain = $1`, bs(s.Subdomain))
	if err != nil {
		return err
	}
	if taken {
		return &app.Error{Code: app.EConflict, Message: "subdomain is taken", Fields: map[string]string{"subdomain": "is taken"}}
	}
	id, err := t.NextID(0, "store")
	if err != nil {
		return fmt.Errorf("postgres: next store id: %w", err)
	}
	s.ID = id
	return t.PutStore(s)
}

// Store returns a store by id.
func (t *Tx) Store(id uint64) (*app.Store, error) {
	var s app.Store
	if err := t.get(id, &s, "store", `SELECT doc FROM stores WHERE id = $1`, i64(id)); err != nil {
		return nil, err
	}
	return &s, nil
}

// StoreByKeyHash returns the store of an API key hash.
func (t *Tx) StoreByKeyHash(hash []byte) (*app.Store, error) {
	id, ok, err := t.id64(0, "store", `SELECT id FROM stores WHERE api_key_hash = $1`, hash)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, app.NotFound("store")
	}
	return t.Store(id)
}

// PutStore writes s with its key hash and subdomain (unique columns).
func (t *Tx) PutStore(s *app.Store) error {
	raw, err := encode(s)
	if err != nil {
		return err
	}
	hash := s.APIKeyHash
	if hash == nil {
		hash = []byte{}
	}
	if err := t.changedCached(s.ID); err != nil {
		return err
	}
	return t.exec(s.ID, "put store", `INSERT INTO stores (id, subdomain, api_key_hash, doc) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET subdomain = excluded.subdomain, api_key_hash = excluded.api_key_hash, doc = excluded.doc`+announce(5),
		i64(s.ID), bs(s.Subdomain), hash, raw, t.event(app.EventStore, s.ID, nil))
}

// Stores lists every store by id.
func (t *Tx) Stores() ([]*app.Store, error) {
	out, err := all[app.Store](t, 0, "stores", `SELECT doc FROM stores ORDER BY id`)
	if len(out) == 0 {
		out = nil // as the bbolt backend: nil when there is none
	}
	return out, err
}

// memoStore is a decoded store record with its bytes: the checkout path
// decodes a store (and its config) only after it changed (DB.stores).
type memoStore struct {
	raw []byte
	st  *app.Store
}

// SharedStore is Store for read-only use on hot paths: the result may be
// shared with other callers and must not be modified. It is always the
// record as this transaction sees it (the memo is checked against its bytes).
// In a write transaction it comes from the process's cache while the
// store's cache counter is unchanged (storecache.go).
func (t *Tx) SharedStore(id uint64) (*app.Store, error) {
	if err := t.lock(id); err != nil {
		return nil, err
	}
	k := cacheKey{store: id, kind: cacheStore}
	if e, ok := t.cached(k); ok {
		return e.st.st, nil
	}
	raw, err := t.raw(id, "store", `SELECT doc FROM stores WHERE id = $1`, i64(id))
	if err != nil {
		return nil, err
	}
	m, ok := t.db.stores.Load(id)
	if !ok || !bytes.Equal(m.(memoStore).raw, raw) {
		var st app.Store
		if err := json.Unmarshal(raw, &st); err != nil {
			return nil, t.fail(fmt.Errorf("postgres: decode store: %w", err))
		}
		m = memoStore{raw: raw, st: &st}
		t.db.stores.Store(id, m)
	}
	t.remember(k, cacheEntry{st: m.(memoStore)})
	return m.(memoStore).st, nil
}
