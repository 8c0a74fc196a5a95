package web

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"storefront/app"
)

func (s *Server) registerAddressRoutes(r fiber.Router) {
	r.Get("/addresses", s.shopper, s.listAddresses)
	r.Post("/addresses", s.shopper, s.createAddress)
	r.Get("/addresses/:address_id", s.shopper, s.getAddress)
	r.Put("/addresses/:address_id", s.shopper, s.updateAddress)
	r.Delete("/addresses/:address_id", s.shopper, s.deleteAddress)
}

// addressID reads :address_id; anything but a lower-case uuid is not_found.
func addressID(c *fiber.Ctx) (string, error) {
	id := strings.ToLower(c.Params("address_id"))
	if !app.ParseAddressID(id) {
		return "", app.NotFound("address")
	}
	return strings.Clone(id), nil
}

func viewAddress(a *app.Address) any { return a.View() }

// listAddresses serves GET /api/v1/business/website/addresses/ (+Token).
func (s *Server) listAddresses(c *fiber.Ctx) error {
	all, err := s.svc.Customers.Addresses(shopperOf(c))
	if err != nil {
		return err
	}
	return sendAll(s, c, all, viewAddress)
}

// createAddress serves POST /api/v1/business/website/addresses/ (+Token).
func (s *Server) createAddress(c *fiber.Ctx) error {
	var in app.AddressInput
	if err := decode(c, &in); err != nil {
		return err
	}
	a, err := s.svc.Customers.CreateAddress(shopperOf(c), uuid.NewString(), in)
	if err != nil {
		return err
	}
	return ok(c, fiber.Map{"id": a.ID})
}

// getAddress serves GET /api/v1/business/website/addresses/{address_id}/ (+Token).
func (s *Server) getAddress(c *fiber.Ctx) error {
	id, err := addressID(c)
	if err != nil {
		return err
	}
	a, err := s.svc.Customers.Address(shopperOf(c), id)
	if err != nil {
		return err
	}
	return ok(c, a.View())
}

// updateAddress serves PUT /api/v1/business/website/addresses/{address_id}/
// (+Token): only the fields sent change; the answer is the whole address.
func (s *Server) updateAddress(c *fiber.Ctx) error {
	id, err := addressID(c)
	if err != nil {
		return err
	}
	var in app.AddressInput
	if err := decode(c, &in); err != nil {
		return err
	}
	a, err := s.svc.Customers.UpdateAddress(shopperOf(c), id, in)
	if err != nil {
		return err
	}
	return ok(c, a.View())
}

// deleteAddress serves DELETE /api/v1/business/website/addresses/{address_id}/ (+Token).
func (s *Server) deleteAddress(c *fiber.Ctx) error {
	id, err := addressID(c)
	if err != nil {
		return err
	}
	if err := s.svc.Customers.DeleteAddress(shopperOf(c), id); err != nil {
		return err
	}
	return ok(c, nil)
}
