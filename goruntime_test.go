package main

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"testing"
)

// TestProcsGovernor: two Ps from the first busy tick, back to one after
// calmAt calm ticks in a row; a busy tick in the calm starts it again.
func TestProcsGovernor(t *testing.T) {
	g := newProcsGovernor(100)
	commits := uint64(100)
	step := func(n uint64) int { commits += n; return g.next(commits) }
	for i, c := range []struct {
		commits uint64
		want    int
	}{
		{0, 1}, {4, 1}, // a trickle of orders: one P
		{5, 2}, {40, 2}, // a burst
		{0, 2}, {1, 2}, {0, 2}, {0, 2}, // four calm ticks
		{6, 2}, // busy again: the calm starts over
		{0, 2}, {0, 2}, {0, 2}, {0, 2},
		{0, 1}, // the fifth calm tick in a row
		{0, 1},
	} {
		if got := step(c.commits); got != c.want {
			t.Fatalf("tick %d (+%d commits): %d Ps, want %d", i, c.commits, got, c.want)
		}
	}
}

// governProcs leaves Go's choice alone where it chose more than one P or the
// environment sets GOMAXPROCS, and governs one P otherwise.
func TestGovernProcsOnlyOnOneP(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	zero := func() uint64 { return 0 }
	t.Setenv("GOMAXPROCS", "")
	if governProcs(ctx, zero, slog.Default()) {
		t.Fatal("GOMAXPROCS set in the environment: governed anyway")
	}
	os.Unsetenv("GOMAXPROCS") // t.Setenv restores it after the test
	if governProcs(ctx, zero, slog.Default()) {
		t.Fatal("two Ps: governed anyway")
	}
	runtime.GOMAXPROCS(1)
	if !governProcs(ctx, zero, slog.Default()) {
		t.Fatal("one P, no GOMAXPROCS: not governed")
	}
}
