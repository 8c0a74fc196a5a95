package storage

import (
	"bytes"
	"fmt"

	"storefront/app"
)

// CreateCustomer assigns c.ID and stores c; a registered email is conflict.
func (t *Tx) CreateCustomer(c *app.Customer) error {
	emails := t.b(bCustomerEmails)
	ek := keyOf(c.StoreID).last(app.NormalizeEmail(c.Email))
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
	return putJSON(t.b(bCustomers), keyOf(c.StoreID).id(c.ID), c)
}

// Customer returns one customer.
func (t *Tx) Customer(storeID, id uint64) (*app.Customer, error) {
	var c app.Customer
	if err := getJSON(t.b(bCustomers), keyOf(storeID).id(id), &c, "customer"); err != nil {
		return nil, err
	}
	return &c, nil
}

// CustomerByEmail looks a customer up by email.
func (t *Tx) CustomerByEmail(storeID uint64, email string) (*app.Customer, error) {
	v := t.b(bCustomerEmails).Get(keyOf(storeID).last(app.NormalizeEmail(email)))
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
		if emails.Get(keyOf(c.StoreID).last(ne)) != nil {
			return &app.Error{Code: app.EConflict, Message: "this email is already registered", Fields: map[string]string{"email": "is already registered"}}
		}
		if err := emails.Delete(keyOf(c.StoreID).last(oe)); err != nil {
			return err
		}
		if err := emails.Put(keyOf(c.StoreID).last(ne), u64(c.ID)); err != nil {
			return err
		}
	}
	return putJSON(t.b(bCustomers), keyOf(c.StoreID).id(c.ID), c)
}

// Customers pages a store's customers, newest first.
func (t *Tx) Customers(storeID uint64, lp app.ListParams) (app.Page[*app.Customer], error) {
	return page(t.b(bCustomers), tenant(storeID), lp, true, decodeJSONRecord[app.Customer]("customer"))
}

// PutSession creates or updates a session and its per-customer index key.
func (t *Tx) PutSession(s *app.Session) error {
	if len(s.Key) != 32 {
		return fmt.Errorf("storage: put session: bad key length %d", len(s.Key))
	}
	if err := t.b(bSessionsByCust).Put(keyOf(s.StoreID).id(s.CustomerID).raw(s.Key), nil); err != nil {
		return fmt.Errorf("storage: put session index: %w", err)
	}
	return putJSON(t.b(bSessions), keyOf(s.StoreID).raw(s.Key), s)
}

// Session returns one session by its key.
func (t *Tx) Session(storeID uint64, k []byte) (*app.Session, error) {
	var s app.Session
	if err := getJSON(t.b(bSessions), keyOf(storeID).raw(k), &s, "session"); err != nil {
		return nil, err
	}
	return &s, nil
}

// DeleteSession removes a session and its index key.
func (t *Tx) DeleteSession(storeID uint64, k []byte) error {
	s, err := t.Session(storeID, k)
	if app.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := t.b(bSessionsByCust).Delete(keyOf(storeID).id(s.CustomerID).raw(k)); err != nil {
		return fmt.Errorf("storage: delete session index: %w", err)
	}
	return t.b(bSessions).Delete(keyOf(storeID).raw(k))
}

// Sessions lists a customer's sessions.
func (t *Tx) Sessions(storeID, customerID uint64) ([]*app.Session, error) {
	var keys [][]byte
	err := walk(t.b(bSessionsByCust), keyOf(storeID).id(customerID), nil, false, func(k, _ []byte) (bool, error) {
		keys = append(keys, bytes.Clone(k[16:]))
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]*app.Session, 0, len(keys))
	for _, k := range keys {
		s, err := t.Session(storeID, k)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// PutEmailCode replaces the customer's code of c.Purpose.
func (t *Tx) PutEmailCode(c *app.EmailCode) error {
	return putJSON(t.b(bEmailCodes), keyOf(c.StoreID).id(c.CustomerID).str0(c.Purpose), c)
}

// EmailCode returns the customer's pending code of purpose.
func (t *Tx) EmailCode(storeID, customerID uint64, purpose string) (*app.EmailCode, error) {
	var c app.EmailCode
	if err := getJSON(t.b(bEmailCodes), keyOf(storeID).id(customerID).str0(purpose), &c, "code"); err != nil {
		return nil, err
	}
	return &c, nil
}

// DeleteEmailCode removes the customer's code of purpose.
func (t *Tx) DeleteEmailCode(storeID, customerID uint64, purpose string) error {
	return t.b(bEmailCodes).Delete(keyOf(storeID).id(customerID).str0(purpose))
}

var _ = registerVerifier(verifyCustomers, bCustomerEmails, bSessionsByCust)

// verifyCustomers puts the email index of every customer and the
// per-customer index key of every session.
func verifyCustomers(t *Tx, want expectKeys) error {
	err := t.b(bCustomers).ForEach(func(_, v []byte) error {
		var c app.Customer
		if err := getJSONBytes(v, &c, "customer"); err != nil {
			return err
		}
		want.put(bCustomerEmails, keyOf(c.StoreID).last(app.NormalizeEmail(c.Email)), u64(c.ID))
		return nil
	})
	if err != nil {
		return err
	}
	return t.b(bSessions).ForEach(func(_, v []byte) error {
		var s app.Session
		if err := getJSONBytes(v, &s, "session"); err != nil {
			return err
		}
		want.put(bSessionsByCust, keyOf(s.StoreID).id(s.CustomerID).raw(s.Key), nil)
		return nil
	})
}
