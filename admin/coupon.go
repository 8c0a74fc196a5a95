package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerCouponRoutes(r fiber.Router) {
	r.Get("/coupons", h.listCoupons)
	r.Post("/coupons", h.createCoupon)
	r.Get("/coupons/:cid", h.getCoupon)
	r.Patch("/coupons/:cid", h.patchCoupon)
	r.Delete("/coupons/:cid", h.deleteCoupon)
}

func viewCoupon(c *app.Coupon) any { return c.View() }

// listCoupons serves GET stores/{id}/coupons/ (a complete set).
func (h *Handler) listCoupons(c *fiber.Ctx) error {
	list, err := h.svc.Coupons.List(storeOf(c).ID)
	if err != nil {
		return err
	}
	return httpkit.SendAll(c, list, viewCoupon)
}

// createCoupon serves POST stores/{id}/coupons/.
func (h *Handler) createCoupon(c *fiber.Ctx) error {
	var in app.CouponInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	cp, err := h.svc.Coupons.Save(storeOf(c).ID, 0, in)
	if err != nil {
		return err
	}
	return httpkit.Created(c, cp.View())
}

// getCoupon serves GET stores/{id}/coupons/{cid}/.
func (h *Handler) getCoupon(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "cid", "coupon")
	if err != nil {
		return err
	}
	cp, err := h.svc.Coupons.Get(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, cp.View())
}

// patchCoupon serves PATCH stores/{id}/coupons/{cid}/.
func (h *Handler) patchCoupon(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "cid", "coupon")
	if err != nil {
		return err
	}
	var in app.CouponInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	cp, err := h.svc.Coupons.Save(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, cp.View())
}

// deleteCoupon serves DELETE stores/{id}/coupons/{cid}/.
func (h *Handler) deleteCoupon(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "cid", "coupon")
	if err != nil {
		return err
	}
	if err := h.svc.Coupons.Delete(storeOf(c).ID, id); err != nil {
		return err
	}
	return httpkit.OK(c, nil)
}
