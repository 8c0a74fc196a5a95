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

	"storefront/app"
	"storefront/app/auth"
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
}

// Open opens a database in dir, wires the services and seeds the catalog.
// log receives the request log of servers made with LogRequests (nil: discard).
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
	if log != nil {
		logger = slog.New(slog.NewJSONHandler(log, nil))
	}
	e := wire(db, secret, logger)
	if err := e.seed(); err != nil {
		db.Close()
		return nil, err
	}
	return e, nil
}

// wire builds the services over db.
func wire(db DB, secret []byte, logger *slog.Logger) *Env {
	svc := app.NewServices(db, auth.NewJWT(secret, nil), auth.NewBcrypt(4), nil, nil, logger, app.Options{PublicURL: "http://127.0.0.1"})
	return &Env{DB: db, Svc: svc}
}

// Close closes the database.
func (e *Env) Close() error { return e.DB.Close() }

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

// Server builds our storefront server over the env (rate limit off: a load
// run from one IP would only measure 429s).
func (e *Env) Server(logRequests bool) (*web.Server, error) {
	cursor, err := e.DB.Secret("cursors")
	if err != nil {
		return nil, err
	}
	s := web.New(web.Config{CursorSecret: cursor, APIPerSecond: 0, LogRequests: logRequests}, e.Svc)
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

// Baselines are both baselines, built from what our server answers.
type Baselines struct {
	Config *fiber.App
	Docs   *Bare
	// ConfigBody and ProductsBody are our answers, which the baselines repeat.
	ConfigBody, ProductsBody []byte
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
	bare, err := OpenBare(filepath.Join(dir, "baseline.db"), items)
	if err != nil {
		return nil, err
	}
	bl := &Baselines{Config: BareConfig(cfg), Docs: bare, ConfigBody: cfg, ProductsBody: prods}
	if _, got, err := Get(bare.App, PathProducts, ""); err != nil || !bytes.Equal(got, prods) {
		bare.Close()
		return nil, fmt.Errorf("bench: the baseline's page differs from ours (%v):\n%s\n%s", err, got, prods)
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
