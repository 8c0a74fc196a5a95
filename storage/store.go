package storage

import (
	"bytes"
	"fmt"

	"storefront/app"
)

// CreateStore assigns s.ID and stores s.
func (t *Tx) CreateStore(s *app.Store) error {
	subs := t.b(bStoreSubdomains)
	if subs.Get([]byte(s.Subdomain)) != nil {
		return &app.Error{Code: app.EConflict, Message: "subdomain is taken", Fields: map[string]string{"subdomain": "is taken"}}
	}
	id, err := t.b(bStores).NextSequence()
	if err != nil {
		return fmt.Errorf("storage: next store id: %w", err)
	}
	s.ID = id
	return t.PutStore(s)
}

// Store returns a store by id.
func (t *Tx) Store(id uint64) (*app.Store, error) {
	var s app.Store
	if err := getJSON(t.b(bStores), u64(id), &s, "store"); err != nil {
		return nil, err
	}
	return &s, nil
}

// StoreByKeyHash returns the store of an API key hash.
func (t *Tx) StoreByKeyHash(hash []byte) (*app.Store, error) {
	id := t.b(bStoreKeys).Get(hash)
	if id == nil {
		return nil, app.NotFound("store")
	}
	return t.Store(idFromKeyEnd(id))
}

// PutStore writes s and keeps the key and subdomain indexes; when the
// store's language changes, its search terms are made anew with the new
// language's stemmer (reindexTerms).
func (t *Tx) PutStore(s *app.Store) error {
	old, err := t.Store(s.ID)
	if err != nil {
		old = nil // a new store
	}
	if err := t.putStore(s, old); err != nil {
		return err
	}
	if old == nil {
		return nil
	}
	if was, now := old.Settings().Lang(), s.Settings().Lang(); was != now {
		return t.reindexTerms(s.ID, app.StemmerFor(was), app.StemmerFor(now))
	}
	return nil
}

// putStore writes s over old (nil: none) with its key and subdomain.
func (t *Tx) putStore(s, old *app.Store) error {
	if old != nil {
		if !bytes.Equal(old.APIKeyHash, s.APIKeyHash) {
			if err := t.b(bStoreKeys).Delete(old.APIKeyHash); err != nil {
				return err
			}
		}
		if old.Subdomain != s.Subdomain {
			if err := t.b(bStoreSubdomains).Delete([]byte(old.Subdomain)); err != nil {
				return err
			}
		}
	}
	if err := t.b(bStoreKeys).Put(s.APIKeyHash, u64(s.ID)); err != nil {
		return err
	}
	if err := t.b(bStoreSubdomains).Put([]byte(s.Subdomain), u64(s.ID)); err != nil {
		return err
	}
	return putJSON(t.b(bStores), u64(s.ID), s)
}

// Stores lists every store by id.
func (t *Tx) Stores() ([]*app.Store, error) {
	var out []*app.Store
	err := t.b(bStores).ForEach(func(_, v []byte) error {
		var s app.Store
		if err := getJSONBytes(v, &s, "store"); err != nil {
			return err
		}
		out = append(out, &s)
		return nil
	})
	return out, err
}
