package bench

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"storefront/app"
	"storefront/storage"
)

// BenchmarkMillionSearch times the 1M run's reads in process, for profiling
// (-cpuprofile): STOREFRONT_BENCH_1M names the directory a `KEEP=1 make
// bench-1m` left (its storefront.db); skipped without it. The big store is the
// first one SeedBig creates and its ids are dense, so the words are those of
// SeedBig's names.
func BenchmarkMillionSearch(b *testing.B) {
	dir := os.Getenv("STOREFRONT_BENCH_1M")
	if dir == "" {
		b.Skip("STOREFRONT_BENCH_1M (a kept bench-1m directory) is not set")
	}
	db, err := storage.Open(filepath.Join(dir, "storefront.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	svc := app.NewServices(db, nil, nil, nil, nil, nil, app.Options{})
	st, err := svc.Stores.Get(1) // SeedBig creates the big store first
	if err != nil || st.Subdomain != "big-shop" {
		b.Fatalf("store 1 is not SeedBig's big store: %v", err)
	}
	base := app.ProductQuery{ListParams: app.ListParams{Sort: app.SortNewest, Limit: app.ProductsDefaultLimit}, MinPrice: -1, MaxPrice: -1, Light: true}
	search := func(q string, sort string) app.ProductQuery {
		out := base
		out.Q, out.Words, out.Sort = q, app.QueryWords(q), sort
		return out
	}
	price := search("blue", app.SortPriceAsc)
	price.MinPrice, price.MaxPrice = 6000, 7000
	for _, c := range []struct {
		name string
		q    app.ProductQuery
	}{
		{"page1", base},
		{"rare", search("500001", app.SortNewest)},
		{"common", search("trail", app.SortNewest)},
		{"tenth", search("blue", app.SortNewest)},
		{"prefix", search("run", app.SortRelevance)},
		{"price", price},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				// as web's product lists read a page: inside the transaction
				err := svc.Catalog.WithProducts(st.ID, c.q, func(pg app.Page[app.Doc]) error {
					if len(pg.Items) == 0 {
						b.Fatal("empty page")
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			// the process's CPU time (GC included) moves less with the
			// neighbours' load than the wall time of ns/op
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
