package web

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// TestUploadSlots: a store holds at most UploadsPerStore slots and the
// server UploadsAtOnce; a slot is freed by give, by its request's next one
// (the same header) and when its time has passed.
func TestUploadSlots(t *testing.T) {
	t.Parallel()
	var u uploadSlots
	now := time.Unix(1_800_000_000, 0)
	hs := make([]fasthttp.RequestHeader, 2*UploadsAtOnce)
	store := func(i int) uint64 { return uint64(i / UploadsPerStore) }
	for i := range UploadsAtOnce {
		if !u.take(&hs[i], store(i), now, time.Minute) {
			t.Fatalf("slot %d refused", i)
		}
	}
	if u.take(&hs[UploadsAtOnce], 99, now, time.Minute) {
		t.Fatal("a slot past UploadsAtOnce was given")
	}
	u.give(&hs[0]) // store 0 has one left
	if u.take(&hs[UploadsAtOnce], 1, now, time.Minute) {
		t.Fatal("store 1 got a third slot")
	}
	if !u.take(&hs[UploadsAtOnce], 0, now, time.Minute) {
		t.Fatal("store 0 did not get its freed slot back")
	}
	if !u.take(&hs[1], 0, now, time.Minute) || !u.holds(&hs[1]) {
		t.Fatal("a request's next one did not get its slot")
	}
	if u.take(&hs[UploadsAtOnce+1], 5, now.Add(59*time.Second), time.Minute) {
		t.Fatal("a slot was given while all were held")
	}
	if !u.take(&hs[UploadsAtOnce+1], 5, now.Add(61*time.Second), time.Minute) {
		t.Fatal("slots past their time were not let go")
	}
	if u.holds(&hs[2]) {
		t.Fatal("an expired slot is still held")
	}
}

// TestUploadSlotsBurst: 64 requests of 8 stores ask for a slot at once,
// each holding what it got until all have asked: exactly UploadsAtOnce get
// one, at most UploadsPerStore of a store; then all give theirs back.
func TestUploadSlotsBurst(t *testing.T) {
	t.Parallel()
	var u uploadSlots
	hs := make([]fasthttp.RequestHeader, 64)
	for round := range 20 {
		var got [8]atomic.Int32
		var asked sync.WaitGroup
		asked.Add(len(hs))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range hs {
			wg.Go(func() {
				<-start
				if u.take(&hs[i], uint64(i%8), time.Now(), time.Minute) {
					got[i%8].Add(1)
				}
				asked.Done()
				asked.Wait()
				u.give(&hs[i])
			})
		}
		close(start)
		wg.Wait()
		total := int32(0)
		for st := range got {
			if n := got[st].Load(); n > UploadsPerStore {
				t.Fatalf("round %d: store %d got %d slots, want at most %d", round, st, n, UploadsPerStore)
			}
			total += got[st].Load()
		}
		if total != UploadsAtOnce {
			t.Fatalf("round %d: %d slots given, want %d", round, total, UploadsAtOnce)
		}
		if u.n.Load() != 0 {
			t.Fatalf("round %d: %d slots held after every request gave its back", round, u.n.Load())
		}
	}
}
