package storage_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/storage"
)

// catalogOf is a database with one store of n active products.
type catalogOf struct {
	db   *storage.DB
	svc  *app.Services
	sid  uint64
	seed time.Duration
}

// seedBatch is how many products one write transaction creates.
const seedBatch = 2000

// newCatalog seeds n realistic products (description, images, three
// variants, a category) straight through storage, seedBatch per transaction.
func newCatalog(b *testing.B, n int) *catalogOf {
	b.Helper()
	db, err := storage.Open(filepath.Join(b.TempDir(), "storefront.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	svc := app.NewServices(db, nil, nil, nil, nil, nil, app.Options{})
	st, _, err := svc.Stores.Create(app.NewStore{Name: "Depth Shop", Subdomain: "depth-shop", Currency: "USD"})
	if err != nil {
		b.Fatal(err)
	}
	name := "Shoes"
	cat, err := svc.Catalog.SaveCategory(st.ID, 0, app.CategoryInput{Name: &name})
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	start := time.Now()
	for i := 0; i < n; i += seedBatch {
		err := db.Update(func(tx app.Tx) error {
			for j := i; j < min(n, i+seedBatch); j++ {
				p := &app.Product{StoreID: st.ID, Name: fmt.Sprintf("Trail Runner %d", j), Slug: fmt.Sprintf("trail-runner-%d", j),
					Description: "A light, cushioned running shoe with a grippy outsole for mixed terrain. Breathable mesh upper.",
					Price:       app.Money(5000 + j*137%9000), Currency: "USD", CategoryID: cat.ID, IsActive: true,
					Images:    []string{fmt.Sprintf("https://cdn.example.com/p/%d/front.jpg", j), fmt.Sprintf("https://cdn.example.com/p/%d/side.jpg", j)},
					CreatedAt: now, UpdatedAt: now}
				for _, size := range []string{"40", "42", "44"} {
					id, err := tx.NextID(st.ID, "variant")
					if err != nil {
						return err
					}
					p.Variants = append(p.Variants, app.Variant{ID: id, Name: "EU " + size, SKU: fmt.Sprintf("TR-%d-%s", j, size),
						Price: p.Price, Stock: 5, Attributes: map[string]string{"size": size}})
				}
				if err := tx.PutProduct(p); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return &catalogOf{db: db, svc: svc, sid: st.ID, seed: time.Since(start)}
}

func (c *catalogOf) page(b *testing.B, q app.ProductQuery) app.Page[app.Doc] {
	p, err := c.svc.Catalog.Products(c.sid, q)
	if err != nil {
		b.Fatal(err)
	}
	if len(p.Items) != q.Limit {
		b.Fatalf("got %d items, want %d", len(p.Items), q.Limit)
	}
	return p
}

// BenchmarkProductPageDepth checks that a product page does not get slower as
// the catalog grows: page 1 and a page ~99k deep of a 100k catalog against
// page 1 of a 1k catalog. The three reads take turns in one loop, so that a
// busy machine slows them alike; the ratios (_x) are what count (target <= 1.5).
func BenchmarkProductPageDepth(b *testing.B) {
	small := newCatalog(b, 1_000)
	big := newCatalog(b, 100_000)
	q := app.ProductQuery{ListParams: app.ListParams{Sort: app.SortNewest, Limit: app.ProductsDefaultLimit}, MinPrice: -1, MaxPrice: -1}

	// walk to ~99k deep with the cursors the service hands out
	deep := q
	walk := q
	walk.Limit = app.ProductsMaxLimit
	for depth := 0; depth < 99_000; depth += walk.Limit {
		p := big.page(b, walk)
		walk.After = p.Next
	}
	deep.After = walk.After

	// one sub-benchmark, so that the catalogs above are seeded once
	b.Run("newest24", func(b *testing.B) {
		var t1k, t100k, tDeep time.Duration
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			t := time.Now()
			small.page(b, q)
			t1k += time.Since(t)
			t = time.Now()
			big.page(b, q)
			t100k += time.Since(t)
			t = time.Now()
			big.page(b, deep)
			tDeep += time.Since(t)
		}
		n := float64(b.N)
		b.ReportMetric(float64(t1k.Nanoseconds())/n, "page1_1k_ns")
		b.ReportMetric(float64(t100k.Nanoseconds())/n, "page1_100k_ns")
		b.ReportMetric(float64(tDeep.Nanoseconds())/n, "deep_100k_ns")
		b.ReportMetric(float64(t100k)/float64(t1k), "page1_100k_x")
		b.ReportMetric(float64(tDeep)/float64(t1k), "deep_100k_x")
		b.ReportMetric(big.seed.Seconds(), "seed_100k_s")
	})
}

// BenchmarkAuditObject reads one order's audit entries (its timeline) in a
// store with 50,000 entries on other orders: what the panel's order page and
// the audit log filtered by object read.
func BenchmarkAuditObject(b *testing.B) {
	db, err := storage.Open(filepath.Join(b.TempDir(), "storefront.db"), storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	const n, sid = 50000, 1
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	seedEach(b, db, n, func(tx app.Tx, j int) error {
		e := &app.AuditEntry{At: at, AdminID: 1, AdminEmail: "owner@example.com", StoreID: sid, Action: "orders.ship",
			Object: fmt.Sprintf("orders/%d", 100+j), IP: "192.0.2.1", Via: "panel", Status: 200}
		if j%10000 == 0 {
			e.Object = "orders/7"
		}
		return tx.CreateAuditEntry(e)
	})
	b.ResetTimer()
	for range b.N {
		err := db.View(func(tx app.Tx) error {
			pg, err := tx.AuditEntries(app.AuditFilter{StoreID: sid, Object: "orders/7"}, app.ListParams{Limit: 200})
			if err == nil && len(pg.Items) != n/10000 {
				err = fmt.Errorf("got %d entries, want %d", len(pg.Items), n/10000)
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIdempotencySweep: the search of the minute job's sweep of a
// store's idempotency records (sweepIdempotency's read transaction) when none
// is old yet, with 200,000 kept (a busy week). It held the write transaction
// for as long before the sweep searched in a read one.
func BenchmarkIdempotencySweep(b *testing.B) {
	db, err := storage.Open(filepath.Join(b.TempDir(), "storefront.db"), storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	const n = 200000
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	hash := strings.Repeat("0123456789abcdef", 4)
	seedEach(b, db, n, func(tx app.Tx, j int) error {
		sid := app.SessionID(1, uint64(j+1), "9f9f9f9f9f9f9f9f9f9f9f9f")
		return tx.PutIdempotencyRecord(&app.IdempotencyRecord{StoreID: 1, Key: fmt.Sprintf("checkout-%08d\x00%s", j, hash), BodyHash: hash,
			OrderID: uint64(j + 1), SessionID: sid, RedirectURL: "http://127.0.0.1:8080/sandbox/pay/" + sid + "/", CreatedAt: at})
	})
	b.ResetTimer()
	for range b.N {
		if err := db.View(func(tx app.Tx) error {
			old, err := tx.IdempotencyRecordsBefore(1, at.Add(-time.Hour), 1000)
			if err == nil && len(old) != 0 {
				err = fmt.Errorf("found %d", len(old))
			}
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// seedEach calls put for 0..n-1, 5,000 calls per write transaction.
func seedEach(b *testing.B, db *storage.DB, n int, put func(tx app.Tx, i int) error) {
	b.Helper()
	for i := 0; i < n; i += 5000 {
		if err := db.Update(func(tx app.Tx) error {
			for j := i; j < min(n, i+5000); j++ {
				if err := put(tx, j); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}
