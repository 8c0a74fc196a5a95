package storage

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"storefront/app"
)

// Idempotency records are the largest thing a checkout writes after the
// order (one per initiation with an Idempotency-Key, kept seven days), and
// their keys are random, so their pages are half full. They are stored in
// one compact binary form:
//
//	flags byte (idemGuestKey, idemKeyInKey, idemStdSession)
//	unless idemKeyInKey: uvarint len, the key (a guest's key without its
//	  "\x00"+body hash suffix: idemGuestKey); 32 bytes: the body hash (64
//	  lowercase hex digits in the record)
//	uvarint order id
//	the session id: with idemStdSession uvarint seq and 12 bytes (app.SessionID
//	  of the record's store, 24 lowercase hex digits), else uvarint len, the id
//	uvarint: 0, or 1+ where the session id stands in the redirect URL
//	uvarint len, the redirect URL without that session id
//	varint created_at, Unix nanoseconds (UTC)
//
// The store and customer ids are the first 16 bytes of the bbolt key. A
// guest's bbolt key ends with the key and the body hash in hex (str0 drops
// the "\x00" between them), so idemKeyInKey records (a guest key without a
// NUL of its own) read both from there instead of storing them twice.
// A record the form cannot hold (a body hash that is not 64 lowercase hex
// digits, a creation time zero or outside Unix nanoseconds) is refused.
const idemCompact = 0x01

// flags
const (
	idemGuestKey   = 1 // the key is key + "\x00" + the body hash
	idemKeyInKey   = 2 // the key and the hash are read from the bbolt key (guests)
	idemStdSession = 4 // the session id is standard: seq and 12 random bytes
)

var errIdemForm = errors.New("storage: an idempotency record needs a SHA-256 body hash in lowercase hex and a creation time")

// encodeIdempotency returns the stored bytes of r.
func encodeIdempotency(r *app.IdempotencyRecord) ([]byte, error) {
	hash, err := hex.DecodeString(r.BodyHash)
	if err != nil || len(hash) != 32 || hex.EncodeToString(hash) != r.BodyHash || r.CreatedAt.IsZero() || !unixNanos(r.CreatedAt) {
		return nil, fmt.Errorf("storage: encode idempotency key: %w", errIdemForm)
	}
	key, flags := r.Key, byte(0)
	if k, ok := strings.CutSuffix(r.Key, "\x00"+r.BodyHash); ok {
		key, flags = k, idemGuestKey
		if strings.IndexByte(key, 0) < 0 {
			flags |= idemKeyInKey
		}
	}
	seq, secret, std := stdSessionID(r.StoreID, r.SessionID)
	if std {
		flags |= idemStdSession
	}
	b := make([]byte, 0, 64+len(key)+len(r.SessionID)+len(r.RedirectURL))
	b = append(b, idemCompact, flags)
	if flags&idemKeyInKey == 0 {
		b = appendString(b, key)
		b = append(b, hash...)
	}
	b = binary.AppendUvarint(b, r.OrderID)
	if std {
		b = append(binary.AppendUvarint(b, seq), secret...)
	} else {
		b = appendString(b, r.SessionID)
	}
	b = appendRedirect(b, r.RedirectURL, r.SessionID)
	b = binary.AppendVarint(b, r.CreatedAt.UnixNano())
	return b, nil
}

// stdSessionID splits a session id of store sid made by app.SessionID with a
// 24-hex-digit random part into its seq and those 12 bytes (ok: the id is
// exactly app.SessionID of them).
func stdSessionID(sid uint64, id string) (seq uint64, secret []byte, ok bool) {
	rest, ok := strings.CutPrefix(id, "ps_"+strconv.FormatUint(sid, 16)+"_")
	if !ok {
		return 0, nil, false
	}
	i := strings.IndexByte(rest, '_')
	if i < 0 {
		return 0, nil, false
	}
	seq, err := strconv.ParseUint(rest[:i], 16, 64)
	if err != nil {
		return 0, nil, false
	}
	secret, err = hex.DecodeString(rest[i+1:])
	if err != nil || len(secret) != 12 || app.SessionID(sid, seq, hex.EncodeToString(secret)) != id {
		return 0, nil, false
	}
	return seq, secret, true
}

var errIdemCorrupt = errors.New("storage: a corrupt idempotency record")

// decodeIdempotency reads a stored record at bbolt key k.
func decodeIdempotency(k, v []byte) (*app.IdempotencyRecord, error) {
	var r app.IdempotencyRecord
	if len(k) < 16 || len(v) < 2 || v[0] != idemCompact {
		return nil, errIdemCorrupt
	}
	r.StoreID, r.CustomerID = binary.BigEndian.Uint64(k), binary.BigEndian.Uint64(k[8:])
	flags := v[1]
	d := compactReader{s: string(v[2:])}
	if flags&idemKeyInKey != 0 {
		// sid|cid|key hash0: the key and the body hash in hex, then 0x00
		if len(k) < 16+64+1 || k[len(k)-1] != 0 || flags&idemGuestKey == 0 {
			return nil, errIdemCorrupt
		}
		s := string(k[16 : len(k)-1])
		key, h := s[:len(s)-64], s[len(s)-64:]
		if raw, err := hex.DecodeString(h); err != nil || hex.EncodeToString(raw) != h {
			return nil, errIdemCorrupt
		}
		r.BodyHash, r.Key = h, key+"\x00"+h
	} else {
		key := d.str()
		r.BodyHash = hex.EncodeToString([]byte(d.bytes(32)))
		r.Key = key
		if flags&idemGuestKey != 0 {
			r.Key = key + "\x00" + r.BodyHash
		}
	}
	r.OrderID = d.uvarint()
	if flags&idemStdSession != 0 {
		seq := d.uvarint()
		r.SessionID = app.SessionID(r.StoreID, seq, hex.EncodeToString([]byte(d.bytes(12))))
	} else {
		r.SessionID = d.str()
	}
	r.RedirectURL = d.redirect(r.SessionID)
	r.CreatedAt = time.Unix(0, d.varint()).UTC()
	if !d.done() {
		return nil, errIdemCorrupt
	}
	return &r, nil
}

// idempotencyJSON is a stored record as JSON (what Export hands on).
func idempotencyJSON(k, v []byte) ([]byte, error) { return storedJSON(k, v, decodeIdempotency) }
