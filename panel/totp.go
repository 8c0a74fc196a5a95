package panel

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

type totpData struct {
	Enrolment *app.TOTPEnrolment
	Recovery  []string
	Required  bool
}

// totpPage serves GET /admin/totp/: the account's second factor, and the
// button that starts an enrolment.
func (p *panel) totpPage(c *fiber.Ctx, v *view) error {
	return p.showTOTP(c, v, fiber.StatusOK, totpData{})
}

func (p *panel) showTOTP(c *fiber.Ctx, v *view, status int, d totpData) error {
	d.Required = p.h.svc.Admins.MustEnrolTOTP(v.Admin, p.h.svc.Stores.Get)
	v.Title, v.Data = "Two-factor login", d
	return p.render(c, status, "totp", v)
}

// startTOTP serves POST /admin/totp/: a new secret and its otpauth:// URI,
// and the form that confirms them with a code.
func (p *panel) startTOTP(c *fiber.Ctx, v *view) error {
	f := readForm(c, nil, "totp_code", "password")
	proof := app.TOTPProof{Code: f["totp_code"], Password: f["password"]}
	en, err := p.h.svc.Admins.StartTOTP(v.Admin.ID, proof, p.h.svc.Proxies.ClientIP(c))
	if err != nil {
		return p.showTOTP(c, v, p.formError(c, v, err), totpData{})
	}
	return p.showTOTP(c, v, fiber.StatusOK, totpData{Enrolment: &en})
}

// confirmTOTP serves POST /admin/totp/confirm/ {code}: the factor is on; the
// page shows the recovery codes once.
func (p *panel) confirmTOTP(c *fiber.Ctx, v *view) error {
	codes, err := p.h.svc.Admins.ConfirmTOTP(v.Admin.ID, readForm(c, nil, "code")["code"])
	if err != nil {
		return p.showTOTP(c, v, p.formError(c, v, err), totpData{})
	}
	u, err := p.h.svc.Admins.Get(v.Admin.ID)
	if err != nil {
		return err
	}
	v.Admin = u
	return p.showTOTP(c, v, fiber.StatusOK, totpData{Recovery: codes})
}
