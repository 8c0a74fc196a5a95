package web

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (s *Server) registerCartRoutes(r fiber.Router) {
	r.Post("/cart", s.newGuestCart)
	r.Get("/cart", s.cartOwner, s.getCart)
	r.Post("/cart/items", s.cartOwner, s.addCartItem)
	r.Patch("/cart/items/:item_id", s.cartOwner, s.patchCartItem)
	r.Delete("/cart/items/:item_id", s.cartOwner, s.deleteCartItem)
}

const keyCartOwner = "cart_owner"

// cartOwner names the cart of the request: the shopper's with a bearer
// token (which wins when both are sent), else the guest cart of
// X-Cart-Token; neither is 401.
func (s *Server) cartOwner(c *fiber.Ctx) error {
	sh, err := s.bearer(c)
	if err != nil {
		return err
	}
	var o app.CartOwner
	switch tok := c.Get(httpkit.CartTokenHeader); {
	case sh != nil:
		o = app.ShopperCart(*sh)
	case tok != "":
		o = app.GuestCartOwner(store(c).ID, tok)
	default:
		return app.Errorf(app.EUnauthorized, "missing bearer token or "+httpkit.CartTokenHeader)
	}
	c.Locals(keyCartOwner, &o)
	return c.Next()
}

func cartOwnerOf(c *fiber.Ctx) app.CartOwner { return *c.Locals(keyCartOwner).(*app.CartOwner) }

// newGuestCart serves POST /api/v1/business/website/cart/: a new, empty
// guest cart and its token (shown only now).
func (s *Server) newGuestCart(c *fiber.Ctx) error {
	cart, err := s.svc.Carts.NewGuestCart(store(c).ID, s.clientIP(c))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store") // the token is a credential
	return httpkit.Created(c, cart)
}

// getCart serves GET /api/v1/business/website/cart/.
func (s *Server) getCart(c *fiber.Ctx) error {
	cart, err := s.svc.Carts.Cart(cartOwnerOf(c))
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
	it, err := s.svc.Carts.Add(cartOwnerOf(c), in)
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
	it, err := s.svc.Carts.SetQuantity(cartOwnerOf(c), id, *in.Quantity)
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
	if err := s.svc.Carts.Remove(cartOwnerOf(c), id); err != nil {
		return err
	}
	return httpkit.OK(c, nil)
}
