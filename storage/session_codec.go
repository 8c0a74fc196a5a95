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

// Payment sessions (one per order) are stored in a compact binary form like
// idempotency records (idempotency.go); sessions written as JSON before it
// are read as they are ('{' first), so no migration is needed.
//
// Compact form (sessCompact first):
//
//	flags byte (sessTest, sessStdID, sessRefIsID)
//	the id: 12 bytes, the random part of a standard id (sessStdID: app.SessionID
//	  of the key's store and seq with 24 lowercase hex digits), else uvarint len, id
//	uvarint order id, varint amount
//	strings (uvarint len, bytes): method, currency, callback_url, status,
//	  paid_transaction_id, provider, provider_ref (empty with sessRefIsID)
//	uvarint: 0, or 1+ where the id stands in the redirect URL; string: the URL without it
//	the attempts: with sessAttempts, uvarint 0 (null) or 1+count, then per
//	  attempt string transaction_id, byte success (0 or 1), string message,
//	  time at (appendTime); without it (sessions written before it, or an
//	  attempt time appendTime cannot hold), a string: the attempts as JSON
//	varint created_at (Unix ns), varint updated_at - created_at
//
// The store id and seq are the bbolt key. A session the form cannot hold
// exactly (a time that is not UTC) is written as JSON.
const sessCompact = 0x01

const (
	sessTest     = 1 << 0
	sessStdID    = 1 << 1
	sessRefIsID  = 1 << 2
	sessAttempts = 1 << 3
)

// utcNanos reports whether t survives Unix nanoseconds in UTC exactly.
func utcNanos(t time.Time) bool {
	return t.Location() == time.UTC && t.Equal(time.Unix(0, t.UnixNano()))
}

func encodeSession(ps *app.PaymentSession) ([]byte, error) {
	if !utcNanos(ps.CreatedAt) || !utcNanos(ps.UpdatedAt) {
		b, err := json.Marshal(ps)
		if err != nil {
			return nil, fmt.Errorf("storage: encode payment session: %w", err)
		}
		return b, nil
	}
	flags := byte(0)
	if ps.Test {
		flags |= sessTest
	}
	var attempts []byte // as JSON, when an attempt's time does not fit
	var err error
	if attemptsFit(ps.Attempts) {
		flags |= sessAttempts
	} else if attempts, err = json.Marshal(ps.Attempts); err != nil {
		return nil, fmt.Errorf("storage: encode payment session: %w", err)
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
	if flags&sessAttempts != 0 {
		b = appendAttempts(b, ps.Attempts)
	} else {
		b = appendString(b, string(attempts))
	}
	b = binary.AppendVarint(b, ps.CreatedAt.UnixNano())
	b = binary.AppendVarint(b, ps.UpdatedAt.UnixNano()-ps.CreatedAt.UnixNano())
	return b, nil
}

func attemptsFit(as []app.PaymentAttempt) bool {
	for _, a := range as {
		if !timeFits(a.At) {
			return false
		}
	}
	return true
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

// decodeSession reads a stored session at bbolt key k (sid|seq; either form).
func decodeSession(k, v []byte) (*app.PaymentSession, error) {
	var ps app.PaymentSession
	if len(v) > 0 && v[0] == '{' {
		if err := getJSONBytes(v, &ps, "payment session"); err != nil {
			return nil, err
		}
		return &ps, nil
	}
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
	var attempts string
	if flags&sessAttempts != 0 {
		ps.Attempts = d.attempts()
	} else {
		attempts = d.str()
	}
	created := d.varint()
	updated := d.varint()
	if !d.done() {
		return nil, errSessCorrupt
	}
	if flags&sessAttempts == 0 {
		if err := json.Unmarshal([]byte(attempts), &ps.Attempts); err != nil {
			return nil, errSessCorrupt
		}
	}
	ps.CreatedAt = time.Unix(0, created).UTC()
	ps.UpdatedAt = time.Unix(0, created+updated).UTC()
	return &ps, nil
}

// sessionJSON is a stored session as JSON (what Export hands on).
func sessionJSON(k, v []byte) ([]byte, error) { return storedJSON(k, v, decodeSession) }
