package postgres

import (
	"time"

	"storefront/app"
)

// PutPaymentSession creates or updates a session.
func (t *Tx) PutPaymentSession(ps *app.PaymentSession) error {
	raw, err := encode(ps)
	if err != nil {
		return err
	}
	return t.exec(ps.StoreID, "put payment session", `INSERT INTO payment_sessions (store_id, seq, doc) VALUES ($1, $2, $3)
		ON CONFLICT (store_id, seq) DO UPDATE SET doc = excluded.doc`, i64(ps.StoreID), i64(ps.Seq), raw)
}

// PaymentSession returns one session.
func (t *Tx) PaymentSession(storeID, seq uint64) (*app.PaymentSession, error) {
	var ps app.PaymentSession
	if err := t.get(storeID, &ps, "payment session", `SELECT doc FROM payment_sessions WHERE store_id = $1 AND seq = $2`, i64(storeID), i64(seq)); err != nil {
		return nil, err
	}
	return &ps, nil
}

// IdempotencyRecord returns the record of a checkout Idempotency-Key.
func (t *Tx) IdempotencyRecord(storeID, customerID uint64, k string) (*app.IdempotencyRecord, error) {
	var r app.IdempotencyRecord
	if err := t.get(storeID, &r, "idempotency key", `SELECT doc FROM idempotency_keys WHERE store_id = $1 AND customer_id = $2 AND key = $3`,
		i64(storeID), i64(customerID), bs(k)); err != nil {
		return nil, err
	}
	return &r, nil
}

// PutIdempotencyRecord stores a checkout's Idempotency-Key record.
func (t *Tx) PutIdempotencyRecord(r *app.IdempotencyRecord) error {
	raw, err := encode(r)
	if err != nil {
		return err
	}
	return t.exec(r.StoreID, "put idempotency key", `INSERT INTO idempotency_keys (store_id, customer_id, key, created_at, doc)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (store_id, customer_id, key) DO UPDATE SET created_at = excluded.created_at, doc = excluded.doc`,
		i64(r.StoreID), i64(r.CustomerID), bs(r.Key), r.CreatedAt, raw)
}

// IdempotencyRecordsBefore returns up to limit of a store's records made
// before before (oldest first: idempotency_keys_created).
func (t *Tx) IdempotencyRecordsBefore(storeID uint64, before time.Time, limit int) ([]*app.IdempotencyRecord, error) {
	return all[app.IdempotencyRecord](t, storeID, "idempotency keys",
		`SELECT doc FROM idempotency_keys WHERE store_id = $1 AND created_at < $2 ORDER BY created_at LIMIT $3`, i64(storeID), before, limit)
}

// DeleteIdempotencyRecords deletes the records of recs still made before
// before, in one statement (under the store's lock: one round trip, not one
// a key).
func (t *Tx) DeleteIdempotencyRecords(storeID uint64, recs []*app.IdempotencyRecord, before time.Time) (int, error) {
	customers, keys := make([]int64, len(recs)), make([][]byte, len(recs))
	for i, r := range recs {
		customers[i], keys[i] = i64(r.CustomerID), bs(r.Key)
	}
	n, err := t.execN(storeID, "delete idempotency keys", `DELETE FROM idempotency_keys AS k
		USING unnest($2::bigint[], $3::bytea[]) AS d (customer_id, key)
		WHERE k.store_id = $1 AND k.customer_id = d.customer_id AND k.key = d.key AND k.created_at < $4`,
		i64(storeID), customers, keys, before)
	return int(n), err
}
