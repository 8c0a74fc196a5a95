package panel

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/pagekit"
)

// cookieGone is an Expires in the past: the browser deletes the cookie.
var cookieGone = time.Unix(1, 0).UTC()

const (
	sessionCookie = "sf_admin"       // the session id
	loginCookie   = "sf_admin_login" // the login form's CSRF seed, before there is a session
)

// session is one logged-in browser, as stored in app.SharedState (its
// expiry beside it). The id lives only in the cookie; the server keys
// sessions by its SHA-256.
type session struct {
	AdminID uint64 `json:"admin_id"`
	Version uint64 `json:"version"` // the admin's TokenVersion at login: a password change ends the session
	Flash   *flash `json:"flash,omitempty"`
	expires time.Time
}

// sessions are the panel's logins with an absolute lifetime, in the shared
// state: the database's when several processes share it (a browser's
// requests may land on any of them), else this process's memory
// (app.MemoryShared).
type sessions struct {
	now    func() time.Time
	ttl    time.Duration
	shared app.SharedState
}

// newSessions keeps the sessions in shared (nil: in memory).
func newSessions(now func() time.Time, ttl time.Duration, shared app.SharedState) *sessions {
	if shared == nil {
		shared = &app.MemoryShared{}
	}
	return &sessions{now: now, ttl: ttl, shared: shared}
}

func sessionKey(id string) [32]byte { return sha256.Sum256([]byte(id)) }

// sharedKind names the panel sessions in app.SharedState.
const sharedKind = "admin_panel_session"

func (s *sessions) put(k [32]byte, sess *session) bool {
	b, err := json.Marshal(sess)
	return err == nil && s.shared.PutShared(sharedKind, string(k[:]), sess.AdminID, b, sess.expires) == nil
}

func (s *sessions) load(k [32]byte) (*session, bool) {
	b, exp, found, err := s.shared.GetShared(sharedKind, string(k[:]))
	sess := &session{expires: exp}
	if err != nil || !found || json.Unmarshal(b, sess) != nil {
		return nil, false
	}
	return sess, true
}

// create starts a session for an admin and returns its id. After
// AdminService.ChangePassword, call it with the returned user to keep the
// browser that made the change logged in (every older session has ended).
func (s *sessions) create(u *app.AdminUser) string {
	id := app.RandomHex(32)
	now := s.now()
	_ = s.shared.DeleteSharedBefore(sharedKind, now) // sweep: logins are rare
	s.put(sessionKey(id), &session{AdminID: u.ID, Version: u.TokenVersion, expires: now.Add(s.ttl)})
	return id
}

// get returns a copy of a live session.
func (s *sessions) get(id string) (session, bool) {
	if len(id) != 64 {
		return session{}, false
	}
	k := sessionKey(id)
	sess, found := s.load(k)
	if !found {
		return session{}, false
	}
	if !s.now().Before(sess.expires) {
		_ = s.shared.DeleteShared(sharedKind, string(k[:]))
		return session{}, false
	}
	return *sess, true
}

func (s *sessions) drop(id string) {
	k := sessionKey(id)
	_ = s.shared.DeleteShared(sharedKind, string(k[:]))
}

// dropAdmin ends every session of an admin user (deleted account; a session
// of an older token version also ends at its next request, see authed).
func (s *sessions) dropAdmin(adminID uint64) {
	_ = s.shared.DeleteSharedOf(sharedKind, adminID)
}

func (s *sessions) setFlash(id string, f *flash) {
	k := sessionKey(id)
	if sess, found := s.load(k); found {
		sess.Flash = f
		s.put(k, sess)
	}
}

func (s *sessions) popFlash(id string) *flash {
	k := sessionKey(id)
	sess, found := s.load(k)
	if !found || sess.Flash == nil {
		return nil
	}
	f := sess.Flash
	sess.Flash = nil
	s.put(k, sess)
	return f
}

// loginSeed is the login form's CSRF seed cookie, before there is a
// session; the form's token is bound to it (pagekit.CSRF), so a cookie
// planted by someone else does not give them a valid form.
var loginSeed = pagekit.SeedCookie{Name: loginCookie, Path: "/admin", MaxAge: time.Hour}

type loginData struct {
	Email     string
	Next      string
	LoggedOut bool
	// Ticket, when set, makes the page the second step: the account's
	// TOTP or recovery code (the ticket proves the password was right).
	Ticket string
}

// deviceCookie holds the admin's device token (takeLogin): failures from
// elsewhere never lock this browser out.
const deviceCookie = "sf_admin_device"

// totpTicket signs "the password of email was right" for the second step
// of a login started with the login form of seed, valid until exp.
func (p *panel) totpTicket(email, seed string, exp int64) string {
	m := hmac.New(sha256.New, p.loginKey)
	m.Write([]byte("panel-totp\x00" + email + "\x00" + seed + "\x00" + strconv.FormatInt(exp, 10)))
	return strconv.FormatInt(exp, 10) + "." + hex.EncodeToString(m.Sum(nil))
}

// ticketOK checks a second-step ticket of email (five minutes), compared in
// constant time.
func (p *panel) ticketOK(ticket, email, seed string) bool {
	expS, _, _ := strings.Cut(ticket, ".")
	exp, err := strconv.ParseInt(expS, 10, 64)
	return err == nil && p.h.svc.Now().Unix() <= exp && hmac.Equal([]byte(ticket), []byte(p.totpTicket(email, seed, exp)))
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
	v.CSRF = p.csrf.Token("panel-login", loginSeed.Ensure(c))
	if err := p.render(c, status, "login", v); err != nil {
		return p.fail(c, v, err)
	}
	return nil
}

// loginPost serves POST /admin/login/ {csrf, email, password, next}.
func (p *panel) loginPost(c *fiber.Ctx) error {
	securityHeaders(c)
	c.Set(fiber.HeaderCacheControl, "no-store")
	seed, found := loginSeed.Get(c)
	if !found || !p.csrf.FormOK(c, "panel-login", seed) {
		return p.errorPage(c, &view{}, fiber.StatusForbidden, "The login form has expired. Reload the login page and try again.")
	}
	fv := readForm(c, nil, "email", "next", "password", "totp_code", "recovery_code", "ticket")
	email := app.NormalizeEmail(fv["email"])
	next := safeNext(fv["next"])
	v := &view{Title: "Log in", Data: loginData{Email: strings.Clone(email), Next: next}}
	ip := p.h.svc.Proxies.ClientIP(c)
	in := app.LoginRequest{Email: email, Password: fv["password"], IP: ip, Device: c.Cookies(deviceCookie),
		TOTPCode: fv["totp_code"], RecoveryCode: fv["recovery_code"]}
	var r *app.AdminLogin
	var err error
	if ticket := fv["ticket"]; ticket != "" {
		if !p.ticketOK(ticket, email, seed) {
			return p.showLogin(c, v.withError("The login has expired. Log in again."), fiber.StatusUnauthorized)
		}
		r, err = p.h.svc.Admins.LoginSecondStep(in)
		if app.ErrorCode(err) == app.EInvalidCreds || app.ErrorCode(err) == app.ETOTPRequired {
			v.Data = loginData{Email: strings.Clone(email), Next: next, Ticket: strings.Clone(ticket)}
			return p.showLogin(c, v.withError("Wrong or already used code."), fiber.StatusUnauthorized)
		}
	} else {
		r, err = p.h.svc.Admins.LoginWith(in)
	}
	if app.ErrorCode(err) == app.ETOTPRequired {
		v.Data = loginData{Email: strings.Clone(email), Next: next, Ticket: p.totpTicket(email, seed, p.h.svc.Now().Add(5*time.Minute).Unix())}
		return p.showLogin(c, v, fiber.StatusOK)
	}
	if err != nil {
		var ae *app.Error
		switch {
		case errors.As(err, &ae) && ae.Code == app.ERateLimited:
			mins := (ae.RetryAfter + 59) / 60
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(ae.RetryAfter))
			return p.showLogin(c, v.withError("Too many failed logins. Try again in "+strconv.Itoa(mins)+" minutes."), fiber.StatusTooManyRequests)
		case app.ErrorCode(err) == app.EInvalidCreds:
			p.h.svc.Log.Warn("admin panel login failed", "ip", ip)
			return p.showLogin(c, v.withError("Wrong email or password."), fiber.StatusUnauthorized)
		}
		return p.showLogin(c, v, p.formError(c, v, err))
	}
	u := r.User
	pagekit.SetCookie(c, fiber.Cookie{Name: deviceCookie, Value: r.Device, Path: "/admin", Expires: r.DeviceExpiresAt}, false)
	if p.h.svc.Admins.MustEnrolTOTP(u, p.h.svc.Stores.Get) {
		next = "/admin/totp/"
	}
	// A browser-session cookie: the server ends the session after its lifetime.
	id := p.sessions.create(u)
	pagekit.SetCookie(c, fiber.Cookie{Name: sessionCookie, Value: id, Path: "/admin"}, false)
	pagekit.SetCookie(c, fiber.Cookie{Name: loginCookie, Value: "", Path: "/admin", Expires: cookieGone}, false)
	p.h.svc.Log.Info("admin panel login", "admin_id", u.ID)
	return c.Redirect(next, fiber.StatusSeeOther)
}

// logout serves POST /admin/logout/.
func (p *panel) logout(c *fiber.Ctx, v *view) error {
	p.sessions.drop(v.sid)
	pagekit.SetCookie(c, fiber.Cookie{Name: sessionCookie, Value: "", Path: "/admin", Expires: cookieGone}, false)
	return c.Redirect("/admin/login/?out=1", fiber.StatusSeeOther)
}

func (v *view) withError(msg string) *view {
	v.Error = msg
	return v
}
