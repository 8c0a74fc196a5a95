package app

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"maps"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// StoreService manages stores and answers the two questions asked on every
// request, "which store is this key for" and "what is its config", from
// memory. Every store change goes through it, so its caches stay true.
//
// Readers never lock: the caches are an immutable snapshot behind an atomic
// pointer, replaced whole (copy on write) by the rare writers. A generation
// number, bumped by every store change, keeps a reader that loaded from the
// database before a change from caching what it read.
type StoreService struct {
	db Scope[storeData]
	s  storeDeps

	cache atomic.Pointer[storeCache]
	mu    sync.Mutex // serializes writers of cache
	// origins is the set of origins any active store allows (nil: to be
	// rebuilt); every store change drops it.
	origins atomic.Pointer[map[string]bool]
	// hosts maps a shop host name (subdomain label or custom domain) to
	// its store (nil: to be rebuilt); every store change drops it.
	hosts atomic.Pointer[hostIndex]
	// shop is how the shop chooses stores by host (SetShopHost; nil: no shop).
	shop atomic.Pointer[ShopHost]
}

// storeCache is one immutable snapshot of the caches.
type storeCache struct {
	gen    uint64
	byKey  map[[32]byte]*Store // key hash -> store; only found keys are cached
	config map[uint64][]byte   // store id -> wire JSON of its config
	byID   map[uint64]*Store   // store id -> store, read-only (Cached)
}

func newStoreService(d storeDeps) *StoreService {
	ss := &StoreService{db: scopeOf(d.DB, func(tx Tx) storeData { return tx }), s: d}
	ss.cache.Store(&storeCache{byKey: map[[32]byte]*Store{}, config: map[uint64][]byte{}, byID: map[uint64]*Store{}})
	return ss
}

// change replaces the snapshot with fn applied to a copy of it, unless gen
// is not the current generation (-1: always).
func (ss *StoreService) change(gen int64, fn func(c *storeCache)) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	old := ss.cache.Load()
	if gen >= 0 && uint64(gen) != old.gen {
		return
	}
	c := &storeCache{gen: old.gen, byKey: maps.Clone(old.byKey), config: maps.Clone(old.config), byID: maps.Clone(old.byID)}
	fn(c)
	ss.cache.Store(c)
}

// Authenticate returns the store of an API key: invalid_api_key for a missing
// or unknown key, store_inactive for a deactivated store.
func (ss *StoreService) Authenticate(key string) (*Store, error) {
	if key == "" {
		return nil, Errorf(EInvalidAPIKey, "missing X-Service-Key header")
	}
	var kb [128]byte // keys are shorter: hash them without a heap copy
	h := sha256.Sum256(append(kb[:0], key...))
	st := ss.cache.Load().byKey[h]
	if st == nil {
		var err error
		if st, err = ss.loadKey(h); err != nil {
			return nil, err
		}
	}
	if subtle.ConstantTimeCompare(st.APIKeyHash, h[:]) != 1 {
		return nil, Errorf(EInvalidAPIKey, "unknown API key")
	}
	if !st.IsActive {
		return nil, Errorf(EStoreInactive, "this store is deactivated")
	}
	return st, nil
}

// KeyMemo remembers the last key a caller authenticated and its store, for
// callers that send the same key again and again (a keep-alive connection).
// The zero value is empty. Not safe for concurrent use: one per connection.
type KeyMemo struct {
	key  string
	st   *Store
	snap *storeCache // the snapshot the answer was true in
}

// AuthenticateMemo is Authenticate, remembering the answer in m: while no
// store changed since (every change replaces the snapshot), the same key,
// compared in constant time, is the same store without hashing it again
// (SHA-256 was the largest single cost of a GET config).
func (ss *StoreService) AuthenticateMemo(key string, m *KeyMemo) (*Store, error) {
	snap := ss.cache.Load()
	if m.st != nil && m.snap == snap && sameKey(key, m.key) && m.st.IsActive {
		return m.st, nil
	}
	st, err := ss.Authenticate(key)
	if err != nil {
		return nil, err
	}
	// snap was loaded before: a change meanwhile only makes the memo miss once
	*m = KeyMemo{key: strings.Clone(key), st: st, snap: snap}
	return st, nil
}

// sameKey reports whether a and b are equal in a time that depends on their
// lengths only (subtle.ConstantTimeCompare: a connection of a proxy carries
// several clients' keys). The strings are viewed as bytes, not copied: a key
// is longer than the 32 bytes a conversion keeps on the stack.
func sameKey(a, b string) bool {
	return len(a) == len(b) &&
		subtle.ConstantTimeCompare(unsafe.Slice(unsafe.StringData(a), len(a)), unsafe.Slice(unsafe.StringData(b), len(b))) == 1
}

// loadKey reads the store of a key hash and caches it (apart from
// Authenticate so that the hot path keeps h and st on the stack).
func (ss *StoreService) loadKey(h [32]byte) (*Store, error) {
	gen := int64(ss.cache.Load().gen)
	st, err := view(ss.db, func(tx storeData) (*Store, error) { return tx.StoreByKeyHash(h[:]) })
	if IsNotFound(err) {
		return nil, Errorf(EInvalidAPIKey, "unknown API key")
	}
	if err != nil {
		return nil, err
	}
	ss.change(gen, func(c *storeCache) { c.byKey[h] = st })
	return st, nil
}

// ConfigJSON returns the wire form of a store's configuration (storefront
// endpoint 1), from memory after the first call.
func (ss *StoreService) ConfigJSON(st *Store) ([]byte, error) {
	snap := ss.cache.Load()
	if b := snap.config[st.ID]; b != nil {
		return b, nil
	}
	// A miss reads the store afresh: st may predate a change that emptied the cache.
	fresh, err := ss.Get(st.ID)
	if err != nil {
		return nil, err
	}
	var cfg map[string]any
	if err := json.Unmarshal(fresh.Config, &cfg); err != nil || cfg == nil {
		cfg = map[string]any{}
	}
	cfg["subdomain"] = fresh.Subdomain
	cfg["is_active"] = fresh.IsActive
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	ss.change(int64(snap.gen), func(c *storeCache) { c.config[st.ID] = b })
	return b, nil
}

// Cached returns a store by id from memory, reading it once after each
// change of the store (not_found). The result is shared: never modify it.
// Hot paths that know only the store's id (a checkout's provider) use it.
func (ss *StoreService) Cached(id uint64) (*Store, error) {
	snap := ss.cache.Load()
	if st := snap.byID[id]; st != nil {
		return st, nil
	}
	st, err := ss.Get(id)
	if err != nil {
		return nil, err
	}
	ss.change(int64(snap.gen), func(c *storeCache) { c.byID[id] = st })
	return st, nil
}

// forget drops every cached entry of a store, here and in the other
// processes sharing the database.
func (ss *StoreService) forget(id uint64) {
	ss.forgetLocal(id)
	ss.s.broadcast(Event{Kind: EventStore, StoreID: id})
}

// forgetAll drops the whole cache (announcements may have been missed).
func (ss *StoreService) forgetAll() {
	ss.change(-1, func(c *storeCache) {
		c.gen++
		ss.origins.Store(nil)
		ss.hosts.Store(nil)
		clear(c.config)
		clear(c.byID)
		clear(c.byKey)
	})
}

// forgetLocal drops every cached entry of a store in this process.
func (ss *StoreService) forgetLocal(id uint64) {
	ss.change(-1, func(c *storeCache) {
		c.gen++
		ss.origins.Store(nil)
		ss.hosts.Store(nil)
		delete(c.config, id)
		delete(c.byID, id)
		for k, st := range c.byKey {
			if st.ID == id {
				delete(c.byKey, k)
			}
		}
	})
}

var subdomainRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// NewStore is the input of Create.
type NewStore struct {
	Name      string `json:"name"`
	Subdomain string `json:"subdomain"`
	Currency  string `json:"currency"`
}

// Create makes a store and returns it with its API key, shown only here.
// Errors: validation_failed, conflict (subdomain taken).
func (ss *StoreService) Create(in NewStore) (*Store, string, error) {
	in.Name = strings.TrimSpace(in.Name)
	in.Subdomain = strings.ToLower(strings.TrimSpace(in.Subdomain))
	in.Currency = strings.ToUpper(strings.TrimSpace(in.Currency))
	var v Validation
	v.Text("name", in.Name, true, 100)
	v.Check(subdomainRE.MatchString(in.Subdomain), "subdomain", "must be 1-63 lower-case letters, digits or dashes")
	v.Check(len(in.Currency) == 3 && strings.Trim(in.Currency, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "", "currency", "must be a three-letter ISO 4217 code")
	if err := v.Err(); err != nil {
		return nil, "", err
	}
	key := NewAPIKey()
	st := &Store{Name: in.Name, Subdomain: in.Subdomain, Currency: in.Currency, IsActive: true,
		APIKeyHash: HashAPIKey(key), Config: NewStoreConfig(in.Name, ss.s.newLive)}
	err := ss.db.Update(func(tx storeData) error {
		st.CreatedAt, st.UpdatedAt = UTC(tx.Now()), UTC(tx.Now())
		return tx.CreateStore(st)
	})
	if err != nil {
		return nil, "", err
	}
	ss.forget(st.ID) // the shop hosts' index must learn the new subdomain
	return st, key, nil
}

// Get returns a store by id (not_found).
func (ss *StoreService) Get(id uint64) (*Store, error) {
	return view(ss.db, func(tx storeData) (*Store, error) { return tx.Store(id) })
}

// List returns every store.
func (ss *StoreService) List() ([]*Store, error) {
	return view(ss.db, func(tx storeData) ([]*Store, error) { return tx.Stores() })
}

// update applies fn to the stored store and drops the caches; a change of
// the settings writes a version by by (the admin who changes the store; nil
// for the server).
func (ss *StoreService) update(id uint64, by *AdminUser, fn func(*Store) error) (*Store, error) {
	return ss.updateTx(id, by, func(_ storeData, st *Store) error { return fn(st) })
}

// updateTx is update with fn given the transaction too (checks across
// stores). After fn, every setting it changed must be one by may change
// (PermitChanges); otherwise nothing is written.
func (ss *StoreService) updateTx(id uint64, by *AdminUser, fn func(storeData, *Store) error) (*Store, error) {
	var st *Store
	err := ss.db.Update(func(tx storeData) error {
		var err error
		if st, err = tx.Store(id); err != nil {
			return err
		}
		orig, before := cloneStore(st), settingsOf(st)
		if err := fn(tx, st); err != nil {
			return err
		}
		if by != nil { // the server may change anything
			if err := PermitChanges(by, ChangedSettings(orig, st)); err != nil {
				return err
			}
		}
		st.UpdatedAt = UTC(tx.Now())
		if err := tx.PutStore(st); err != nil {
			return err
		}
		return recordVersion(tx, before, st, emailOf(by))
	})
	ss.forget(id)
	return st, err
}

// emailOf is u's email, "" for the server (nil).
func emailOf(u *AdminUser) string {
	if u == nil {
		return ""
	}
	return u.Email
}

// RotateKey replaces a store's API key; the old key stops working at once.
func (ss *StoreService) RotateKey(id uint64) (*Store, string, error) {
	key := NewAPIKey()
	st, err := ss.update(id, nil, func(st *Store) error {
		st.APIKeyHash = HashAPIKey(key)
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return st, key, nil
}

// SetActive activates or deactivates a store.
func (ss *StoreService) SetActive(id uint64, active bool) (*Store, error) {
	return ss.update(id, nil, func(st *Store) error { st.IsActive = active; return nil })
}

// SetRequireStaffTOTP sets whether the store's managers and staff must have
// a second factor (TOTP) to use the admin side.
func (ss *StoreService) SetRequireStaffTOTP(id uint64, on bool) (*Store, error) {
	return ss.update(id, nil, func(st *Store) error { st.RequireStaffTOTP = on; return nil })
}

// Rename changes the display name of a store.
func (ss *StoreService) Rename(id uint64, name string) (*Store, error) {
	return ss.update(id, nil, func(st *Store) error {
		var v Validation
		v.Text("name", name, true, 100)
		if err := v.Err(); err != nil {
			return err
		}
		st.Name = strings.TrimSpace(name)
		return nil
	})
}

// PatchConfig merges patch into the store's configuration (MergeConfig).
func (ss *StoreService) PatchConfig(id uint64, patch []byte) (*Store, error) {
	return ss.PatchConfigBy(id, patch, nil)
}

// PatchConfigBy is PatchConfig by an admin, who must be allowed to change
// every key the patch changes (PermitChanges).
func (ss *StoreService) PatchConfigBy(id uint64, patch []byte, by *AdminUser) (*Store, error) {
	return ss.Change(id, StoreChange{Config: patch}, by)
}
