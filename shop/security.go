package shop

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// Cookie names. Every shop cookie is HttpOnly and SameSite=Lax, and Secure
// behind https.
const (
	cookieCSRF    = "sf_csrf"    // the double-submit CSRF token
	cookieSession = "sf_session" // the signed-in shopper (account.go)
	cookieCart    = "sf_cart"    // the guest cart (cart.go)
)

// csp is the shop's Content-Security-Policy: no inline script, nothing
// from elsewhere but images (product images may be on a CDN) and the
// payment gateway a checkout form redirects to.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; " +
	"font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self' https:"

// setPageHeaders sets the headers every shop page carries.
func setPageHeaders(c *fiber.Ctx) {
	h := &c.Response().Header
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "DENY")
}

// setCookie sets a shop cookie: HttpOnly, SameSite=Lax, Secure behind https.
// maxAge 0 makes a session cookie; a negative one deletes it.
func (s *Shop) setCookie(c *fiber.Ctx, name, value string, maxAge time.Duration) {
	ck := &fiber.Cookie{Name: name, Value: value, Path: "/", HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode,
		Secure: s.cfg.SecureCookies || c.Protocol() == "https"}
	switch {
	case maxAge < 0:
		ck.Value, ck.MaxAge, ck.Expires = "", -1, time.Unix(0, 0)
	case maxAge > 0:
		ck.MaxAge = int(maxAge / time.Second)
	}
	c.Cookie(ck)
}

// csrfToken returns the request's CSRF token, setting a new one in its
// cookie when the request has none (double-submit: a form's token must
// equal the cookie's, which another site can neither read nor set).
func (s *Shop) csrfToken(c *fiber.Ctx) string {
	if t := c.Cookies(cookieCSRF); len(t) == 32 && isHex(t) {
		return t
	}
	t := app.RandomHex(16)
	s.setCookie(c, cookieCSRF, t, 0)
	return t
}

// csrfOK reports whether a POST's csrf field is the cookie's token. A
// request that came without the cookie had a new token made above, which
// its form cannot carry: it fails.
func (s *Shop) csrfOK(c *fiber.Ctx, token string) bool {
	got := c.FormValue("csrf")
	return c.Cookies(cookieCSRF) == token && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

func isHex(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
}

// sign returns value with an HMAC of it and the store id appended, so a
// cookie made for one store is worthless at another.
func (s *Shop) sign(storeID uint64, value string) string {
	return value + "." + s.mac(storeID, value)
}

// unsign returns the value of a signed cookie, or false when its
// signature does not hold for storeID.
func (s *Shop) unsign(storeID uint64, signed string) (string, bool) {
	i := strings.LastIndexByte(signed, '.')
	if i < 0 {
		return "", false
	}
	v, mac := signed[:i], signed[i+1:]
	return v, hmac.Equal([]byte(mac), []byte(s.mac(storeID, v)))
}

func (s *Shop) mac(storeID uint64, value string) string {
	m := hmac.New(sha256.New, s.cfg.Secret)
	var id [8]byte
	for i := range id {
		id[i] = byte(storeID >> (8 * i))
	}
	m.Write(id[:])
	m.Write([]byte(value))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// safeURL returns u when it is an http(s) URL or a path on this site, and
// "" otherwise: a javascript: (or any other) URL from a store's config
// never becomes a link or an image.
func safeURL(u string) string {
	u = strings.TrimSpace(u)
	if strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") {
		return u
	}
	lower := strings.ToLower(u)
	if strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "http://") {
		return u
	}
	return ""
}
