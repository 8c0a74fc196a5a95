package bench_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5"
	"github.com/valyala/fasthttp"

	"storefront/bench"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// roundTrips counts what the pool's connections send: every Query, Exec or
// QueryRow is one round trip and one statement, every batch one round trip
// and as many statements as it holds.
type roundTrips struct{ trips, stmts atomic.Int64 }

func (c *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.trips.Add(1)
	c.stmts.Add(1)
	return ctx
}
func (c *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (c *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.trips.Add(1)
	return ctx
}
func (c *roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {
	c.stmts.Add(1)
}
func (c *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// pgSetup is the seeded catalog and checkout store on a fresh database,
// served in memory.
type pgSetup struct {
	rt  *roundTrips
	env *bench.Env
	app *fiber.App
	ck  *bench.Checkout
}

func newPGSetup(tb testing.TB) *pgSetup {
	tb.Helper()
	rt := &roundTrips{}
	env, err := bench.OpenPostgres(pgtest.NewDatabase(tb), true, postgres.Options{MaxConns: 8, Tracer: rt})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { env.Close() })
	ck, err := env.SeedCheckout()
	if err != nil {
		tb.Fatal(err)
	}
	srv, err := env.Server(false)
	if err != nil {
		tb.Fatal(err)
	}
	return &pgSetup{rt: rt, env: env, app: srv.App, ck: ck}
}

var idemSeq atomic.Int64

// initiate is a guest checkout of one unit with a new Idempotency-Key.
func (s *pgSetup) initiate() *fasthttp.RequestCtx {
	var ctx fasthttp.RequestCtx
	ctx.Request.Header.SetMethod("POST")
	ctx.Request.SetRequestURI(bench.PathInitiate)
	ctx.Request.Header.Set("X-Service-Key", s.ck.Key)
	ctx.Request.Header.Set("Content-Type", "application/json")
	ctx.Request.Header.Set("Idempotency-Key", "k"+strconv.FormatInt(idemSeq.Add(1), 10))
	ctx.Request.SetBody(s.ck.Body)
	return &ctx
}

// TestPostgresRoundTrips pins the round trips of the measured requests on
// PostgreSQL (docs/benchmarks.md, PostgreSQL): each costs twice on a
// machine where the server shares the cores, and a checkout's are spent
// holding its store's lock.
func TestPostgresRoundTrips(t *testing.T) {
	s := newPGSetup(t)
	h := s.app.Handler()
	get := func(path string) func() *fasthttp.RequestCtx {
		return func() *fasthttp.RequestCtx { return bench.Request(path, s.env.Key) }
	}
	for _, c := range []struct {
		name      string
		req       func() *fasthttp.RequestCtx
		maxTrips  int64
		maxStmts  int64
		wantState int
	}{
		{"products", get(bench.PathProducts), 0, 0, 200}, // the page cache
		{"detail", get(bench.PathDetail), 0, 0, 200},     // the detail cache
		{"initiate", s.initiate, 3, 13, 200},
	} {
		h(c.req()) // warm: prepared statements, caches
		const n = 5
		t0, s0 := s.rt.trips.Load(), s.rt.stmts.Load()
		for range n {
			ctx := c.req()
			h(ctx)
			if st := ctx.Response.StatusCode(); st != c.wantState {
				t.Fatalf("%s: %d %s", c.name, st, ctx.Response.Body())
			}
		}
		trips, stmts := (s.rt.trips.Load()-t0)/n, (s.rt.stmts.Load()-s0)/n
		t.Logf("%s: %d round trips, %d statements per request", c.name, trips, stmts)
		if trips > c.maxTrips || stmts > c.maxStmts {
			t.Errorf("%s: %d round trips and %d statements per request, want at most %d and %d", c.name, trips, stmts, c.maxTrips, c.maxStmts)
		}
	}
}

func benchPG(b *testing.B, s *pgSetup, req func() *fasthttp.RequestCtx) {
	h := s.app.Handler()
	b.ReportAllocs()
	b.SetParallelism(4)
	t0, cpu0 := s.rt.trips.Load(), cpuTime()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			ctx := req()
			h(ctx)
			if st := ctx.Response.StatusCode(); st != 200 {
				b.Errorf("%d %s", st, ctx.Response.Body())
				return
			}
		}
	})
	b.ReportMetric(float64(s.rt.trips.Load()-t0)/float64(b.N), "trips/op")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
}

// cpuTime is the CPU time this process used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPostgres serves the measured requests in memory on PostgreSQL
// (the server of STOREFRONT_TEST_POSTGRES_URL), for profiles:
//
//	scripts/with-postgres.sh go test ./bench -run '^$' -bench Postgres -cpuprofile cpu.out
func BenchmarkPostgres(b *testing.B) {
	s := newPGSetup(b)
	key := s.env.Key
	b.Run("products", func(b *testing.B) {
		benchPG(b, s, func() *fasthttp.RequestCtx { return bench.Request(bench.PathProducts, key) })
	})
	b.Run("detail", func(b *testing.B) {
		benchPG(b, s, func() *fasthttp.RequestCtx { return bench.Request(bench.PathDetail, key) })
	})
	b.Run("initiate", func(b *testing.B) { benchPG(b, s, s.initiate) })
}
