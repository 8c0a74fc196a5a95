package app

import (
	"testing"
	"time"
)

// TestMemoryShared: records by kind and key, a copy of the value, and the
// three deletions (one record, an owner's of a kind, the expired of a kind).
func TestMemoryShared(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var s MemoryShared
	put := func(kind, key string, owner uint64, v string, exp time.Duration) {
		if err := s.PutShared(kind, key, owner, []byte(v), t0.Add(exp)); err != nil {
			t.Fatal(err)
		}
	}
	has := func(kind, key string) bool {
		_, _, ok, err := s.GetShared(kind, key)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	v := []byte("one")
	_ = s.PutShared("a", "k1", 1, v, t0.Add(time.Hour))
	v[0] = 'X' // the stored value is a copy
	put("a", "k2", 2, "two", time.Minute)
	put("b", "k1", 1, "other kind", time.Hour)
	got, exp, ok, _ := s.GetShared("a", "k1")
	if !ok || string(got) != "one" || !exp.Equal(t0.Add(time.Hour)) {
		t.Fatalf("a/k1 = %q %v %v", got, exp, ok)
	}
	got[0] = 'Y' // and so is the value read
	if got, _, _, _ := s.GetShared("a", "k1"); string(got) != "one" {
		t.Fatalf("a/k1 changed by its reader: %q", got)
	}
	_ = s.DeleteSharedBefore("a", t0.Add(time.Minute)) // k2 expired at that instant
	if has("a", "k2") || !has("a", "k1") || !has("b", "k1") {
		t.Fatal("DeleteSharedBefore removed the wrong records")
	}
	_ = s.DeleteSharedOf("a", 1)
	if has("a", "k1") || !has("b", "k1") {
		t.Fatal("DeleteSharedOf removed the wrong records")
	}
	_ = s.DeleteShared("b", "k1")
	if has("b", "k1") {
		t.Fatal("DeleteShared kept the record")
	}
}
