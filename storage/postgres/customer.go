package postgres

import (
	"fmt"

	"storefront/app"
)

func emailTaken() error {
	return &app.Error{Code: app.EConflict, Message: "this email is already registered", Fields: map[string]string{"email": "is already registered"}}
}

// CreateCustomer assigns c.ID and stores c; a registered email is conflict.
func (t *Tx) CreateCustomer(c *app.Customer) error {
	email := app.NormalizeEmail(c.Email)
	taken, err := t.exists(c.StoreID, "customer", `SELECT 1 FROM customers WHERE store_id = $1 AND email_key = $2`, i64(c.StoreID), bs(email))
	if err != nil {
		return err
	}
	if taken {
		return emailTaken()
	}
	id, err := t.NextID(c.StoreID, "customer")
	if err != nil {
		return err
	}
	c.ID = id
	raw, err := encode(c)
	if err != nil {
		return err
	}
	return t.exec(c.StoreID, "create customer", `INSERT INTO customers (store_id, id, email_key, doc) VALUES ($1, $2, $3, $4)`,
		i64(c.StoreID), i64(c.ID), bs(email), raw)
}

// Customer returns one customer.
func (t *Tx) Customer(storeID, id uint64) (*app.Customer, error) {
	var c app.Customer
	if err := t.get(storeID, &c, "customer", `SELECT doc FROM customers WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &c, nil
}

// CustomerByEmail looks a customer up by email.
func (t *Tx) CustomerByEmail(storeID uint64, email string) (*app.Customer, error) {
	var c app.Customer
	if err := t.get(storeID, &c, "customer", `SELECT doc FROM customers WHERE store_id = $1 AND email_key = $2`, i64(storeID), bs(app.NormalizeEmail(email))); err != nil {
		return nil, err
	}
	return &c, nil
}

// PutCustomer updates c; a new email taken by another customer is conflict.
func (t *Tx) PutCustomer(c *app.Customer) error {
	old, err := t.Customer(c.StoreID, c.ID)
	if err != nil {
		return err
	}
	email := app.NormalizeEmail(c.Email)
	if app.NormalizeEmail(old.Email) != email {
		taken, err := t.exists(c.StoreID, "customer", `SELECT 1 FROM customers WHERE store_id = $1 AND email_key = $2`, i64(c.StoreID), bs(email))
		if err != nil {
			return err
		}
		if taken {
			return emailTaken()
		}
	}
	raw, err := encode(c)
	if err != nil {
		return err
	}
	return t.exec(c.StoreID, "put customer", `UPDATE customers SET email_key = $3, doc = $4 WHERE store_id = $1 AND id = $2`,
		i64(c.StoreID), i64(c.ID), bs(email), raw)
}

// Customers pages a store's customers, newest first.
func (t *Tx) Customers(storeID uint64, lp app.ListParams) (app.Page[*app.Customer], error) {
	return docList[app.Customer](t, storeID, "customers", `FROM customers WHERE store_id = $1`, []any{i64(storeID)}, byID(true), lp)
}

// PutSession creates or updates a session.
func (t *Tx) PutSession(s *app.Session) error {
	if len(s.Key) != 32 {
		return fmt.Errorf("postgres: put session: bad key length %d", len(s.Key))
	}
	raw, err := encode(s)
	if err != nil {
		return err
	}
	return t.exec(s.StoreID, "put session", `INSERT INTO sessions (store_id, key, customer_id, doc) VALUES ($1, $2, $3, $4)
		ON CONFLICT (store_id, key) DO UPDATE SET customer_id = excluded.customer_id, doc = excluded.doc`,
		i64(s.StoreID), s.Key, i64(s.CustomerID), raw)
}

// Session returns one session by its key.
func (t *Tx) Session(storeID uint64, k []byte) (*app.Session, error) {
	var s app.Session
	if err := t.get(storeID, &s, "session", `SELECT doc FROM sessions WHERE store_id = $1 AND key = $2`, i64(storeID), k); err != nil {
		return nil, err
	}
	return &s, nil
}

// DeleteSession removes a session (none is not an error).
func (t *Tx) DeleteSession(storeID uint64, k []byte) error {
	return t.exec(storeID, "delete session", `DELETE FROM sessions WHERE store_id = $1 AND key = $2`, i64(storeID), k)
}

// Sessions lists a customer's sessions by key.
func (t *Tx) Sessions(storeID, customerID uint64) ([]*app.Session, error) {
	return all[app.Session](t, storeID, "sessions", `SELECT doc FROM sessions WHERE store_id = $1 AND customer_id = $2 ORDER BY key`, i64(storeID), i64(customerID))
}

// PutEmailCode replaces the customer's code of c.Purpose.
func (t *Tx) PutEmailCode(c *app.EmailCode) error {
	raw, err := encode(c)
	if err != nil {
		return err
	}
	return t.exec(c.StoreID, "put email code", `INSERT INTO email_codes (store_id, customer_id, purpose, doc) VALUES ($1, $2, $3, $4)
		ON CONFLICT (store_id, customer_id, purpose) DO UPDATE SET doc = excluded.doc`,
		i64(c.StoreID), i64(c.CustomerID), bs(c.Purpose), raw)
}

// EmailCode returns the customer's pending code of purpose.
func (t *Tx) EmailCode(storeID, customerID uint64, purpose string) (*app.EmailCode, error) {
	var c app.EmailCode
	if err := t.get(storeID, &c, "code", `SELECT doc FROM email_codes WHERE store_id = $1 AND customer_id = $2 AND purpose = $3`,
		i64(storeID), i64(customerID), bs(purpose)); err != nil {
		return nil, err
	}
	return &c, nil
}

// DeleteEmailCode removes the customer's code of purpose.
func (t *Tx) DeleteEmailCode(storeID, customerID uint64, purpose string) error {
	return t.exec(storeID, "delete email code", `DELETE FROM email_codes WHERE store_id = $1 AND customer_id = $2 AND purpose = $3`,
		i64(storeID), i64(customerID), bs(purpose))
}
