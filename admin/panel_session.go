package admin

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// cookieGone is an Expires in the past: the browser deletes the cookie.
var cookieGone = time.Unix(1, 0).UTC()

const (
	sessionCookie = "sf_admin"       // the session id
	loginCookie   = "sf_admin_login" // the login form's CSRF seed, before there is a session
)

// session is one logged-in browser. The id lives only in the cookie; the
// server keys sessions by its SHA-256.
type session struct {
	adminID uint64
	version uint64 // the admin's TokenVersion at login: a password change ends the session
	csrf    string
	expires time.Time
	flash   *flash
}

// sessions are the panel's logins, kept in memory with an absolute lifetime.
type sessions struct {
	now func() time.Time
	ttl time.Duration

	mu sync.Mutex
	m  map[[32]byte]*session
}

func newSessions(now func() time.Time, ttl time.Duration) *sessions {
	return &sessions{now: now, ttl: ttl, m: map[[32]byte]*session{}}
}

func sessionKey(id string) [32]byte { return sha256.Sum256([]byte(id)) }

// create starts a session for an admin and returns its id. After
// AdminService.ChangePassword, call it with the returned user to keep the
// browser that made the change logged in (every older session has ended).
func (s *sessions) create(u *app.AdminUser) string {
	id := app.RandomHex(32)
	now := s.now()
	exp := now.Add(s.ttl)
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, old := range s.m { // sweep: logins are rare, the map stays small
		if !now.Before(old.expires) {
			delete(s.m, k)
		}
	}
	s.m[sessionKey(id)] = &session{adminID: u.ID, version: u.TokenVersion, csrf: app.RandomHex(32), expires: exp}
	return id
}

// get returns a copy of a live session.
func (s *sessions) get(id string) (session, bool) {
	if len(id) != 64 {
		return session{}, false
	}
	k := sessionKey(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, found := s.m[k]
	if !found {
		return session{}, false
	}
	if !s.now().Before(sess.expires) {
		delete(s.m, k)
		return session{}, false
	}
	return *sess, true
}

func (s *sessions) drop(id string) {
	s.mu.Lock()
	delete(s.m, sessionKey(id))
	s.mu.Unlock()
}

// dropAdmin ends every session of an admin user (deleted account; a session
// of an older token version also ends at its next request, see authed).
func (s *sessions) dropAdmin(adminID uint64) {
	s.mu.Lock()
	for k, sess := range s.m {
		if sess.adminID == adminID {
			delete(s.m, k)
		}
	}
	s.mu.Unlock()
}

func (s *sessions) setFlash(id string, f *flash) {
	s.mu.Lock()
	if sess, found := s.m[sessionKey(id)]; found {
		sess.flash = f
	}
	s.mu.Unlock()
}

func (s *sessions) popFlash(id string) *flash {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, found := s.m[sessionKey(id)]
	if !found {
		return nil
	}
	f := sess.flash
	sess.flash = nil
	return f
}

// tokenEqual compares a submitted CSRF token in constant time.
func tokenEqual(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// loginToken is the login form's CSRF token for a seed cookie: an HMAC, so a
// cookie planted by someone else does not give them a valid form.
func (p *panel) loginToken(seed string) string {
	m := hmac.New(sha256.New, p.loginKey)
	m.Write([]byte("panel-login\x00"))
	m.Write([]byte(seed))
	return hex.EncodeToString(m.Sum(nil))
}

type loginData struct {
	Email     string
	Next      string
	LoggedOut bool
}

// loginPage serves GET /admin/login/.
func (p *panel) loginPage(c *fiber.Ctx) error {
	securityHeaders(c)
	c.Set(fiber.HeaderCacheControl, "no-store")
	if _, found := p.sessions.get(c.Cookies(sessionCookie)); found {
		return c.Redirect(safeNext(c.Query("next")), fiber.StatusSeeOther)
	}
	v := &view{Title: "Log in", Data: loginData{Next: safeNext(c.Query("next")), LoggedOut: c.Query("out") == "1"}}
	return p.showLogin(c, v, fiber.StatusOK)
}

// showLogin renders the login form with a CSRF token bound to the seed cookie.
func (p *panel) showLogin(c *fiber.Ctx, v *view, status int) error {
	seed := c.Cookies(loginCookie)
	if len(seed) != 64 {
		seed = app.RandomHex(32)
	}
	c.Cookie(&fiber.Cookie{Name: loginCookie, Value: seed, Path: "/admin", MaxAge: 3600,
		HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: c.Protocol() == "https"})
	v.CSRF = p.loginToken(seed)
	if err := p.render(c, status, "login", v); err != nil {
		return p.fail(c, v, err)
	}
	return nil
}

// loginPost serves POST /admin/login/ {csrf, email, password, next}.
func (p *panel) loginPost(c *fiber.Ctx) error {
	securityHeaders(c)
	c.Set(fiber.HeaderCacheControl, "no-store")
	seed := c.Cookies(loginCookie)
	if len(seed) != 64 || !tokenEqual(c.FormValue("csrf"), p.loginToken(seed)) {
		return p.errorPage(c, &view{}, fiber.StatusForbidden, "The login form has expired. Reload the login page and try again.")
	}
	email := app.NormalizeEmail(c.FormValue("email"))
	next := safeNext(c.FormValue("next"))
	v := &view{Title: "Log in", Data: loginData{Email: strings.Clone(email), Next: next}}
	ip := p.h.proxies.ClientIP(c)
	_, _, u, err := p.h.svc.Admins.Login(email, c.FormValue("password"), ip)
	if err != nil {
		var ae *app.Error
		switch {
		case errors.As(err, &ae) && ae.Code == app.ERateLimited:
			mins := (ae.RetryAfter + 59) / 60
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(ae.RetryAfter))
			return p.showLogin(c, v.withError("Too many failed logins. Try again in "+strconv.Itoa(mins)+" minutes."), fiber.StatusTooManyRequests)
		case app.ErrorCode(err) == app.EInvalidCreds:
			p.h.log.Warn("admin panel login failed", "ip", ip)
			return p.showLogin(c, v.withError("Wrong email or password."), fiber.StatusUnauthorized)
		}
		return p.showLogin(c, v, p.formError(c, v, err))
	}
	// A browser-session cookie: the server ends the session after its lifetime.
	id := p.sessions.create(u)
	c.Cookie(&fiber.Cookie{Name: sessionCookie, Value: id, Path: "/admin",
		HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: c.Protocol() == "https"})
	c.Cookie(&fiber.Cookie{Name: loginCookie, Value: "", Path: "/admin", Expires: cookieGone,
		HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: c.Protocol() == "https"})
	p.h.log.Info("admin panel login", "admin_id", u.ID)
	return c.Redirect(next, fiber.StatusSeeOther)
}

// logout serves POST /admin/logout/.
func (p *panel) logout(c *fiber.Ctx, v *view) error {
	p.sessions.drop(v.sid)
	c.Cookie(&fiber.Cookie{Name: sessionCookie, Value: "", Path: "/admin", Expires: cookieGone,
		HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: c.Protocol() == "https"})
	return c.Redirect("/admin/login/?out=1", fiber.StatusSeeOther)
}

func (v *view) withError(msg string) *view {
	v.Error = msg
	return v
}
