package app

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// NewUUID returns a random uuid v4 in canonical lower-case form. It is the
// one source of uuids (ticket and address ids).
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// ParseUUID is the one uuid parser: it accepts a uuid in any letter case and
// returns its canonical lower-case form (a new string, safe to keep); ok is
// false for anything that is not a uuid (callers answer not_found).
func ParseUUID(s string) (string, bool) {
	if len(s) != 36 {
		return "", false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return "", false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return "", false
			}
		}
	}
	return strings.ToLower(strings.Clone(s)), true // ToLower alone may return s itself
}

// IsCanonicalUUID reports whether s is a uuid in canonical lower-case form,
// the only form stored.
func IsCanonicalUUID(s string) bool {
	id, ok := ParseUUID(s)
	return ok && id == s
}
