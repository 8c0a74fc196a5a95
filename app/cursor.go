package app

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
)

// CursorCodec turns cursors into opaque signed strings and back. The MAC
// covers the list's scope ("products", "category:7", ...) and the store id,
// so a cursor is good only for the list, the store and the sort it came from.
type CursorCodec struct {
	Secret []byte
}

const (
	cursorVersion = 1
	cursorMACLen  = 16
	// MaxCursorLen bounds the wire form of a cursor.
	MaxCursorLen = 1024
)

// Encode returns the wire form of c.
func (cc CursorCodec) Encode(scope string, storeID uint64, c *Cursor) string {
	if c == nil {
		return ""
	}
	p := make([]byte, 0, 2+len(c.Sort)+len(c.Key)+cursorMACLen)
	p = append(p, cursorVersion, byte(len(c.Sort)))
	p = append(p, c.Sort...)
	p = append(p, c.Key...)
	p = append(p, cc.mac(scope, storeID, p)...)
	return base64.RawURLEncoding.EncodeToString(p)
}

// Decode verifies and decodes s. Any tampering, another list's or store's
// cursor, or a sort other than sort is validation_failed.
func (cc CursorCodec) Decode(scope string, storeID uint64, sort, s string) (*Cursor, error) {
	bad := Invalid("cursor", "invalid cursor")
	if len(s) > MaxCursorLen {
		return nil, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) < 2+cursorMACLen || raw[0] != cursorVersion {
		return nil, bad
	}
	body, mac := raw[:len(raw)-cursorMACLen], raw[len(raw)-cursorMACLen:]
	if !hmac.Equal(mac, cc.mac(scope, storeID, body)) {
		return nil, bad
	}
	n := int(body[1])
	if 2+n > len(body) {
		return nil, bad
	}
	c := &Cursor{Sort: string(body[2 : 2+n]), Key: append([]byte(nil), body[2+n:]...)}
	if c.Sort != sort {
		return nil, Invalid("cursor", "the cursor belongs to another sort")
	}
	return c, nil
}

func (cc CursorCodec) mac(scope string, storeID uint64, body []byte) []byte {
	m := hmac.New(sha256.New, cc.Secret)
	m.Write([]byte(scope))
	m.Write([]byte{0})
	m.Write(binary.BigEndian.AppendUint64(nil, storeID))
	m.Write(body)
	return m.Sum(nil)[:cursorMACLen]
}
