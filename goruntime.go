package main

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"time"
)

// The Go runtime settings of serve: the number of Ps (GOMAXPROCS) and the
// garbage collector's target (GOGC), each left to the environment when set.

// On one CPU Go runs one P (GOMAXPROCS 1), and a bbolt commit's fsync holds
// it until the scheduler notices the blocked system call: under a checkout
// load every request then waits on the disk (initiation over a socket on one
// core: 6,567 req/s at one P, 16,826 at two). But two Ps on one CPU
// time-slice it between two threads, which costs reads their tail latency
// (GET config p99 4 -> 8-30 ms, searches at 1M 5 ms -> up to 400 ms at 64
// connections) and 5-10% of their throughput. So serve governs it: one P
// while the process mostly reads, two while it commits often, and back to
// one after half a calm second. A GOMAXPROCS in the environment, or more than
// one CPU, leaves Go's choice alone (docs/decisions.md, "Operations").

// governTick is how often the governor looks at the commit counter.
const governTick = 100 * time.Millisecond

// procsGovernor decides the number of Ps from the commits of each tick.
type procsGovernor struct {
	busyAt uint64 // commits in a tick from which the process counts as writing
	calmAt int    // ticks in a row below busyAt before going back to one P
	last   uint64 // the commit counter at the previous tick
	calm   int    // ticks in a row below busyAt so far
	procs  int    // the Ps now
}

func newProcsGovernor(commits uint64) *procsGovernor {
	return &procsGovernor{busyAt: 5, calmAt: 5, last: commits, procs: 1}
}

// next takes the commit counter at this tick and returns the Ps to run.
func (g *procsGovernor) next(commits uint64) int {
	n := commits - g.last
	g.last = commits
	switch {
	case n >= g.busyAt:
		g.calm, g.procs = 0, 2
	case g.procs == 2:
		if g.calm++; g.calm >= g.calmAt {
			g.calm, g.procs = 0, 1
		}
	}
	return g.procs
}

// governProcs runs the governor until ctx ends, when Go chose one P and the
// environment does not set GOMAXPROCS; it reports whether it runs.
func governProcs(ctx context.Context, commits func() uint64, log *slog.Logger) bool {
	if _, set := os.LookupEnv("GOMAXPROCS"); set || runtime.GOMAXPROCS(0) != 1 {
		return false
	}
	g := newProcsGovernor(commits())
	go func() {
		t := time.NewTicker(governTick)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if n := g.procs; g.next(commits()) != n {
					runtime.GOMAXPROCS(g.procs)
					log.Debug("GOMAXPROCS changed with the write load", "gomaxprocs", g.procs)
				}
			}
		}
	}()
	return true
}
