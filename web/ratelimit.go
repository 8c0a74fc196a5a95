package web

import (
	"hash/maphash"
	"strings"
	"sync"
	"time"
)

// Limiter is a token bucket per key: n events per period, refilled evenly,
// with a burst of n. It is safe for concurrent use and forgets idle keys.
type Limiter struct {
	n      float64
	period time.Duration
	now    func() time.Time
	seed   maphash.Seed
	shards [16]limiterShard
}

type limiterShard struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

// NewLimiter allows n events per period per key.
func NewLimiter(n int, period time.Duration) *Limiter {
	l := &Limiter{n: float64(n), period: period, now: time.Now, seed: maphash.MakeSeed()}
	for i := range l.shards {
		l.shards[i].buckets = map[string]*bucket{}
	}
	return l
}

// SetClock replaces the limiter's clock (tests).
func (l *Limiter) SetClock(now func() time.Time) { l.now = now }

// Allow takes one token for key. When none is left it returns false and how
// long until one is.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
	return l.take(key, 1)
}

// Peek reports whether key has a token left without taking it.
func (l *Limiter) Peek(key string) (bool, time.Duration) {
	return l.take(key, 0)
}

// Reset forgets key (for example after a successful login).
func (l *Limiter) Reset(key string) {
	sh := &l.shards[maphash.String(l.seed, key)%uint64(len(l.shards))]
	sh.mu.Lock()
	delete(sh.buckets, key)
	sh.mu.Unlock()
}

func (l *Limiter) take(key string, cost float64) (bool, time.Duration) {
	now := l.now()
	sh := &l.shards[maphash.String(l.seed, key)%uint64(len(l.shards))]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if now.Sub(sh.swept) > l.period*2 && len(sh.buckets) > 1024 {
		for k, b := range sh.buckets {
			if now.Sub(b.last) > l.period {
				delete(sh.buckets, k)
			}
		}
		sh.swept = now
	}
	b := sh.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.n, last: now}
		sh.buckets[strings.Clone(key)] = b // key may point into a reused request buffer
	}
	rate := l.n / float64(l.period)
	b.tokens = min(l.n, b.tokens+float64(now.Sub(b.last))*rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens -= cost
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / rate)
}
