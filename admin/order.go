package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerOrderRoutes(r fiber.Router) {
	r.Get("/orders", h.listOrders)
	r.Get("/orders/:oid", h.getOrder)
	r.Patch("/orders/:oid", h.patchOrder)
}

func viewAdminOrder(o *app.Order) any { return o.AdminView() }

// listOrders serves GET stores/{id}/orders/ (?status=, newest first).
func (h *Handler) listOrders(c *fiber.Ctx) error {
	status := c.Query("status")
	scope := "orders:" + status
	lp, err := h.listParams(c, scope)
	if err != nil {
		return err
	}
	page, err := h.svc.Orders.Orders(storeOf(c).ID, status, lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, scope, page, viewAdminOrder)
}

// getOrder serves GET stores/{id}/orders/{oid}/ (guest orders included).
func (h *Handler) getOrder(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	o, err := h.svc.Orders.Order(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, o.AdminView())
}

type orderStatusInput struct {
	Status string `json:"status"`
}

// patchOrder serves PATCH stores/{id}/orders/{oid}/ {status}: only the moves
// of decisions.md §5 (CONFIRMED -> DELIVERED -> COMPLETED).
func (h *Handler) patchOrder(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	var in orderStatusInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	o, err := h.svc.Orders.Move(storeOf(c).ID, id, in.Status)
	if err != nil {
		return err
	}
	return httpkit.OK(c, o.AdminView())
}
