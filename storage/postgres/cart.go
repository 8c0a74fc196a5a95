package postgres

import "storefront/app"

// CartItems lists a shopper's lines in id order.
func (t *Tx) CartItems(storeID, customerID uint64) ([]*app.CartItem, error) {
	return all[app.CartItem](t, storeID, "cart items", `SELECT doc FROM cart_items WHERE store_id = $1 AND customer_id = $2 ORDER BY id`,
		i64(storeID), i64(customerID))
}

// CartItem returns one line of the shopper.
func (t *Tx) CartItem(storeID, customerID, id uint64) (*app.CartItem, error) {
	var it app.CartItem
	if err := t.get(storeID, &it, "cart item", `SELECT doc FROM cart_items WHERE store_id = $1 AND customer_id = $2 AND id = $3`,
		i64(storeID), i64(customerID), i64(id)); err != nil {
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
	raw, err := encode(it)
	if err != nil {
		return err
	}
	return t.exec(it.StoreID, "put cart item", `INSERT INTO cart_items (store_id, customer_id, id, doc) VALUES ($1, $2, $3, $4)
		ON CONFLICT (store_id, customer_id, id) DO UPDATE SET doc = excluded.doc`, i64(it.StoreID), i64(it.CustomerID), i64(it.ID), raw)
}

// DeleteCartItem removes a line.
func (t *Tx) DeleteCartItem(storeID, customerID, id uint64) error {
	n, err := t.execN(storeID, "delete cart item", `DELETE FROM cart_items WHERE store_id = $1 AND customer_id = $2 AND id = $3`,
		i64(storeID), i64(customerID), i64(id))
	if err != nil {
		return err
	}
	if n == 0 {
		return app.NotFound("cart item")
	}
	return nil
}
