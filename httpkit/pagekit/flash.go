package pagekit

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// Flash is a one-time notice shown on the page a form redirects to
// (post/redirect/get). Secret is shown once in a code box (a new API key).
type Flash struct {
	Kind    string // ok, error
	Message string
	Secret  string
}

// LocalPath reports whether next may be where a form sends the browser
// after it (?next=): a path of this site ("/..."), not another site's
// ("//host", "/\host"), without a backslash or a control character, and
// at most 500 bytes. An open redirect is never one.
func LocalPath(next string) bool {
	return len(next) <= 500 && strings.HasPrefix(next, "/") && !strings.HasPrefix(next, "//") &&
		!strings.ContainsAny(next, "\\\r\n\t")
}

// OK is a success notice.
func OK(msg string) *Flash { return &Flash{Kind: "ok", Message: msg} }

// randomHex is 16 random bytes in hex (a seed cookie).
func randomHex() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
