package shop

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// guestOrderPage serves GET /orders/{token}/: the order's own page for its
// buyer, signed in or not, by the signed link of the thank-you page
// (app.OrderService.OrderLinkToken): status, payment, tracking, where it
// goes, the lines and the totals. A bad or foreign token is the 404 page.
func (s *Shop) guestOrderPage(c *fiber.Ctx, rq *request) error {
	o, err := s.svc.Orders.OrderByLink(rq.Store.ID, c.Params("token"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "private, no-store")
	return s.render(c, rq, fiber.StatusOK, "guest_order", pageMeta{Title: msgf("account.order.title", o.ID), NoIndex: true}, o)
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
