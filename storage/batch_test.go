package storage_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// TestBatchGroupsAndIsolatesFailures: concurrent Batch calls share commits;
// a call that fails gets its own error and commits nothing, while every other
// call commits exactly once (the group is retried without the failing call).
func TestBatchGroupsAndIsolatesFailures(t *testing.T) {
	db := openDB(t)
	const ok, bad = 60, 12
	errBad := errors.New("refused")
	var wg sync.WaitGroup
	errs := make([]error, ok+bad)
	start := make(chan struct{})
	for i := range ok + bad {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = db.Batch(func(tx app.Tx) error {
				if _, err := tx.NextID(1, "batch-test"); err != nil {
					return err
				}
				if i >= ok {
					return fmt.Errorf("call %d: %w", i, errBad)
				}
				return nil
			})
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if i < ok && err != nil {
			t.Errorf("call %d: %v", i, err)
		}
		if i >= ok && !errors.Is(err, errBad) {
			t.Errorf("call %d: got %v, want its own error", i, err)
		}
	}
	var n uint64
	if err := db.Update(func(tx app.Tx) error {
		var err error
		n, err = tx.NextID(1, "batch-test")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n != ok+1 {
		t.Fatalf("sequence after %d successful calls: next id %d, want %d (a call committed twice or not at all)", ok, n, ok+1)
	}
	st := db.BatchStats()
	if st.Writes != ok || st.Commits == 0 || st.Commits > ok+1 {
		t.Fatalf("stats %+v: want %d grouped writes in at most %d commits", st, ok, ok+1)
	}
}

// TestBatchPanicReachesCaller: a panicking function panics in its caller
// (run alone after the group rolled back), as bbolt's Batch does; the other
// calls commit.
func TestBatchPanicReachesCaller(t *testing.T) {
	db := openDB(t)
	var wg sync.WaitGroup
	panicked := make(chan any, 1)
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer func() { panicked <- recover() }()
		_ = db.Batch(func(app.Tx) error { panic("boom") })
	}()
	var err error
	go func() {
		defer wg.Done()
		err = db.Batch(func(tx app.Tx) error { _, err := tx.NextID(1, "p"); return err })
	}()
	wg.Wait()
	if p := <-panicked; p == nil {
		t.Fatal("the panic did not reach its caller")
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestAppendMostlyBucketsPackDensely: orders appended in sequence fill their
// pages to about 90%, not bbolt's default half.
func TestAppendMostlyBucketsPackDensely(t *testing.T) {
	db := openDB(t)
	for i := 0; i < 40; i++ {
		if err := db.Update(func(tx app.Tx) error {
			for j := 0; j < 50; j++ {
				o := &app.Order{StoreID: 1, Status: app.OrderPending, PaymentStatus: app.PaymentUnpaid, Currency: "USD",
					ReceiverName: "Ada Lovelace", Address: "1 Main St", Items: []app.OrderItem{{ProductID: 1, Name: "Mug", Quantity: 1}}}
				if err := tx.CreateOrder(o); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	_ = db.Bolt().View(func(tx *bolt.Tx) error {
		s := tx.Bucket([]byte("orders")).Stats()
		fill := float64(s.LeafInuse) / float64(s.LeafPageN*tx.DB().Info().PageSize)
		if fill < 0.8 {
			t.Errorf("orders leaf pages %.0f%% full, want >= 80%%", 100*fill)
		}
		return nil
	})
}
