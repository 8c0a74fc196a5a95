package web

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (s *Server) registerCartRoutes(r fiber.Router) {
	r.Get("/cart", s.shopper, s.getCart)
	r.Post("/cart/items", s.shopper, s.addCartItem)
	r.Patch("/cart/items/:item_id", s.shopper, s.patchCartItem)
	r.Delete("/cart/items/:item_id", s.shopper, s.deleteCartItem)
}

// getCart serves GET /api/v1/business/website/cart/.
func (s *Server) getCart(c *fiber.Ctx) error {
	cart, err := s.svc.Carts.Cart(*shopperOf(c))
	if err != nil {
		return err
	}
	return httpkit.OK(c, cart)
}

// addCartItem serves POST /api/v1/business/website/cart/items/ (endpoint 7).
func (s *Server) addCartItem(c *fiber.Ctx) error {
	var in app.CartInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	it, err := s.svc.Carts.Add(*shopperOf(c), in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, fiber.Map{"item": it})
}

type cartQuantity struct {
	Quantity *int64 `json:"quantity"`
}

// patchCartItem serves PATCH /api/v1/business/website/cart/items/{item_id}/.
func (s *Server) patchCartItem(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "item_id", "cart item")
	if err != nil {
		return err
	}
	var in cartQuantity
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	if in.Quantity == nil {
		return app.Invalid("quantity", "is required")
	}
	it, err := s.svc.Carts.SetQuantity(*shopperOf(c), id, *in.Quantity)
	if err != nil {
		return err
	}
	return httpkit.OK(c, fiber.Map{"item": it})
}

// deleteCartItem serves DELETE /api/v1/business/website/cart/items/{item_id}/.
func (s *Server) deleteCartItem(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "item_id", "cart item")
	if err != nil {
		return err
	}
	if err := s.svc.Carts.Remove(*shopperOf(c), id); err != nil {
		return err
	}
	return httpkit.OK(c, nil)
}
