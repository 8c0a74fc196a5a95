package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/app"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// statements records the SQL the pool's connections send.
type statements struct {
	mu  sync.Mutex
	sql []string
}

func (s *statements) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	s.mu.Lock()
	s.sql = append(s.sql, d.SQL)
	s.mu.Unlock()
	return ctx
}
func (s *statements) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (s *statements) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}
func (s *statements) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	s.mu.Lock()
	s.sql = append(s.sql, d.SQL)
	s.mu.Unlock()
}
func (s *statements) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// take returns the product statements sent since the last take, each as
// "docs" (a page with its docs), "versions" (a page of versions) or "fill"
// (the docs of the rows not cached).
func (s *statements) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, q := range s.sql {
		switch {
		case strings.HasPrefix(q, "SELECT id, xmin, coalesce") || strings.HasPrefix(q, "SELECT id, xmin, pdoc"):
			out = append(out, "fill")
		case strings.HasPrefix(q, "SELECT id, xmin,"):
			out = append(out, "versions")
		case strings.Contains(q, "FROM products WHERE store_id = $1 AND active"):
			out = append(out, "docs")
		}
	}
	s.sql = nil
	return out
}

// docStore makes a store of n active products on db.
func docStore(t *testing.T, db *postgres.DB, n int) uint64 {
	t.Helper()
	var sid uint64
	err := db.Update(func(tx app.Tx) error {
		st := &app.Store{Name: "s", Subdomain: "s", Currency: "USD", APIKeyHash: []byte("k")}
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		sid = st.ID
		for i := range n {
			p := &app.Product{StoreID: sid, Name: fmt.Sprint("P", i), Slug: fmt.Sprint("p", i), Price: app.Money(100 + i%7), Currency: "USD",
				IsActive: true, CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
				Variants: []app.Variant{{ID: 1, Name: "EU 42", SKU: fmt.Sprint("s", i), Stock: 5}}}
			if err := tx.PutProduct(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sid
}

// readPage reads a page in a read transaction (view) or a write one.
func readPage(t *testing.T, db *postgres.DB, write bool, sid uint64, q app.ProductQuery) app.Page[app.Doc] {
	t.Helper()
	var pg app.Page[app.Doc]
	run := db.View
	if write {
		run = db.Update
	}
	err := run(func(tx app.Tx) error {
		var err error
		pg, err = tx.ProductDocs(sid, q)
		if err == nil { // borrowed docs die with the transaction
			for i, d := range pg.Items {
				pg.Items[i] = bytes.Clone(d)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return pg
}

func samePage(t *testing.T, what string, got, want app.Page[app.Doc]) {
	t.Helper()
	if len(got.Items) != len(want.Items) {
		t.Fatalf("%s: %d items, want %d", what, len(got.Items), len(want.Items))
	}
	for i := range got.Items {
		if !bytes.Equal(got.Items[i], want.Items[i]) {
			t.Fatalf("%s: item %d\n got %s\nwant %s", what, i, got.Items[i], want.Items[i])
		}
	}
	if (got.Next == nil) != (want.Next == nil) || got.Next != nil && !bytes.Equal(got.Next.Key, want.Next.Key) {
		t.Fatalf("%s: next %v, want %v", what, got.Next, want.Next)
	}
}

func sameTrips(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("%s: statements %v, want %v", what, got, want)
	}
}

// TestDocsByVersion: a page query run before is served from the docs cached
// by row version, the same bytes as a read without the cache; a row written
// since (by this process, another one, or plain SQL) is read again, alone;
// write transactions neither use nor fill the cache.
func TestDocsByVersion(t *testing.T) {
	url := pgtest.NewDatabase(t)
	st := &statements{}
	db, err := postgres.Open(url, postgres.Options{MaxConns: 4, Tracer: st})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	other := opener(t, url)() // another process on the same database
	defer other.Close()
	sid := docStore(t, db, 30)
	q := app.ProductQuery{ListParams: app.ListParams{Limit: 24}, MinPrice: -1, MaxPrice: -1, Light: true, Whole: true, Borrow: true}

	want := readPage(t, db, true, sid, q)
	if len(want.Items) != 24 || want.Next == nil {
		t.Fatalf("page of %d, next %v", len(want.Items), want.Next)
	}
	st.take()
	samePage(t, "first read", readPage(t, db, false, sid, q), want)
	sameTrips(t, "first read", st.take(), "docs") // a query not seen before: as ever
	samePage(t, "second read", readPage(t, db, false, sid, q), want)
	sameTrips(t, "second read", st.take(), "versions", "fill")
	samePage(t, "third read", readPage(t, db, false, sid, q), want)
	sameTrips(t, "third read", st.take(), "versions") // every doc from memory

	// A stock update in another process: that product alone is read again.
	err = other.Update(func(tx app.Tx) error {
		p, err := tx.Product(sid, 30)
		if err != nil {
			return err
		}
		p.Variants[0].Stock = 0
		return tx.PutProductStock(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	want = readPage(t, db, true, sid, q)
	st.take()
	if !strings.Contains(string(want.Items[0]), `"stock":0`) {
		t.Fatalf("product 30 after the stock update: %s", want.Items[0])
	}
	samePage(t, "after a write", readPage(t, db, false, sid, q), want)
	sameTrips(t, "after a write", st.take(), "versions", "fill")

	// A write of plain SQL (a tool, an older binary): the same.
	if err := db.ExecForTest(`UPDATE products SET ljson = convert_to('{"id":29,"name":"by hand"}', 'UTF8') WHERE id = 29`); err != nil {
		t.Fatal(err)
	}
	got := readPage(t, db, false, sid, q)
	sameTrips(t, "after plain SQL", st.take(), "versions", "fill")
	if string(got.Items[1]) != `{"id":29,"name":"by hand"}` {
		t.Fatalf("product 29 after plain SQL: %s", got.Items[1])
	}

	// Write transactions read the docs with the page, every time.
	readPage(t, db, true, sid, q)
	readPage(t, db, true, sid, q)
	sameTrips(t, "write transactions", st.take(), "docs", "docs")

	// The next page, other sorts, filters and forms: the same as without.
	next := q
	next.After = want.Next
	queries := map[string]app.ProductQuery{"page 2": next}
	for _, s := range []string{app.SortPriceAsc, app.SortPriceDesc, app.SortNameAsc, app.SortRatingDesc} {
		x := q
		x.Sort = s
		queries[s] = x
	}
	light := q
	light.Whole = false
	queries["light"] = light
	full := light
	full.Light = false
	queries["full"] = full
	cheap := q
	cheap.MaxPrice = 102
	queries["max price"] = cheap
	search := q
	search.Q, search.Sort = "p2", app.SortRelevance
	queries["search"] = search
	for what, x := range queries {
		want := readPage(t, db, true, sid, x)
		for i := range 3 {
			samePage(t, fmt.Sprint(what, ", read ", i+1), readPage(t, db, false, sid, x), want)
		}
	}

	// A bad cursor is refused the same on the second run, by the version query.
	bad := q
	bad.After = &app.Cursor{Key: []byte{1, 2, 3}}
	st.take()
	for i := range 2 {
		err := db.View(func(tx app.Tx) error { _, err := tx.ProductDocs(sid, bad); return err })
		if app.ErrorCode(err) != app.EValidation {
			t.Fatalf("bad cursor, read %d: %v, want %s", i+1, err, app.EValidation)
		}
	}
	sameTrips(t, "bad cursor", st.take()) // refused before any statement
}

// TestDocsByVersionLifetime: a cached doc is not served past docMaxAge (the
// xmin wrap-around), nor on a connection to another incarnation of the
// server (a restart or a failover may hand out xids again).
func TestDocsByVersionLifetime(t *testing.T) {
	url := pgtest.NewDatabase(t)
	st := &statements{}
	db, err := postgres.Open(url, postgres.Options{MaxConns: 1, Tracer: st}) // one connection: the test's
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sid := docStore(t, db, 5)
	q := app.ProductQuery{ListParams: app.ListParams{Limit: 24}, MinPrice: -1, MaxPrice: -1, Light: true, Whole: true}
	base := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return base }
	for range 3 {
		readPage(t, db, false, sid, q)
	}
	sameTrips(t, "warm", st.take(), "docs", "versions", "fill", "versions")

	db.Now = func() time.Time { return base.Add(10*time.Minute - time.Second) }
	readPage(t, db, false, sid, q)
	sameTrips(t, "within the age", st.take(), "versions")
	db.Now = func() time.Time { return base.Add(10*time.Minute + time.Second) }
	readPage(t, db, false, sid, q)
	readPage(t, db, false, sid, q)
	sameTrips(t, "past the age", st.take(), "versions", "fill", "versions")

	if err := db.View(func(tx app.Tx) error { return postgres.SetIncarnationForTest(tx, 42) }); err != nil {
		t.Fatal(err)
	}
	st.take()
	readPage(t, db, false, sid, q)
	readPage(t, db, false, sid, q)
	sameTrips(t, "another incarnation", st.take(), "versions", "fill", "versions")
}

// TestDocsByVersionConcurrent: pages read while another process takes stock
// show, once the writes are done, exactly what a read without the cache
// shows (go test -race checks the cache's locking).
func TestDocsByVersionConcurrent(t *testing.T) {
	url := pgtest.NewDatabase(t)
	db := opener(t, url)()
	defer db.Close()
	other := opener(t, url)()
	defer other.Close()
	sid := docStore(t, db, 30)
	q := app.ProductQuery{ListParams: app.ListParams{Limit: 10}, MinPrice: -1, MaxPrice: -1, Light: true, Whole: true, Borrow: true}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for r := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := q
			x.Sort = []string{"", app.SortPriceAsc, app.SortNameAsc}[r]
			for {
				select {
				case <-stop:
					return
				default:
				}
				for pg := (app.Page[app.Doc]{}); ; x.After = pg.Next {
					if err := db.View(func(tx app.Tx) error {
						var err error
						pg, err = tx.ProductDocs(sid, x)
						return err
					}); err != nil {
						t.Error(err)
						return
					}
					if pg.Next == nil {
						x.After = nil
						break
					}
				}
			}
		}()
	}
	for i := range 60 {
		err := other.Update(func(tx app.Tx) error {
			p, err := tx.Product(sid, uint64(1+i%30))
			if err != nil {
				return err
			}
			p.Variants[0].Stock = int64(i)
			return tx.PutProductStock(p)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	for _, s := range []string{"", app.SortPriceAsc, app.SortNameAsc} {
		x := q
		x.Sort = s
		for {
			want := readPage(t, db, true, sid, x)
			samePage(t, "after the writes, sort "+s, readPage(t, db, false, sid, x), want)
			if x.After = want.Next; x.After == nil {
				break
			}
		}
	}
}

// TestDocsByVersionListenerLost: when the announcements' connection is lost
// (a crash the server's postmaster survives ends every backend, keeping its
// start time, the incarnation), the cached docs are dropped.
func TestDocsByVersionListenerLost(t *testing.T) {
	url := pgtest.NewDatabase(t)
	st := &statements{}
	db, err := postgres.Open(url, postgres.Options{MaxConns: 2, Tracer: st})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lost := make(chan struct{}, 1)
	db.OnBroadcast(func(ev app.Event) {
		if ev.Lost {
			lost <- struct{}{}
		}
	})
	sid := docStore(t, db, 5)
	q := app.ProductQuery{ListParams: app.ListParams{Limit: 24}, MinPrice: -1, MaxPrice: -1, Light: true, Whole: true}
	for range 3 {
		readPage(t, db, false, sid, q)
	}
	sameTrips(t, "warm", st.take(), "docs", "versions", "fill", "versions")
	if n := db.DocCacheStats().Entries; n != 5 {
		t.Fatalf("%d docs cached, want 5", n)
	}
	if err := db.ExecForTest(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN %'`); err != nil {
		t.Fatal(err)
	}
	select {
	case <-lost:
	case <-time.After(10 * time.Second):
		t.Fatal("the listener did not report its lost connection")
	}
	if n := db.DocCacheStats().Entries; n != 0 {
		t.Fatalf("%d docs cached after the listener's connection was lost, want 0", n)
	}
	st.take()
	readPage(t, db, false, sid, q)
	sameTrips(t, "after the loss", st.take(), "versions", "fill")
}
