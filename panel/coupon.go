package panel

import (
	"math"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
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

// couponEditor edits the coupons; a save goes back to the list.
func (p *panel) couponEditor() editor[app.Coupon, couponForm, app.CouponInput] {
	cs := p.h.svc.Coupons
	return editor[app.Coupon, couponForm, app.CouponInput]{path: "coupons", param: "cpid", noun: "coupon",
		tab: "coupons", page: "coupon", title: "New coupon",
		get: cs.Get, save: cs.Save, del: cs.Delete, read: readCouponForm, formOf: formOfCoupon, data: p.couponData,
		blank: func(*fiber.Ctx) couponForm { return couponForm{Type: app.CouponPercent, IsActive: true} },
		key:   func(cp *app.Coupon) (uint64, string) { return cp.ID, cp.Code },
		said:  func(code, verb string) string { return "Coupon " + code + " " + verb + "." }, toList: true}
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
func readCouponForm(c *fiber.Ctx, id uint64) (couponForm, app.CouponInput, error) {
	var v app.Validation
	fv := readForm(c, &v, "code", "type", "value", "min_subtotal", "starts_at", "ends_at", "max_uses", "is_active")
	f := couponForm{ID: id, Code: fv["code"], Type: fv["type"], Value: fv["value"], MinSubtotal: fv["min_subtotal"],
		StartsAt: fv["starts_at"], EndsAt: fv["ends_at"], MaxUses: fv["max_uses"], IsActive: fv.On("is_active")}
	in := app.CouponInput{Code: &f.Code, Type: &f.Type, IsActive: &f.IsActive}
	value := fv.Money(&v, "value", false, "must be a number like 10 or 12.50")
	in.Value = &value
	minSub := fv.Money(&v, "min_subtotal", true, "must be an amount like 30.00, or empty")
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
	var d rows[couponRow]
	for i := len(list) - 1; i >= 0; i-- { // newest first
		d.Rows = append(d.Rows, couponRow{Coupon: list[i], State: couponState(list[i], now)})
	}
	v.Title, v.Tab, v.Data = "Coupons", "coupons", d
	return p.render(c, fiber.StatusOK, "coupons", v)
}

func (p *panel) couponData(_ *view, _ int, form couponForm, cp *app.Coupon) (any, error) {
	d := couponData{Form: form}
	if cp != nil {
		d.Coupon = &couponRow{Coupon: cp, State: couponState(cp, p.h.svc.Now())}
	}
	return d, nil
}

// setCouponActive serves POST /admin/stores/{id}/coupons/{cpid}/active/
// {active=yes|no}: the list's activate and deactivate buttons.
func (p *panel) setCouponActive(c *fiber.Ctx, v *view, cp *app.Coupon) error {
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
