package postgres

import (
	"fmt"

	"storefront/app"
)

// PutAddress creates or replaces a.
func (t *Tx) PutAddress(a *app.Address) error {
	if !app.IsCanonicalUUID(a.ID) || a.CustomerID == 0 {
		return fmt.Errorf("postgres: put address: bad id %q", a.ID)
	}
	raw, err := encode(a)
	if err != nil {
		return err
	}
	return t.exec(a.StoreID, "put address", `INSERT INTO addresses (store_id, customer_id, id, doc) VALUES ($1, $2, $3, $4)
		ON CONFLICT (store_id, customer_id, id) DO UPDATE SET doc = excluded.doc`, i64(a.StoreID), i64(a.CustomerID), bs(a.ID), raw)
}

// Address returns one address of a customer.
func (t *Tx) Address(storeID, customerID uint64, id string) (*app.Address, error) {
	var a app.Address
	if err := t.get(storeID, &a, "address", `SELECT doc FROM addresses WHERE store_id = $1 AND customer_id = $2 AND id = $3`,
		i64(storeID), i64(customerID), bs(id)); err != nil {
		return nil, err
	}
	return &a, nil
}

// Addresses lists a customer's addresses by id.
func (t *Tx) Addresses(storeID, customerID uint64) ([]*app.Address, error) {
	return all[app.Address](t, storeID, "addresses", `SELECT doc FROM addresses WHERE store_id = $1 AND customer_id = $2 ORDER BY id`,
		i64(storeID), i64(customerID))
}

// DeleteAddress deletes one address of a customer.
func (t *Tx) DeleteAddress(storeID, customerID uint64, id string) error {
	n, err := t.execN(storeID, "delete address", `DELETE FROM addresses WHERE store_id = $1 AND customer_id = $2 AND id = $3`,
		i64(storeID), i64(customerID), bs(id))
	if err != nil {
		return err
	}
	if n == 0 {
		return app.NotFound("address")
	}
	return nil
}
