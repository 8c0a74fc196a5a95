package web

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (s *Server) registerAddressRoutes(r fiber.Router) {
	r.Get("/addresses", s.shopper, s.listAddresses)
	r.Post("/addresses", s.shopper, s.createAddress)
	r.Get("/addresses/:address_id", s.shopper, s.getAddress)
	r.Put("/addresses/:address_id", s.shopper, s.updateAddress)
	r.Delete("/addresses/:address_id", s.shopper, s.deleteAddress)
}

// addressID reads :address_id; anything but a uuid is not_found.
func addressID(c *fiber.Ctx) (string, error) { return httpkit.PathUUID(c, "address_id", "address") }

func viewAddress(a *app.Address) any { return a.View() }

// listAddresses serves GET /api/v1/business/website/addresses/ (+Token).
func (s *Server) listAddresses(c *fiber.Ctx) error {
	all, err := s.svc.Customers.Addresses(shopperOf(c))
	if err != nil {
		return err
	}
	return httpkit.SendAll(c, all, viewAddress)
}

// createAddress serves POST /api/v1/business/website/addresses/ (+Token).
func (s *Server) createAddress(c *fiber.Ctx) error {
	var in app.AddressInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	a, err := s.svc.Customers.CreateAddress(shopperOf(c), in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, fiber.Map{"id": a.ID})
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
	return httpkit.OK(c, a.View())
}

// updateAddress serves PUT /api/v1/business/website/addresses/{address_id}/
// (+Token): only the fields sent change; the answer is the whole address.
func (s *Server) updateAddress(c *fiber.Ctx) error {
	id, err := addressID(c)
	if err != nil {
		return err
	}
	var in app.AddressInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	a, err := s.svc.Customers.UpdateAddress(shopperOf(c), id, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, a.View())
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
	return httpkit.OK(c, nil)
}
