// Package storagetest is the storage contract: the behaviour every backend
// of app.DB must show (every Tx method, ordering, paging, tenancy,
// concurrency), as one suite any backend runs from its own tests:
//
//	func TestContract(t *testing.T) {
//		storagetest.Run(t, func(t *testing.T, now func() time.Time) app.DB {
//			db := openEmpty(t) // closed by t.Cleanup
//			db.Now = now
//			return db
//		})
//	}
//
// It is imported by tests only.
package storagetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"storefront/app"
)

// Open returns an empty database, closed when t ends, whose transactions
// read their clock (Tx.Now) from now.
type Open func(t *testing.T, now func() time.Time) app.DB

// Run runs the whole contract against fresh databases from open, one per
// subtest (the subtests run in parallel).
func Run(t *testing.T, open Open) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each case has a database of its own
			c.fn(newEnv(t, open))
		})
	}
}

var cases = []struct {
	name string
	fn   func(e *env)
}{
	{"Stores", testStores},
	{"Audit", testAudit},
	{"NextIDAndSecret", testNextIDAndSecret},
	{"Rollback", testRollback},
	{"Categories", testCategories},
	{"Products", testProducts},
	{"ProductDocsOrder", testProductDocsOrder},
	{"ProductDocsFilter", testProductDocsFilter},
	{"ForgivingSearch", testForgivingSearch},
	{"ProductStock", testProductStock},
	{"AdminProducts", testAdminProducts},
	{"Media", testMedia},
	{"Customers", testCustomers},
	{"SessionsAndCodes", testSessionsAndCodes},
	{"Revocations", testRevocations},
	{"Addresses", testAddresses},
	{"Cart", testCart},
	{"GuestCarts", testGuestCarts},
	{"Orders", testOrders},
	{"Payments", testPayments},
	{"Idempotency", testIdempotency},
	{"Coupons", testCoupons},
	{"Requests", testRequests},
	{"Reviews", testReviews},
	{"Tickets", testTickets},
	{"Contact", testContact},
	{"Outbox", testOutbox},
	{"MailDue", testMailDue},
	{"Webhooks", testWebhooks},
	{"MailLeases", testMailLeases},
	{"ConcurrentClaims", testConcurrentClaims},
	{"WebhookPull", testWebhookPull},
	{"Admins", testAdmins},
	{"SettingsVersions", testSettingsVersions},
	{"BlogPosts", testBlogPosts},
	{"FlashDeals", testFlashDeals},
	{"Bundles", testBundles},
	{"ConcurrentStock", testConcurrentStock},
	{"ConcurrentIDs", testConcurrentIDs},
	{"ConcurrentUnique", testConcurrentUnique},
	{"ConcurrentBatch", testConcurrentBatch},
}

// t0 is the suite's starting time: whole seconds, UTC, as the services store.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// env is one fresh database with a clock the test moves.
type env struct {
	t  *testing.T
	db app.DB
	mu sync.Mutex
	at time.Time
}

func newEnv(t *testing.T, open Open) *env {
	e := &env{t: t, at: t0}
	e.db = open(t, e.now)
	return e
}

func (e *env) now() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.at
}

// tick moves the clock on by d.
func (e *env) tick(d time.Duration) {
	e.mu.Lock()
	e.at = e.at.Add(d)
	e.mu.Unlock()
}

// update runs fn in a write transaction and fails the test on an error.
func (e *env) update(fn func(tx app.Tx) error) {
	e.t.Helper()
	if err := e.db.Update(fn); err != nil {
		e.t.Fatal(err)
	}
}

// view runs fn in a read transaction and fails the test on an error.
func (e *env) view(fn func(tx app.Tx) error) {
	e.t.Helper()
	if err := e.db.View(fn); err != nil {
		e.t.Fatal(err)
	}
}

// code runs fn in a write transaction and returns the app error code of its
// result ("" for success).
func (e *env) code(fn func(tx app.Tx) error) string {
	e.t.Helper()
	err := e.db.Update(fn)
	if err == nil {
		return ""
	}
	var ae *app.Error
	if !errors.As(err, &ae) {
		e.t.Fatalf("want an *app.Error, got %T %v", err, err)
	}
	return ae.Code
}

// want fails the test when err's app code is not code ("" for nil).
func (e *env) want(err error, code string) {
	e.t.Helper()
	got := ""
	if err != nil {
		got = app.ErrorCode(err)
	}
	if got != code {
		e.t.Fatalf("want error %q, got %q (%v)", code, got, err)
	}
}

// store creates a store and returns its id.
func (e *env) store(sub string) uint64 {
	e.t.Helper()
	s := &app.Store{Name: "Store " + sub, Subdomain: sub, Currency: "USD", IsActive: true,
		APIKeyHash: []byte("hash-of-" + sub), Config: json.RawMessage(`{}`), CreatedAt: e.now(), UpdatedAt: e.now()}
	e.update(func(tx app.Tx) error { return tx.CreateStore(s) })
	if s.ID == 0 {
		e.t.Fatal("CreateStore assigned no id")
	}
	return s.ID
}

// customer creates a customer of sid and returns its id.
func (e *env) customer(sid uint64, email string) uint64 {
	e.t.Helper()
	c := &app.Customer{StoreID: sid, Email: email, PasswordHash: []byte("x"), FirstName: "F", CreatedAt: e.now(), UpdatedAt: e.now()}
	e.update(func(tx app.Tx) error { return tx.CreateCustomer(c) })
	if c.ID == 0 {
		e.t.Fatal("CreateCustomer assigned no id")
	}
	return c.ID
}

// walk reads every page of a list with the given limit and returns the items
// in order; it fails on a page over the limit, a cursor on a short page
// being the last, or more pages than items.
func walk[T any](e *env, limit int, get func(tx app.Tx, lp app.ListParams) (app.Page[T], error)) []T {
	e.t.Helper()
	out := []T{}
	lp := app.ListParams{Limit: limit}
	for pages := 0; ; pages++ {
		if pages > 1000 {
			e.t.Fatal("paging does not end")
		}
		var pg app.Page[T]
		e.view(func(tx app.Tx) (err error) { pg, err = get(tx, lp); return })
		if pg.Items == nil {
			e.t.Fatal("a page's Items is nil, want an empty slice")
		}
		if len(pg.Items) > limit {
			e.t.Fatalf("page of %d items over the limit %d", len(pg.Items), limit)
		}
		out = append(out, pg.Items...)
		if pg.Next == nil {
			return out
		}
		if len(pg.Items) < limit {
			e.t.Fatalf("short page (%d of %d) with a next cursor", len(pg.Items), limit)
		}
		lp.After = pg.Next
	}
}

// sorted lists the walk of every limit 1, 2, 3 and 100 and checks they agree.
func sorted[T any](e *env, id func(T) string, get func(tx app.Tx, lp app.ListParams) (app.Page[T], error)) []string {
	e.t.Helper()
	var first []string
	for _, limit := range []int{100, 1, 2, 3} {
		var ids []string
		for _, x := range walk(e, limit, get) {
			ids = append(ids, id(x))
		}
		if first == nil {
			first = ids
			if first == nil {
				first = []string{}
			}
		} else if fmt.Sprint(ids) != fmt.Sprint(first) {
			e.t.Fatalf("paging by %d gives %v, by 100 %v", limit, ids, first)
		}
	}
	return first
}

// ids formats uint64 ids as sorted wants.
func ids(v ...uint64) []string {
	out := make([]string, 0, len(v))
	for _, x := range v {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// same fails when got and want differ in their printed forms.
func (e *env) same(what string, got, want any) {
	e.t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		e.t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

// parallel runs fn(i) for i in [0, n) on n goroutines at once.
func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			fn(i)
		}()
	}
	close(start)
	wg.Wait()
}
