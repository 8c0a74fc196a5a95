// Package bench wires Storefront for measurements: the real server over a
// seeded catalog, and the bare Fiber baselines it is compared with. The Go
// benchmarks (web/bench_test.go) and the load run (bench/loadbench) share it.
// Nothing here is used by the binary.
package bench

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
	bolt "go.etcd.io/bbolt"

	"storefront/admin"
	"storefront/app"
	"storefront/app/auth"
	"storefront/asynclog"
	"storefront/panel"
	"storefront/storage"
	"storefront/web"
)

// Products is how many products the measured store has: exactly one default
// page, so that our page and the baseline's are the same bytes.
const Products = app.ProductsDefaultLimit

// Paths of the measured endpoints.
const (
	PathConfig   = "/api/v1/business/website/config"
	PathProducts = "/api/v1/business/website/products"
	PathFields   = "/api/v1/business/website/products?fields=id,name,price"
)

// PathCategory is the category products path of category id.
func PathCategory(id uint64) string {
	return fmt.Sprintf("/api/v1/business/website/categories/%d/products", id)
}

// DB is a database an Env runs on (bbolt or PostgreSQL).
type DB interface {
	app.DB
	Close() error
}

// Env is a seeded Storefront: one store with Products products in one category.
type Env struct {
	DB         DB
	Svc        *app.Services
	Key        string
	StoreID    uint64
	CategoryID uint64

	logOut *asynclog.Writer // the log's asynchronous writer, as the binary has it (nil: no log)
}

// Open opens a database in dir, wires the services and seeds the catalog.
// log receives the process log, written as `storefront serve` writes it with
// the default configuration (text, through an asynclog.Writer), including the
// request log of servers made with LogRequests (nil: no log at all).
func Open(dir string, log io.Writer) (*Env, error) {
	db, err := storage.Open(filepath.Join(dir, "storefront.db"), storage.Options{})
	if err != nil {
		return nil, err
	}
	secret, err := db.Secret("tokens")
	if err != nil {
		db.Close()
		return nil, err
	}
	var logger *slog.Logger
	var logOut *asynclog.Writer
	if log != nil {
		logOut = asynclog.New(log, asynclog.Options{})
		logger = slog.New(slog.NewTextHandler(logOut, nil))
	}
	e := wire(db, secret, logger)
	e.logOut = logOut
	if err := e.seed(); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// wire builds the services over db.
func wire(db DB, secret []byte, logger *slog.Logger) *Env {
	svc := app.NewServices(db, auth.NewJWT(secret, nil), auth.NewBcrypt(4), nil, nil, logger, app.Options{PublicURL: "http://127.0.0.1"})
	return &Env{DB: db, Svc: svc}
}

// Close closes the database and writes out the log.
func (e *Env) Close() error {
	if e.logOut != nil {
		_ = e.logOut.Close()
	}
	return e.DB.Close()
}

// seed creates the store and its catalog through the services, like an admin would.
func (e *Env) seed() error {
	st, key, err := e.Svc.Stores.Create(app.NewStore{Name: "Bench Shop", Subdomain: "bench-shop", Currency: "USD"})
	if err != nil {
		return err
	}
	e.StoreID, e.Key = st.ID, key
	name, desc := "Running Shoes", "Shoes for road and trail."
	cat, err := e.Svc.Catalog.SaveCategory(st.ID, 0, app.CategoryInput{Name: &name, Description: &desc})
	if err != nil {
		return err
	}
	e.CategoryID = cat.ID
	for i := 1; i <= Products; i++ {
		if _, err := e.Svc.Catalog.SaveProduct(st.ID, 0, ProductInput(i, cat.ID)); err != nil {
			return err
		}
	}
	return nil
}

// ProductInput is a realistic product: a paragraph of description, three
// images, a compare-at price and three size variants (about 900 bytes of JSON
// in a list, variants left out).
func ProductInput(i int, categoryID uint64) app.ProductInput {
	name := fmt.Sprintf("Trail Runner %d Pro", i)
	desc := "A light, cushioned running shoe with a grippy outsole for mixed terrain. " +
		"Breathable mesh upper, reinforced toe cap and a heel counter that keeps your foot steady on descents. " +
		"Weight 280 g (size 42). Drop 8 mm. Machine washable at 30 degrees."
	price := app.Money(5000 + i*137%9000)
	compare := price + 1500
	images := []string{
		fmt.Sprintf("https://cdn.example.com/p/%d/front.jpg", i),
		fmt.Sprintf("https://cdn.example.com/p/%d/side.jpg", i),
		fmt.Sprintf("https://cdn.example.com/p/%d/sole.jpg", i),
	}
	var variants []app.VariantInput
	for _, size := range []string{"40", "42", "44"} {
		variants = append(variants, app.VariantInput{Name: "EU " + size, SKU: fmt.Sprintf("TR-%d-%s", i, size),
			Stock: int64(5 + i%7), Attributes: map[string]string{"size": size, "color": "blue"}})
	}
	in := app.ProductInput{Name: &name, Description: &desc, Price: &price, CompareAtPrice: &compare, Images: &images, Variants: &variants}
	if categoryID != 0 {
		in.CategoryID = &categoryID
	}
	return in
}

// Server builds our server over the env as `storefront serve` assembles it
// (main.go): the storefront routes with the request log (when logRequests)
// and the metrics observer, the admin API and panel, OpenAPI, the operations
// routes and the catch-all, so that the Go benchmarks' profiles show the
// route table and middleware users get. The per-key rate limit is off: a
// load run from one IP would only measure 429s.
func (e *Env) Server(logRequests bool) (*web.Server, error) {
	cursor, err := e.DB.Secret("cursors")
	if err != nil {
		return nil, err
	}
	ops := web.Ops{Version: "bench", Ping: func() error { return nil }}
	if e.logOut != nil {
		ops.LogDropped = e.logOut.Dropped
	}
	metrics := web.NewMetrics(ops)
	cfg := web.Config{CursorSecret: cursor, APIPerSecond: 0, LogRequests: logRequests, Observe: metrics.Observe}
	if e.logOut != nil {
		cfg.LogWriter = e.logOut // as main: the request line's fast path
	}
	s := web.New(cfg, e.Svc)
	admin.Register(s.App, e.Svc, admin.Config{CursorSecret: cursor})
	panel.Register(s.App, e.Svc, panel.Config{CursorSecret: cursor})
	if err := web.ServeOpenAPI(s.App); err != nil {
		return nil, err
	}
	web.RegisterOps(s.App, ops, metrics)
	s.Mount()
	return s, nil
}

// Get sends one GET through app in memory and returns the status and body.
func Get(a *fiber.App, path, key string) (int, []byte, error) {
	req := httptest.NewRequest("GET", path, nil)
	if key != "" {
		req.Header.Set("X-Service-Key", key)
	}
	resp, err := a.Test(req, -1)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// Items splits a list response into its items' raw JSON.
func Items(body []byte) ([][]byte, error) {
	var env struct {
		Data struct {
			Items []json.RawMessage `json:"items"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, err
	}
	out := make([][]byte, len(env.Data.Items))
	for i, it := range env.Data.Items {
		out[i] = it
	}
	return out, nil
}

// BareConfig is baseline (a): a bare Fiber app answering every request with body.
func BareConfig(body []byte) *fiber.App {
	a := fiber.New(fiber.Config{DisableStartupMessage: true})
	a.Get("/*", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(body)
	})
	return a
}

var bareDocs = []byte("docs")

// Bare is baseline (b): a bare Fiber + bbolt handler that, in a read
// transaction, reads the newest Products records of a bucket (their stored
// bytes are exactly our list items) and joins them into the envelope.
type Bare struct {
	App *fiber.App
	// Page is its handler, for mounting in another app.
	Page fiber.Handler
	db   *bolt.DB
}

// OpenBare writes items (newest first) into a bbolt file at path and returns the baseline app.
func OpenBare(path string, items [][]byte) (*Bare, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return nil, err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bareDocs)
		if err != nil {
			return err
		}
		for i, it := range items {
			if err := b.Put(binary.BigEndian.AppendUint64(nil, uint64(len(items)-i)), it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	page := func(c *fiber.Ctx) error {
		buf := make([]byte, 0, 512+Products*1000)
		buf = append(buf, `{"status":true,"status_code":200,"message":"","data":{"items":[`...)
		err := db.View(func(tx *bolt.Tx) error {
			cur := tx.Bucket(bareDocs).Cursor()
			n := 0
			for k, v := cur.Last(); k != nil && n < Products; k, v = cur.Prev() {
				if n > 0 {
					buf = append(buf, ',')
				}
				buf = append(buf, v...)
				n++
			}
			return nil
		})
		if err != nil {
			return err
		}
		buf = append(buf, `],"next_cursor":null,"has_more":false}}`...)
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(buf)
	}
	a := fiber.New(fiber.Config{DisableStartupMessage: true})
	a.Get("/*", page)
	return &Bare{App: a, Page: page, db: db}, nil
}

// Close closes the baseline's database.
func (b *Bare) Close() error { return b.db.Close() }

// Baselines are the read baselines, built from what our server answers.
type Baselines struct {
	Config *fiber.App
	Docs   *Bare
	// Detail answers PathDetail with a point read by slug of our detail's bytes.
	Detail *fiber.App
	// ConfigBody, ProductsBody and DetailBody are our answers, which the baselines repeat.
	ConfigBody, ProductsBody, DetailBody []byte
}

var bareDetail = []byte("detail")

// BareDetail is the detail baseline: a bare Fiber handler reading the bytes
// stored under the slug in one bbolt read transaction (the same handler as
// loadbench's -bare-serve). It stores body under DetailSlug in db.
func BareDetail(db *bolt.DB, body []byte) (fiber.Handler, error) {
	err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bareDetail)
		if err != nil {
			return err
		}
		return b.Put([]byte(DetailSlug), body)
	})
	if err != nil {
		return nil, err
	}
	return func(c *fiber.Ctx) error {
		var out []byte
		err := db.View(func(tx *bolt.Tx) error {
			out = append(out, tx.Bucket(bareDetail).Get([]byte(c.Params("slug")))...)
			return nil
		})
		if err != nil {
			return err
		}
		if out == nil {
			return fiber.ErrNotFound
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(out)
	}, nil
}

// NewBaselines asks ours for the config and the products page and builds the
// baselines that return the same bytes; dir holds the baseline's bbolt file.
func NewBaselines(ours *fiber.App, key, dir string) (*Baselines, error) {
	st, cfg, err := Get(ours, PathConfig, key)
	if err != nil || st != 200 {
		return nil, fmt.Errorf("bench: GET config: %d %v: %s", st, err, cfg)
	}
	st, prods, err := Get(ours, PathProducts, key)
	if err != nil || st != 200 {
		return nil, fmt.Errorf("bench: GET products: %d %v: %s", st, err, prods)
	}
	items, err := Items(prods)
	if err != nil {
		return nil, err
	}
	if len(items) != Products {
		return nil, fmt.Errorf("bench: products page has %d items, want %d", len(items), Products)
	}
	st, detail, err := Get(ours, PathDetail, key)
	if err != nil || st != 200 {
		return nil, fmt.Errorf("bench: GET detail: %d %v: %s", st, err, detail)
	}
	bare, err := OpenBare(filepath.Join(dir, "baseline.db"), items)
	if err != nil {
		return nil, err
	}
	dh, err := BareDetail(bare.db, detail)
	if err != nil {
		bare.Close()
		return nil, err
	}
	da := fiber.New(fiber.Config{DisableStartupMessage: true})
	da.Get(PathProducts+"/:slug", dh)
	bl := &Baselines{Config: BareConfig(cfg), Docs: bare, Detail: da, ConfigBody: cfg, ProductsBody: prods, DetailBody: detail}
	if _, got, err := Get(bare.App, PathProducts, ""); err != nil || !bytes.Equal(got, prods) {
		bare.Close()
		return nil, fmt.Errorf("bench: the baseline's page differs from ours (%v):\n%s\n%s", err, got, prods)
	}
	if _, got, err := Get(da, PathDetail, ""); err != nil || !bytes.Equal(got, detail) {
		bare.Close()
		return nil, fmt.Errorf("bench: the baseline's detail differs from ours (%v)", err)
	}
	return bl, nil
}

// Close releases the baselines.
func (bl *Baselines) Close() error { return bl.Docs.Close() }

// Request is a GET request context for calling a fasthttp handler in memory.
func Request(path, key string) *fasthttp.RequestCtx {
	var ctx fasthttp.RequestCtx
	ctx.Request.Header.SetMethod("GET")
	ctx.Request.SetRequestURI(path)
	if key != "" {
		ctx.Request.Header.Set("X-Service-Key", key)
	}
	return &ctx
}
