package shop

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// The signed-in shopper lives in the sf_session cookie (HttpOnly,
// SameSite=Lax, Secure behind https): the access and refresh tokens the
// customer service issued, signed for the store (Shop.sign), so a cookie of
// another store's shop is worthless here. Script never reads it. An expired
// access token is refreshed with the refresh token through the service the
// API's refresh route calls; a dead session (revoked, logged out elsewhere,
// account gone) clears the cookie and the request goes on as a guest.

// maxSessionCookie bounds the session cookie read (two JWT-sized tokens).
const maxSessionCookie = 3000

// refreshGrace is how long the result of a refresh answers other requests
// that came with the same (now spent) refresh token: a browser loading
// several pages at once refreshes once, and does not trip the service's
// reuse detection, which would end the session.
const refreshGrace = time.Minute

// refreshes remembers recent refreshes by the hash of the spent token.
type refreshes struct {
	mu sync.Mutex
	m  map[[32]byte]*refreshed
}

type refreshed struct {
	mu  sync.Mutex
	res *app.TokenResult
	at  time.Time
}

// entry returns the entry of token, dropping stale ones when the map grows.
func (r *refreshes) entry(token string, now time.Time) *refreshed {
	key := sha256.Sum256([]byte(token))
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[[32]byte]*refreshed{}
	}
	if len(r.m) > 1000 {
		for k, e := range r.m {
			if e.mu.TryLock() {
				if now.Sub(e.at) > refreshGrace {
					delete(r.m, k)
				}
				e.mu.Unlock()
			}
		}
	}
	e := r.m[key]
	if e == nil {
		e = &refreshed{}
		r.m[key] = e
	}
	return e
}

// shopper is the signed-in shopper of rq as the services name one (rq.Customer
// must be set).
func (rq *request) shopper() app.Shopper {
	return app.Shopper{StoreID: rq.Store.ID, CustomerID: rq.Customer.ID}
}

// customerID is the id of rq's signed-in shopper (0: a guest).
func (rq *request) customerID() uint64 {
	if rq.Customer == nil {
		return 0
	}
	return rq.Customer.ID
}

// decodeSession returns the token pair of a session cookie, or false when
// the cookie is not one this store's shop made.
func (s *Shop) decodeSession(storeID uint64, raw string) (access, refresh string, ok bool) {
	if len(raw) > maxSessionCookie {
		return "", "", false
	}
	v, ok := s.unsign(storeID, raw)
	b, err := base64.RawURLEncoding.DecodeString(v) // read only when signed
	if !ok || err != nil {
		return "", "", false
	}
	access, refresh, ok = strings.Cut(string(b), "\n")
	return access, refresh, ok && access != "" && refresh != ""
}

// setSession writes the session cookie: the token pair, signed for the
// store (decodeSession reads it); it lasts as long as a refresh token.
func (s *Shop) setSession(c *fiber.Ctx, rq *request, access, refresh string) {
	v := base64.RawURLEncoding.EncodeToString([]byte(access + "\n" + refresh))
	s.setCookie(c, cookieSession, s.sign(rq.Store.ID, v), s.svc.RefreshTTL)
}

// clearSession deletes the session cookie and makes rq a guest's.
func (s *Shop) clearSession(c *fiber.Ctx, rq *request) {
	s.setCookie(c, cookieSession, "", -1)
	rq.Customer = nil
}

// loadSession fills rq.Customer from the session cookie,
// refreshing an expired access token; a cookie that is not this store's,
// or whose session ended, is cleared. Infrastructure failures leave the
// cookie alone and serve the request as a guest's.
func (s *Shop) loadSession(c *fiber.Ctx, rq *request) {
	raw := c.Cookies(cookieSession)
	if raw == "" {
		return
	}
	access, refresh, ok := s.decodeSession(rq.Store.ID, raw)
	if !ok {
		s.clearSession(c, rq)
		return
	}
	cl, err := s.svc.Tokens.Verify(access, app.TokenShopper)
	if err != nil || cl.StoreID != rq.Store.ID || s.svc.Customers.RevokedToken(cl) {
		res, err := s.refresh(rq, refresh)
		if err != nil {
			s.dropSession(c, rq, err)
			return
		}
		s.setSession(c, rq, res.AccessToken, res.RefreshToken)
		if cl, err = s.svc.Tokens.Verify(res.AccessToken, app.TokenShopper); err != nil {
			s.dropSession(c, rq, err)
			return
		}
	}
	cust, err := s.svc.Customers.Get(rq.Store.ID, cl.Subject)
	if err != nil {
		s.dropSession(c, rq, err)
		return
	}
	rq.Customer = cust
}

// dropSession ends a session that failed with err: a domain answer (dead
// session, account gone) clears the cookie; anything else is logged and
// the cookie kept for the next request.
func (s *Shop) dropSession(c *fiber.Ctx, rq *request, err error) {
	if app.ErrorCode(err) == app.EInternal {
		s.log.Error("shop: loading the session", "store_id", rq.Store.ID, "err", err)
		rq.Customer = nil
		return
	}
	s.clearSession(c, rq)
	s.syncCount(c, rq)
}

// refresh spends a refresh token once for all the requests that come with
// it within refreshGrace: in this process (the entry's lock makes them
// wait for the one refresh) and, when the database is shared by several
// processes, in the others (the result is kept in the shared state as the
// panel's sessions are, so the next page load on another binary finds it).
func (s *Shop) refresh(rq *request, token string) (*app.TokenResult, error) {
	now := time.Now()
	e := s.refreshes.entry(token, now)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.res != nil && now.Sub(e.at) <= refreshGrace {
		return e.res, nil
	}
	key := sha256.Sum256([]byte(token))
	if res := s.sharedRefresh(key, now); res != nil {
		return res, nil
	}
	res, err := s.svc.Customers.Refresh(rq.Store, token)
	if err != nil {
		return nil, err
	}
	e.res, e.at = res, now
	if s.svc.Shared != nil {
		b, _ := json.Marshal(sharedRefreshed{Access: res.AccessToken, Refresh: res.RefreshToken})
		if err := s.svc.Shared.PutShared(refreshKind, hex.EncodeToString(key[:]), 0, b, now.Add(refreshGrace)); err != nil {
			s.log.Warn("shop: sharing a refresh (another process may sign the shopper out)", "err", err)
		}
		if now.Unix()%64 == 0 { // sweep now and then: refreshes are frequent
			_ = s.svc.Shared.DeleteSharedBefore(refreshKind, now)
		}
	}
	return res, nil
}

// refreshKind is the shared-state kind of recent refreshes, keyed by the hex
// SHA-256 of the spent refresh token.
const refreshKind = "shop_refresh"

// sharedRefreshed is a recent refresh as the shared state keeps it.
type sharedRefreshed struct {
	Access  string `json:"a"`
	Refresh string `json:"r"`
}

// sharedRefresh is the refresh another process made of the token of key
// within refreshGrace, nil when there is none (or no shared state).
func (s *Shop) sharedRefresh(key [32]byte, now time.Time) *app.TokenResult {
	if s.svc.Shared == nil {
		return nil
	}
	b, exp, ok, err := s.svc.Shared.GetShared(refreshKind, hex.EncodeToString(key[:]))
	var r sharedRefreshed
	if err != nil || !ok || !now.Before(exp) || json.Unmarshal(b, &r) != nil {
		return nil
	}
	return &app.TokenResult{AccessToken: r.Access, RefreshToken: r.Refresh}
}

// signIn makes the shopper of a token pair (from the customer service's
// login, register or refresh) the signed-in shopper of this browser: it
// sets the session cookie, fills rq.Customer, and merges the
// guest's cookie cart into the shopper's API cart (quantities add, capped
// at the stock left; the cookie then keeps only the coupon). Errors:
// unauthorized (a token pair that is not this store's).
func (s *Shop) signIn(c *fiber.Ctx, rq *request, access, refresh string) error {
	cl, err := s.svc.Tokens.Verify(access, app.TokenShopper)
	if err != nil || cl.StoreID != rq.Store.ID {
		return app.Errorf(app.EUnauthorized, "invalid or expired token")
	}
	cust, err := s.svc.Customers.Get(rq.Store.ID, cl.Subject)
	if err != nil {
		return err
	}
	s.setSession(c, rq, access, refresh)
	rq.Customer = cust
	cc := s.readCart(c, rq)
	if len(cc.Items) > 0 {
		if _, err := s.svc.Carts.MergeLines(rq.shopper(), cc.Items); err != nil {
			s.log.Error("shop: merging the guest cart", "store_id", rq.Store.ID, "err", err)
			return nil // the cookie keeps the lines: the next sign-in merges them
		}
		cc.Items = nil
		s.writeCart(c, rq, cc)
	}
	s.syncCount(c, rq)
	return nil
}

// signOut ends the shopper's session (its refresh chain and access tokens
// are revoked through the customer service) and clears the cookie; rq is a
// guest's afterwards. The API cart stays with the account.
func (s *Shop) signOut(c *fiber.Ctx, rq *request) {
	if _, refresh, ok := s.decodeSession(rq.Store.ID, c.Cookies(cookieSession)); ok {
		if err := s.svc.Customers.Logout(rq.Store, refresh); err != nil && app.ErrorCode(err) == app.EInternal {
			s.log.Error("shop: signing out", "store_id", rq.Store.ID, "err", err)
		}
	}
	s.clearSession(c, rq)
	s.syncCount(c, rq)
}
