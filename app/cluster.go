package app

import (
	"encoding/json"
	"strconv"
	"time"
)

// Several processes may share one database (PostgreSQL behind a load
// balancer). What each keeps in memory for speed (the store and config
// cache, the category page cache, the set of revoked access tokens) must
// then follow the changes made by the others. A database that can be shared
// implements Broadcaster; the services announce every such change through
// it, and apply the others' announcements to their own memory. The bbolt
// backend (one process) does not implement it and nothing is sent.

// Event is one announced change.
type Event struct {
	Kind    string // EventStore, EventCatalog, EventDeals, EventRevocation
	StoreID uint64
	Data    []byte // kind-specific (a revocation's JSON)
	// Lost is set instead of a change when announcements may have been missed
	// (the listening connection was lost): drop every cache, reload.
	Lost bool
}

// Event kinds.
const (
	EventStore      = "store"      // a store record changed: its key and config caches
	EventCatalog    = "catalog"    // a store's catalog changed: its category pages
	EventRevocation = "revocation" // an access-token revocation was stored
	EventDeals      = "deals"      // a store's flash deals changed: its deals and category pages
)

// Broadcaster is implemented by a storage shared by several processes.
type Broadcaster interface {
	// Broadcast announces a committed change to the other processes. A
	// backend whose transactions announce their own writes with the commit
	// (PostgreSQL: NOTIFY in the writing statement) may ignore those kinds.
	Broadcast(ev Event) error
	// OnBroadcast sets the receiver of the other processes' announcements
	// (called from one goroutine, in order).
	OnBroadcast(fn func(Event))
}

// broadcast announces a change when the database is shared; a failure is
// logged (the others' caches expire or reload on reconnect).
func (s *Services) broadcast(ev Event) {
	b, ok := s.raw.(Broadcaster)
	if !ok {
		return
	}
	if err := b.Broadcast(ev); err != nil {
		s.Log.Error("announcing a change to the other processes", "kind", ev.Kind, "store_id", ev.StoreID, "err", err)
	}
}

// revoked puts a committed revocation in memory, here and in the other
// processes sharing the database.
func (s *Services) revoked(rv *Revocation) {
	s.revocations.add(rv, s.Now())
	if b, err := json.Marshal(rv); err == nil {
		s.broadcast(Event{Kind: EventRevocation, StoreID: rv.StoreID, Data: b})
	}
}

// listen applies the other processes' announcements to this one's memory.
func (s *Services) listen() {
	b, ok := s.raw.(Broadcaster)
	if !ok {
		return
	}
	b.OnBroadcast(func(ev Event) {
		switch {
		case ev.Lost:
			s.Stores.forgetAll()
			s.Catalog.changedAll()
			if err := s.Customers.reloadRevocations(); err != nil {
				s.Log.Error("reloading token revocations", "err", err)
			}
		case ev.Kind == EventStore:
			s.Stores.forgetLocal(ev.StoreID)
		case ev.Kind == EventCatalog:
			s.Catalog.changedLocal(ev.StoreID)
		case ev.Kind == EventDeals:
			s.Catalog.dealsChanged(ev.StoreID)
		case ev.Kind == EventRevocation:
			var rv Revocation
			if err := json.Unmarshal(ev.Data, &rv); err != nil {
				s.Log.Error("bad revocation announcement", "err", err)
				return
			}
			s.revocations.add(&rv, s.Now())
		}
	})
}

// String is a log form of an event.
func (ev Event) String() string {
	if ev.Lost {
		return "lost"
	}
	return ev.Kind + ":" + strconv.FormatUint(ev.StoreID, 10)
}

// Shared returns the database's SharedState when it is shared by several
// processes, else nil.
func (s *Services) Shared() SharedState {
	ss, _ := s.raw.(SharedState)
	return ss
}

// SharedState is implemented by a storage shared by several processes: small
// records with an owner and an expiry that every process must see, such as
// the admin panel's sessions. Without it (bbolt, one process) they live in
// memory (MemoryShared).
type SharedState interface {
	// PutShared creates or replaces the record kind/key.
	PutShared(kind, key string, owner uint64, value []byte, expires time.Time) error
	// GetShared returns the record kind/key (ok false when there is none).
	GetShared(kind, key string) (value []byte, expires time.Time, ok bool, err error)
	// DeleteShared removes the record kind/key (none is not an error).
	DeleteShared(kind, key string) error
	// DeleteSharedOf removes every record of kind of an owner.
	DeleteSharedOf(kind string, owner uint64) error
	// DeleteSharedBefore removes the records of kind expired at t.
	DeleteSharedBefore(kind string, t time.Time) error
}
