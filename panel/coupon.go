package panel

import (
	"math"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// couponForm is the coupon form as typed.
type couponForm struct {
	ID          uint64
	Code        string
	Type        string
	Value       string
	MinSubtotal string
	StartsAt    string // datetime-local, UTC; empty: no start
	EndsAt      string
	MaxUses     string // empty or 0: unlimited
	IsActive    bool
}

// couponRow is a coupon of the list with its state now.
type couponRow struct {
	*app.Coupon
	State string // active, inactive, scheduled, expired, used up
}

type couponsData struct{ Rows []couponRow }

type couponData struct {
	Form   couponForm
	Coupon *couponRow // nil when creating
}

// couponState names whether a coupon can be used now, and if not why.
func couponState(c *app.Coupon, now time.Time) string {
	switch {
	case !c.IsActive:
		return "inactive"
	case c.StartsAt != nil && now.Before(*c.StartsAt):
		return "scheduled"
	case c.EndsAt != nil && !now.Before(*c.EndsAt):
		return "expired"
	case c.MaxUses > 0 && c.Uses >= c.MaxUses:
		return "used up"
	}
	return "active"
}

func formOfCoupon(c *app.Coupon) couponForm {
	f := couponForm{ID: c.ID, Code: c.Code, Type: c.Type, Value: c.Value.String(), MinSubtotal: c.MinSubtotal.String(), IsActive: c.IsActive}
	if c.StartsAt != nil {
		f.StartsAt = c.StartsAt.UTC().Format(dealTimeLayout)
	}
	if c.EndsAt != nil {
		f.EndsAt = c.EndsAt.UTC().Format(dealTimeLayout)
	}
	if c.MaxUses > 0 {
		f.MaxUses = strconv.FormatInt(c.MaxUses, 10)
	}
	return f
}

// readCouponForm reads the form into the service's input; the times are
// datetime-local values taken as UTC, empty for none.
func readCouponForm(c *fiber.Ctx) (couponForm, app.CouponInput, error) {
	var v app.Validation
	fv := readForm(c, &v, "code", "type", "value", "min_subtotal", "starts_at", "ends_at", "max_uses", "is_active")
	f := couponForm{Code: fv["code"], Type: fv["type"], Value: fv["value"], MinSubtotal: fv["min_subtotal"],
		StartsAt: fv["starts_at"], EndsAt: fv["ends_at"], MaxUses: fv["max_uses"], IsActive: fv.On("is_active")}
	in := app.CouponInput{Code: &f.Code, Type: &f.Type, IsActive: &f.IsActive}
	value, err := app.ParseMoney(f.Value)
	v.Check(err == nil, "value", "must be a number like 10 or 12.50")
	in.Value = &value
	var minSub app.Money
	if f.MinSubtotal != "" {
		minSub, err = app.ParseMoney(f.MinSubtotal)
		v.Check(err == nil, "min_subtotal", "must be an amount like 30.00, or empty")
	}
	in.MinSubtotal = &minSub
	maxUses := fv.Int(&v, "max_uses", 0, 0, math.MaxInt64, "must be a whole number, or empty for unlimited")
	in.MaxUses = &maxUses
	empty := ""
	in.StartsAt, in.EndsAt = &empty, &empty
	if f.StartsAt != "" {
		in.StartsAt = readUTCTime(&v, "starts_at", f.StartsAt)
	}
	if f.EndsAt != "" {
		in.EndsAt = readUTCTime(&v, "ends_at", f.EndsAt)
	}
	return f, in, v.Err()
}

// couponsPage serves GET /admin/stores/{id}/coupons/: every coupon with its
// uses and state.
func (p *panel) couponsPage(c *fiber.Ctx, v *view) error {
	list, err := p.h.svc.Coupons.List(v.Store.ID)
	if err != nil {
		return err
	}
	now := p.h.svc.Now()
	var d couponsData
	for i := len(list) - 1; i >= 0; i-- { // newest first
		d.Rows = append(d.Rows, couponRow{Coupon: list[i], State: couponState(list[i], now)})
	}
	v.Title, v.Tab, v.Data = "Coupons", "coupons", d
	return p.render(c, fiber.StatusOK, "coupons", v)
}

func (p *panel) showCoupon(c *fiber.Ctx, v *view, status int, form couponForm, cp *app.Coupon) error {
	v.Tab, v.Title = "coupons", "New coupon"
	d := couponData{Form: form}
	if cp != nil {
		v.Title = cp.Code
		d.Coupon = &couponRow{Coupon: cp, State: couponState(cp, p.h.svc.Now())}
	}
	v.Data = d
	return p.render(c, status, "coupon", v)
}

// newCouponPage serves GET /admin/stores/{id}/coupons/new/.
func (p *panel) newCouponPage(c *fiber.Ctx, v *view) error {
	return p.showCoupon(c, v, fiber.StatusOK, couponForm{Type: app.CouponPercent, IsActive: true}, nil)
}

// createCoupon serves POST /admin/stores/{id}/coupons/.
func (p *panel) createCoupon(c *fiber.Ctx, v *view) error {
	form, in, err := readCouponForm(c)
	if err == nil {
		var cp *app.Coupon
		if cp, err = p.h.svc.Coupons.Save(v.Store.ID, 0, in); err == nil {
			return p.redirect(c, v, storePath(v.Store, "coupons/"), ok1("Coupon "+cp.Code+" created."))
		}
	}
	return p.showCoupon(c, v, p.formError(c, v, err), form, nil)
}

func (p *panel) pathCoupon(c *fiber.Ctx, v *view) (*app.Coupon, error) {
	id, err := httpkit.PathID(c, "cpid", "coupon")
	if err != nil {
		return nil, err
	}
	return p.h.svc.Coupons.Get(v.Store.ID, id)
}

// couponPage serves GET /admin/stores/{id}/coupons/{cpid}/: the edit form.
func (p *panel) couponPage(c *fiber.Ctx, v *view) error {
	cp, err := p.pathCoupon(c, v)
	if err != nil {
		return err
	}
	return p.showCoupon(c, v, fiber.StatusOK, formOfCoupon(cp), cp)
}

// updateCoupon serves POST /admin/stores/{id}/coupons/{cpid}/.
func (p *panel) updateCoupon(c *fiber.Ctx, v *view) error {
	cp, err := p.pathCoupon(c, v)
	if err != nil {
		return err
	}
	form, in, err := readCouponForm(c)
	form.ID = cp.ID
	if err == nil {
		var saved *app.Coupon
		if saved, err = p.h.svc.Coupons.Save(v.Store.ID, cp.ID, in); err == nil {
			return p.redirect(c, v, storePath(v.Store, "coupons/"), ok1("Coupon "+saved.Code+" saved."))
		}
		if app.IsNotFound(err) {
			return err
		}
	}
	return p.showCoupon(c, v, p.formError(c, v, err), form, cp)
}

// setCouponActive serves POST /admin/stores/{id}/coupons/{cpid}/active/
// {active=yes|no}: the list's activate and deactivate buttons.
func (p *panel) setCouponActive(c *fiber.Ctx, v *view) error {
	cp, err := p.pathCoupon(c, v)
	if err != nil {
		return err
	}
	on := formOn(c, "active")
	if _, err := p.h.svc.Coupons.Save(v.Store.ID, cp.ID, app.CouponInput{IsActive: &on}); err != nil {
		return err
	}
	word := "deactivated"
	if on {
		word = "activated"
	}
	return p.redirect(c, v, storePath(v.Store, "coupons/"), ok1("Coupon "+cp.Code+" "+word+"."))
}

// deleteCoupon serves POST /admin/stores/{id}/coupons/{cpid}/delete/ {confirm=yes}.
func (p *panel) deleteCoupon(c *fiber.Ctx, v *view) error {
	cp, err := p.pathCoupon(c, v)
	if err != nil {
		return err
	}
	if !formOn(c, "confirm") {
		return p.showCoupon(c, v, p.formError(c, v, app.Invalid("confirm", "tick the box to confirm the deletion")), formOfCoupon(cp), cp)
	}
	if err := p.h.svc.Coupons.Delete(v.Store.ID, cp.ID); err != nil {
		return err
	}
	return p.redirect(c, v, storePath(v.Store, "coupons/"), ok1("Coupon "+cp.Code+" deleted."))
}
