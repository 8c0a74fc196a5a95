package web_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"storefront/bench"
)

// The handler benchmarks call Fiber's fasthttp handler with an in-memory
// RequestCtx (no network), ours beside the bare baselines of bench/. Ours is
// wired as the binary's default configuration (bench.Env.Server: request log
// on, metrics, every route), so that a -cpuprofile shows what users get.
// `make bench` prints them with the load run; docs/benchmarks.md explains.

type benchSetup struct {
	env   *bench.Env
	ours  *fiber.App // as the binary serves by default: request log on, metrics, every route
	nolog *fiber.App // ours with http.log_requests=false
	bl    *bench.Baselines
}

func newBenchSetup(b *testing.B) *benchSetup {
	b.Helper()
	dir := b.TempDir()
	env, err := bench.Open(dir, discard{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { env.Close() })
	ours, err := env.Server(true)
	if err != nil {
		b.Fatal(err)
	}
	nolog, err := env.Server(false)
	if err != nil {
		b.Fatal(err)
	}
	bl, err := bench.NewBaselines(ours.App, env.Key, dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { bl.Close() })
	return &benchSetup{env: env, ours: ours.App, nolog: nolog.App, bl: bl}
}

// cpuTime is the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func serve(b *testing.B, a *fiber.App, path, key string) {
	h := a.Handler()
	ctx := bench.Request(path, key)
	h(ctx)
	if st := ctx.Response.StatusCode(); st != fasthttp.StatusOK {
		b.Fatalf("GET %s: %d %s", path, st, ctx.Response.Body())
	}
	size := len(ctx.Response.Body())
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		ctx.Response.Reset()
		h(ctx)
	}
	b.StopTimer()
	// the process's CPU time (GC included) is steadier than ns/op on a shared machine
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	if st := ctx.Response.StatusCode(); st != fasthttp.StatusOK {
		b.Fatalf("GET %s: %d", path, st)
	}
}

func BenchmarkHandlers(b *testing.B) {
	s := newBenchSetup(b)
	key := s.env.Key
	b.Run("config", func(b *testing.B) { serve(b, s.ours, bench.PathConfig, key) })
	b.Run("config_bare", func(b *testing.B) { serve(b, s.bl.Config, bench.PathConfig, "") })
	b.Run("products", func(b *testing.B) { serve(b, s.ours, bench.PathProducts, key) })
	b.Run("products_bare", func(b *testing.B) { serve(b, s.bl.Docs.App, bench.PathProducts, "") })
	b.Run("products_fields", func(b *testing.B) { serve(b, s.ours, bench.PathFields, key) })
	b.Run("category_cached", func(b *testing.B) { serve(b, s.ours, bench.PathCategory(s.env.CategoryID), key) })
	b.Run("detail", func(b *testing.B) { serve(b, s.ours, bench.PathDetail, key) })
	b.Run("detail_bare", func(b *testing.B) { serve(b, s.bl.Detail, bench.PathDetail, "") })
	b.Run("products_nolog", func(b *testing.B) { serve(b, s.nolog, bench.PathProducts, key) })
	b.Run("search_rare", func(b *testing.B) { serve(b, s.ours, bench.PathProducts+"?q=17", key) })
	b.Run("search_common", func(b *testing.B) { serve(b, s.ours, bench.PathProducts+"?q=trail+pro", key) })
	b.Run("search_prefix", func(b *testing.B) { serve(b, s.ours, bench.PathProducts+"?q=run&sort=relevance", key) })
	b.Run("search_typo", func(b *testing.B) { serve(b, s.ours, bench.PathProducts+"?q="+bench.Typo("trail")+"+pro", key) })
}
