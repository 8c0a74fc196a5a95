// Package auth implements app.Tokens with signed JWTs (HS256, golang-jwt) and
// app.Passwords with bcrypt. It imports app and nothing of web, admin or storage.
package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/crypto/bcrypt"

	"storefront/app"
)

// JWT signs tokens with a key derived per kind from one server secret, so a
// token of one kind can never verify as another.
type JWT struct {
	keys   map[string][]byte
	now    func() time.Time
	parser *jwt.Parser // made once: it only holds options
}

// NewJWT derives the per-kind keys from secret. now may be nil.
func NewJWT(secret []byte, now func() time.Time) *JWT {
	if now == nil {
		now = time.Now
	}
	j := &JWT{keys: map[string][]byte{}, now: now, parser: jwt.NewParser(jwt.WithValidMethods([]string{"HS256"}),
		jwt.WithIssuer("storefront"), jwt.WithExpirationRequired(), jwt.WithTimeFunc(now))}
	for _, kind := range []string{app.TokenShopper, app.TokenAdmin, app.TokenDevice} {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte("storefront token key: " + kind))
		j.keys[kind] = m.Sum(nil)
	}
	return j
}

type claims struct {
	Kind  string `json:"knd"`
	Store uint64 `json:"sid,omitempty"`
	Sess  string `json:"ses,omitempty"` // shopper tokens: the refresh chain (app.ChainID); admin tokens: the token's own id
	Ver   uint64 `json:"ver,omitempty"` // admin tokens: the account's token version
	jwt.RegisteredClaims
}

// Issue signs c.
func (j *JWT) Issue(c app.Claims) (string, error) {
	key, ok := j.keys[c.Kind]
	if !ok {
		return "", errors.New("auth: unknown token kind " + c.Kind)
	}
	iat := c.IssuedAt
	if iat.IsZero() {
		iat = j.now()
	}
	cl := claims{Kind: c.Kind, Store: c.StoreID, Sess: c.Session, Ver: c.Version, RegisteredClaims: jwt.RegisteredClaims{
		Subject:   strconv.FormatUint(c.Subject, 10),
		IssuedAt:  jwt.NewNumericDate(iat),
		ExpiresAt: jwt.NewNumericDate(c.ExpiresAt),
		Issuer:    "storefront",
	}}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, cl).SignedString(key)
}

// Verify checks signature, kind and expiry; every failure is unauthorized.
func (j *JWT) Verify(token, kind string) (app.Claims, error) {
	bad := app.Errorf(app.EUnauthorized, "invalid or expired token")
	key, ok := j.keys[kind]
	if !ok || token == "" || len(token) > 4096 {
		return app.Claims{}, bad
	}
	var cl claims
	_, err := j.parser.ParseWithClaims(token, &cl, func(*jwt.Token) (any, error) { return key, nil })
	if err != nil || cl.Kind != kind {
		return app.Claims{}, bad
	}
	sub, err := strconv.ParseUint(cl.Subject, 10, 64)
	if err != nil || sub == 0 {
		return app.Claims{}, bad
	}
	var iat time.Time // a token without iat counts as issued at the epoch: any not-before revokes it
	if cl.IssuedAt != nil {
		iat = cl.IssuedAt.Time
	}
	return app.Claims{Kind: cl.Kind, StoreID: cl.Store, Subject: sub, Session: cl.Sess, Version: cl.Ver, IssuedAt: iat, ExpiresAt: cl.ExpiresAt.Time}, nil
}

// Bcrypt implements app.Passwords.
type Bcrypt struct {
	Cost  int
	dummy []byte
}

// NewBcrypt returns a hasher of the given cost (bcrypt.DefaultCost when 0).
func NewBcrypt(cost int) *Bcrypt {
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	d, _ := bcrypt.GenerateFromPassword([]byte("dummy password for timing"), cost)
	return &Bcrypt{Cost: cost, dummy: d}
}

// Hash hashes password.
func (b *Bcrypt) Hash(password string) ([]byte, error) {
	return bcrypt.GenerateFromPassword([]byte(password), b.Cost)
}

// Compare reports whether password matches hash.
func (b *Bcrypt) Compare(hash []byte, password string) bool {
	return bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil
}

// Dummy costs what one Compare costs.
func (b *Bcrypt) Dummy(password string) {
	_ = bcrypt.CompareHashAndPassword(b.dummy, []byte(password))
}
