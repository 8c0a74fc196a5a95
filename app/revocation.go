package app

import (
	"encoding/hex"
	"sync"
	"time"
)

// Revocation is one stored revocation of shopper access tokens: every token
// of a session (Session set), or every token of a customer issued before
// NotBefore (Session ""). It is kept until Until, when the last token it
// covers has expired.
type Revocation struct {
	StoreID    uint64    `json:"store_id"`
	Session    string    `json:"session,omitempty"`
	CustomerID uint64    `json:"customer_id,omitempty"`
	NotBefore  time.Time `json:"not_before,omitzero"`
	Until      time.Time `json:"until"`
}

// RevocationTx is the storage of revocations, kept next to the customers.
type RevocationTx interface {
	// PutRevocation stores r, replacing the one of the same session or customer.
	PutRevocation(r *Revocation) error
	// Revocations lists the stored revocations of every store.
	Revocations() ([]*Revocation, error)
	// PruneRevocations deletes those whose Until is not after t.
	PruneRevocations(t time.Time) error
}

// ChainID is the short id of a refresh chain that its access tokens carry:
// the first 8 bytes of the session key (SHA-256 of the family id), in hex.
func ChainID(sessionKey []byte) string {
	if len(sessionKey) < 8 {
		return ""
	}
	return hex.EncodeToString(sessionKey[:8])
}

type sessionRef struct {
	store uint64
	id    string
}

type customerRef struct {
	store, customer uint64
}

type notBefore struct {
	at, until time.Time
}

// Revocations holds, in memory, the revoked sessions and the per-customer
// not-before times whose access tokens may still be unexpired, so that the
// check on every shopper request is two map lookups and no database read.
// Entries are dropped once every token they cover has expired.
type Revocations struct {
	mu        sync.RWMutex
	sessions  map[sessionRef]time.Time // -> until
	customers map[customerRef]notBefore
	loaded    bool
	swept     time.Time // last drop of expired entries
}

func newRevocations() *Revocations {
	return &Revocations{sessions: map[sessionRef]time.Time{}, customers: map[customerRef]notBefore{}}
}

// Revoked reports whether the shopper token of c was revoked. Map lookups only.
func (r *Revocations) Revoked(c Claims) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if len(r.sessions) == 0 && len(r.customers) == 0 {
		return false
	}
	if c.Session != "" {
		if _, ok := r.sessions[sessionRef{c.StoreID, c.Session}]; ok {
			return true
		}
	}
	if nb, ok := r.customers[customerRef{c.StoreID, c.Subject}]; ok && c.IssuedAt.Before(nb.at) {
		return true
	}
	return false
}

// add records rv in memory and drops expired entries (at most once a minute).
func (r *Revocations) add(rv *Revocation, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if rv.Session != "" {
		k := sessionRef{rv.StoreID, rv.Session}
		if rv.Until.After(r.sessions[k]) {
			r.sessions[k] = rv.Until
		}
	} else {
		k := customerRef{rv.StoreID, rv.CustomerID}
		old := r.customers[k]
		if rv.NotBefore.After(old.at) {
			old.at = rv.NotBefore
		}
		if rv.Until.After(old.until) {
			old.until = rv.Until
		}
		r.customers[k] = old
	}
	if now.Sub(r.swept) >= time.Minute {
		r.sweepLocked(now)
	}
}

func (r *Revocations) sweepLocked(now time.Time) {
	r.swept = now
	for k, until := range r.sessions {
		if !now.Before(until) {
			delete(r.sessions, k)
		}
	}
	for k, nb := range r.customers {
		if !now.Before(nb.until) {
			delete(r.customers, k)
		}
	}
}

// Len is the number of entries held (sessions, customers).
func (r *Revocations) Len() (sessions, customers int) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.sessions), len(r.customers)
}

// RevokedToken reports whether a verified shopper access token was revoked by
// a logout, a refresh token reuse or a password reset. It reads no database.
func (cs *CustomerService) RevokedToken(c Claims) bool { return cs.rev.Revoked(c) }

// Revocations returns the in-memory revocation set (tests, metrics).
func (cs *CustomerService) Revocations() *Revocations { return cs.rev }

// LoadRevocations reads the unexpired stored revocations into memory and
// deletes the expired ones. NewServices calls it; main calls it again to fail
// the start when the database cannot be read. Once loaded it does nothing.
func (cs *CustomerService) LoadRevocations() error {
	cs.rev.mu.RLock()
	loaded := cs.rev.loaded
	cs.rev.mu.RUnlock()
	if loaded {
		return nil
	}
	var all []*Revocation
	err := cs.s.DB.Update(func(tx Tx) error {
		if err := tx.PruneRevocations(tx.Now()); err != nil {
			return err
		}
		var err error
		all, err = tx.Revocations()
		return err
	})
	if err != nil {
		return err
	}
	now := cs.s.Now()
	for _, rv := range all {
		cs.rev.add(rv, now)
	}
	cs.rev.mu.Lock()
	cs.rev.loaded, cs.rev.swept = true, now
	cs.rev.mu.Unlock()
	return nil
}

// revokeSessions stores, in tx, the revocation of the access tokens of the
// sessions with keys; the caller calls commitRevocations after the commit.
func (cs *CustomerService) revokeSessions(tx revokeTx, storeID uint64, keys ...[]byte) ([]*Revocation, error) {
	until := UTC(tx.Now()).Add(cs.s.Opt.AccessTTL + time.Second)
	out := make([]*Revocation, 0, len(keys))
	for _, k := range keys {
		rv := &Revocation{StoreID: storeID, Session: ChainID(k), Until: until}
		if err := tx.PutRevocation(rv); err != nil {
			return nil, err
		}
		out = append(out, rv)
	}
	return out, cs.pruneStored(tx)
}

// revokeCustomer stores, in tx, the revocation of every access token of the
// customer issued before now (whole seconds, as tokens carry them).
func (cs *CustomerService) revokeCustomer(tx revokeTx, storeID, customerID uint64) (*Revocation, error) {
	now := UTC(tx.Now())
	rv := &Revocation{StoreID: storeID, CustomerID: customerID, NotBefore: now, Until: now.Add(cs.s.Opt.AccessTTL + time.Second)}
	if err := tx.PutRevocation(rv); err != nil {
		return nil, err
	}
	return rv, cs.pruneStored(tx)
}

// pruneStored deletes expired stored revocations, at most once per access TTL.
func (cs *CustomerService) pruneStored(tx revokeTx) error {
	now := tx.Now()
	cs.mu.Lock()
	due := now.Sub(cs.pruned) >= cs.s.Opt.AccessTTL
	if due {
		cs.pruned = now
	}
	cs.mu.Unlock()
	if !due {
		return nil
	}
	return tx.PruneRevocations(now)
}

// commitRevocations puts committed revocations in memory, here and in the
// other processes sharing the database.
func (cs *CustomerService) commitRevocations(rvs ...*Revocation) {
	for _, rv := range rvs {
		if rv != nil {
			cs.s.revoked(rv)
		}
	}
}

// reloadRevocations reads the stored revocations again (announcements may
// have been missed).
func (cs *CustomerService) reloadRevocations() error {
	var all []*Revocation
	err := cs.s.DB.View(func(tx Tx) error {
		var err error
		all, err = tx.Revocations()
		return err
	})
	if err != nil {
		return err
	}
	now := cs.s.Now()
	for _, rv := range all {
		cs.rev.add(rv, now)
	}
	return nil
}
