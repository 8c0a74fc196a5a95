package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerCustomerRoutes(r fiber.Router) {
	r.Get("/customers", h.listCustomers)
	r.Get("/customers/:cid", h.getCustomer)
}

func viewCustomer(c *app.Customer) any { return c.Profile() }

// listCustomers serves GET /api/v1/admin/stores/{id}/customers/ (newest first).
func (h *Handler) listCustomers(c *fiber.Ctx) error {
	lp, err := h.listParams(c, "customers")
	if err != nil {
		return err
	}
	page, err := h.svc.Customers.List(storeOf(c).ID, lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, "customers", page, viewCustomer)
}

// getCustomer serves GET /api/v1/admin/stores/{id}/customers/{cid}/.
func (h *Handler) getCustomer(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "cid", "customer")
	if err != nil {
		return err
	}
	cu, err := h.svc.Customers.Get(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, cu.Profile())
}
