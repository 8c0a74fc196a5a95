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

// PutStore writes s with its key hash and subdomain (unique columns); when
// the store's language changes, its search words are written anew in the
// new language (rewriteStoreWords).
func (t *Tx) PutStore(s *app.Store) error {
	was := ""
	if old, err := t.SharedStore(s.ID); err == nil {
		was = old.Settings().Lang()
	} else if !app.IsNotFound(err) {
		return err
	}
	if err := t.putStore(s); err != nil {
		return err
	}
	if now := s.Settings().Lang(); was != "" && was != now {
		return t.rewriteStoreWords(s.ID, now)
	}
	return nil
}

// putStore writes the record of s.
func (t *Tx) putStore(s *app.Store) error {
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
// decodes a store (and its config) only after it changed (DB.stores); the
// search reads its language (Settings.Lang) without decoding the config.
type memoStore struct {
	raw  []byte
	st   *app.Store
	lang string
}

// SharedStore is Store for read-only use on hot paths: the result may be
// shared with other callers and must not be modified. It is always the
// record as this transaction sees it (the memo is checked against its bytes).
// In a write transaction it comes from the process's cache while the
// store's cache counter is unchanged (storecache.go).
func (t *Tx) SharedStore(id uint64) (*app.Store, error) {
	m, err := t.memoStore(id)
	return m.st, err
}

// searchStem is the stemmer of a store's search words: its language's
// (app.Settings.Lang; PutStore rewrites a store's words when it changes).
// A store without a record (bare storage tests) searches in English, as on
// bbolt.
func (t *Tx) searchStem(id uint64) (app.Stemmer, error) {
	m, err := t.memoStore(id)
	if err != nil && !app.IsNotFound(err) {
		return nil, err
	}
	return app.StemmerFor(m.lang), nil
}

func (t *Tx) memoStore(id uint64) (memoStore, error) {
	if err := t.lock(id); err != nil {
		return memoStore{}, err
	}
	k := cacheKey{store: id, kind: cacheStore}
	if e, ok := t.cached(k); ok {
		return e.st, nil
	}
	raw, err := t.raw(id, "store", `SELECT doc FROM stores WHERE id = $1`, i64(id))
	if err != nil {
		return memoStore{}, err
	}
	m, ok := t.db.stores.Load(id)
	if !ok || !bytes.Equal(m.(memoStore).raw, raw) {
		var st app.Store
		if err := json.Unmarshal(raw, &st); err != nil {
			return memoStore{}, t.fail(fmt.Errorf("postgres: decode store: %w", err))
		}
		m = memoStore{raw: raw, st: &st, lang: st.Settings().Lang()}
		t.db.stores.Store(id, m)
	}
	t.remember(k, cacheEntry{st: m.(memoStore)})
	return m.(memoStore), nil
}
