package pagekit

import (
	"crypto/rand"
	"encoding/hex"
)

// Flash is a one-time notice shown on the page a form redirects to
// (post/redirect/get). Secret is shown once in a code box (a new API key).
type Flash struct {
	Kind    string // ok, error
	Message string
	Secret  string
}

// OK is a success notice.
func OK(msg string) *Flash { return &Flash{Kind: "ok", Message: msg} }

// randomHex is 16 random bytes in hex (a seed cookie).
func randomHex() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
