package web

import (
	"math"
	"strconv"
	"testing"
)

// TestAppendBase36: the request id's counter is written as strconv writes it.
func TestAppendBase36(t *testing.T) {
	t.Parallel()
	check := func(n uint64) {
		if got, want := appendBase36([]byte("x"), n), strconv.AppendUint([]byte("x"), n, 36); string(got) != string(want) {
			t.Fatalf("appendBase36(%d) = %q, want %q", n, got, want)
		}
	}
	for n := uint64(0); n < 100000; n++ {
		check(n)
	}
	for n := uint64(100000); n < math.MaxUint64/37; n = n*37 + 11 {
		check(n)
		check(n - 1)
	}
	check(math.MaxUint64)
}
