package storage

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"storefront/app"
)

// Idempotency records are the largest thing a checkout writes after the
// order (one per initiation with an Idempotency-Key, kept seven days), and
// their keys are random, so their pages are half full. They are stored in a
// compact binary form; records written as JSON before it are read as they
// are (the first byte tells: '{' is JSON), so no migration is needed.
//
// Compact form (idemCompact first):
//
//	flags byte
//	uvarint len, the key (a guest's key without its "\x00"+body hash suffix: idemGuestKey)
//	32 bytes: the body hash (64 lowercase hex digits in the record)
//	uvarint order id
//	uvarint len, the session id
//	uvarint: 0, or 1+ where the session id stands in the redirect URL
//	uvarint len, the redirect URL without that session id
//	varint created_at, Unix nanoseconds (UTC)
//
// The store and customer ids are the first 16 bytes of the bbolt key.
// A record this form cannot hold exactly (a body hash that is not 64
// lowercase hex digits, a time that is not UTC or out of the nanosecond
// range) is written as JSON.
const idemCompact = 0x01

const idemGuestKey = 1 // flags: the key is key + "\x00" + the body hash

// encodeIdempotency returns the stored bytes of r.
func encodeIdempotency(r *app.IdempotencyRecord) ([]byte, error) {
	hash, err := hex.DecodeString(r.BodyHash)
	compact := err == nil && len(hash) == 32 && hex.EncodeToString(hash) == r.BodyHash &&
		r.CreatedAt.Location() == time.UTC && r.CreatedAt.Equal(time.Unix(0, r.CreatedAt.UnixNano()))
	if !compact {
		b, err := json.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("storage: encode idempotency key: %w", err)
		}
		return b, nil
	}
	key, flags := r.Key, byte(0)
	if k, ok := strings.CutSuffix(r.Key, "\x00"+r.BodyHash); ok {
		key, flags = k, idemGuestKey
	}
	b := make([]byte, 0, 64+len(key)+len(r.SessionID)+len(r.RedirectURL))
	b = append(b, idemCompact, flags)
	b = appendString(b, key)
	b = append(b, hash...)
	b = binary.AppendUvarint(b, r.OrderID)
	b = appendString(b, r.SessionID)
	b = appendRedirect(b, r.RedirectURL, r.SessionID)
	b = binary.AppendVarint(b, r.CreatedAt.UnixNano())
	return b, nil
}

var errIdemCorrupt = errors.New("storage: a corrupt idempotency record")

// decodeIdempotency reads a stored record at bbolt key k (either form).
func decodeIdempotency(k, v []byte) (*app.IdempotencyRecord, error) {
	var r app.IdempotencyRecord
	if len(v) > 0 && v[0] == '{' {
		if err := getJSONBytes(v, &r, "idempotency key"); err != nil {
			return nil, err
		}
		return &r, nil
	}
	if len(k) < 16 || len(v) < 2 || v[0] != idemCompact {
		return nil, errIdemCorrupt
	}
	r.StoreID, r.CustomerID = binary.BigEndian.Uint64(k), binary.BigEndian.Uint64(k[8:])
	flags := v[1]
	d := compactReader{b: v[2:]}
	key := d.str()
	hash := d.bytes(32)
	r.BodyHash = hex.EncodeToString(hash)
	r.Key = key
	if flags&idemGuestKey != 0 {
		r.Key = key + "\x00" + r.BodyHash
	}
	r.OrderID = d.uvarint()
	r.SessionID = d.str()
	r.RedirectURL = d.redirect(r.SessionID)
	r.CreatedAt = time.Unix(0, d.varint()).UTC()
	if !d.done() {
		return nil, errIdemCorrupt
	}
	return &r, nil
}

// idempotencyJSON is a stored record as JSON (what Export hands on).
func idempotencyJSON(k, v []byte) ([]byte, error) { return storedJSON(k, v, decodeIdempotency) }
