package shop

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// The address book: the services the API's address routes call
// (web/address.go). Another shopper's address is the 404 page.

func (s *Shop) registerAddressRoutes(a *fiber.App) {
	a.Get("/account/addresses", s.page(signedIn(s.addressesPage)))
	a.Get("/account/addresses/new", s.page(signedIn(s.addressNewPage)))
	create := accountForm{addressFields, addressNewView, s.addressCreate}
	a.Post("/account/addresses/new", s.form(signedIn(s.send(create)), signedIn(s.again(create))))
	a.Get("/account/addresses/:address_id", s.page(onAddress(s.addressEditPage)))
	a.Post("/account/addresses/:address_id", s.page(onAddress(s.addressUpdate)))
	a.Post("/account/addresses/:address_id/delete", s.page(onAddress(s.addressDelete)))
	a.Post("/account/addresses/:address_id/default", s.page(onAddress(s.addressDefault)))
}

// onAddress is signedIn for a page of the address the path names (its id,
// for the shopper sh).
func onAddress(fn func(c *fiber.Ctx, rq *request, sh *app.Shopper, id string) error) pageFunc {
	return signedIn(func(c *fiber.Ctx, rq *request) error {
		id, err := httpkit.PathUUID(c, "address_id", "address")
		if err != nil {
			return err
		}
		sh := rq.shopper()
		return fn(c, rq, &sh, id)
	})
}

var addressFields = []fieldSpec{
	{Name: "label", Type: "select", Max: 10, Options: []string{app.LabelHome, app.LabelWork, app.LabelOther}},
	{Name: "receiver_name", Auto: "name", Max: 200, Required: true},
	{Name: "phone", Type: "tel", Auto: "tel", Max: 40, Required: true},
	{Name: "address_line1", Auto: "address-line1", Max: 300, Required: true},
	{Name: "address_line2", Auto: "address-line2", Max: 300},
	{Name: "area", Auto: "address-level2", Max: 200},
	{Name: "city", Auto: "address-level1", Max: 200, Required: true},
	{Name: "postal_code", Auto: "postal-code", Max: 20},
	{Name: "is_default", Type: "checkbox", Max: 5},
}

// addressesPage serves GET /account/addresses/.
func (s *Shop) addressesPage(c *fiber.Ctx, rq *request) error {
	sh := rq.shopper()
	all, err := s.svc.Customers.Addresses(&sh)
	if err != nil {
		return err
	}
	return s.render(c, rq, fiber.StatusOK, "account_addresses", pageMeta{Title: rq.L.T("account.addresses.title"), NoIndex: true},
		listView[*app.Address]{Items: all, Notice: notice(c, rq.L)}) // one page: the whole book
}

// addressView is the form of an address that posts to action.
func addressView(action string) func(*request, map[string]string) accountView {
	return formPage("address", action, false, addressFields, link{"/account/addresses/", "account.addresses.back"})
}

// addressInput is the service's input of a decoded address form (every
// field sent: the form shows them all).
func addressInput(vals map[string]string) app.AddressInput {
	get := func(k string) *string { v := vals[k]; return &v }
	def := vals["is_default"] != ""
	return app.AddressInput{Label: get("label"), ReceiverName: get("receiver_name"), Phone: get("phone"),
		AddressLine1: get("address_line1"), AddressLine2: get("address_line2"), City: get("city"), Area: get("area"),
		PostalCode: get("postal_code"), IsDefault: &def}
}

// addressNewView is the form of a new address.
var addressNewView = addressView("/account/addresses/new")

// addressNewPage serves GET /account/addresses/new.
func (s *Shop) addressNewPage(c *fiber.Ctx, rq *request) error {
	return s.showForm(c, rq, fiber.StatusOK, addressNewView(rq, map[string]string{"label": app.LabelHome}))
}

// addressCreate sends POST /account/addresses/new (the API's POST addresses).
func (s *Shop) addressCreate(c *fiber.Ctx, rq *request, vals map[string]string) (string, error) {
	sh := rq.shopper()
	_, err := s.svc.Customers.CreateAddress(&sh, addressInput(vals))
	return "/account/addresses/?m=saved", err
}

// addressEditPage serves GET /account/addresses/{id}/: the form filled.
func (s *Shop) addressEditPage(c *fiber.Ctx, rq *request, sh *app.Shopper, id string) error {
	a, err := s.svc.Customers.Address(sh, id)
	if err != nil {
		return err
	}
	vals := map[string]string{"label": a.Label, "receiver_name": a.ReceiverName, "phone": a.Phone,
		"address_line1": a.AddressLine1, "address_line2": a.AddressLine2, "area": a.Area, "city": a.City,
		"postal_code": a.PostalCode}
	if a.IsDefault {
		vals["is_default"] = "1"
	}
	return s.showForm(c, rq, fiber.StatusOK, addressView("/account/addresses/"+id+"/")(rq, vals))
}

// addressUpdate serves POST /account/addresses/{id}/ (the API's PUT).
func (s *Shop) addressUpdate(c *fiber.Ctx, rq *request, sh *app.Shopper, id string) error {
	if _, err := s.svc.Customers.Address(sh, id); err != nil {
		return err // another shopper's: the 404 page, not a form
	}
	vals, err := decodeAccountForm(c.Body(), addressFields)
	v := addressView("/account/addresses/"+id+"/")(rq, vals)
	if err == nil {
		_, err = s.svc.Customers.UpdateAddress(sh, id, addressInput(vals))
	}
	if err != nil {
		if app.ErrorCode(err) == app.ENotFound {
			return err
		}
		return s.formFail(c, rq, v, err)
	}
	return redirect(c, "/account/addresses/?m=saved")
}

// addressDelete serves POST /account/addresses/{id}/delete (the API's DELETE).
func (s *Shop) addressDelete(c *fiber.Ctx, rq *request, sh *app.Shopper, id string) error {
	if err := s.svc.Customers.DeleteAddress(sh, id); err != nil {
		return err
	}
	return redirect(c, "/account/addresses/?m=deleted")
}

// addressDefault serves POST /account/addresses/{id}/default: the API's
// PUT with is_default only.
func (s *Shop) addressDefault(c *fiber.Ctx, rq *request, sh *app.Shopper, id string) error {
	yes := true
	if _, err := s.svc.Customers.UpdateAddress(sh, id, app.AddressInput{IsDefault: &yes}); err != nil {
		return err
	}
	return redirect(c, "/account/addresses/?m=saved")
}
