package storage

import (
	"fmt"

	"storefront/app"
)

func addressKey(storeID, customerID uint64, id string) []byte {
	return keyOf(storeID).id(customerID).str0(id)
}

// PutAddress creates or replaces a.
func (t *Tx) PutAddress(a *app.Address) error {
	if !app.IsCanonicalUUID(a.ID) || a.CustomerID == 0 {
		return fmt.Errorf("storage: put address: bad id %q", a.ID)
	}
	return putJSON(t.b(bAddresses), addressKey(a.StoreID, a.CustomerID, a.ID), a)
}

// Address returns one address of a customer.
func (t *Tx) Address(storeID, customerID uint64, id string) (*app.Address, error) {
	var a app.Address
	if err := getJSON(t.b(bAddresses), addressKey(storeID, customerID, id), &a, "address"); err != nil {
		return nil, err
	}
	return &a, nil
}

// Addresses lists a customer's addresses.
func (t *Tx) Addresses(storeID, customerID uint64) ([]*app.Address, error) {
	out := []*app.Address{}
	err := walk(t.b(bAddresses), keyOf(storeID).id(customerID), nil, false, func(_, v []byte) (bool, error) {
		var a app.Address
		if err := getJSONBytes(v, &a, "address"); err != nil {
			return false, err
		}
		out = append(out, &a)
		return true, nil
	})
	return out, err
}

// DeleteAddress deletes one address of a customer.
func (t *Tx) DeleteAddress(storeID, customerID uint64, id string) error {
	b := t.b(bAddresses)
	k := addressKey(storeID, customerID, id)
	if b.Get(k) == nil {
		return app.NotFound("address")
	}
	return b.Delete(k)
}
