package shop

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// linkScope is the order of the path's signed link (/orders/{token}/,
// app.OrderService.OrderByLink): its page and forms for whoever holds the
// link, signed in or not, as a signed-in shopper has them for an order of
// theirs. A bad or foreign token is the 404 page.
func (s *Shop) linkScope(c *fiber.Ctx, rq *request) (orderScope, error) {
	token := c.Params("token")
	o, err := s.svc.Orders.OrderByLink(rq.Store.ID, token)
	if err != nil {
		return orderScope{}, err
	}
	return orderScope{sh: app.Shopper{StoreID: rq.Store.ID, LinkedOrder: o.ID}, order: o, base: "/orders/" + token}, nil
}

// orderLink is the path of an order's own page ("" when it cannot be made).
func (s *Shop) orderLink(storeID uint64, o *app.Order) string {
	if o == nil {
		return ""
	}
	token, err := s.svc.Orders.OrderLinkToken(storeID, o.ID)
	if err != nil {
		return ""
	}
	return "/orders/" + token + "/"
}
