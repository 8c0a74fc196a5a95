package app

import "time"

// Customer is a shopper account of one store. The same email at two stores is
// two customers.
type Customer struct {
	ID            uint64    `json:"id"`
	StoreID       uint64    `json:"store_id"`
	Email         string    `json:"email"`
	PasswordHash  []byte    `json:"password_hash"`
	FirstName     string    `json:"first_name"`
	LastName      string    `json:"last_name"`
	Phone         string    `json:"phone"`
	EmailVerified bool      `json:"email_verified"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// Profile is the customer as shown to clients: never the password hash.
type Profile struct {
	ID            uint64    `json:"id"`
	Email         string    `json:"email"`
	FirstName     string    `json:"first_name"`
	LastName      string    `json:"last_name"`
	Phone         string    `json:"phone"`
	EmailVerified bool      `json:"email_verified"`
	CreatedAt     time.Time `json:"created_at"`
}

// Profile returns the public view of c.
func (c *Customer) Profile() Profile {
	return Profile{ID: c.ID, Email: c.Email, FirstName: c.FirstName, LastName: c.LastName,
		Phone: c.Phone, EmailVerified: c.EmailVerified, CreatedAt: UTC(c.CreatedAt)}
}

// FullName is "First Last".
func (c *Customer) FullName() string {
	if c.LastName == "" {
		return c.FirstName
	}
	return c.FirstName + " " + c.LastName
}

// CustomerTx is the storage of customers.
type CustomerTx interface {
	// CreateCustomer assigns c.ID and stores c; an email already registered at
	// the store is conflict.
	CreateCustomer(c *Customer) error
	Customer(storeID, id uint64) (*Customer, error)
	// CustomerByEmail looks up by NormalizeEmail(email).
	CustomerByEmail(storeID uint64, email string) (*Customer, error)
	PutCustomer(c *Customer) error
	// Customers pages a store's customers, newest first.
	Customers(storeID uint64, p ListParams) (Page[*Customer], error)
}

// Shopper is the identity of an authenticated storefront request.
type Shopper struct {
	StoreID    uint64
	CustomerID uint64
}

// RequireVerified returns email_not_verified when the store has
// email_otp_enabled and the customer has not verified the email. Placing an
// order with a token, reviewing and opening tickets call it.
func RequireVerified(tx Tx, storeID, customerID uint64) error {
	st, err := tx.Store(storeID)
	if err != nil {
		return err
	}
	if !st.Settings().EmailOTPEnabled {
		return nil
	}
	c, err := tx.Customer(storeID, customerID)
	if err != nil {
		return err
	}
	if !c.EmailVerified {
		return Errorf(EEmailNotVerified, "verify your email address first")
	}
	return nil
}
