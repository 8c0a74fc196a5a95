package storage

import (
	"bytes"
	"time"

	"storefront/app"
)

// PutPaymentSession creates or updates a session.
func (t *Tx) PutPaymentSession(ps *app.PaymentSession) error {
	v, err := encodeSession(ps)
	if err != nil {
		return err
	}
	return t.b(bPaymentSessions).Put(keyOf(ps.StoreID).id(ps.Seq), v)
}

// PaymentSession returns one session.
func (t *Tx) PaymentSession(storeID, seq uint64) (*app.PaymentSession, error) {
	k := keyOf(storeID).id(seq)
	v := t.b(bPaymentSessions).Get(k)
	if v == nil {
		return nil, app.NotFound("payment session")
	}
	return decodeSession(k, v)
}

func idempotencyKey(sid, cid uint64, k string) []byte { return keyOf(sid).id(cid).str0(k) }

// IdempotencyRecord returns the record of a checkout Idempotency-Key.
func (t *Tx) IdempotencyRecord(storeID, customerID uint64, k string) (*app.IdempotencyRecord, error) {
	key := idempotencyKey(storeID, customerID, k)
	v := t.b(bIdempotency).Get(key)
	if v == nil {
		return nil, app.NotFound("idempotency key")
	}
	r, err := decodeIdempotency(key, v)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// IdempotencyRecordsBefore returns up to limit of a store's records made
// before before. The keys are in no time order: it reads every record of
// the store (the hourly sweep calls it in a read transaction).
func (t *Tx) IdempotencyRecordsBefore(storeID uint64, before time.Time, limit int) ([]*app.IdempotencyRecord, error) {
	var out []*app.IdempotencyRecord
	err := walk(t.b(bIdempotency), tenant(storeID), nil, false, func(k, v []byte) (bool, error) {
		r, err := decodeIdempotency(k, v)
		if err != nil {
			return false, err
		}
		if r.CreatedAt.Before(before) {
			out = append(out, r)
		}
		return len(out) < limit, nil
	})
	return out, err
}

// DeleteIdempotencyRecords deletes the records of recs still made before
// before (one put again since it was read stays).
func (t *Tx) DeleteIdempotencyRecords(storeID uint64, recs []*app.IdempotencyRecord, before time.Time) (int, error) {
	n := 0
	for _, old := range recs {
		r, err := t.IdempotencyRecord(storeID, old.CustomerID, old.Key)
		if app.IsNotFound(err) || (err == nil && !r.CreatedAt.Before(before)) {
			continue
		}
		if err != nil {
			return n, err
		}
		if err := t.b(bIdempotency).Delete(idempotencyKey(storeID, old.CustomerID, old.Key)); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// PutIdempotencyRecord stores a checkout's Idempotency-Key record.
func (t *Tx) PutIdempotencyRecord(r *app.IdempotencyRecord) error {
	v, err := encodeIdempotency(r)
	if err != nil {
		return err
	}
	return t.b(bIdempotency).Put(idempotencyKey(r.StoreID, r.CustomerID, r.Key), v)
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
func (t *Tx) SharedStore(id uint64) (*app.Store, error) {
	m, err := t.memoStore(id)
	return m.st, err
}

// storeLang is a store's language (app.Settings.Lang; "" when there is no
// such store).
func (t *Tx) storeLang(id uint64) string {
	m, _ := t.memoStore(id)
	return m.lang
}

func (t *Tx) memoStore(id uint64) (memoStore, error) {
	raw := t.b(bStores).Get(u64(id))
	if raw == nil {
		return memoStore{}, app.NotFound("store")
	}
	if t.stores != nil {
		if m, ok := t.stores.Load(id); ok && bytes.Equal(m.(memoStore).raw, raw) {
			return m.(memoStore), nil
		}
	}
	var st app.Store
	if err := getJSONBytes(raw, &st, "store"); err != nil {
		return memoStore{}, err
	}
	m := memoStore{raw: bytes.Clone(raw), st: &st, lang: st.Settings().Lang()}
	if t.stores != nil { // nil in a migration's transaction
		t.stores.Store(id, m)
	}
	return m, nil
}
