package storage

import "storefront/app"

// CreateCustomer assigns c.ID and stores c; a registered email is conflict.
func (t *Tx) CreateCustomer(c *app.Customer) error {
	emails := t.b(bCustomerEmails)
	ek := key(c.StoreID, app.NormalizeEmail(c.Email))
	if emails.Get(ek) != nil {
		return &app.Error{Code: app.EConflict, Message: "this email is already registered", Fields: map[string]string{"email": "is already registered"}}
	}
	id, err := t.NextID(c.StoreID, "customer")
	if err != nil {
		return err
	}
	c.ID = id
	if err := emails.Put(ek, u64(id)); err != nil {
		return err
	}
	return putJSON(t.b(bCustomers), key(c.StoreID, c.ID), c)
}

// Customer returns one customer.
func (t *Tx) Customer(storeID, id uint64) (*app.Customer, error) {
	var c app.Customer
	if err := getJSON(t.b(bCustomers), key(storeID, id), &c, "customer"); err != nil {
		return nil, err
	}
	return &c, nil
}

// CustomerByEmail looks a customer up by email.
func (t *Tx) CustomerByEmail(storeID uint64, email string) (*app.Customer, error) {
	v := t.b(bCustomerEmails).Get(key(storeID, app.NormalizeEmail(email)))
	if v == nil {
		return nil, app.NotFound("customer")
	}
	return t.Customer(storeID, idFromKeyEnd(v))
}

// PutCustomer updates c, keeping the email index when the email changes.
func (t *Tx) PutCustomer(c *app.Customer) error {
	old, err := t.Customer(c.StoreID, c.ID)
	if err != nil {
		return err
	}
	if oe, ne := app.NormalizeEmail(old.Email), app.NormalizeEmail(c.Email); oe != ne {
		emails := t.b(bCustomerEmails)
		if emails.Get(key(c.StoreID, ne)) != nil {
			return &app.Error{Code: app.EConflict, Message: "this email is already registered", Fields: map[string]string{"email": "is already registered"}}
		}
		if err := emails.Delete(key(c.StoreID, oe)); err != nil {
			return err
		}
		if err := emails.Put(key(c.StoreID, ne), u64(c.ID)); err != nil {
			return err
		}
	}
	return putJSON(t.b(bCustomers), key(c.StoreID, c.ID), c)
}

// Customers pages a store's customers, newest first.
func (t *Tx) Customers(storeID uint64, lp app.ListParams) (app.Page[*app.Customer], error) {
	return page(t.b(bCustomers), tenant(storeID), lp, true, decodeJSONRecord[app.Customer]("customer"))
}
