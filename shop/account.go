package shop

import (
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/i18n"
	"storefront/httpkit"
)

// The account pages call the services the storefront API's account routes
// call (web/account.go), with the same limits on the same keys: one budget
// for a client whether it uses the API or the shop.

// registerAccountRoutes adds the account pages.
func (s *Shop) registerAccountRoutes(a *fiber.App) {
	register := accountForm{registerFields, registerView, s.register}
	login := accountForm{loginPosted, loginView, s.login}
	forgot := accountForm{forgotFields, forgotView, s.forgot}
	reset := accountForm{resetFields, resetView, s.reset}
	a.Get("/account/register", s.page(s.show(registerView)))
	a.Post("/account/register", s.form(s.limitIP(s.send(register)), s.again(register)))
	a.Get("/account/login", s.page(s.loginPage))
	a.Post("/account/login", s.form(s.limitIP(s.send(login)), s.again(login)))
	a.Post("/account/logout", s.page(s.logoutPost))
	a.Get("/account/verify", s.page(signedIn(s.verifyPage)))
	a.Post("/account/verify", s.page(signedIn(s.limitIP(s.send(accountForm{codeFields, s.verifyView, s.verify})))))
	a.Post("/account/verify/resend", s.page(signedIn(s.limitIP(s.resendPost))))
	a.Get("/account/password/forgot", s.page(s.show(forgotView)))
	a.Post("/account/password/forgot", s.form(s.limitIP(s.send(forgot)), s.again(forgot)))
	a.Get("/account/password/reset", s.page(s.resetPage))
	a.Post("/account/password/reset", s.form(s.limitIP(s.send(reset)), s.again(reset)))
	a.Get("/account", s.page(signedIn(s.accountHome)))
	a.Post("/account/profile", s.page(signedIn(s.profilePost)))
	s.registerAddressRoutes(a)
	s.registerOrderRoutes(a)
	s.registerTicketRoutes(a)
}

// limitIP applies ratelimit.auth_per_minute per client IP, as the API does
// (the same key): over it, the account page says so (429).
func (s *Shop) limitIP(fn pageFunc) pageFunc {
	return func(c *fiber.Ctx, rq *request) error {
		lim := app.Limit{Key: "auth-ip|" + app.AddrKey(s.proxies.ClientIP(c)), Max: s.cfg.AuthPerMinute, Window: time.Minute}
		if err := app.TakeAll(s.svc.Limits, "too many requests; retry later", lim); err != nil { // Max 0: none
			if app.ErrorCode(err) != app.ERateLimited {
				return err
			}
			httpkit.RetryAfter(c, err)
			return s.showForm(c, rq, fiber.StatusTooManyRequests, accountView{Title: rq.L.T("account.limited.title"),
				Intro: rq.L.T("account.limited"), Links: []link{{"/account/", rq.L.T("account.back")}}})
		}
		return fn(c, rq)
	}
}

// limitMail sends a code mail within the budgets of the requester, who and
// email (app.CustomerService.SendCodeMail), as the API's limitMail does.
func (s *Shop) limitMail(c *fiber.Ctx, rq *request, who, email string, send func() error) error {
	return s.svc.Customers.SendCodeMail(rq.Store.ID, who, email, s.proxies.ClientIP(c), s.cfg.LoginFailures, s.cfg.CodesPerDay, send)
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

var registerView = formPage("register", "/account/register/", false, registerFields, link{"/account/login/", "account.register.haveone"})

// register sends POST /account/register/: the customer service's
// Register (as the API's route), then the shopper is signed in and, when
// the store asks for verified emails, sent to enter the mailed code.
func (s *Shop) register(c *fiber.Ctx, rq *request, vals map[string]string) (string, error) {
	res, err := s.svc.Customers.Register(rq.Store, app.Registration{Email: vals["email"], Password: vals["password"],
		PasswordConfirm: vals["password_confirm"], FirstName: vals["first_name"], LastName: vals["last_name"], Phone: vals["phone"]})
	if err == nil {
		err = s.signIn(c, rq, res.AccessToken, res.RefreshToken)
	}
	if err == nil && rq.Store.Settings().EmailOTPEnabled {
		return "/account/verify/?m=registered", nil
	}
	return "/account/?m=registered", err
}

var loginFields = []fieldSpec{
	{Name: "email", Type: "email", Auto: "email", Max: 254, Required: true},
	{Name: "password", Type: "password", Auto: "current-password", Max: 200, Required: true},
}

// loginPosted are the fields the login form posts: its own and the hidden
// next (a local path to go back to).
var loginPosted = append(slices.Clip(loginFields), fieldSpec{Name: "next", Max: 2048, Clip: true})

func loginView(rq *request, vals map[string]string) accountView {
	v := formPage("login", "/account/login/", false, loginFields,
		link{"/account/password/forgot/", "account.login.forgot"}, link{"/account/register/", "account.login.new"})(rq, vals)
	v.Forms[0].Hidden = map[string]string{"next": localNext(vals["next"])}
	return v
}

// loginPage serves GET /account/login/ (?next= a local path to go back to).
func (s *Shop) loginPage(c *fiber.Ctx, rq *request) error {
	next := localNext(c.Query("next"))
	if rq.Customer != nil {
		return c.Redirect(next, fiber.StatusSeeOther)
	}
	v := loginView(rq, map[string]string{"next": next})
	v.Notice = notice(c, rq.L)
	return s.showForm(c, rq, fiber.StatusOK, v)
}

// cookieDevice is the shopper's device token (app.TokenDevice) from a
// successful sign-in: HttpOnly, for app.DeviceTokenTTL.
const cookieDevice = "sf_device"

// login sends POST /account/login/: the API's login checks, then the
// customer service's LoginWith (which counts failures per email, address
// and device), back to next.
func (s *Shop) login(c *fiber.Ctx, rq *request, vals map[string]string) (string, error) {
	var val app.Validation
	val.Required("email", vals["email"])
	val.Check(vals["password"] != "", "password", "is required")
	if err := val.Err(); err != nil {
		return "", err
	}
	// as the API's login: the address counts as the account's once signed
	// in, and the device cookie keeps this browser's own failure budget,
	// so failures from elsewhere never lock the shopper out here
	res, err := s.svc.Customers.LoginWith(rq.Store, app.LoginRequest{Email: vals["email"], Password: vals["password"],
		IP: s.proxies.ClientIP(c), Device: c.Cookies(cookieDevice)})
	if err == nil {
		err = s.signIn(c, rq, res.AccessToken, res.RefreshToken)
	}
	if err != nil {
		return "", err
	}
	s.setCookie(c, cookieDevice, res.DeviceToken, app.DeviceTokenTTL)
	if next := localNext(vals["next"]); next != "/account/" || rq.Customer.EmailVerified || !rq.Store.Settings().EmailOTPEnabled {
		return next, nil
	}
	return "/account/verify/", nil // the store asks for it before an order
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
	resend := formView{Action: "/account/verify/resend", Submit: "account.verify.resend", CSRF: rq.FormToken(), Class: "secondary", l: rq.L}
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

// verify sends POST /account/verify/ (the API's verify-email).
func (s *Shop) verify(c *fiber.Ctx, rq *request, vals map[string]string) (string, error) {
	sh := rq.shopper()
	_, err := s.svc.Customers.VerifyEmail(rq.Store, &sh, vals["code"])
	return "/account/?m=verified", err
}

// resendPost serves POST /account/verify/resend (the API's resend-code,
// with its mail limits).
func (s *Shop) resendPost(c *fiber.Ctx, rq *request) error {
	sh := rq.shopper()
	err := s.limitMail(c, rq, "customer:"+strconv.FormatUint(sh.CustomerID, 10), rq.Customer.Email, func() error {
		return s.svc.Customers.ResendCode(rq.Store, &sh)
	})
	if err != nil {
		return s.formFail(c, rq, s.verifyView(rq, nil), err)
	}
	return redirect(c, "/account/verify/?m=resent")
}

var forgotFields = []fieldSpec{{Name: "email", Type: "email", Auto: "email", Max: 254, Required: true}}

var forgotView = formPage("forgot", "/account/password/forgot/", true, forgotFields)

// forgot sends POST /account/password/forgot/ (the API's forgot, with its
// mail limits): it answers alike for unknown emails.
func (s *Shop) forgot(c *fiber.Ctx, rq *request, vals map[string]string) (string, error) {
	email := app.NormalizeEmail(vals["email"])
	var val app.Validation
	val.Email("email", email)
	err := val.Err()
	if err == nil {
		err = s.limitMail(c, rq, "email:"+email, email, func() error {
			return s.svc.Customers.ForgotPassword(rq.Store, email)
		})
	}
	return "/account/password/reset/?m=codesent&email=" + url.QueryEscape(email), err
}

var resetFields = []fieldSpec{
	{Name: "email", Type: "email", Auto: "email", Max: 254, Required: true},
	{Name: "code", Auto: "one-time-code", Max: 20, Required: true},
	{Name: "password", Type: "password", Auto: "new-password", Max: 200, Required: true},
	{Name: "password_confirm", Type: "password", Auto: "new-password", Max: 200, Required: true},
}

var resetView = formPage("reset", "/account/password/reset/", true, resetFields)

// resetPage serves GET /account/password/reset/ (?email= prefilled).
func (s *Shop) resetPage(c *fiber.Ctx, rq *request) error {
	email := c.Query("email")
	if len(email) > 254 {
		email = ""
	}
	v := resetView(rq, map[string]string{"email": email})
	v.Notice = notice(c, rq.L)
	return s.showForm(c, rq, fiber.StatusOK, v)
}

// reset sends POST /account/password/reset/ (the API's reset): the
// password changes, every session ends, the shopper signs in again.
func (s *Shop) reset(c *fiber.Ctx, rq *request, vals map[string]string) (string, error) {
	err := s.svc.Customers.ResetPassword(rq.Store, app.PasswordReset{Email: vals["email"], Code: vals["code"],
		Password: vals["password"], PasswordConfirm: vals["password_confirm"]})
	if err == nil && rq.Customer != nil {
		s.signOut(c, rq)
	}
	return "/account/login/?m=reset", err
}
