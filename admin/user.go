package admin

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerUserRoutes(r fiber.Router) {
	r.Get("/users", h.listUsers)
	r.Post("/users", decoded(fiber.StatusCreated, h.createUser, viewAdmin))
	r.Delete("/users/:uid", deleteOne(pathID("uid", "admin user"), h.deleteUser))
	r.Get("/me", h.me)
	r.Post("/auth/totp", h.startTOTP)
	r.Post("/auth/totp/confirm", h.confirmTOTP)
}

// login serves POST /api/v1/admin/auth/login/ {email, password,
// device_token?, totp_code?, recovery_code?}: 401 totp_required when the
// account has a second factor and neither code was sent.
func (h *Handler) login(c *fiber.Ctx) error {
	var in struct {
		Email        string `json:"email"`
		Password     string `json:"password"`
		DeviceToken  string `json:"device_token"`
		TOTPCode     string `json:"totp_code"`
		RecoveryCode string `json:"recovery_code"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	var v app.Validation
	v.MaxLen("device_token", in.DeviceToken, 2048)
	v.MaxLen("totp_code", in.TOTPCode, 16)
	v.MaxLen("recovery_code", in.RecoveryCode, 32)
	if err := v.Err(); err != nil {
		return err
	}
	r, err := h.svc.Admins.LoginWith(app.LoginRequest{Email: in.Email, Password: in.Password, IP: h.svc.Proxies.ClientIP(c),
		Device: in.DeviceToken, TOTPCode: in.TOTPCode, RecoveryCode: in.RecoveryCode})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return httpkit.OK(c, fiber.Map{"access_token": r.Token, "expires_at": r.ExpiresAt.UTC().Format(time.RFC3339), "token_type": "Bearer",
		"user": r.User.View(), "device_token": r.Device, "device_expires_at": r.DeviceExpiresAt.UTC().Format(time.RFC3339),
		"totp_enrolment_required": h.svc.Admins.MustEnrolTOTP(r.User, h.svc.Stores.Get)})
}

// startTOTP serves POST /api/v1/admin/auth/totp/: a new secret and its
// otpauth:// URI, pending until confirmed. An account with a factor sends
// {totp_code | recovery_code | password} (app.TOTPProof); the first
// enrolment needs no body.
func (h *Handler) startTOTP(c *fiber.Ctx) error {
	var proof app.TOTPProof
	if len(c.Body()) > 0 {
		if err := httpkit.Decode(c, &proof); err != nil {
			return err
		}
	}
	en, err := h.svc.Admins.StartTOTP(adminOf(c).ID, proof, h.svc.Proxies.ClientIP(c))
	if err != nil {
		return err
	}
	return httpkit.OK(c, en) // no-store, as every answer behind auth
}

// confirmTOTP serves POST /api/v1/admin/auth/totp/confirm/ {code}: the
// factor is on from now; the answer has the recovery codes, shown once.
func (h *Handler) confirmTOTP(c *fiber.Ctx) error {
	var in struct {
		Code string `json:"code"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	codes, err := h.svc.Admins.ConfirmTOTP(adminOf(c).ID, in.Code)
	if err != nil {
		return err
	}
	return httpkit.OK(c, fiber.Map{"recovery_codes": codes})
}

// bearer returns the bearer token of the request ("" when there is none).
func bearer(c *fiber.Ctx) string {
	hdr := c.Get(fiber.HeaderAuthorization)
	if len(hdr) < 7 || !strings.EqualFold(hdr[:7], "Bearer ") { // scheme case-insensitive (RFC 7235)
		return ""
	}
	return strings.TrimSpace(hdr[7:])
}

// logout serves POST /api/v1/admin/auth/logout/: the token of the request is
// revoked (until it would have expired, across restarts).
func (h *Handler) logout(c *fiber.Ctx) error {
	tok := bearer(c)
	if tok == "" {
		return app.Errorf(app.EUnauthorized, "missing admin bearer token")
	}
	if err := h.svc.Admins.Logout(tok); err != nil {
		return err
	}
	return httpkit.OK(c, nil)
}

// changePassword serves POST /api/v1/admin/auth/password/change/
// {old_password, password}: every other token and panel session of the
// account ends; the answer carries a new token for the caller (never
// cached: auth answers no-store).
func (h *Handler) changePassword(c *fiber.Ctx) error {
	var in struct {
		OldPassword string `json:"old_password"`
		Password    string `json:"password"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	u, err := h.svc.Admins.ChangePassword(adminOf(c).ID, in.OldPassword, in.Password, h.svc.Proxies.ClientIP(c))
	if err != nil {
		return err
	}
	tok, exp, err := h.svc.Admins.Token(u)
	if err != nil {
		return err
	}
	return httpkit.OK(c, fiber.Map{"access_token": tok, "expires_at": exp.UTC().Format(time.RFC3339), "token_type": "Bearer", "user": u.View()})
}

// me serves GET /api/v1/admin/me/.
func (h *Handler) me(c *fiber.Ctx) error { return httpkit.OK(c, adminOf(c).View()) }

func viewAdmin(u *app.AdminUser) any { return u.View() }

// listUsers serves GET /api/v1/admin/users/ (owner).
func (h *Handler) listUsers(c *fiber.Ctx) error {
	users, err := h.svc.Admins.List()
	if err != nil {
		return err
	}
	return httpkit.SendAll(c, users, viewAdmin)
}

// createUser serves POST /api/v1/admin/users/ (owner).
func (h *Handler) createUser(_ *fiber.Ctx, in app.NewAdmin) (*app.AdminUser, error) {
	return h.svc.Admins.Create(in)
}

// deleteUser serves DELETE /api/v1/admin/users/{uid}/ (owner).
func (h *Handler) deleteUser(_ *fiber.Ctx, id uint64) error { return h.svc.Admins.Delete(id) }
