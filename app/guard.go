package app

import (
	"strings"
	"sync"
	"time"
)

// FailureGuard counts failures per key (an email, an IP): after max failures
// within window the key is refused until the window has passed. It is safe
// for concurrent use and keeps at most a bounded number of idle keys.
type FailureGuard struct {
	now    Clock
	max    int
	window time.Duration

	mu sync.Mutex
	m  map[string]*failures
}

type failures struct {
	n     int
	since time.Time
}

// NewFailureGuard allows max failures per key within window (max 0: never blocks).
func NewFailureGuard(now Clock, max int, window time.Duration) *FailureGuard {
	return &FailureGuard{now: now, max: max, window: window, m: map[string]*failures{}}
}

// Blocked reports how long key must still wait (0: it may try).
func (g *FailureGuard) Blocked(key string) time.Duration {
	if g.max <= 0 {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	f := g.m[key]
	if f == nil {
		return 0
	}
	left := f.since.Add(g.window).Sub(g.now())
	if left <= 0 {
		delete(g.m, key)
		return 0
	}
	if f.n < g.max {
		return 0
	}
	return left
}

// Fail counts one failure of key.
func (g *FailureGuard) Fail(key string) {
	now := g.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.m) > 10000 {
		for k, f := range g.m {
			if !now.Before(f.since.Add(g.window)) {
				delete(g.m, k)
			}
		}
	}
	f := g.m[key]
	if f == nil || !now.Before(f.since.Add(g.window)) {
		f = &failures{since: now}
		g.m[strings.Clone(key)] = f
	}
	f.n++
}

// Reset forgets the failures of key (after a success).
func (g *FailureGuard) Reset(key string) {
	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
}

// RateLimited is the rate_limited error telling the client to wait d.
func RateLimited(message string, d time.Duration) *Error {
	secs := int((d + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	return &Error{Code: ERateLimited, Message: message, RetryAfter: secs}
}
