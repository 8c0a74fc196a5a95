package app

import (
	"hash/maphash"
	"strings"
	"sync"
	"time"
)

// Limiter counts events per key in fixed windows (a window of length w starts
// at every multiple of w since the Unix epoch). Limits are take-then-check:
// the caller takes first and then compares the count with its limit, so a
// parallel burst can never be checked in full; an attempt that turns out not
// to count (a successful login) is refunded. The in-memory MemLimiter serves
// one process; a shared implementation (a database) serves several.
type Limiter interface {
	// Take adds one event for key in the current window of length window and
	// returns the count including it and the time left until the window ends.
	Take(key string, window time.Duration) (count int, reset time.Duration, err error)
	// Refund takes one event back from key's current window (never below 0).
	Refund(key string, window time.Duration) error
	// Count returns key's count in the current window, changing nothing.
	Count(key string, window time.Duration) (int, error)
}

// Limit is one budget: at most Max events per Window for Key. Max 0 or less
// is no limit (the take is skipped).
type Limit struct {
	Key    string
	Max    int
	Window time.Duration
}

// TakeAll takes one event from every limit, in order. At the first count
// over its Max it stops, every take is given back and the error is
// rate_limited with that limit's wait: the refused attempt costs nothing,
// counts nowhere, and does not touch the limits after it. (Taking them too
// let a burst refused by the first limit fill the second one, so that on a
// shared limiter, where a take is a round trip, attempts the first limit
// allowed were refused by the second: 3 of 5 in a burst of 40.) On nil the
// takes stand; RefundAll gives them back when the attempt must not count.
func TakeAll(l Limiter, message string, limits ...Limit) error {
	var wait time.Duration
	taken := 0
	var err error
	for _, lim := range limits {
		if lim.Max <= 0 {
			taken++
			continue
		}
		var n int
		var reset time.Duration
		n, reset, err = l.Take(lim.Key, lim.Window)
		if err != nil {
			break
		}
		taken++
		if n > lim.Max {
			wait = max(reset, time.Nanosecond)
			break
		}
	}
	if err == nil && wait == 0 {
		return nil
	}
	RefundAll(l, limits[:taken]...)
	if err != nil {
		return err
	}
	return RateLimited(message, wait)
}

// RefundAll gives back one event of every limit (Max 0 or less: skipped).
// Errors are ignored: a lost refund only makes a limit stricter.
func RefundAll(l Limiter, limits ...Limit) {
	for _, lim := range limits {
		if lim.Max > 0 {
			_ = l.Refund(lim.Key, lim.Window)
		}
	}
}

// MemLimiter is the in-memory Limiter of one process: sharded maps of
// counters, safe for concurrent use, forgetting windows that have ended.
type MemLimiter struct {
	now    Clock
	seed   maphash.Seed
	shards [32]memShard
}

type memShard struct {
	mu    sync.Mutex
	m     map[memKey]*memCount
	swept time.Time
}

type memKey struct {
	key    string
	window time.Duration
}

type memCount struct {
	start time.Time // start of the window the count belongs to
	n     int
}

// NewMemLimiter returns an in-memory Limiter on the clock now (nil: time.Now).
func NewMemLimiter(now Clock) *MemLimiter {
	if now == nil {
		now = time.Now
	}
	l := &MemLimiter{now: now, seed: maphash.MakeSeed()}
	for i := range l.shards {
		l.shards[i].m = map[memKey]*memCount{}
	}
	return l
}

func (l *MemLimiter) shard(key string) *memShard {
	return &l.shards[maphash.String(l.seed, key)%uint64(len(l.shards))]
}

// windowStart is the start of the fixed window of length w holding t.
func windowStart(t time.Time, w time.Duration) time.Time {
	if w <= 0 {
		return t
	}
	return t.Truncate(w)
}

// Take implements Limiter.
func (l *MemLimiter) Take(key string, window time.Duration) (int, time.Duration, error) {
	now := l.now()
	start := windowStart(now, window)
	sh := l.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.sweep(now)
	k := memKey{key, window}
	c := sh.m[k]
	if c == nil || !c.start.Equal(start) {
		if c == nil {
			c = &memCount{}
			k.key = strings.Clone(key) // key may point into a reused request buffer
			sh.m[k] = c
		}
		c.start, c.n = start, 0
	}
	c.n++
	return c.n, start.Add(window).Sub(now), nil
}

// Refund implements Limiter.
func (l *MemLimiter) Refund(key string, window time.Duration) error {
	start := windowStart(l.now(), window)
	sh := l.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if c := sh.m[memKey{key, window}]; c != nil && c.start.Equal(start) && c.n > 0 {
		c.n--
	}
	return nil
}

// Count implements Limiter.
func (l *MemLimiter) Count(key string, window time.Duration) (int, error) {
	start := windowStart(l.now(), window)
	sh := l.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if c := sh.m[memKey{key, window}]; c != nil && c.start.Equal(start) {
		return c.n, nil
	}
	return 0, nil
}

// sweep drops counters of ended windows, at most once a minute and only when
// the shard has grown, so memory stays bounded by the keys of live windows.
func (sh *memShard) sweep(now time.Time) {
	if len(sh.m) < 1024 || now.Sub(sh.swept) < time.Minute {
		return
	}
	sh.swept = now
	for k, c := range sh.m {
		if !now.Before(c.start.Add(k.window)) {
			delete(sh.m, k)
		}
	}
}
