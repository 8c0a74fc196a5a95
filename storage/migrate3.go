package storage

import (
	"bytes"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// Schema 3 stores each record type in one form (issue 30). Before it, the
// readers took every form ever written: orders as plain JSON ('{' first),
// as short-key JSON (oldShortJSON first) or compact; payment sessions and
// idempotency records as JSON or compact, a session's attempts as JSON
// inside the compact form when it lacked sessAttempts. migrateOneForm
// rewrites the older forms once, when a file of schema 1 or 2 opens (after
// the copy of backupBeforeMigration); these readers serve that alone.

// migrateOneForm (2 -> 3) rewrites every record not in its one form.
func migrateOneForm(tx *bolt.Tx) error {
	if err := rewriteOld(tx, bOrders, oldOrder); err != nil {
		return err
	}
	if err := rewriteOld(tx, bPaymentSessions, oldSession); err != nil {
		return err
	}
	return rewriteOld(tx, bIdempotency, oldIdempotency)
}

// rewriteOld puts the bytes old returns for a record over it (nil: the
// record is in its one form), a thousand at a time: a bucket must not change
// under the cursor walking it.
func rewriteOld(tx *bolt.Tx, name []byte, old func(k, v []byte) ([]byte, error)) error {
	type record struct{ k, v []byte }
	b := tx.Bucket(name)
	var from []byte
	for {
		var batch []record
		var next []byte
		c := b.Cursor()
		for k, v := c.Seek(from); k != nil; k, v = c.Next() {
			if len(batch) == 1000 {
				next = bytes.Clone(k)
				break
			}
			nv, err := old(k, v)
			if err != nil {
				return fmt.Errorf("%s record %x: %w", name, k, err)
			}
			if nv != nil {
				batch = append(batch, record{bytes.Clone(k), nv})
			}
		}
		for _, r := range batch {
			if err := b.Put(r.k, r.v); err != nil {
				return err
			}
		}
		if next == nil {
			return nil
		}
		from = next
	}
}

// oldOrder is an order in plain or short-key JSON in the compact form.
func oldOrder(_, v []byte) ([]byte, error) {
	if len(v) == 0 || v[0] != '{' && v[0] != oldShortJSON {
		return nil, nil
	}
	var o app.Order
	if err := json.Unmarshal(expandShortJSON(v), &o); err != nil {
		return nil, err
	}
	return encodeOrder(&o)
}

// oldSession is a session in JSON, or compact with its attempts as JSON, in
// the compact form.
func oldSession(k, v []byte) ([]byte, error) {
	var ps *app.PaymentSession
	switch {
	case len(v) > 0 && v[0] == '{':
		ps = new(app.PaymentSession)
		if err := json.Unmarshal(v, ps); err != nil {
			return nil, err
		}
	case len(v) > 1 && v[0] == sessCompact && v[1]&sessAttempts == 0:
		var err error
		if ps, err = readSession(k, v, jsonAttempts); err != nil {
			return nil, err
		}
	default:
		return nil, nil
	}
	return encodeSession(ps)
}

// jsonAttempts reads a session's attempts stored as a JSON string.
func jsonAttempts(d *compactReader) []app.PaymentAttempt {
	var as []app.PaymentAttempt
	if err := json.Unmarshal([]byte(d.str()), &as); err != nil {
		d.fail()
	}
	return as
}

// oldIdempotency is a record in JSON in the compact form.
func oldIdempotency(_, v []byte) ([]byte, error) {
	if len(v) == 0 || v[0] != '{' {
		return nil, nil
	}
	var r app.IdempotencyRecord
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, err
	}
	return encodeIdempotency(&r)
}

// The short-key JSON of orders: the byte oldShortJSON, then the JSON with
// each `"name":` of oldShortNames replaced by one byte, 0x01 for the first
// name and so on (encoding/json writes no byte below 0x20).
const oldShortJSON = 0x02

var oldShortNames = []string{
	"id", "store_id", "customer_id", "status", "payment_status", "payment_method", "payment_session_id",
	"receiver_name", "phone", "address", "email", "items", "subtotal", "discount", "delivery_fee", "total",
	"currency", "coupon_code", "refunded_amount", "callback_url", "test", "tracking_number", "carrier",
	"created_at", "updated_at",
	"product_id", "variant_id", "name", "unit_price", "quantity", "line_total",
}

// expandShortJSON returns the JSON of v, plain or short-key.
func expandShortJSON(v []byte) []byte {
	if len(v) == 0 || v[0] != oldShortJSON {
		return v
	}
	out := make([]byte, 0, 2*len(v)+64)
	for _, c := range v[1:] {
		if c >= 1 && int(c) <= len(oldShortNames) {
			out = append(out, '"')
			out = append(out, oldShortNames[c-1]...)
			out = append(out, '"', ':')
			continue
		}
		out = append(out, c)
	}
	return out
}
