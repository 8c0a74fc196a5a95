package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// registerCouponRoutes mounts the coupons (listed as a complete set).
func (h *Handler) registerCouponRoutes(r fiber.Router) {
	cs := h.svc.Coupons
	resource[*app.Coupon, app.CouponInput]{path: "/coupons", param: "cid", noun: "coupon",
		list: listAll(cs.List, viewCoupon),
		get:  cs.Get, save: cs.Save, del: cs.Delete, view: viewCoupon}.routes(r)
}

func viewCoupon(c *app.Coupon) any { return c.View() }
