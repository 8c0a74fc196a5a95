package app

import (
	"sync"
	"time"
)

// MemoryShared is a SharedState in this process's memory: what one process
// keeps (bbolt) where several would share the database's (the panel's
// sessions), so the code that keeps them has one path. The zero value is
// ready; it is safe for concurrent use.
type MemoryShared struct {
	mu sync.Mutex
	m  map[[2]string]sharedRecord
}

type sharedRecord struct {
	owner   uint64
	value   []byte
	expires time.Time
}

var _ SharedState = (*MemoryShared)(nil)

// PutShared creates or replaces the record kind/key (value is copied).
func (s *MemoryShared) PutShared(kind, key string, owner uint64, value []byte, expires time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[[2]string]sharedRecord{}
	}
	s.m[[2]string{kind, key}] = sharedRecord{owner: owner, value: append([]byte(nil), value...), expires: expires}
	return nil
}

// GetShared returns a copy of the record kind/key (ok false when there is none).
func (s *MemoryShared) GetShared(kind, key string) ([]byte, time.Time, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.m[[2]string{kind, key}]
	return append([]byte(nil), r.value...), r.expires, ok, nil
}

// DeleteShared removes the record kind/key.
func (s *MemoryShared) DeleteShared(kind, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, [2]string{kind, key})
	return nil
}

// DeleteSharedOf removes every record of kind of an owner.
func (s *MemoryShared) DeleteSharedOf(kind string, owner uint64) error {
	return s.deleteIf(func(k [2]string, r sharedRecord) bool { return k[0] == kind && r.owner == owner })
}

// DeleteSharedBefore removes the records of kind expired at t.
func (s *MemoryShared) DeleteSharedBefore(kind string, t time.Time) error {
	return s.deleteIf(func(k [2]string, r sharedRecord) bool { return k[0] == kind && !r.expires.After(t) })
}

func (s *MemoryShared) deleteIf(drop func(k [2]string, r sharedRecord) bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, r := range s.m {
		if drop(k, r) {
			delete(s.m, k)
		}
	}
	return nil
}
