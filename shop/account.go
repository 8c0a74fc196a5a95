package shop

import (
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/i18n"
)

// The account pages call the services the storefront API's account routes
// call (web/account.go), with the same limits on the same keys: one budget
// for a client whether it uses the API or the shop.

// registerAccountRoutes adds the account pages.
func (s *Shop) registerAccountRoutes(a *fiber.App) {
	a.Get("/account/register", s.page(s.registerPage))
	a.Post("/account/register", s.form(s.limitIP(s.registerPost), s.accountAgain(registerFields, s.registerView)))
	a.Get("/account/login", s.page(s.loginPage))
	a.Post("/account/login", s.form(s.limitIP(s.loginPost), s.accountAgain(loginPosted, s.loginView)))
	a.Post("/account/logout", s.page(s.logoutPost))
	a.Get("/account/verify", s.page(signedIn(s.verifyPage)))
	a.Post("/account/verify", s.page(signedIn(s.limitIP(s.verifyPost))))
	a.Post("/account/verify/resend", s.page(signedIn(s.limitIP(s.resendPost))))
	a.Get("/account/password/forgot", s.page(s.forgotPage))
	a.Post("/account/password/forgot", s.form(s.limitIP(s.forgotPost), s.accountAgain(forgotFields, s.forgotView)))
	a.Get("/account/password/reset", s.page(s.resetPage))
	a.Post("/account/password/reset", s.form(s.limitIP(s.resetPost), s.accountAgain(resetFields, s.resetView)))
	a.Get("/account", s.page(signedIn(s.accountHome)))
	a.Post("/account/profile", s.page(signedIn(s.profilePost)))
	s.registerAddressRoutes(a)
	s.registerOrderRoutes(a)
	s.registerTicketRoutes(a)
}

// limitIP applies ratelimit.auth_per_minute per client IP, as the API does
// (the same key): over it, the page says so (429).
func (s *Shop) limitIP(fn pageFunc) pageFunc {
	return func(c *fiber.Ctx, rq *request) error {
		if s.cfg.AuthPerMinute > 0 {
			lim := app.Limit{Key: "auth-ip|" + app.AddrKey(s.proxies.ClientIP(c)), Max: s.cfg.AuthPerMinute, Window: time.Minute}
			if err := app.TakeAll(s.svc.Limits, "too many requests; retry later", lim); err != nil {
				return s.limited(c, rq, err)
			}
		}
		return fn(c, rq)
	}
}

// limited renders a refused limit as a message on the account page.
func (s *Shop) limited(c *fiber.Ctx, rq *request, err error) error {
	if app.ErrorCode(err) != app.ERateLimited {
		return err
	}
	retryAfter(c, err)
	return s.showForm(c, rq, fiber.StatusTooManyRequests, accountView{Title: rq.L.T("account.limited.title"),
		Intro: rq.L.T("account.limited"), Links: []link{{"/account/", rq.L.T("account.back")}}})
}

// limitMail takes one code mail from the budgets of the requester (ip),
// who and email, as the API's limitMail does (app.CustomerService.CodeMailLimits),
// and runs send; a failed send gives them back.
func (s *Shop) limitMail(rq *request, ip, who, email string, send func() error) error {
	lims, err := s.svc.Customers.CodeMailLimits(rq.Store.ID, who, email, ip, s.cfg.LoginFailures, s.cfg.CodesPerDay)
	if err != nil {
		return err
	}
	if err := app.TakeAll(s.svc.Limits, "too many codes sent to this address; retry later", lims...); err != nil {
		return err
	}
	if err := send(); err != nil {
		app.RefundAll(s.svc.Limits, lims...)
		return err
	}
	return nil
}

// notice is the flash message a redirect names (?m=), "" for none.
func notice(c *fiber.Ctx, l *i18n.Catalog) string {
	if k := "account.m." + c.Query("m"); l.Has(k) {
		return l.T(k)
	}
	return ""
}

var registerFields = []fieldSpec{
	{Name: "first_name", Auto: "given-name", Max: 200, Required: true},
	{Name: "last_name", Auto: "family-name", Max: 200},
	{Name: "email", Type: "email", Auto: "email", Max: 254, Required: true},
	{Name: "phone", Type: "tel", Auto: "tel", Max: 40},
	{Name: "password", Type: "password", Auto: "new-password", Max: 200, Required: true},
	{Name: "password_confirm", Type: "password", Auto: "new-password", Max: 200, Required: true},
}

func (s *Shop) registerView(rq *request, vals map[string]string) accountView {
	return accountView{Title: rq.L.T("account.register.title"),
		Forms: []formView{newForm(rq, "/account/register/", "account.register.submit", registerFields, vals)},
		Links: []link{{"/account/login/", rq.L.T("account.register.haveone")}}}
}

// registerPage serves GET /account/register/.
func (s *Shop) registerPage(c *fiber.Ctx, rq *request) error {
	return s.showForm(c, rq, fiber.StatusOK, s.registerView(rq, nil))
}

// registerPost serves POST /account/register/: the customer service's
// Register (as the API's route), then the shopper is signed in and, when
// the store asks for verified emails, sent to enter the mailed code.
func (s *Shop) registerPost(c *fiber.Ctx, rq *request) error {
	vals, err := decodeAccountForm(c.Body(), registerFields)
	v := s.registerView(rq, vals)
	if err != nil {
		return s.formFail(c, rq, v, err)
	}
	res, err := s.svc.Customers.Register(rq.Store, app.Registration{Email: vals["email"], Password: vals["password"],
		PasswordConfirm: vals["password_confirm"], FirstName: vals["first_name"], LastName: vals["last_name"], Phone: vals["phone"]})
	if err != nil {
		return s.formFail(c, rq, v, err)
	}
	if err := s.signIn(c, rq, res.AccessToken, res.RefreshToken); err != nil {
		return err
	}
	if rq.Store.Settings().EmailOTPEnabled {
		return redirect(c, "/account/verify/?m=registered")
	}
	return redirect(c, "/account/?m=registered")
}

var loginFields = []fieldSpec{
	{Name: "email", Type: "email", Auto: "email", Max: 254, Required: true},
	{Name: "password", Type: "password", Auto: "current-password", Max: 200, Required: true},
}

// loginPosted are the fields the login form posts: its own and the hidden
// next (a local path to go back to).
var loginPosted = append(slices.Clip(loginFields), fieldSpec{Name: "next", Max: 2048, Clip: true})

func (s *Shop) loginView(rq *request, vals map[string]string) accountView {
	f := newForm(rq, "/account/login/", "account.login.submit", loginFields, vals)
	f.Hidden = map[string]string{"next": localNext(vals["next"])}
	return accountView{Title: rq.L.T("account.login.title"), Forms: []formView{f},
		Links: []link{{"/account/password/forgot/", rq.L.T("account.login.forgot")}, {"/account/register/", rq.L.T("account.login.new")}}}
}

// loginPage serves GET /account/login/ (?next= a local path to go back to).
func (s *Shop) loginPage(c *fiber.Ctx, rq *request) error {
	next := localNext(c.Query("next"))
	if rq.Customer != nil {
		return c.Redirect(next, fiber.StatusSeeOther)
	}
	v := s.loginView(rq, map[string]string{"next": next})
	v.Notice = notice(c, rq.L)
	return s.showForm(c, rq, fiber.StatusOK, v)
}

// cookieDevice is the shopper's device token (app.TokenDevice) from a
// successful sign-in: HttpOnly, for app.DeviceTokenTTL.
const cookieDevice = "sf_device"

// loginPost serves POST /account/login/: the API's login checks, then the
// customer service's LoginWith (which counts failures per email, address
// and device).
func (s *Shop) loginPost(c *fiber.Ctx, rq *request) error {
	vals, err := decodeAccountForm(c.Body(), loginPosted)
	next := localNext(vals["next"])
	v := s.loginView(rq, vals)
	if err != nil {
		return s.formFail(c, rq, v, err)
	}
	var val app.Validation
	val.Required("email", vals["email"])
	val.Check(vals["password"] != "", "password", "is required")
	if err := val.Err(); err != nil {
		return s.formFail(c, rq, v, err)
	}
	// as the API's login: the address counts as the account's once signed
	// in, and the device cookie keeps this browser's own failure budget,
	// so failures from elsewhere never lock the shopper out here
	res, err := s.svc.Customers.LoginWith(rq.Store, app.LoginRequest{Email: vals["email"], Password: vals["password"],
		IP: s.proxies.ClientIP(c), Device: c.Cookies(cookieDevice)})
	if err != nil {
		return s.formFail(c, rq, v, err)
	}
	if err := s.signIn(c, rq, res.AccessToken, res.RefreshToken); err != nil {
		return err
	}
	s.setCookie(c, cookieDevice, res.DeviceToken, app.DeviceTokenTTL)
	if next == "/account/" && !rq.Customer.EmailVerified && rq.Store.Settings().EmailOTPEnabled {
		next = "/account/verify/" // the store asks for it before an order
	}
	return c.Redirect(next, fiber.StatusSeeOther)
}

// logoutPost serves POST /account/logout/: the session ends (its tokens
// revoked) and the shopper is a guest again.
func (s *Shop) logoutPost(c *fiber.Ctx, rq *request) error {
	s.signOut(c, rq)
	return redirect(c, "/account/login/?m=loggedout")
}

// codeField is the field of an emailed code.
var codeFields = []fieldSpec{{Name: "code", Auto: "one-time-code", Max: 20, Required: true}}

func (s *Shop) verifyView(rq *request, vals map[string]string) accountView {
	resend := formView{Action: "/account/verify/resend", Submit: "account.verify.resend", CSRF: rq.CSRF, Class: "secondary", l: rq.L}
	return accountView{Title: rq.L.T("account.verify.title"), Intro: rq.L.TF("account.verify.intro", rq.Customer.Email),
		Forms: []formView{newForm(rq, "/account/verify/", "account.verify.submit", codeFields, vals), resend}}
}

// verifyPage serves GET /account/verify/: the form for the mailed code.
func (s *Shop) verifyPage(c *fiber.Ctx, rq *request) error {
	if rq.Customer.EmailVerified {
		return c.Redirect("/account/", fiber.StatusSeeOther)
	}
	v := s.verifyView(rq, nil)
	v.Notice = notice(c, rq.L)
	return s.showForm(c, rq, fiber.StatusOK, v)
}

// verifyPost serves POST /account/verify/ (the API's verify-email).
func (s *Shop) verifyPost(c *fiber.Ctx, rq *request) error {
	vals, err := decodeAccountForm(c.Body(), codeFields)
	v := s.verifyView(rq, vals)
	if err == nil {
		sh := rq.shopper()
		_, err = s.svc.Customers.VerifyEmail(rq.Store, &sh, vals["code"])
	}
	if err != nil {
		return s.formFail(c, rq, v, err)
	}
	return redirect(c, "/account/?m=verified")
}

// resendPost serves POST /account/verify/resend (the API's resend-code,
// with its mail limits).
func (s *Shop) resendPost(c *fiber.Ctx, rq *request) error {
	sh := rq.shopper()
	err := s.limitMail(rq, s.proxies.ClientIP(c), "customer:"+strconv.FormatUint(sh.CustomerID, 10), rq.Customer.Email, func() error {
		return s.svc.Customers.ResendCode(rq.Store, &sh)
	})
	if err != nil {
		return s.formFail(c, rq, s.verifyView(rq, nil), err)
	}
	return redirect(c, "/account/verify/?m=resent")
}

var forgotFields = []fieldSpec{{Name: "email", Type: "email", Auto: "email", Max: 254, Required: true}}

func (s *Shop) forgotView(rq *request, vals map[string]string) accountView {
	return accountView{Title: rq.L.T("account.forgot.title"), Intro: rq.L.T("account.forgot.intro"),
		Forms: []formView{newForm(rq, "/account/password/forgot/", "account.forgot.submit", forgotFields, vals)}}
}

// forgotPage serves GET /account/password/forgot/.
func (s *Shop) forgotPage(c *fiber.Ctx, rq *request) error {
	return s.showForm(c, rq, fiber.StatusOK, s.forgotView(rq, nil))
}

// forgotPost serves POST /account/password/forgot/ (the API's forgot, with
// its mail limits): it answers alike for unknown emails.
func (s *Shop) forgotPost(c *fiber.Ctx, rq *request) error {
	vals, err := decodeAccountForm(c.Body(), forgotFields)
	v := s.forgotView(rq, vals)
	email := app.NormalizeEmail(vals["email"])
	if err == nil {
		var val app.Validation
		val.Email("email", email)
		err = val.Err()
	}
	if err == nil {
		err = s.limitMail(rq, s.proxies.ClientIP(c), "email:"+email, email, func() error {
			return s.svc.Customers.ForgotPassword(rq.Store, email)
		})
	}
	if err != nil {
		return s.formFail(c, rq, v, err)
	}
	return redirect(c, "/account/password/reset/?m=codesent&email="+url.QueryEscape(email))
}

var resetFields = []fieldSpec{
	{Name: "email", Type: "email", Auto: "email", Max: 254, Required: true},
	{Name: "code", Auto: "one-time-code", Max: 20, Required: true},
	{Name: "password", Type: "password", Auto: "new-password", Max: 200, Required: true},
	{Name: "password_confirm", Type: "password", Auto: "new-password", Max: 200, Required: true},
}

func (s *Shop) resetView(rq *request, vals map[string]string) accountView {
	return accountView{Title: rq.L.T("account.reset.title"), Intro: rq.L.T("account.reset.intro"),
		Forms: []formView{newForm(rq, "/account/password/reset/", "account.reset.submit", resetFields, vals)}}
}

// resetPage serves GET /account/password/reset/ (?email= prefilled).
func (s *Shop) resetPage(c *fiber.Ctx, rq *request) error {
	email := c.Query("email")
	if len(email) > 254 {
		email = ""
	}
	v := s.resetView(rq, map[string]string{"email": email})
	v.Notice = notice(c, rq.L)
	return s.showForm(c, rq, fiber.StatusOK, v)
}

// resetPost serves POST /account/password/reset/ (the API's reset): the
// password changes, every session ends, the shopper signs in again.
func (s *Shop) resetPost(c *fiber.Ctx, rq *request) error {
	vals, err := decodeAccountForm(c.Body(), resetFields)
	v := s.resetView(rq, vals)
	if err == nil {
		err = s.svc.Customers.ResetPassword(rq.Store, app.PasswordReset{Email: vals["email"], Code: vals["code"],
			Password: vals["password"], PasswordConfirm: vals["password_confirm"]})
	}
	if err != nil {
		return s.formFail(c, rq, v, err)
	}
	if rq.Customer != nil {
		s.signOut(c, rq)
	}
	return redirect(c, "/account/login/?m=reset")
}
