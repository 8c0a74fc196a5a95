package web

import (
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// accounts holds the shopper-auth handlers. Their limits go through the
// services' one limiter (shared by every process on PostgreSQL).
type accounts struct {
	s *Server
}

// LoginFailureWindow is the period ratelimit.login_failures counts over.
const LoginFailureWindow = app.LoginWindow

func (s *Server) registerAccountRoutes(r fiber.Router) {
	a := &accounts{s: s}
	r.Post("/auth/register", a.limitIP, a.register)
	r.Post("/auth/login", a.limitIP, a.login)
	r.Post("/auth/refresh", a.refresh)
	r.Post("/auth/logout", a.logout)
	r.Post("/auth/verify-email", a.limitIP, s.shopper, a.verifyEmail)
	r.Post("/auth/resend-code", a.limitIP, s.shopper, a.resendCode)
	r.Post("/auth/password/forgot", a.limitIP, a.forgotPassword)
	r.Post("/auth/password/reset", a.limitIP, a.resetPassword)
	r.Get("/me", s.shopper, a.getMe)
	r.Patch("/me", s.shopper, a.patchMe)
}

// limitIP applies ratelimit.auth_per_minute per client IP (every request
// counts, taken before any work, through the services' one limiter).
func (a *accounts) limitIP(c *fiber.Ctx) error {
	if a.s.cfg.AuthPerMinute <= 0 {
		return c.Next()
	}
	lim := app.Limit{Key: "auth-ip|" + app.AddrKey(a.s.clientIP(c)), Max: a.s.cfg.AuthPerMinute, Window: time.Minute}
	if err := app.TakeAll(a.s.svc.Limits, "too many requests; retry later", lim); err != nil {
		return err
	}
	return c.Next()
}

// CodeDayWindow is the period ratelimit.codes_per_day counts over.
const CodeDayWindow = app.CodeDayWindow

// limitMail sends one code mail within the budgets of the requester, who and
// email (app.CustomerService.SendCodeMail: a stranger cannot spend the budget of
// the shopper's usual address); unknown emails count alike, so a 429
// reveals nothing. send runs when all allow; when it fails nothing was sent
// and they are given back.
func (a *accounts) limitMail(c *fiber.Ctx, who, email string, send func() error) error {
	return a.s.svc.Customers.SendCodeMail(store(c).ID, who, email, a.s.clientIP(c), a.s.cfg.LoginFailures, a.s.cfg.CodesPerDay, send)
}

// register serves POST /api/v1/customer/auth/register/.
func (a *accounts) register(c *fiber.Ctx) error {
	var in app.Registration
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	res, err := a.s.svc.Customers.Register(store(c), in)
	if err != nil {
		return err
	}
	return a.mergeCart(c, res)
}

// login serves POST /api/v1/customer/auth/login/.
func (a *accounts) login(c *fiber.Ctx) error {
	var in struct {
		Email       string `json:"email"`
		Password    string `json:"password"`
		DeviceToken string `json:"device_token"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	var v app.Validation
	v.Required("email", in.Email)
	v.Check(in.Password != "", "password", "is required")
	v.MaxLen("email", in.Email, 254)
	v.MaxLen("device_token", in.DeviceToken, 2048)
	if err := v.Err(); err != nil {
		return err
	}
	res, err := a.s.svc.Customers.LoginWith(store(c), app.LoginRequest{Email: in.Email, Password: in.Password,
		IP: a.s.clientIP(c), Device: in.DeviceToken})
	if err != nil {
		return err
	}
	return a.mergeCart(c, res)
}

// mergeCart merges the guest cart of X-Cart-Token, when sent, into the cart
// of the shopper who just logged in or registered, then answers res. An
// unknown or expired token merges nothing (app.CartService.Merge).
func (a *accounts) mergeCart(c *fiber.Ctx, res *app.TokenResult) error {
	sh := app.Shopper{StoreID: store(c).ID, CustomerID: res.Customer.ID}
	if err := a.s.svc.Carts.Merge(sh, c.Get(httpkit.CartTokenHeader)); err != nil {
		return err
	}
	return noStore(c, res)
}

type refreshBody struct {
	RefreshToken string `json:"refresh_token"`
}

func decodeRefresh(c *fiber.Ctx) (string, error) {
	var in refreshBody
	if err := httpkit.Decode(c, &in); err != nil {
		return "", err
	}
	if in.RefreshToken == "" {
		return "", app.Invalid("refresh_token", "is required")
	}
	return in.RefreshToken, nil
}

// refresh serves POST /api/v1/customer/auth/refresh/.
func (a *accounts) refresh(c *fiber.Ctx) error {
	tok, err := decodeRefresh(c)
	if err != nil {
		return err
	}
	res, err := a.s.svc.Customers.Refresh(store(c), tok)
	if err != nil {
		return err
	}
	return noStore(c, res)
}

// logout serves POST /api/v1/customer/auth/logout/.
func (a *accounts) logout(c *fiber.Ctx) error {
	tok, err := decodeRefresh(c)
	if err != nil {
		return err
	}
	if err := a.s.svc.Customers.Logout(store(c), tok); err != nil {
		return err
	}
	return httpkit.Reply(c, fiber.StatusOK, "logged out", nil)
}

// verifyEmail serves POST /api/v1/customer/auth/verify-email/ (+Token).
func (a *accounts) verifyEmail(c *fiber.Ctx) error {
	var in struct {
		Code string `json:"code"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	p, err := a.s.svc.Customers.VerifyEmail(store(c), shopperOf(c), strings.TrimSpace(in.Code))
	if err != nil {
		return err
	}
	return noStore(c, p)
}

// resendCode serves POST /api/v1/customer/auth/resend-code/ (+Token).
func (a *accounts) resendCode(c *fiber.Ctx) error {
	sh := shopperOf(c)
	me, err := a.s.svc.Customers.Me(sh)
	if err != nil {
		return err
	}
	err = a.limitMail(c, "customer:"+strconv.FormatUint(sh.CustomerID, 10), me.Email, func() error {
		return a.s.svc.Customers.ResendCode(store(c), sh)
	})
	if err != nil {
		return err
	}
	return httpkit.Reply(c, fiber.StatusOK, "a new code was sent", nil)
}

// forgotPassword serves POST /api/v1/customer/auth/password/forgot/.
func (a *accounts) forgotPassword(c *fiber.Ctx) error {
	var in struct {
		Email string `json:"email"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	email := app.NormalizeEmail(in.Email)
	err := a.limitMail(c, "email:"+email, email, func() error {
		return a.s.svc.Customers.ForgotPassword(store(c), email)
	})
	if err != nil {
		return err
	}
	return httpkit.Reply(c, fiber.StatusOK, "if this email is registered, a reset code was sent to it", nil)
}

// resetPassword serves POST /api/v1/customer/auth/password/reset/.
func (a *accounts) resetPassword(c *fiber.Ctx) error {
	var in app.PasswordReset
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	in.Code = strings.TrimSpace(in.Code)
	if err := a.s.svc.Customers.ResetPassword(store(c), in); err != nil {
		return err
	}
	return httpkit.Reply(c, fiber.StatusOK, "the password was changed; log in again", nil)
}

// getMe serves GET /api/v1/customer/me/ (+Token).
func (a *accounts) getMe(c *fiber.Ctx) error {
	p, err := a.s.svc.Customers.Me(shopperOf(c))
	if err != nil {
		return err
	}
	return noStore(c, p)
}

// patchMe serves PATCH /api/v1/customer/me/ (+Token).
func (a *accounts) patchMe(c *fiber.Ctx) error {
	var in app.ProfileInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	p, err := a.s.svc.Customers.UpdateMe(shopperOf(c), in)
	if err != nil {
		return err
	}
	return noStore(c, p)
}

// noStore writes data like ok, marked never to be cached: tokens and the
// shopper's own profile.
func noStore(c *fiber.Ctx, data any) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	return httpkit.OK(c, data)
}
