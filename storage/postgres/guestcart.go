package postgres

import (
	"fmt"
	"time"

	"storefront/app"
)

// GuestCart returns the guest cart of a token hash.
func (t *Tx) GuestCart(storeID uint64, key []byte) (*app.GuestCart, error) {
	var g app.GuestCart
	if err := t.get(storeID, &g, "cart", `SELECT doc FROM guest_carts WHERE store_id = $1 AND key = $2`, i64(storeID), key); err != nil {
		return nil, err
	}
	return &g, nil
}

// PutGuestCart creates (ID 0) or updates a guest cart.
func (t *Tx) PutGuestCart(g *app.GuestCart) error {
	if len(g.Key) != 32 {
		return fmt.Errorf("postgres: put guest cart: bad key length %d", len(g.Key))
	}
	if g.ID == 0 {
		id, err := t.NextID(g.StoreID, "guest_cart")
		if err != nil {
			return err
		}
		g.ID = id
	}
	raw, err := encode(g)
	if err != nil {
		return err
	}
	return t.exec(g.StoreID, "put guest cart", `INSERT INTO guest_carts (store_id, key, id, used_at, doc) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (store_id, key) DO UPDATE SET used_at = excluded.used_at, doc = excluded.doc`,
		i64(g.StoreID), g.Key, i64(g.ID), g.UsedAt, raw)
}

// DeleteGuestCart removes a guest cart record.
func (t *Tx) DeleteGuestCart(storeID uint64, key []byte) error {
	n, err := t.execN(storeID, "delete guest cart", `DELETE FROM guest_carts WHERE store_id = $1 AND key = $2`, i64(storeID), key)
	if err != nil {
		return err
	}
	if n == 0 {
		return app.NotFound("cart")
	}
	return nil
}

// GuestCartsUsedBefore lists a store's guest carts last used before before,
// oldest use first.
func (t *Tx) GuestCartsUsedBefore(storeID uint64, before time.Time, limit int) ([]*app.GuestCart, error) {
	return all[app.GuestCart](t, storeID, "guest carts", `SELECT doc FROM guest_carts WHERE store_id = $1 AND used_at < $2
		ORDER BY used_at, key LIMIT $3`, i64(storeID), before, limit)
}
