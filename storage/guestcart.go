package storage

import (
	"fmt"
	"sort"
	"time"

	"storefront/app"
)

// Guest carts are keyed sid|sha256(token) -> record; their lines are cart
// lines (bCarts) under GuestCart.Owner.

// GuestCart returns the guest cart of a token hash.
func (t *Tx) GuestCart(storeID uint64, key []byte) (*app.GuestCart, error) {
	var g app.GuestCart
	if err := getJSON(t.b(bGuestCarts), keyOf(storeID).raw(key), &g, "cart"); err != nil {
		return nil, err
	}
	return &g, nil
}

// PutGuestCart creates (ID 0) or updates a guest cart.
func (t *Tx) PutGuestCart(g *app.GuestCart) error {
	if len(g.Key) != 32 {
		return fmt.Errorf("storage: put guest cart: bad key length %d", len(g.Key))
	}
	if g.ID == 0 {
		id, err := t.NextID(g.StoreID, "guest_cart")
		if err != nil {
			return err
		}
		g.ID = id
	}
	return putJSON(t.b(bGuestCarts), keyOf(g.StoreID).raw(g.Key), g)
}

// DeleteGuestCart removes a guest cart record.
func (t *Tx) DeleteGuestCart(storeID uint64, key []byte) error {
	b := t.b(bGuestCarts)
	k := keyOf(storeID).raw(key)
	if b.Get(k) == nil {
		return app.NotFound("cart")
	}
	return b.Delete(k)
}

// GuestCartsUsedBefore lists a store's guest carts last used before before,
// oldest use first. It reads every guest cart of the store (an hourly
// sweep's cost, not a request's).
func (t *Tx) GuestCartsUsedBefore(storeID uint64, before time.Time, limit int) ([]*app.GuestCart, error) {
	out := []*app.GuestCart{}
	err := walk(t.b(bGuestCarts), keyOf(storeID), nil, false, func(_, v []byte) (bool, error) {
		var g app.GuestCart
		if err := getJSONBytes(v, &g, "cart"); err != nil {
			return false, err
		}
		if g.UsedAt.Before(before) {
			out = append(out, &g)
		}
		return true, nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].UsedAt.Before(out[j].UsedAt) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, err
}
