package storage

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"storefront/app"
)

// Payment sessions (one per order) are stored in one compact binary form,
// like idempotency records (idempotency.go).
//
// The form (sessCompact first):
//
//	flags byte (sessTest, sessStdID, sessRefIsID; sessAttempts always set:
//	  sessions without it held their attempts as JSON, migrate3.go)
//	the id: 12 bytes, the random part of a standard id (sessStdID: app.SessionID
//	  of the key's store and seq with 24 lowercase hex digits), else uvarint len, id
//	uvarint order id, varint amount
//	strings (uvarint len, bytes): method, currency, callback_url, status,
//	  paid_transaction_id, provider, provider_ref (empty with sessRefIsID)
//	uvarint: 0, or 1+ where the id stands in the redirect URL; string: the URL without it
//	the attempts: uvarint 0 (null) or 1+count, then per attempt string
//	  transaction_id, byte success (0 or 1), string message, time at (appendTime)
//	varint created_at (Unix ns), varint updated_at - created_at
//
// The store id and seq are the bbolt key. A session with a time the form
// cannot hold (a zero created or updated time, or one outside Unix
// nanoseconds) is refused.
const sessCompact = 0x01

const (
	sessTest     = 1 << 0
	sessStdID    = 1 << 1
	sessRefIsID  = 1 << 2
	sessAttempts = 1 << 3
)

func encodeSession(ps *app.PaymentSession) ([]byte, error) {
	err := timesFit(ps.CreatedAt, ps.UpdatedAt)
	for _, a := range ps.Attempts {
		if err == nil {
			err = timesFit(a.At)
		}
	}
	if err == nil && (ps.CreatedAt.IsZero() || ps.UpdatedAt.IsZero()) {
		err = errTimeRange
	}
	if err != nil {
		return nil, fmt.Errorf("storage: encode payment session %s: %w", ps.ID, err)
	}
	flags := byte(sessAttempts)
	if ps.Test {
		flags |= sessTest
	}
	std := app.SessionID(ps.StoreID, ps.Seq, "")
	random, isStd := strings.CutPrefix(ps.ID, std)
	var raw []byte
	if isStd {
		raw, err = hex.DecodeString(random)
		isStd = err == nil && len(raw) == 12 && hex.EncodeToString(raw) == random
	}
	ref := ps.ProviderRef
	if ref == ps.ID && ref != "" {
		flags, ref = flags|sessRefIsID, ""
	}
	b := make([]byte, 0, 128+len(ps.CallbackURL)+len(ps.RedirectURL))
	if isStd {
		flags |= sessStdID
		b = append(b, sessCompact, flags)
		b = append(b, raw...)
	} else {
		b = append(b, sessCompact, flags)
		b = appendString(b, ps.ID)
	}
	b = binary.AppendUvarint(b, ps.OrderID)
	b = binary.AppendVarint(b, int64(ps.Amount))
	for _, s := range []string{ps.Method, ps.Currency, ps.CallbackURL, ps.Status, ps.PaidTxID, ps.Provider, ref} {
		b = appendString(b, s)
	}
	b = appendRedirect(b, ps.RedirectURL, ps.ID)
	b = appendAttempts(b, ps.Attempts)
	b = binary.AppendVarint(b, ps.CreatedAt.UnixNano())
	b = binary.AppendVarint(b, ps.UpdatedAt.UnixNano()-ps.CreatedAt.UnixNano())
	return b, nil
}

func appendAttempts(b []byte, as []app.PaymentAttempt) []byte {
	b = appendCount(b, as == nil, len(as))
	for _, a := range as {
		b = appendString(b, a.TransactionID)
		if a.Success {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		b = appendString(b, a.Message)
		b = appendTime(b, a.At)
	}
	return b
}

// attempts reads what appendAttempts wrote.
func (d *compactReader) attempts() []app.PaymentAttempt {
	n, ok := d.count(4)
	if !ok {
		return nil
	}
	as := make([]app.PaymentAttempt, n)
	for i := range as {
		a := &as[i]
		a.TransactionID = d.str()
		switch d.bytes(1) {
		case "\x01":
			a.Success = true
		case "\x00":
		default:
			d.fail()
		}
		a.Message, a.At = d.str(), d.time()
	}
	return as
}

var errSessCorrupt = errors.New("storage: a corrupt payment session")

// decodeSession reads a stored session at bbolt key k (sid|seq).
func decodeSession(k, v []byte) (*app.PaymentSession, error) {
	if len(v) < 2 || v[1]&sessAttempts == 0 {
		return nil, errSessCorrupt
	}
	return readSession(k, v, (*compactReader).attempts)
}

// readSession reads the fields of a session, its attempts with attempts
// (the migration of the older form reads them as JSON).
func readSession(k, v []byte, attempts func(*compactReader) []app.PaymentAttempt) (*app.PaymentSession, error) {
	var ps app.PaymentSession
	if len(k) != 16 || len(v) < 2 || v[0] != sessCompact {
		return nil, errSessCorrupt
	}
	ps.StoreID, ps.Seq = binary.BigEndian.Uint64(k), binary.BigEndian.Uint64(k[8:])
	flags := v[1]
	d := compactReader{s: string(v[2:])}
	if flags&sessStdID != 0 {
		ps.ID = app.SessionID(ps.StoreID, ps.Seq, hex.EncodeToString([]byte(d.bytes(12))))
	} else {
		ps.ID = d.str()
	}
	ps.Test = flags&sessTest != 0
	ps.OrderID = d.uvarint()
	ps.Amount = app.Money(d.varint())
	for _, s := range []*string{&ps.Method, &ps.Currency, &ps.CallbackURL, &ps.Status, &ps.PaidTxID, &ps.Provider, &ps.ProviderRef} {
		*s = d.str()
	}
	if flags&sessRefIsID != 0 {
		ps.ProviderRef = ps.ID
	}
	ps.RedirectURL = d.redirect(ps.ID)
	ps.Attempts = attempts(&d)
	created := d.varint()
	updated := d.varint()
	if !d.done() {
		return nil, errSessCorrupt
	}
	ps.CreatedAt = time.Unix(0, created).UTC()
	ps.UpdatedAt = time.Unix(0, created+updated).UTC()
	return &ps, nil
}

// sessionJSON is a stored session as JSON (what Export hands on).
func sessionJSON(k, v []byte) ([]byte, error) { return storedJSON(k, v, decodeSession) }
