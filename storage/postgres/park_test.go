package postgres_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/app"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// TestParkedReads: a read's connection waits, inside its transaction, for
// the next transaction (park.go). Every read still sees every write
// committed before it began, on a pool of two connections with readers and
// writers racing, and a parked connection nobody takes is released.
func TestParkedReads(t *testing.T) {
	db, err := postgres.Open(pgtest.NewDatabase(t), postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p := &app.Product{StoreID: 1, Name: "Mug", Slug: "mug", Price: 100, Stock: 1000, IsActive: true, Currency: "USD"}
	if err := db.Update(func(tx app.Tx) error { return tx.PutProduct(p) }); err != nil {
		t.Fatal(err)
	}
	stock := func() int64 {
		var n int64
		if err := db.View(func(tx app.Tx) error {
			q, err := tx.Product(1, p.ID)
			if err == nil {
				n = q.Stock
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	take := func() error {
		return db.Update(func(tx app.Tx) error {
			q, err := tx.Product(1, p.ID)
			if err != nil {
				return err
			}
			q.TakeStock(0, 1)
			return tx.PutProductStock(q)
		})
	}
	// read, write, read on the same connection: the second read is a new snapshot
	for want := int64(1000); want > 990; want-- {
		if got := stock(); got != want {
			t.Fatalf("stock %d, want %d", got, want)
		}
		if err := take(); err != nil {
			t.Fatal(err)
		}
	}
	// 8 writers and 8 readers on 2 connections: no one waits for ever, every
	// read sees at most the writes acknowledged before it began
	var taken atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				if err := take(); err != nil {
					t.Error(err)
					return
				}
				taken.Add(1)
			}
		})
		wg.Go(func() {
			for range 10 {
				before := taken.Load()
				if got := stock(); got > 990-before {
					t.Errorf("stock %d after %d takes were acknowledged", got, before)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := stock(); got != 990-80 {
		t.Fatalf("stock %d, want %d", got, 990-80)
	}
	// the janitor ends a parked read and gives its connection back, and
	// again for a read parked when it had gone back to waiting
	released := func() {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for db.Pool().Stat().AcquiredConns() != 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%d connections still acquired after the reads ended", db.Pool().Stat().AcquiredConns())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	released()
	for range 3 {
		stock()
		released()
	}
}

// TestParkedConnectionLost: the server ends the backend of a parked read's
// connection; the next transaction, whose first round trip carries that
// read's COMMIT, runs again on another connection instead of failing.
func TestParkedConnectionLost(t *testing.T) {
	defer postgres.SetParkTTL(postgres.SetParkTTL(time.Hour)) // the janitor leaves it parked
	url := pgtest.NewDatabase(t)
	db, err := postgres.Open(url, postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	read := func() error {
		return db.View(func(tx app.Tx) error {
			_, err := tx.Stores()
			return err
		})
	}
	if err := read(); err != nil {
		t.Fatal(err)
	}
	pid, ok := postgres.ParkedPID(db)
	if !ok {
		t.Fatal("no read parked")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var gone bool // waits until the backend has exited
	if err := conn.QueryRow(ctx, `SELECT pg_terminate_backend($1, 10000)`, int32(pid)).Scan(&gone); err != nil || !gone {
		t.Fatalf("terminate the parked connection's backend: %v %v", gone, err)
	}
	if err := read(); err != nil {
		t.Fatalf("the read after a lost parked connection: %v", err)
	}
}
