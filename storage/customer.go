package storage

import (
	"bytes"
	"fmt"

	"storefront/app"
)

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

// Sessions (refresh token chains) and email codes of customers.
var (
	bSessions       = []byte("customer_sessions")     // sid|sha256(family) -> session
	bSessionsByCust = []byte("idx_sessions_customer") // sid|cid|sha256(family) -> nil
	bEmailCodes     = []byte("customer_email_codes")  // sid|cid|purpose -> code
	_               = registerBuckets(bSessions, bSessionsByCust, bEmailCodes)
)

// PutSession creates or updates a session and its per-customer index key.
func (t *Tx) PutSession(s *app.Session) error {
	if len(s.Key) != 32 {
		return fmt.Errorf("storage: put session: bad key length %d", len(s.Key))
	}
	if err := t.b(bSessionsByCust).Put(key(s.StoreID, s.CustomerID, s.Key), nil); err != nil {
		return fmt.Errorf("storage: put session index: %w", err)
	}
	return putJSON(t.b(bSessions), key(s.StoreID, s.Key), s)
}

// Session returns one session by its key.
func (t *Tx) Session(storeID uint64, k []byte) (*app.Session, error) {
	var s app.Session
	if err := getJSON(t.b(bSessions), key(storeID, k), &s, "session"); err != nil {
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
	if err := t.b(bSessionsByCust).Delete(key(storeID, s.CustomerID, k)); err != nil {
		return fmt.Errorf("storage: delete session index: %w", err)
	}
	return t.b(bSessions).Delete(key(storeID, k))
}

// Sessions lists a customer's sessions.
func (t *Tx) Sessions(storeID, customerID uint64) ([]*app.Session, error) {
	var keys [][]byte
	err := walk(t.b(bSessionsByCust), key(storeID, customerID), nil, false, func(k, _ []byte) (bool, error) {
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
	return putJSON(t.b(bEmailCodes), key(c.StoreID, c.CustomerID, str0(c.Purpose)), c)
}

// EmailCode returns the customer's pending code of purpose.
func (t *Tx) EmailCode(storeID, customerID uint64, purpose string) (*app.EmailCode, error) {
	var c app.EmailCode
	if err := getJSON(t.b(bEmailCodes), key(storeID, customerID, str0(purpose)), &c, "code"); err != nil {
		return nil, err
	}
	return &c, nil
}

// DeleteEmailCode removes the customer's code of purpose.
func (t *Tx) DeleteEmailCode(storeID, customerID uint64, purpose string) error {
	return t.b(bEmailCodes).Delete(key(storeID, customerID, str0(purpose)))
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
		want.put(bCustomerEmails, key(c.StoreID, app.NormalizeEmail(c.Email)), u64(c.ID))
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
		want.put(bSessionsByCust, key(s.StoreID, s.CustomerID, s.Key), nil)
		return nil
	})
}
