package storage

import "storefront/app"

// PutCoupon creates (ID 0) or updates a coupon and its code index.
func (t *Tx) PutCoupon(c *app.Coupon) error {
	codes := t.b(bCouponCodes)
	code := app.NormalizeCouponCode(c.Code)
	var old *app.Coupon
	if c.ID != 0 {
		var err error
		if old, err = t.Coupon(c.StoreID, c.ID); err != nil {
			return err
		}
	}
	if v := codes.Get(keyOf(c.StoreID).last(code)); v != nil && idFromKeyEnd(v) != c.ID {
		return &app.Error{Code: app.EConflict, Message: "coupon code is taken", Fields: map[string]string{"code": "is taken"}}
	}
	if c.ID == 0 {
		id, err := t.NextID(c.StoreID, "coupon")
		if err != nil {
			return err
		}
		c.ID = id
	}
	if old != nil && app.NormalizeCouponCode(old.Code) != code {
		if err := codes.Delete(keyOf(c.StoreID).last(app.NormalizeCouponCode(old.Code))); err != nil {
			return err
		}
	}
	if err := codes.Put(keyOf(c.StoreID).last(code), u64(c.ID)); err != nil {
		return err
	}
	return putJSON(t.b(bCoupons), keyOf(c.StoreID).id(c.ID), c)
}

// Coupon returns one coupon.
func (t *Tx) Coupon(storeID, id uint64) (*app.Coupon, error) {
	var c app.Coupon
	if err := getJSON(t.b(bCoupons), keyOf(storeID).id(id), &c, "coupon"); err != nil {
		return nil, err
	}
	return &c, nil
}

// CouponByCode looks a coupon up by its code, case-insensitively.
func (t *Tx) CouponByCode(storeID uint64, code string) (*app.Coupon, error) {
	v := t.b(bCouponCodes).Get(keyOf(storeID).last(app.NormalizeCouponCode(code)))
	if v == nil {
		return nil, app.NotFound("coupon")
	}
	return t.Coupon(storeID, idFromKeyEnd(v))
}

// Coupons lists a store's coupons by id.
func (t *Tx) Coupons(storeID uint64) ([]*app.Coupon, error) {
	out := []*app.Coupon{}
	err := walk(t.b(bCoupons), tenant(storeID), nil, false, func(_, v []byte) (bool, error) {
		var c app.Coupon
		if err := getJSONBytes(v, &c, "coupon"); err != nil {
			return false, err
		}
		out = append(out, &c)
		return true, nil
	})
	return out, err
}

// DeleteCoupon removes a coupon and its code.
func (t *Tx) DeleteCoupon(storeID, id uint64) error {
	c, err := t.Coupon(storeID, id)
	if err != nil {
		return err
	}
	if err := t.b(bCouponCodes).Delete(keyOf(storeID).last(app.NormalizeCouponCode(c.Code))); err != nil {
		return err
	}
	return t.b(bCoupons).Delete(keyOf(storeID).id(id))
}

var _ = registerVerifier(verifyCoupons, bCouponCodes)

// verifyCoupons puts the code index key of every coupon.
func verifyCoupons(t *Tx, want expectKeys) error {
	return t.b(bCoupons).ForEach(func(_, v []byte) error {
		var c app.Coupon
		if err := getJSONBytes(v, &c, "coupon"); err != nil {
			return err
		}
		want.put(bCouponCodes, keyOf(c.StoreID).last(app.NormalizeCouponCode(c.Code)), u64(c.ID))
		return nil
	})
}
