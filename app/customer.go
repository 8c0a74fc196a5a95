package app

import (
	"regexp"
	"time"
	"unicode/utf8"
)

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

// Session is one login of a customer: a chain (family) of refresh tokens, of
// which only the newest is good. Key is SHA-256 of the family id carried in
// the token; Hash is SHA-256 of the whole current token. Nothing stored lets
// anyone rebuild a token.
type Session struct {
	StoreID    uint64    `json:"store_id"`
	CustomerID uint64    `json:"customer_id"`
	Key        []byte    `json:"key"`
	Hash       []byte    `json:"hash"`
	Rotations  int       `json:"rotations"`
	CreatedAt  time.Time `json:"created_at"`
	ExpiresAt  time.Time `json:"expires_at"`
}

// Email code purposes.
const (
	CodeVerify = "verify"
	CodeReset  = "reset"
)

// EmailCode is a pending 6-digit code of one customer for one purpose, kept
// as an HMAC only.
type EmailCode struct {
	StoreID    uint64    `json:"store_id"`
	CustomerID uint64    `json:"customer_id"`
	Purpose    string    `json:"purpose"`
	Hash       []byte    `json:"hash"`
	Tries      int       `json:"tries"`
	ExpiresAt  time.Time `json:"expires_at"`
}

// CustomerTx is the storage of customers, their sessions and email codes.
type CustomerTx interface {
	// CreateCustomer assigns c.ID and stores c; an email already registered at
	// the store is conflict.
	CreateCustomer(c *Customer) error
	// Customer returns not_found for an unknown id.
	Customer(storeID, id uint64) (*Customer, error)
	// CustomerByEmail looks up by NormalizeEmail(email); not_found when unknown.
	CustomerByEmail(storeID uint64, email string) (*Customer, error)
	PutCustomer(c *Customer) error
	// Customers pages a store's customers, newest first.
	Customers(storeID uint64, p ListParams) (Page[*Customer], error)

	// PutSession creates or updates a session (and its per-customer index).
	PutSession(s *Session) error
	// Session returns not_found for an unknown key.
	Session(storeID uint64, key []byte) (*Session, error)
	// DeleteSession removes a session; an unknown key is not an error.
	DeleteSession(storeID uint64, key []byte) error
	// Sessions lists a customer's sessions.
	Sessions(storeID, customerID uint64) ([]*Session, error)

	// PutEmailCode replaces the customer's code of c.Purpose.
	PutEmailCode(c *EmailCode) error
	// EmailCode returns not_found when there is no code.
	EmailCode(storeID, customerID uint64, purpose string) (*EmailCode, error)
	// DeleteEmailCode removes a code; a missing one is not an error.
	DeleteEmailCode(storeID, customerID uint64, purpose string) error

	// Revocations of shopper access tokens (app/revocation.go).
	RevocationTx
}

// Shopper is the identity of an authenticated storefront request.
type Shopper struct {
	StoreID    uint64
	CustomerID uint64
	// LinkedOrder is set (and CustomerID 0) for whoever holds an order's
	// signed link (OrderService.OrderByLink): the after-order requests of
	// that order only (requestOrderOf); nothing that needs a customer.
	LinkedOrder uint64
}

// RequireVerified returns email_not_verified when the store has
// email_otp_enabled and the customer has not verified the email. Placing an
// order with a token, reviewing and opening tickets call it.
func RequireVerified(tx verifiedTx, storeID, customerID uint64) error {
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

// Limits of account fields.
const (
	MaxNameLen      = 100
	MaxPhoneLen     = 32
	MinPasswordLen  = 8  // characters
	MaxPasswordLen  = 72 // bytes: bcrypt reads no further
	CodeTTL         = 15 * time.Minute
	CodeMaxTries    = 5
	MaxSessions     = 20 // live logins per customer; the oldest goes first
	MaxAddresses    = 50
	maxAddressField = 200
)

var phoneRE = regexp.MustCompile(`^\+?[0-9][0-9 ()\-.]{3,30}$`)

// Phone checks an optional (or required) phone number: digits with an
// optional leading +, spaces, dashes, dots and parentheses.
func (v *Validation) Phone(field, s string, required bool) {
	if s == "" {
		if required {
			v.Add(field, "is required")
		}
		return
	}
	v.Check(len(s) <= MaxPhoneLen && phoneRE.MatchString(s), field, "must be a phone number (digits, optional leading +)")
}

// Password checks a new password and its confirmation.
func (v *Validation) Password(field, password, confirmField, confirm string) {
	switch {
	case password == "":
		v.Add(field, "is required")
	case utf8.RuneCountInString(password) < MinPasswordLen:
		v.Add(field, "must be at least 8 characters")
	case len(password) > MaxPasswordLen:
		v.Add(field, "must be at most 72 bytes")
	case !utf8.ValidString(password):
		v.Add(field, "must be valid text")
	}
	if confirm == "" {
		v.Add(confirmField, "is required")
	} else if confirm != password {
		v.Add(confirmField, "does not match the password")
	}
}
