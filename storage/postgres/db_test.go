package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"storefront/app"
	"storefront/app/auth"
	"storefront/app/demo"
	"storefront/storage"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

var frozen = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func services(db app.DB) *app.Services {
	return app.NewServices(db, auth.NewJWT(bytes.Repeat([]byte{1}, 32), func() time.Time { return frozen }), auth.NewBcrypt(4), nil,
		func() time.Time { return frozen }, nil, app.Options{PublicURL: "http://shop.test"})
}

// TestMigrateOnce opens one database from several pools at once, as binaries
// starting together do: each migration is applied once, and all open.
func TestMigrateOnce(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			db, err := postgres.Open(url, postgres.Options{MaxConns: 2})
			if err == nil {
				db.Close()
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	db, err := postgres.Open(url, postgres.Options{NoMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ms, err := db.MigrationStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != len(ms) {
		t.Fatalf("got %d applied migrations, want %d", n, len(ms))
	}
	for _, m := range ms {
		if m.AppliedAt == nil {
			t.Fatalf("migration %d pending after open", m.Version)
		}
	}
}

// TestSecretShared: two processes (pools) read the same secret.
func TestSecretShared(t *testing.T) {
	url := pgtest.NewDatabase(t)
	a, err := postgres.Open(url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := postgres.Open(url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sa, err := a.Secret("tokens")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.Secret("tokens")
	if err != nil {
		t.Fatal(err)
	}
	if len(sa) != 32 || !bytes.Equal(sa, sb) {
		t.Fatalf("got secrets %x and %x, want one 32-byte secret", sa, sb)
	}
}

// TestSecretRace: processes asking for a new secret at the same moment all
// get it, the same one (two binaries starting together on a new database).
func TestSecretRace(t *testing.T) {
	url := pgtest.NewDatabase(t)
	open := opener(t, url)
	dbs := make([]*postgres.DB, 8)
	for i := range dbs {
		dbs[i] = open()
		defer dbs[i].Close()
	}
	for round := range 20 {
		name := fmt.Sprintf("race-%d", round)
		got := make([][]byte, len(dbs))
		errs := make([]error, len(dbs))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i, db := range dbs {
			wg.Go(func() {
				<-start
				got[i], errs[i] = db.Secret(name)
			})
		}
		close(start)
		wg.Wait()
		for i := range dbs {
			if errs[i] != nil {
				t.Fatalf("round %d, process %d: %v", round, i, errs[i])
			}
			if !bytes.Equal(got[i], got[0]) {
				t.Fatalf("round %d: process %d got another secret", round, i)
			}
		}
	}
}

// TestStockAcrossProcesses: 50 buyers on two pools (two processes) take one
// unit each of 5: exactly 5 succeed and the stock ends at 0, never below.
func TestStockAcrossProcesses(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var dbs []*postgres.DB
	for range 2 {
		db, err := postgres.Open(url, postgres.Options{MaxConns: 8})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs = append(dbs, db)
	}
	p := &app.Product{StoreID: 1, Name: "Last", Slug: "last", Price: 100, Stock: 5, IsActive: true, Currency: "USD"}
	if err := dbs[0].Update(func(tx app.Tx) error { return tx.PutProduct(p) }); err != nil {
		t.Fatal(err)
	}
	var sold atomic.Int64
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			err := dbs[i%2].Update(func(tx app.Tx) error {
				q, err := tx.Product(1, p.ID)
				if err != nil {
					return err
				}
				if !q.TakeStock(0, 1) {
					return app.Errorf(app.EConflict, "sold out")
				}
				if err := tx.PutProductStock(q); err != nil {
					return err
				}
				o := &app.Order{StoreID: 1, CustomerID: uint64(i + 1), Status: app.OrderPending, CreatedAt: frozen}
				return tx.CreateOrder(o)
			})
			if err == nil {
				sold.Add(1)
			} else if app.ErrorCode(err) != app.EConflict {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var stock int64
	var orders int
	err := dbs[1].View(func(tx app.Tx) error {
		q, err := tx.Product(1, p.ID)
		if err != nil {
			return err
		}
		stock = q.Stock
		pg, err := tx.Orders(1, "", app.ListParams{Limit: 100})
		orders = len(pg.Items)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if sold.Load() != 5 || stock != 0 || orders != 5 {
		t.Fatalf("got %d sold, stock %d, %d orders; want 5, 0, 5", sold.Load(), stock, orders)
	}
}

// TestSameAsBolt seeds the demo shop into both backends with a frozen clock
// and walks every product list in every sort (and the other paged lists):
// the same documents in the same order, and the same cursor keys.
func TestSameAsBolt(t *testing.T) {
	pg := pgtest.Open(t)
	bdb, err := storage.Open(filepath.Join(t.TempDir(), "b.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	pg.Now = func() time.Time { return frozen }
	bdb.Now = pg.Now
	var sid uint64
	for _, db := range []app.DB{bdb, pg} {
		res, err := demo.Seed(services(db))
		if err != nil {
			t.Fatal(err)
		}
		sid = res.StoreID
	}
	var cats []*app.Category
	_ = pg.View(func(tx app.Tx) (err error) { cats, err = tx.Categories(sid); return })
	queries := []app.ProductQuery{}
	for _, sort := range app.ProductSorts {
		for _, limit := range []int{1, 3, 50} {
			queries = append(queries, app.ProductQuery{ListParams: app.ListParams{Sort: sort, Limit: limit}, MinPrice: -1, MaxPrice: -1})
			queries = append(queries, app.ProductQuery{ListParams: app.ListParams{Sort: sort, Limit: limit}, MinPrice: 1000, MaxPrice: 5000, InStock: true})
			queries = append(queries, app.ProductQuery{ListParams: app.ListParams{Sort: sort, Limit: limit}, MinPrice: -1, MaxPrice: -1, Q: "e", Words: []string{"e"}})
			queries = append(queries, app.ProductQuery{ListParams: app.ListParams{Sort: sort, Limit: limit}, MinPrice: -1, MaxPrice: 5000, Q: "s t", Words: []string{"s", "t"}})
			if len(cats) > 0 {
				queries = append(queries, app.ProductQuery{ListParams: app.ListParams{Sort: sort, Limit: limit}, MinPrice: -1, MaxPrice: -1, CategoryID: cats[0].ID})
			}
		}
	}
	for _, q := range queries[:len(queries):len(queries)] { // light pages (migration 0011's ldoc): the same bytes too
		q.Light = true
		queries = append(queries, q)
	}
	walk := func(db app.DB, q app.ProductQuery) (out []string) {
		for {
			var pg app.Page[app.Doc]
			if err := db.View(func(tx app.Tx) (err error) { pg, err = tx.ProductDocs(sid, q); return }); err != nil {
				t.Fatal(err)
			}
			for _, d := range pg.Items {
				out = append(out, string(d))
			}
			if pg.Next == nil {
				return out
			}
			out = append(out, fmt.Sprintf("next %x", pg.Next.Key))
			q.After = pg.Next
		}
	}
	for _, q := range queries {
		want, got := walk(bdb, q), walk(pg, q)
		if fmt.Sprint(want) != fmt.Sprint(got) {
			t.Fatalf("%+v:\ngot  %d %.400q\nwant %d %.400q", q, len(got), got, len(want), want)
		}
	}
	list := func(db app.DB) string {
		var b bytes.Buffer
		err := db.View(func(tx app.Tx) error {
			for _, sort := range app.ReviewSorts {
				lp := app.ListParams{Sort: sort, Limit: 2}
				for {
					pg, err := tx.ApprovedReviews(sid, 0, lp)
					if err != nil {
						return err
					}
					fmt.Fprintf(&b, "%s %s|", pg.Items, pg.Next)
					if pg.Next == nil {
						break
					}
					lp.After = pg.Next
				}
			}
			ps, err := tx.Products(sid, app.ListParams{Limit: 1000})
			for _, p := range ps.Items {
				fmt.Fprintf(&b, "%d %s %d|", p.ID, p.Slug, p.Stock)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if a, b := list(bdb), list(pg); a != b {
		t.Fatalf("lists differ:\nbolt %.500s\npg   %.500s", a, b)
	}
}

// TestBroadcast: an announcement of one process reaches the other, not itself.
func TestBroadcast(t *testing.T) {
	url := pgtest.NewDatabase(t)
	a, err := postgres.Open(url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := postgres.Open(url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got := make(chan app.Event, 10)
	a.OnBroadcast(func(ev app.Event) { got <- ev })
	b.OnBroadcast(func(ev app.Event) { got <- ev })
	if err := b.Broadcast(app.Event{Kind: "test", StoreID: 7, Data: []byte("x|y")}); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-got:
		if ev.Kind != "test" || ev.StoreID != 7 || string(ev.Data) != "x|y" {
			t.Fatalf("got %+v", ev)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no announcement within 5s")
	}
	select {
	case ev := <-got:
		t.Fatalf("got a second event %+v (its own?)", ev)
	case <-time.After(200 * time.Millisecond):
	}
}

// TestAnnouncedByTheCommit: the writes of stores, catalogs and revocations
// announce themselves with the transaction (NOTIFY in the statement): the
// other process hears of a commit, once per transaction and kind, and never
// of a rolled-back write; Broadcast does not send these kinds a second time.
func TestAnnouncedByTheCommit(t *testing.T) {
	url := pgtest.NewDatabase(t)
	a, err := postgres.Open(url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := postgres.Open(url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got := make(chan app.Event, 10)
	a.OnBroadcast(func(ev app.Event) { got <- ev })
	b.OnBroadcast(func(ev app.Event) { got <- ev })
	next := func() app.Event {
		t.Helper()
		select {
		case ev := <-got:
			return ev
		case <-time.After(5 * time.Second):
			t.Fatal("no announcement within 5s")
			return app.Event{}
		}
	}
	none := func() {
		t.Helper()
		// A NOTIFY of the same connection's later transaction arrives after
		// the earlier ones: a marker sent now proves nothing else is pending.
		if err := b.Broadcast(app.Event{Kind: "marker"}); err != nil {
			t.Fatal(err)
		}
		if ev := next(); ev.Kind != "marker" {
			t.Fatalf("unexpected announcement %+v", ev)
		}
	}
	errRollback := fmt.Errorf("roll back")
	if err := b.Update(func(tx app.Tx) error {
		if err := tx.PutCategory(&app.Category{StoreID: 3, Name: "Mugs", Slug: "mugs"}); err != nil {
			return err
		}
		for i := range 3 {
			if err := tx.PutProduct(&app.Product{StoreID: 3, CategoryID: 1, Name: fmt.Sprint("Mug ", i), Slug: fmt.Sprint("mug-", i), Price: 100, Stock: 5}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if ev := next(); ev.Kind != app.EventCatalog || ev.StoreID != 3 {
		t.Fatalf("after the catalog write: %+v", ev)
	}
	none() // four writes of one store's catalog, one announcement
	if err := b.Update(func(tx app.Tx) error {
		if err := tx.PutCategory(&app.Category{StoreID: 4, Name: "Cups", Slug: "cups"}); err != nil {
			return err
		}
		return errRollback
	}); err != errRollback {
		t.Fatal(err)
	}
	none()
	if err := b.Broadcast(app.Event{Kind: app.EventCatalog, StoreID: 3}); err != nil {
		t.Fatal(err)
	}
	none()
	rv := &app.Revocation{StoreID: 3, Session: "s1", Until: frozen.Add(time.Hour)}
	if err := b.Update(func(tx app.Tx) error { return tx.PutRevocation(rv) }); err != nil {
		t.Fatal(err)
	}
	ev := next()
	if ev.Kind != app.EventRevocation || ev.StoreID != 3 || !bytes.Contains(ev.Data, []byte(`"session":"s1"`)) {
		t.Fatalf("after the revocation: %+v %s", ev, ev.Data)
	}
	if err := b.Update(func(tx app.Tx) error {
		return tx.CreateStore(&app.Store{Name: "S", Subdomain: "s", APIKeyHash: []byte("h")})
	}); err != nil {
		t.Fatal(err)
	}
	if ev := next(); ev.Kind != app.EventStore || ev.StoreID == 0 {
		t.Fatalf("after the store write: %+v", ev)
	}
	none()
}

// TestPipelinedWriteFails: a write sent late (with the next statement or
// COMMIT) that violates a unique index fails its transaction with conflict,
// nothing of it is kept, and the connection serves the next transaction.
func TestPipelinedWriteFails(t *testing.T) {
	db, err := postgres.Open(pgtest.NewDatabase(t), postgres.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	put := func(id uint64, sub string) error {
		return db.Update(func(tx app.Tx) error {
			return tx.PutStore(&app.Store{ID: id, Name: sub, Subdomain: sub, APIKeyHash: []byte(sub)})
		})
	}
	if err := put(1, "one"); err != nil {
		t.Fatal(err)
	}
	for _, then := range []string{"commit", "read"} {
		err := db.Update(func(tx app.Tx) error {
			if err := tx.PutStore(&app.Store{ID: 2, Name: "two", Subdomain: "one", APIKeyHash: []byte("two")}); err != nil {
				return err // queued: no answer yet
			}
			if then == "read" {
				_, err := tx.Store(1)
				return err
			}
			return nil
		})
		var ae *app.Error
		if !errors.As(err, &ae) || ae.Code != app.EConflict {
			t.Fatalf("then %s: %v, want conflict", then, err)
		}
	}
	if err := db.View(func(tx app.Tx) error {
		if _, err := tx.Store(2); !app.IsNotFound(err) {
			t.Fatalf("store 2 after the failed writes: %v", err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := put(2, "two"); err != nil { // the one connection is clean again
		t.Fatal(err)
	}
	// A transaction that runs no statement takes no connection.
	if err := db.View(func(app.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if n := db.Pool().Stat().AcquiredConns(); n != 0 {
		t.Fatalf("%d connections still acquired", n)
	}
}

// TestPoolSize: the pool has DefaultMaxConns connections unless the options
// or the URL's pool_max_conns set another size.
func TestPoolSize(t *testing.T) {
	url := pgtest.NewDatabase(t)
	for _, c := range []struct {
		url  string
		opt  int32
		want int32
	}{
		{url, 0, postgres.DefaultMaxConns()},
		{url, 3, 3},
		{url + " pool_max_conns=5", 0, 5},
	} {
		db, err := postgres.Open(c.url, postgres.Options{MaxConns: c.opt})
		if err != nil {
			t.Fatal(err)
		}
		got := db.Pool().Config().MaxConns
		db.Close()
		if got != c.want {
			t.Errorf("%q, MaxConns %d: a pool of %d, want %d", c.url, c.opt, got, c.want)
		}
	}
	if n := postgres.DefaultMaxConns(); n < 8 {
		t.Errorf("DefaultMaxConns %d, want at least 8", n)
	}
}

// TestCloseTwice: Close may be called again (serve closes the database and
// its deferred Close runs too); the second call does nothing.
func TestCloseTwice(t *testing.T) {
	db := pgtest.Open(t) // its cleanup closes a third time
	db.OnBroadcast(func(app.Event) {})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}
