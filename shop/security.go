package shop

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"storefront/httpkit/pagekit"

	"github.com/gofiber/fiber/v2"
)

// Cookie names. Every shop cookie is HttpOnly and SameSite=Lax, and Secure
// behind https.
const (
	cookieCSRF    = "sf_csrf"    // the double-submit CSRF token
	cookieSession = "sf_session" // the signed-in shopper (account.go)
	cookieCart    = "sf_cart"    // the guest cart (cart.go)
)

// pageHeaders are the headers every shop page carries. The policy: no
// inline script, nothing from elsewhere (pictures come from the media store
// on the page's own host: picture) but the payment gateway a checkout form
// redirects to.
var pageHeaders = pagekit.SecurityHeaders{ReferrerPolicy: "strict-origin-when-cross-origin",
	CSP: pagekit.BaseCSP().Set("script-src", "'self'").Set("style-src", "'self'", "'unsafe-inline'").
		Set("img-src", "'self'", "data:").Set("font-src", "'self'").Set("connect-src", "'self'").
		Set("base-uri", "'self'").Set("form-action", "'self'", "https:").String()}

// setCookie sets a shop cookie: HttpOnly, SameSite=Lax, Secure behind https.
// maxAge 0 makes a session cookie; a negative one deletes it.
func (s *Shop) setCookie(c *fiber.Ctx, name, value string, maxAge time.Duration) {
	ck := fiber.Cookie{Name: name, Value: value, Path: "/"}
	switch {
	case maxAge < 0:
		ck.Value, ck.MaxAge, ck.Expires = "", -1, time.Unix(0, 0)
	case maxAge > 0:
		ck.MaxAge = int(maxAge / time.Second)
	}
	pagekit.SetCookie(c, ck, s.cfg.SecureCookies)
}

// csrfSeed is a browser's CSRF seed cookie (the kit's one scheme, pagekit.CSRF).
func (s *Shop) csrfSeed() pagekit.SeedCookie {
	return pagekit.SeedCookie{Name: cookieCSRF, Path: "/", Secure: s.cfg.SecureCookies}
}

// csrfBinding is what a form's CSRF token is bound to: the host and store,
// the browser's seed cookie and the signed-in shopper (0: a guest). A token
// from another host, browser or shopper is refused.
func csrfBinding(rq *request, seed string) []string {
	return []string{"shop", rq.host, strconv.FormatUint(rq.Store.ID, 10), seed, strconv.FormatUint(rq.customerID(), 10)}
}

// csrfToken returns the request's CSRF token, setting a seed cookie when
// the request has none.
func (s *Shop) csrfToken(c *fiber.Ctx, rq *request) string {
	return s.csrf.Token(csrfBinding(rq, s.csrfSeed().Ensure(c))...)
}

// csrfOK reports whether a POST's csrf field is the token of its binding.
// A browser without the seed cookie has no token to send: a cached page
// gives it none (pagecache.go), and the forms of cached pages (add to
// cart, the contact form: freshForms) are taken from it when they pass
// net/http's cross-origin check (Sec-Fetch-Site, else Origin); nothing
// else is.
func (s *Shop) csrfOK(c *fiber.Ctx, rq *request) bool {
	seed, ok := s.csrfSeed().Get(c)
	if !ok {
		return freshForms[c.Route().Path] && crossOrigin.Check(&http.Request{Method: c.Method(),
			Host: string(c.Request().Host()), Header: http.Header{"Sec-Fetch-Site": {c.Get("Sec-Fetch-Site")}, "Origin": {c.Get("Origin")}}}) == nil
	}
	return s.csrf.FormOK(c, csrfBinding(rq, seed)...)
}

// freshForms are the forms a browser may send before it has a seed
// cookie: those of the cached pages, whose effect is the visitor's own (a
// cart, a message). Signing in or up is not one (login CSRF).
var freshForms = map[string]bool{"/cart/add": true, "/contact/": true}

var crossOrigin = http.NewCrossOriginProtection()

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
