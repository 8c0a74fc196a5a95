// Package testenv wires a whole Storefront (bbolt in a temp dir or a fresh
// PostgreSQL database, services, storefront API and admin API) for HTTP
// tests, with a clock tests move by hand. It is imported by tests only.
package testenv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	bberrors "go.etcd.io/bbolt/errors"

	"storefront/admin"
	"storefront/app"
	"storefront/app/auth"
	"storefront/app/imaging"
	"storefront/app/webhook"
	"storefront/httpkit"
	"storefront/panel"
	"storefront/storage"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
	"storefront/web"
)

// Env is one wired server.
type Env struct {
	T  testing.TB
	DB app.DB
	// Bolt is the bbolt database (nil on PostgreSQL).
	Bolt *storage.DB
	// Backend is "bolt" or "postgres".
	Backend string
	Svc     *app.Services
	Server  *web.Server
	App     *fiber.App
	Dir     string
	// OwnerToken is an admin token of the owner (owner@example.com / owner-password).
	OwnerToken string
	// Base, when set (Serve), makes Do send requests over a real TCP
	// connection to this base URL instead of through app.Test.
	Base string

	clock *clock
	rec   *recorder
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

// With returns the env reporting to t (for fuzz targets and subtests).
func (e *Env) With(t testing.TB) *Env {
	c := *e
	c.T = t
	return &c
}

// Options change the wiring.
type Options struct {
	Web   web.Config   // CursorSecret is filled in
	Admin admin.Config // CursorSecret is filled in
	// Panel is filled in with the CursorSecret, and Admin's TrustedProxies
	// when it has none.
	Panel panel.Config
	// App sets service options (LoginFailures, Limiter); the env fills in
	// PublicURL and GatewaySecrets when they are empty.
	App app.Options
	// Pass, when set, replaces the cheap bcrypt (to count password work).
	Pass app.Passwords
	// Mailer, when set, is the services' mail transport (as when SMTP is
	// configured); nil: mail stays in the outbox.
	Mailer app.Mailer
	// Log, when set, is the services' logger (services are given it when
	// they are built, so it cannot be swapped afterwards); nil: testLog.
	Log *slog.Logger
	// Routes, when set, registers more routes (operations, OpenAPI) before the
	// catch-all 404, as main does.
	Routes func(e *Env)
	// Backend is "bolt" or "postgres" (a fresh database of the server of
	// STOREFRONT_TEST_POSTGRES_URL; skipped without it). Empty: the
	// STOREFRONT_TEST_BACKEND variable, else bolt.
	Backend string
	// Share, when set, is an env whose database this one opens too: two
	// servers on one database (on PostgreSQL, as two processes share it).
	Share *Env
}

// Backends are the storage backends tests can run on.
var Backends = []string{BackendBolt, BackendPostgres}

// Backend names.
const (
	BackendBolt     = "bolt"
	BackendPostgres = "postgres"
)

// ForEachBackend runs fn as one subtest per backend ("bolt", "postgres"),
// each with its own env. The Postgres one is skipped when no test server is
// configured (failed under CI=true).
func ForEachBackend(t *testing.T, opt Options, fn func(t *testing.T, e *Env)) {
	for _, b := range Backends {
		t.Run(b, func(t *testing.T) {
			o := opt
			o.Backend = b
			fn(t, NewWith(t, o))
		})
	}
}

// New returns a wired server with a frozen clock at 2026-11-21T10:00:00Z.
func New(t testing.TB) *Env { return NewWith(t, Options{}) }

// NewWith is New with options.
func NewWith(t testing.TB, opt Options) *Env {
	t.Helper()
	e := &Env{T: t, Dir: t.TempDir(), rec: &recorder{}, clock: &clock{now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}}
	t.Cleanup(func() { e.checkContract(t) })
	e.Backend = opt.Backend
	if e.Backend == "" {
		e.Backend = os.Getenv("STOREFRONT_TEST_BACKEND")
	}
	switch {
	case opt.Share != nil:
		e.DB, e.Bolt, e.Backend = opt.Share.DB, opt.Share.Bolt, opt.Share.Backend
		if pg, ok := e.DB.(*postgres.DB); ok && opt.App.Limiter == nil {
			opt.App.Limiter = pg.Limiter(e.Now)
		}
	case e.Backend == BackendPostgres:
		db := pgtest.Open(t)
		db.Now = e.Now
		e.DB = db
		if opt.App.Limiter == nil {
			opt.App.Limiter = db.Limiter(e.Now) // the shared limiter, as main wires it
		}
	case e.Backend == "" || e.Backend == BackendBolt:
		e.Backend = BackendBolt
		// No fsync: a test database never outlives a crash (the durability
		// tests open their own files with fsync on).
		db, err := storage.Open(filepath.Join(e.Dir, "storefront.db"), storage.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		db.Now = e.Now
		e.DB, e.Bolt = db, db
		t.Cleanup(func() {
			if err := db.Verify(); err != nil && !errors.Is(err, bberrors.ErrDatabaseNotOpen) { // a test may close it
				t.Errorf("index check after test: %v", err)
			}
			db.Close()
		})
	default:
		t.Fatalf("testenv: unknown backend %q", e.Backend)
	}
	db := e.DB
	secret, err := db.Secret("tokens")
	if err != nil {
		t.Fatal(err)
	}
	cursor, _ := db.Secret("cursors")
	if opt.App.PublicURL == "" {
		opt.App.PublicURL = "http://shop.test"
	}
	if opt.App.GatewaySecrets == nil {
		opt.App.GatewaySecrets = map[string][]byte{app.WalletA: []byte("secret-a"), app.WalletB: []byte("secret-b")}
	}
	var pass app.Passwords = passwords
	if opt.Pass != nil {
		pass = opt.Pass
	}
	log := opt.Log
	if log == nil {
		log = testLog()
	}
	e.Svc = app.NewServices(db, auth.NewJWT(secret, e.Now), pass, opt.Mailer, e.Now, log, opt.App)
	e.Svc.Webhooks.Sender = webhook.New(5*time.Second, true) // tests: receivers listen on 127.0.0.1
	svc := e.Svc
	t.Cleanup(svc.Customers.WaitForgotten) // queued password resets end before the database closes
	opt.Web.CursorSecret = cursor
	e.Server = web.New(opt.Web, e.Svc)
	e.App = e.Server.App
	opt.Admin.CursorSecret = cursor
	api := admin.Register(e.App, e.Svc, opt.Admin)
	opt.Panel.CursorSecret = cursor
	if opt.Panel.TrustedProxies == nil {
		opt.Panel.TrustedProxies = opt.Admin.TrustedProxies
	}
	e.Server.UploadAuth = httpkit.AnyUpload(api.UploadAllowed, panel.Register(e.App, e.Svc, opt.Panel).UploadAllowed)
	if opt.Routes != nil {
		opt.Routes(e)
	}
	e.Server.Mount()
	if _, err := e.Svc.Admins.Bootstrap("owner@example.com", "owner-password"); err != nil {
		t.Fatal(err)
	}
	tok, _, _, err := e.Svc.Admins.Login("owner@example.com", "owner-password", "")
	if err != nil {
		t.Fatal(err)
	}
	e.OwnerToken = tok
	return e
}

// Now is the env's clock.
func (e *Env) Now() time.Time {
	e.clock.mu.Lock()
	defer e.clock.mu.Unlock()
	return e.clock.now
}

// Advance moves the clock.
func (e *Env) Advance(d time.Duration) {
	e.clock.mu.Lock()
	e.clock.now = e.clock.now.Add(d)
	e.clock.mu.Unlock()
}

// Response is a decoded response.
type Response struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   Envelope
}

// Envelope is the body of every JSON response.
type Envelope struct {
	Status     *bool             `json:"status"`
	StatusCode int               `json:"status_code"`
	Message    string            `json:"message"`
	Data       json.RawMessage   `json:"data"`
	ErrorCode  string            `json:"error_code"`
	Errors     map[string]string `json:"errors"`
}

// Req is one request.
type Req struct {
	Method, Path string
	Key          string // X-Service-Key
	Token        string // Authorization: Bearer
	Body         any    // encoded as JSON unless []byte or string
	Header       map[string]string
	// OffContract marks a request that breaks the document on purpose (a
	// test of what the server does with it): the contract check does not
	// validate it. Requests answered with a non-2xx status are never
	// validated (they are the error rows).
	OffContract bool
}

// Do sends r through the Fiber app and decodes the envelope. It fails the
// test when the body is not the envelope or status_code differs from the status.
func (e *Env) Do(r Req) *Response {
	e.T.Helper()
	var body io.Reader
	var sent []byte
	switch b := r.Body.(type) {
	case nil:
	case []byte:
		sent = b
	case string:
		sent = []byte(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.T.Fatal(err)
		}
		sent = raw
	}
	if r.Body != nil {
		body = bytes.NewReader(sent)
	}
	var req *http.Request
	if e.Base != "" {
		var err error
		if req, err = http.NewRequest(r.Method, e.Base+r.Path, body); err != nil {
			e.T.Fatal(err)
		}
	} else {
		req = httptest.NewRequest(r.Method, r.Path, body)
	}
	if r.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.Key != "" {
		req.Header.Set("X-Service-Key", r.Key)
	}
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	var resp *http.Response
	var err error
	if e.Base != "" {
		resp, err = httpClient.Do(req)
	} else {
		resp, err = e.App.Test(req, -1)
	}
	if err != nil {
		e.T.Fatalf("%s %s: %v", r.Method, r.Path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	e.rec.add(exchange{method: r.Method, target: r.Path, header: req.Header, reqBody: sent, offContract: r.OffContract,
		status: resp.StatusCode, respHeader: resp.Header, body: raw})
	out := &Response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &out.Body); err != nil {
			e.T.Fatalf("%s %s: body is not JSON: %v: %s", r.Method, r.Path, err, raw)
		}
		if out.Body.Status == nil || out.Body.StatusCode != resp.StatusCode {
			e.T.Fatalf("%s %s: envelope status_code %d, HTTP %d: %s", r.Method, r.Path, out.Body.StatusCode, resp.StatusCode, raw)
		}
	}
	return out
}

// Decode decodes the envelope's data into v.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body.Data, v); err != nil {
		t.Fatalf("decode data: %v: %s", err, r.Raw)
	}
}

// Expect fails the test unless the status (and error code, when code != "") match.
func (r *Response) Expect(t testing.TB, status int, code string) *Response {
	t.Helper()
	if r.Status != status || (code != "" && r.Body.ErrorCode != code) {
		t.Fatalf("got %d %q, want %d %q: %s", r.Status, r.Body.ErrorCode, status, code, r.Raw)
	}
	return r
}

// Store creates a store through the service and returns its id and API key.
//
// The store's front-end is at FrontOrigin: its callback_origins list it (a
// checkout returns only to a listed origin or the store's own shop), written
// as the store's first state, not as a settings change.
func (e *Env) Store(name string) (uint64, string) {
	e.T.Helper()
	st, key, err := e.Svc.Stores.Create(app.NewStore{Name: name, Subdomain: app.Slugify(name), Currency: "USD"})
	if err != nil {
		e.T.Fatal(err)
	}
	err = e.DB.Update(func(tx app.Tx) error {
		st, err := tx.Store(st.ID)
		if err != nil {
			return err
		}
		cfg, err := app.MergeConfig(st.Config, []byte(`{"callback_origins":["`+FrontOrigin+`"]}`))
		if err != nil {
			return err
		}
		st.Config = cfg
		return tx.PutStore(st)
	})
	if err != nil {
		e.T.Fatal(err)
	}
	return st.ID, key
}

// FrontOrigin is the origin of the test stores' front-end (Env.Store): the
// checkouts' callback_url.
const FrontOrigin = "https://shop.example"

// Shopper creates a customer directly in storage and returns its id and an
// access token, without going through registration.
func (e *Env) Shopper(storeID uint64, email string) (uint64, string) {
	e.T.Helper()
	hash, _ := e.Svc.Pass.Hash("password123")
	c := &app.Customer{StoreID: storeID, Email: email, PasswordHash: hash, FirstName: "Test", LastName: "Shopper", Phone: "+15550100", CreatedAt: e.Now()}
	if err := e.DB.Update(func(tx app.Tx) error { return tx.CreateCustomer(c) }); err != nil {
		e.T.Fatal(err)
	}
	tok, err := e.Svc.Tokens.Issue(app.Claims{Kind: app.TokenShopper, StoreID: storeID, Subject: c.ID, ExpiresAt: e.Now().Add(15 * time.Minute)})
	if err != nil {
		e.T.Fatal(err)
	}
	return c.ID, tok
}

// Category creates a category.
func (e *Env) Category(storeID uint64, name string) *app.Category {
	e.T.Helper()
	c, err := e.Svc.Catalog.SaveCategory(storeID, 0, app.CategoryInput{Name: &name})
	if err != nil {
		e.T.Fatal(err)
	}
	return c
}

// Product creates an active product with a price in minor units and stock.
func (e *Env) Product(storeID, categoryID uint64, name string, price app.Money, stock int64) *app.Product {
	e.T.Helper()
	in := app.ProductInput{Name: &name, Price: &price, Stock: &stock}
	if categoryID != 0 {
		in.CategoryID = &categoryID
	}
	p, err := e.Svc.Catalog.SaveProduct(storeID, 0, in)
	if err != nil {
		e.T.Fatal(err)
	}
	return p
}

// Path formats a path.
func Path(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// Listen serves the app on a loopback listener for tests that need a real
// connection, and returns its base URL. The server stops with the test.
func (e *Env) Listen() string {
	e.T.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.T.Fatal(err)
	}
	go func() { _ = e.App.Listener(ln) }()
	e.T.Cleanup(func() {
		httpClient.CloseIdleConnections() // else Shutdown waits for the idle keep-alive connections
		_ = e.App.Shutdown()
	})
	return "http://" + ln.Addr().String()
}

// httpClient sends the requests of served envs: enough idle connections
// for the parallel bursts of the tests, no redirects followed.
var httpClient = &http.Client{
	Timeout:       30 * time.Second,
	Transport:     &http.Transport{MaxIdleConnsPerHost: 100},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// Serve starts the app on a loopback listener (Listen) and makes Do go over
// real TCP connections from now on. It returns the env.
func (e *Env) Serve() *Env {
	e.T.Helper()
	e.Base = e.Listen()
	return e
}

// Burst runs fn(i) for i in 0..n-1 in n goroutines released together by a
// start barrier (no sleeps), and returns once all are done.
func Burst(n int, fn func(i int)) {
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(n)
	done.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			fn(i)
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
}

// CountingPasswords wraps app.Passwords and counts the password checks
// (Compare and Dummy), so tests can prove a refused attempt did no bcrypt work.
type CountingPasswords struct {
	app.Passwords
	checks atomic.Int64
}

// Compare implements app.Passwords.
func (p *CountingPasswords) Compare(hash []byte, password string) bool {
	p.checks.Add(1)
	return p.Passwords.Compare(hash, password)
}

// Dummy implements app.Passwords.
func (p *CountingPasswords) Dummy(password string) {
	p.checks.Add(1)
	p.Passwords.Dummy(password)
}

// Checks is the number of password checks so far.
func (p *CountingPasswords) Checks() int { return int(p.checks.Load()) }

// NewCountingPasswords wraps the cheap bcrypt the envs use.
func NewCountingPasswords() *CountingPasswords {
	return &CountingPasswords{Passwords: passwords}
}

// passwords is the hasher of every env: bcrypt at its lowest cost (4; the
// binary's is auth.bcrypt_cost, 10 by default, 4 at the least), made once
// per process (its dummy hash too) and remembering what it hashed and
// compared. Every env hashes the owner's password and logs the owner in, and
// many tests register the same shoppers: each bcrypt is a millisecond (ten
// under -race), which added up to a tenth of the web tests' CPU. Each
// distinct password is still hashed, and each hash compared, by bcrypt once.
var passwords = &memoPasswords{Bcrypt: auth.NewBcrypt(4)}

type memoPasswords struct {
	*auth.Bcrypt
	hashes   sync.Map // password -> its hash
	compares sync.Map // hash + "\x00" + password -> bool
}

// Hash implements app.Passwords: the same password, the same hash (a copy).
func (p *memoPasswords) Hash(password string) ([]byte, error) {
	if h, ok := p.hashes.Load(password); ok {
		return bytes.Clone(h.([]byte)), nil
	}
	h, err := p.Bcrypt.Hash(password)
	if err != nil {
		return nil, err
	}
	p.hashes.Store(password, h)
	return bytes.Clone(h), nil
}

// Compare implements app.Passwords.
func (p *memoPasswords) Compare(hash []byte, password string) bool {
	key := string(hash) + "\x00" + password
	if ok, found := p.compares.Load(key); found {
		return ok.(bool)
	}
	ok := p.Bcrypt.Compare(hash, password)
	p.compares.Store(key, ok)
	return ok
}

// Line is one line of an order made by PlaceOrder.
type Line struct {
	Product *app.Product
	Qty     int64
}

// PlaceOrder stores an order directly, in any status, taking its stock from
// the catalog as checkout does. customerID 0 makes a guest order.
func (e *Env) PlaceOrder(storeID, customerID uint64, status, payStatus string, lines ...Line) *app.Order {
	e.T.Helper()
	o := &app.Order{StoreID: storeID, CustomerID: customerID, Status: status, PaymentStatus: payStatus,
		PaymentMethod: app.WalletA, ReceiverName: "Ann Lee", Phone: "+1 555 0100", Address: "1 Main St",
		Email: "ann@example.com", Currency: "USD", CreatedAt: e.Now(), UpdatedAt: e.Now()}
	err := e.DB.Update(func(tx app.Tx) error {
		for _, l := range lines {
			p, err := tx.Product(storeID, l.Product.ID)
			if err != nil {
				return err
			}
			if !p.TakeStock(0, l.Qty) {
				return fmt.Errorf("not enough stock of %s", p.Name)
			}
			if err := tx.PutProduct(p); err != nil {
				return err
			}
			lt := p.Price * app.Money(l.Qty)
			o.Items = append(o.Items, app.OrderItem{ProductID: p.ID, Name: p.Name, UnitPrice: p.Price, Quantity: l.Qty, LineTotal: lt})
			o.Subtotal += lt
		}
		o.Total = o.Subtotal
		return tx.CreateOrder(o)
	})
	if err != nil {
		e.T.Fatal(err)
	}
	return o
}

// Order reads an order from storage.
func (e *Env) Order(storeID, id uint64) *app.Order {
	e.T.Helper()
	var o *app.Order
	if err := e.DB.View(func(tx app.Tx) error {
		var err error
		o, err = tx.Order(storeID, id)
		return err
	}); err != nil {
		e.T.Fatal(err)
	}
	return o
}

// Stock reads a product's own stock from storage.
func (e *Env) Stock(storeID, productID uint64) int64 {
	e.T.Helper()
	var n int64
	if err := e.DB.View(func(tx app.Tx) error {
		p, err := tx.Product(storeID, productID)
		if err == nil {
			n = p.Stock
		}
		return err
	}); err != nil {
		e.T.Fatal(err)
	}
	return n
}

// FetchImages makes the catalog fetch pictures given by URL as the server
// does (app/imaging over app/webhook's client) with timeout; allowPrivate
// lets it reach a test server on 127.0.0.1 (webhooks.allow_private_targets).
// Without it a test's image URLs are stored as they are given.
func (e *Env) FetchImages(timeout time.Duration, allowPrivate bool) {
	e.Svc.Catalog.Images = imaging.Fetcher{Get: webhook.New(timeout, allowPrivate).Get, TooLarge: webhook.ErrTooLarge}
}

// Outbox reads a store's newest mail (at most 100) as the admin sees it
// (rendered), once the queued password resets are done.
func (e *Env) Outbox(storeID uint64) []*app.Mail {
	e.T.Helper()
	e.Svc.Customers.WaitForgotten()
	pg, err := e.Svc.Outbox(storeID, app.ListParams{Limit: 100})
	if err != nil {
		e.T.Fatal(err)
	}
	return pg.Items
}

// Staff creates a staff admin of storeID and returns an admin token of it.
func (e *Env) Staff(storeID uint64, email string) string {
	e.T.Helper()
	return e.Admin(storeID, email, app.RoleStaff)
}

// Admin creates an admin of role (manager or staff) of storeID, password
// "staff-password", and returns an admin token of it.
func (e *Env) Admin(storeID uint64, email, role string) string {
	e.T.Helper()
	if _, err := e.Svc.Admins.Create(app.NewAdmin{Email: email, Password: "staff-password", Role: role, StoreID: storeID}); err != nil {
		e.T.Fatal(err)
	}
	tok, _, _, err := e.Svc.Admins.Login(email, "staff-password", "")
	if err != nil {
		e.T.Fatal(err)
	}
	return tok
}

// SyncBuffer is a bytes.Buffer safe for a server goroutine writing (a log)
// while the test reads.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testLog is the services' logger: silent, unless STOREFRONT_TEST_LOG is set
// (then to stderr, to see the internal errors behind a 500).
func testLog() *slog.Logger {
	if os.Getenv("STOREFRONT_TEST_LOG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(os.Stderr, nil))
}
