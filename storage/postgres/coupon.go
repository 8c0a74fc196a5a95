package postgres

import "storefront/app"

// PutCoupon creates (ID 0) or updates a coupon; its code is unique per store.
func (t *Tx) PutCoupon(c *app.Coupon) error {
	code := app.NormalizeCouponCode(c.Code)
	if c.ID != 0 {
		if _, err := t.Coupon(c.StoreID, c.ID); err != nil {
			return err
		}
	}
	other, ok, err := t.id64(c.StoreID, "coupon", `SELECT id FROM coupons WHERE store_id = $1 AND code = $2`, i64(c.StoreID), bs(code))
	if err != nil {
		return err
	}
	if ok && other != c.ID {
		return &app.Error{Code: app.EConflict, Message: "coupon code is taken", Fields: map[string]string{"code": "is taken"}}
	}
	if c.ID == 0 {
		id, err := t.NextID(c.StoreID, "coupon")
		if err != nil {
			return err
		}
		c.ID = id
	}
	raw, err := encode(c)
	if err != nil {
		return err
	}
	return t.exec(c.StoreID, "put coupon", `INSERT INTO coupons (store_id, id, code, doc) VALUES ($1, $2, $3, $4)
		ON CONFLICT (store_id, id) DO UPDATE SET code = excluded.code, doc = excluded.doc`, i64(c.StoreID), i64(c.ID), bs(code), raw)
}

// Coupon returns one coupon.
func (t *Tx) Coupon(storeID, id uint64) (*app.Coupon, error) {
	var c app.Coupon
	if err := t.get(storeID, &c, "coupon", `SELECT doc FROM coupons WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &c, nil
}

// CouponByCode looks a coupon up by its code, case-insensitively.
func (t *Tx) CouponByCode(storeID uint64, code string) (*app.Coupon, error) {
	var c app.Coupon
	if err := t.get(storeID, &c, "coupon", `SELECT doc FROM coupons WHERE store_id = $1 AND code = $2`, i64(storeID), bs(app.NormalizeCouponCode(code))); err != nil {
		return nil, err
	}
	return &c, nil
}

// Coupons lists a store's coupons by id.
func (t *Tx) Coupons(storeID uint64) ([]*app.Coupon, error) {
	return all[app.Coupon](t, storeID, "coupons", `SELECT doc FROM coupons WHERE store_id = $1 ORDER BY id`, i64(storeID))
}

// DeleteCoupon removes a coupon and its code.
func (t *Tx) DeleteCoupon(storeID, id uint64) error {
	n, err := t.execN(storeID, "delete coupon", `DELETE FROM coupons WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id))
	if err != nil {
		return err
	}
	if n == 0 {
		return app.NotFound("coupon")
	}
	return nil
}
