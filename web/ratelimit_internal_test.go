package web

import (
	"hash/maphash"
	"strconv"
	"testing"
	"time"
)

// TestLimiter: a burst of n per key, then a refusal with the wait until the
// next token, which a refused call does not push back; keys apart; a token
// back after period/n.
func TestLimiter(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	l := NewLimiter(3, time.Second)
	l.now = func() time.Time { return now }
	for i := range 3 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("call %d of the burst refused", i+1)
		}
	}
	for range 2 {
		if ok, wait := l.Allow("a"); ok || wait <= 0 || wait > time.Second/3 {
			t.Fatalf("past the burst: got ok %v wait %v, want a refusal within 333ms", ok, wait)
		}
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatal("another key refused")
	}
	now = now.Add(time.Second / 3)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("a third of a second later: refused, want the refilled token")
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("the refilled token taken twice")
	}
}

// TestLimiterForgetsFullBuckets: a shard of many keys drops, on its next
// use, the buckets that are full again (idle a period), so memory follows
// the active keys.
func TestLimiterForgetsFullBuckets(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	l := NewLimiter(2, time.Second)
	l.now = func() time.Time { return now }
	for i := range 40_000 {
		l.Allow(strconv.Itoa(i))
	}
	now = now.Add(2 * sweepEvery)
	l.Allow("active")
	sh := &l.shards[maphash.String(l.seed, "active")%uint64(len(l.shards))]
	if n := len(sh.buckets); n != 1 {
		t.Fatalf("the shard keeps %d buckets after its keys went idle, want 1 (the active key)", n)
	}
}
