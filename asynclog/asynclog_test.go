package asynclog_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"storefront/asynclog"
)

// lockedBuffer is an io.Writer safe for the writer's goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// blockingWriter blocks every Write until release is closed.
type blockingWriter struct {
	entered chan struct{}
	release chan struct{}
	once    sync.Once
	lockedBuffer
}

func (b *blockingWriter) Write(p []byte) (int, error) {
	b.once.Do(func() { close(b.entered) })
	<-b.release
	return b.lockedBuffer.Write(p)
}

func TestConcurrentLinesKeptWholeAndInOrder(t *testing.T) {
	var out lockedBuffer
	w := asynclog.New(&out, asynclog.Options{FlushBytes: 512})
	const writers, lines = 8, 500
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lines {
				fmt.Fprintf(w, "g=%d i=%d %s\n", g, i, strings.Repeat("x", i%50))
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != writers*lines {
		t.Fatalf("got %d lines, want %d", len(got), writers*lines)
	}
	next := make([]int, writers)
	for _, l := range got {
		var g, i int
		var pad string
		if _, err := fmt.Sscanf(l, "g=%d i=%d %s", &g, &i, &pad); err != nil && i%50 != 0 {
			t.Fatalf("torn line %q: %v", l, err)
		}
		if i != next[g] {
			t.Fatalf("writer %d: got line %d, want %d (out of order)", g, i, next[g])
		}
		next[g]++
	}
	if d := w.Dropped(); d != 0 {
		t.Fatalf("dropped %d lines, want 0", d)
	}
}

func TestWriteNeverWaitsForTheOutputAndCountsDrops(t *testing.T) {
	out := &blockingWriter{entered: make(chan struct{}), release: make(chan struct{})}
	var mu sync.Mutex
	var reported uint64
	w := asynclog.New(out, asynclog.Options{FlushBytes: 10, MaxBytes: 100, OnDrop: func(n uint64) {
		mu.Lock()
		reported += n
		mu.Unlock()
	}})
	line := []byte("0123456789\n") // 11 bytes
	w.Write(line)                  // kicks a flush that blocks in the output
	<-out.entered
	// The output is stuck: 9 lines fit the 100-byte queue, the rest must be
	// dropped at once rather than wait.
	for range 50 {
		if n, err := w.Write(line); n != len(line) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if got := w.Dropped(); got != 41 {
		t.Fatalf("dropped %d, want 41", got)
	}
	close(out.release)
	w.Close()
	if got := strings.Count(out.String(), "\n"); got != 10 {
		t.Fatalf("written %d lines, want 10", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if reported != 41 {
		t.Fatalf("OnDrop reported %d, want 41", reported)
	}
}

func TestFlushWritesEverythingQueued(t *testing.T) {
	var out lockedBuffer
	w := asynclog.New(&out, asynclog.Options{Interval: time.Hour})
	defer w.Close()
	w.Write([]byte("one\n"))
	w.Write([]byte("two\n"))
	w.Flush()
	if got := out.String(); got != "one\ntwo\n" {
		t.Fatalf("got %q after Flush", got)
	}
}

func TestIntervalFlushWithoutClose(t *testing.T) {
	var out lockedBuffer
	w := asynclog.New(&out, asynclog.Options{Interval: time.Millisecond})
	defer w.Close()
	w.Write([]byte("tick\n"))
	deadline := time.Now().Add(5 * time.Second)
	for out.String() != "tick\n" {
		if time.Now().After(deadline) {
			t.Fatalf("line not written by the interval flush; got %q", out.String())
		}
		time.Sleep(time.Millisecond) // polling a condition with a deadline
	}
}

func TestCloseTwiceAndWriteAfterClose(t *testing.T) {
	var out lockedBuffer
	w := asynclog.New(&out, asynclog.Options{})
	w.Write([]byte("kept\n"))
	w.Close()
	w.Close()
	w.Write([]byte("late\n"))
	if got := out.String(); got != "kept\n" {
		t.Fatalf("got %q", got)
	}
	if w.Dropped() != 1 {
		t.Fatalf("dropped %d, want 1", w.Dropped())
	}
}
