package app

import (
	"strings"
	"time"
)

// Coupon types.
const (
	CouponPercent = "percent"
	CouponFixed   = "fixed"
)

// Coupon is a discount code of one store. Value is an amount for fixed
// coupons and a percentage with two decimals for percent coupons ("12.50" is
// 12.5 %). Uses counts orders placed with it; an order that expires gives its
// use back.
type Coupon struct {
	ID          uint64     `json:"id"`
	StoreID     uint64     `json:"store_id"`
	Code        string     `json:"code"`
	Type        string     `json:"type"`
	Value       Money      `json:"value"`
	MinSubtotal Money      `json:"min_subtotal"`
	StartsAt    *time.Time `json:"starts_at"`
	EndsAt      *time.Time `json:"ends_at"`
	MaxUses     int64      `json:"max_uses"` // 0: unlimited
	Uses        int64      `json:"uses"`
	IsActive    bool       `json:"is_active"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
}

// CouponView is a coupon on the admin wire.
type CouponView struct {
	ID          uint64     `json:"id"`
	Code        string     `json:"code"`
	Type        string     `json:"type"`
	Value       Money      `json:"value"`
	MinSubtotal Money      `json:"min_subtotal"`
	StartsAt    *time.Time `json:"starts_at"`
	EndsAt      *time.Time `json:"ends_at"`
	MaxUses     *int64     `json:"max_uses"`
	Uses        int64      `json:"uses"`
	IsActive    bool       `json:"is_active"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
}

// View returns the wire form of c.
func (c *Coupon) View() CouponView {
	v := CouponView{ID: c.ID, Code: c.Code, Type: c.Type, Value: c.Value, MinSubtotal: c.MinSubtotal,
		Uses: c.Uses, IsActive: c.IsActive, CreatedAt: UTC(c.CreatedAt), UpdatedAt: UTC(c.UpdatedAt)}
	if c.StartsAt != nil {
		t := UTC(*c.StartsAt)
		v.StartsAt = &t
	}
	if c.EndsAt != nil {
		t := UTC(*c.EndsAt)
		v.EndsAt = &t
	}
	if c.MaxUses > 0 {
		m := c.MaxUses
		v.MaxUses = &m
	}
	return v
}

// NormalizeCouponCode is the form codes are compared and indexed in.
func NormalizeCouponCode(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// Discount returns the discount c gives on subtotal at time now, or a
// validation error on coupon_code when it does not apply.
func (c *Coupon) Discount(subtotal Money, now time.Time) (Money, error) {
	switch {
	case !c.IsActive:
		return 0, Invalid("coupon_code", "this coupon is not valid")
	case c.StartsAt != nil && now.Before(*c.StartsAt):
		return 0, Invalid("coupon_code", "this coupon is not valid yet")
	case c.EndsAt != nil && !now.Before(*c.EndsAt):
		return 0, Invalid("coupon_code", "this coupon has expired")
	case c.MaxUses > 0 && c.Uses >= c.MaxUses:
		return 0, Invalid("coupon_code", "this coupon has been used up")
	case subtotal < c.MinSubtotal:
		return 0, Invalid("coupon_code", "this coupon needs a subtotal of at least "+c.MinSubtotal.String())
	}
	var d Money
	if c.Type == CouponPercent {
		// Value is hundredths of a percent; round half up to the minor unit.
		d = DivRound(int64(subtotal)*int64(c.Value), 10000)
	} else {
		d = c.Value
	}
	return min(d, subtotal), nil
}

// CouponTx is the storage of coupons; codes are unique per store in their
// NormalizeCouponCode form.
type CouponTx interface {
	// PutCoupon creates (ID 0) or updates a coupon; a taken code is conflict.
	PutCoupon(c *Coupon) error
	Coupon(storeID, id uint64) (*Coupon, error)
	// CouponByCode looks a code up case-insensitively (not_found when unknown).
	CouponByCode(storeID uint64, code string) (*Coupon, error)
	// Coupons lists a store's coupons by id.
	Coupons(storeID uint64) ([]*Coupon, error)
	DeleteCoupon(storeID, id uint64) error
}

// CouponService manages coupons (admin side).
type CouponService struct{ db Scope[couponData] }

func newCouponService(db DB) *CouponService {
	return &CouponService{db: scopeOf(db, func(tx Tx) couponData { return tx })}
}

// CouponInput creates or patches a coupon; nil fields stay as they are. A
// null or zero max_uses means unlimited; sending starts_at/ends_at as "" clears them.
type CouponInput struct {
	Code        *string `json:"code"`
	Type        *string `json:"type"`
	Value       *Money  `json:"value"`
	MinSubtotal *Money  `json:"min_subtotal"`
	StartsAt    *string `json:"starts_at"`
	EndsAt      *string `json:"ends_at"`
	MaxUses     *int64  `json:"max_uses"`
	IsActive    *bool   `json:"is_active"`
}

func parseTimeField(v *Validation, field string, s *string, dst **time.Time) {
	if s == nil {
		return
	}
	if *s == "" {
		*dst = nil
		return
	}
	t, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		v.Add(field, "must be an RFC 3339 timestamp")
		return
	}
	t = UTC(t)
	*dst = &t
}

// Save creates (id 0) or patches a coupon.
// Errors: validation_failed, not_found, conflict (code taken).
func (cs *CouponService) Save(storeID, id uint64, in CouponInput) (*Coupon, error) {
	var c *Coupon
	err := cs.db.Update(func(tx couponData) error {
		c = &Coupon{StoreID: storeID, IsActive: true}
		if id != 0 {
			var err error
			if c, err = tx.Coupon(storeID, id); err != nil {
				return err
			}
		}
		var v Validation
		if in.Code != nil {
			c.Code = NormalizeCouponCode(*in.Code)
		}
		if in.Type != nil {
			c.Type = *in.Type
		}
		if in.Value != nil {
			c.Value = *in.Value
		}
		if in.MinSubtotal != nil {
			c.MinSubtotal = *in.MinSubtotal
		}
		if in.MaxUses != nil {
			c.MaxUses = *in.MaxUses
		}
		if in.IsActive != nil {
			c.IsActive = *in.IsActive
		}
		parseTimeField(&v, "starts_at", in.StartsAt, &c.StartsAt)
		parseTimeField(&v, "ends_at", in.EndsAt, &c.EndsAt)
		v.Required("code", c.Code)
		v.Check(len(c.Code) <= 50 && !strings.ContainsAny(c.Code, " \t\r\n\x00"), "code", "must be at most 50 characters without spaces")
		v.OneOf("type", c.Type, CouponPercent, CouponFixed)
		if c.Type == CouponPercent {
			v.Check(c.Value > 0 && c.Value <= 10000, "value", "must be a percentage above 0 and at most 100")
		} else {
			v.Check(c.Value > 0 && c.Value <= MaxMoney, "value", "must be an amount above 0.00")
		}
		v.Check(c.MinSubtotal >= 0 && c.MinSubtotal <= MaxMoney, "min_subtotal", "must be an amount of at least 0.00")
		v.Check(c.MaxUses >= 0, "max_uses", "must be at least 0 (0: unlimited)")
		if c.StartsAt != nil && c.EndsAt != nil && !c.EndsAt.After(*c.StartsAt) {
			v.Add("ends_at", "must be after starts_at")
		}
		if err := v.Err(); err != nil {
			return err
		}
		now := UTC(tx.Now())
		if c.ID == 0 {
			c.CreatedAt = now
		}
		c.UpdatedAt = now
		return tx.PutCoupon(c)
	})
	return c, err
}

// List returns a store's coupons.
func (cs *CouponService) List(storeID uint64) ([]*Coupon, error) {
	return view(cs.db, func(tx couponData) ([]*Coupon, error) { return tx.Coupons(storeID) })
}

// Get returns one coupon. Errors: not_found.
func (cs *CouponService) Get(storeID, id uint64) (*Coupon, error) {
	return view(cs.db, func(tx couponData) (*Coupon, error) { return tx.Coupon(storeID, id) })
}

// Delete removes a coupon; orders keep the code they were placed with.
func (cs *CouponService) Delete(storeID, id uint64) error {
	return cs.db.Update(func(tx couponData) error { return tx.DeleteCoupon(storeID, id) })
}
