package web

import (
	"hash/maphash"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter is the per-key shield (ratelimit.api_per_second): a token bucket
// per key from golang.org/x/time/rate, n events per period refilled evenly,
// with a burst of n. It is safe for concurrent use and forgets idle keys.
type Limiter struct {
	limit  rate.Limit
	burst  int
	now    func() time.Time
	seed   maphash.Seed
	shards [16]limiterShard
}

type limiterShard struct {
	mu      sync.Mutex
	buckets map[string]*rate.Limiter
	swept   time.Time
}

// sweepEvery is how often at most a shard of many keys drops its full
// buckets (a full bucket is the same as none).
const sweepEvery = time.Minute

// NewLimiter allows n events per period per key.
func NewLimiter(n int, period time.Duration) *Limiter {
	l := &Limiter{limit: rate.Limit(float64(n) / period.Seconds()), burst: n, now: time.Now, seed: maphash.MakeSeed()}
	for i := range l.shards {
		l.shards[i].buckets = map[string]*rate.Limiter{}
	}
	return l
}

// Allow takes one token for key. When none is left it returns false and how
// long until one is.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
	now := l.now()
	r := l.bucket(key, now).ReserveN(now, 1)
	if wait := r.DelayFrom(now); wait > 0 {
		r.CancelAt(now) // the refused event takes nothing
		return false, wait
	}
	return true, 0
}

// bucket returns key's bucket, made full on first use.
func (l *Limiter) bucket(key string, now time.Time) *rate.Limiter {
	sh := &l.shards[maphash.String(l.seed, key)%uint64(len(l.shards))]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(sh.buckets) > 1024 && now.Sub(sh.swept) > sweepEvery {
		for k, b := range sh.buckets {
			if b.TokensAt(now) >= float64(l.burst) {
				delete(sh.buckets, k)
			}
		}
		sh.swept = now
	}
	b := sh.buckets[key]
	if b == nil {
		b = rate.NewLimiter(l.limit, l.burst)
		sh.buckets[strings.Clone(key)] = b // key may point into a reused request buffer
	}
	return b
}
