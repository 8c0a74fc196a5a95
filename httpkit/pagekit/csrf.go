package pagekit

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"hash"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
)

// CSRF makes and checks the token a form carries in its csrf field: an
// HMAC, under a key every process of the site shares, of what the token is
// bound to: a session id (the panel), or a browser's seed cookie with the
// host and who is signed in (the shop). Nothing is kept per process: any
// process checks what another made, and a token taken from one session,
// browser or host is worthless in another. The seed cookie itself proves
// nothing: a cookie planted by someone else does not give them the token,
// which needs the key.
type CSRF struct{ macs *sync.Pool }

// NewCSRF keys the tokens with secret (at least 32 random bytes, the same
// in every process) for one purpose: a secret that also signs other things
// gives tokens that are worth nothing there.
func NewCSRF(secret []byte, purpose string) CSRF {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("pagekit csrf\x00" + purpose))
	key := m.Sum(nil)
	return CSRF{macs: &sync.Pool{New: func() any { return hmac.New(sha256.New, key) }}}
}

// Token is the token of binding (its parts are joined unambiguously).
func (k CSRF) Token(binding ...string) string {
	m := k.macs.Get().(hash.Hash)
	defer k.macs.Put(m)
	m.Reset()
	var buf [128]byte
	b := append(buf[:0], "csrf"...)
	for _, part := range binding {
		b = append(append(b, 0), part...)
	}
	m.Write(b)
	var sum [sha256.Size]byte
	return hex.EncodeToString(m.Sum(sum[:0])[:16])
}

// Valid reports whether got is the token of binding (constant time).
func (k CSRF) Valid(got string, binding ...string) bool {
	want := k.Token(binding...)
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// FormOK reports whether the form's csrf field is the token of binding.
func (k CSRF) FormOK(c *fiber.Ctx, binding ...string) bool {
	return k.Valid(c.FormValue("csrf"), binding...)
}

// SeedCookie is a browser's CSRF seed: a random value in an HttpOnly,
// SameSite=Lax cookie, for forms shown before there is a session.
type SeedCookie struct {
	Name, Path string
	MaxAge     time.Duration // 0: a session cookie
	Secure     bool          // always Secure (else only behind https)
}

// Get returns the request's seed, and whether it came with the request.
func (s SeedCookie) Get(c *fiber.Ctx) (string, bool) {
	v := c.Cookies(s.Name)
	if len(v) == 32 && strings.Trim(v, "0123456789abcdef") == "" {
		return v, true
	}
	return "", false
}

// Ensure returns the request's seed, setting a new one when it has none
// (and setting it again, for MaxAge more, when it has one and MaxAge is
// set). A POST that came without it cannot carry a token of a new one: it
// fails.
func (s SeedCookie) Ensure(c *fiber.Ctx) string {
	v, ok := s.Get(c)
	if ok && s.MaxAge == 0 {
		return v
	}
	if !ok {
		v = randomHex()
	}
	SetCookie(c, fiber.Cookie{Name: s.Name, Value: v, Path: s.Path, MaxAge: int(s.MaxAge / time.Second)}, s.Secure)
	return v
}

// SetCookie sets a cookie of a set of pages: HttpOnly and SameSite=Lax
// always, Secure when secure (a https public URL) or behind https.
func SetCookie(c *fiber.Ctx, ck fiber.Cookie, secure bool) {
	ck.HTTPOnly, ck.SameSite, ck.Secure = true, fiber.CookieSameSiteLaxMode, secure || c.Protocol() == "https"
	c.Cookie(&ck)
}
