package app

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkRevoked is the cost of the revocation check on every shopper
// request, with an empty set and with 10,000 revoked sessions and 1,000
// not-before times held (a token that is not revoked: the common case).
func BenchmarkRevoked(b *testing.B) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	c := Claims{Kind: TokenShopper, StoreID: 7, Subject: 42, Session: "0123456789abcdef", IssuedAt: now, ExpiresAt: now.Add(15 * time.Minute)}
	b.Run("Empty", func(b *testing.B) {
		r := newRevocations()
		b.ReportAllocs()
		for b.Loop() {
			if r.Revoked(c) {
				b.Fatal("revoked")
			}
		}
	})
	full := newRevocations()
	for i := range 10_000 {
		full.add(&Revocation{StoreID: 7, Session: fmt.Sprintf("%016x", i), Until: now.Add(15 * time.Minute)}, now)
	}
	for i := range 1_000 {
		full.add(&Revocation{StoreID: 7, CustomerID: uint64(1000 + i), NotBefore: now, Until: now.Add(15 * time.Minute)}, now)
	}
	b.Run("Held11k", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if full.Revoked(c) {
				b.Fatal("revoked")
			}
		}
	})
	b.Run("Held11kParallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if full.Revoked(c) {
					b.Fatal("revoked")
				}
			}
		})
	})
}

func TestRevoked(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	r := newRevocations()
	r.add(&Revocation{StoreID: 1, Session: "aa", Until: now.Add(time.Minute)}, now)
	r.add(&Revocation{StoreID: 1, CustomerID: 5, NotBefore: now, Until: now.Add(time.Minute)}, now)
	tests := []struct {
		name string
		c    Claims
		want bool
	}{
		{"RevokedSession", Claims{StoreID: 1, Subject: 9, Session: "aa", IssuedAt: now}, true},
		{"SessionOfOtherStore", Claims{StoreID: 2, Subject: 9, Session: "aa", IssuedAt: now}, false},
		{"OtherSession", Claims{StoreID: 1, Subject: 9, Session: "bb", IssuedAt: now}, false},
		{"IssuedBeforeNotBefore", Claims{StoreID: 1, Subject: 5, Session: "bb", IssuedAt: now.Add(-time.Second)}, true},
		{"NoIssuedAt", Claims{StoreID: 1, Subject: 5}, true},
		{"IssuedAtNotBefore", Claims{StoreID: 1, Subject: 5, IssuedAt: now}, false},
		{"OtherCustomer", Claims{StoreID: 1, Subject: 6, IssuedAt: now.Add(-time.Hour)}, false},
	}
	for _, tc := range tests {
		if got := r.Revoked(tc.c); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	// a later not-before wins; an earlier one does not move it back
	r.add(&Revocation{StoreID: 1, CustomerID: 5, NotBefore: now.Add(-time.Hour), Until: now.Add(time.Minute)}, now)
	if !r.Revoked(Claims{StoreID: 1, Subject: 5, IssuedAt: now.Add(-time.Second)}) {
		t.Errorf("an earlier not-before moved the time back")
	}
	// entries past Until are dropped at the next add a minute on
	later := now.Add(2 * time.Minute)
	r.add(&Revocation{StoreID: 1, Session: "cc", Until: later.Add(time.Minute)}, later)
	if s, c := r.Len(); s != 1 || c != 0 {
		t.Errorf("after sweep: got %d sessions, %d customers, want 1, 0", s, c)
	}
}
