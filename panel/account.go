package panel

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/pagekit"
)

// passwordPage serves GET /admin/password/: the form to change one's own password.
func (p *panel) passwordPage(c *fiber.Ctx, v *view) error {
	v.Title = "Change password"
	return p.render(c, fiber.StatusOK, "password", v)
}

// changePassword serves POST /admin/password/ {old_password, password,
// password_confirm}: AdminService.ChangePassword ends every other session and
// token of the account; this browser gets a fresh session and stays in.
func (p *panel) changePassword(c *fiber.Ctx, v *view) error {
	v.Title = "Change password" // of the form shown again
	fv := readForm(c, nil, "old_password", "password", "password_confirm")
	newPass := fv["password"]
	if newPass != fv["password_confirm"] {
		return p.render(c, p.formError(c, v, app.Invalid("password_confirm", "does not match the new password")), "password", v)
	}
	u, err := p.h.svc.Admins.ChangePassword(v.Admin.ID, fv["old_password"], newPass, p.h.svc.Proxies.ClientIP(c))
	if err != nil {
		return p.render(c, p.formError(c, v, err), "password", v)
	}
	p.sessions.drop(v.sid)
	id := p.sessions.create(u)
	pagekit.SetCookie(c, fiber.Cookie{Name: sessionCookie, Value: id, Path: "/admin"}, false)
	v.sid = id
	return p.redirect(c, v, "/admin/", ok1("Password changed. Every other session and API token of your account has ended."))
}
