package app

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// TestRunLoopWakeBurst: wakes sent without pause for 50 ms (a checkout load
// kicking the workers once per order) run the worker about once per
// wakeGap, not once per wake, and the last wake is not lost.
func TestRunLoopWakeBurst(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	wake := make(chan struct{}, 1)
	runs := make(chan struct{}, 1<<20)
	done := make(chan struct{})
	go func() {
		defer close(done)
		runLoop(ctx, wake, time.Hour, func() { runs <- struct{}{} })
	}()
	<-runs // the run at start
	wakes := 0
	const burst = 50 * time.Millisecond
	for start := time.Now(); time.Since(start) < burst; wakes++ {
		wakeUp(wake)
		runtime.Gosched()
	}
	<-runs // a run after the burst: the wakes were not all dropped
	cancel()
	<-done
	if n := 1 + len(runs); n > 12 { // about burst/wakeGap = 5
		t.Fatalf("%d wakes over %s ran the worker %d times; want about one per %s", wakes, burst, n, wakeGap)
	}
}
