package shop

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

var profileFields = []fieldSpec{
	{Name: "first_name", Auto: "given-name", Max: 200, Required: true},
	{Name: "last_name", Auto: "family-name", Max: 200},
	{Name: "phone", Type: "tel", Auto: "tel", Max: 40},
}

// homeView is what the account home shows.
type homeView struct {
	Profile app.Profile
	Notice  string
	// Unverified: the email is not verified yet (a link to do it).
	Unverified bool
	Form       formView
}

func (s *Shop) homeView(rq *request, vals map[string]string) homeView {
	cu := rq.Customer
	if vals == nil {
		vals = map[string]string{"first_name": cu.FirstName, "last_name": cu.LastName, "phone": cu.Phone}
	}
	return homeView{Profile: cu.Profile(), Unverified: !cu.EmailVerified,
		Form: newForm(rq, "/account/profile", "account.profile.submit", profileFields, vals)}
}

func (s *Shop) showHome(c *fiber.Ctx, rq *request, status int, v homeView) error {
	return s.render(c, rq, status, "account_home", pageMeta{Title: rq.L.T("account.title"), NoIndex: true}, v)
}

// accountHome serves GET /account/: the profile, its form, and the links
// to orders, addresses and tickets.
func (s *Shop) accountHome(c *fiber.Ctx, rq *request) error {
	v := s.homeView(rq, nil)
	v.Notice = notice(c, rq.L)
	return s.showHome(c, rq, fiber.StatusOK, v)
}

// profilePost serves POST /account/profile (the API's PATCH me).
func (s *Shop) profilePost(c *fiber.Ctx, rq *request) error {
	vals, err := decodeAccountForm(c.Body(), profileFields)
	v := s.homeView(rq, vals)
	if err == nil {
		sh := rq.shopper()
		fn, ln, ph := vals["first_name"], vals["last_name"], vals["phone"]
		_, err = s.svc.Customers.UpdateMe(&sh, app.ProfileInput{FirstName: &fn, LastName: &ln, Phone: &ph})
	}
	if err != nil {
		return v.Form.refuse(err, func(status int) error { return s.showHome(c, rq, status, v) })
	}
	return redirect(c, "/account/?m=saved")
}
