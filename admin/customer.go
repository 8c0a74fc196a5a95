package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// registerCustomerRoutes mounts the customers: listed newest first, a page
// at a time, and one by id.
func (h *Handler) registerCustomerRoutes(r fiber.Router) {
	r.Get("/customers", listPaged(h, "customers", h.svc.Customers.List, viewCustomer))
	r.Get("/customers/:cid", getOne(pathID("cid", "customer"), h.svc.Customers.Get, viewCustomer))
}

func viewCustomer(c *app.Customer) any { return c.Profile() }
