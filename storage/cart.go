package storage

import "storefront/app"

func cartKey(sid, cid, id uint64) []byte { return keyOf(sid).id(cid).id(id) }

// CartItems lists a shopper's lines in id order.
func (t *Tx) CartItems(storeID, customerID uint64) ([]*app.CartItem, error) {
	out := []*app.CartItem{}
	err := walk(t.b(bCarts), keyOf(storeID).id(customerID), nil, false, func(_, v []byte) (bool, error) {
		var it app.CartItem
		if err := getJSONBytes(v, &it, "cart item"); err != nil {
			return false, err
		}
		out = append(out, &it)
		return true, nil
	})
	return out, err
}

// CartItem returns one line of the shopper.
func (t *Tx) CartItem(storeID, customerID, id uint64) (*app.CartItem, error) {
	var it app.CartItem
	if err := getJSON(t.b(bCarts), cartKey(storeID, customerID, id), &it, "cart item"); err != nil {
		return nil, err
	}
	return &it, nil
}

// PutCartItem creates (ID 0) or updates a line.
func (t *Tx) PutCartItem(it *app.CartItem) error {
	if it.ID == 0 {
		id, err := t.NextID(it.StoreID, "cart_item")
		if err != nil {
			return err
		}
		it.ID = id
	}
	return putJSON(t.b(bCarts), cartKey(it.StoreID, it.CustomerID, it.ID), it)
}

// DeleteCartItem removes a line.
func (t *Tx) DeleteCartItem(storeID, customerID, id uint64) error {
	b := t.b(bCarts)
	k := cartKey(storeID, customerID, id)
	if b.Get(k) == nil {
		return app.NotFound("cart item")
	}
	return b.Delete(k)
}
