package app

import "time"

// Token kinds. Each kind is signed with its own key, so a token of one kind
// never verifies as another.
const (
	TokenShopper = "shopper"
	TokenAdmin   = "admin"
)

// Claims are what a bearer token carries.
type Claims struct {
	Kind    string
	StoreID uint64 // shopper tokens: the store; admin tokens: 0
	Subject uint64 // customer id or admin user id
	// Session names the refresh chain a shopper access token was issued for
	// (ChainID of the chain's key); "" for tokens of no chain. Admin tokens:
	// the token's own random id (what logout revokes).
	Session string
	// Version is an admin token's AdminUser.TokenVersion at issue: a password
	// change raises the account's version and so ends every older token.
	Version   uint64
	IssuedAt  time.Time // zero on Issue: the signer's clock
	ExpiresAt time.Time
}

// Tokens issues and verifies signed bearer tokens without a database read.
type Tokens interface {
	// Issue signs c.
	Issue(c Claims) (string, error)
	// Verify checks the signature, kind and expiry of a token; any failure is unauthorized.
	Verify(token, kind string) (Claims, error)
}
