package web_test

// Checkout throughput against a real listener with fsync on, beside a bare
// Fiber handler doing one bbolt write of the same size in the same run.
//
//	go test ./web/ -run '^$' -bench Checkout -benchtime 1000x

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	bolt "go.etcd.io/bbolt"

	"storefront/app"
	"storefront/app/auth"
	"storefront/storage"
	"storefront/web"
)

type checkoutBench struct {
	db      *storage.DB
	svc     *app.Services
	base    string // storefront listener
	bare    string // bare handler listener
	key     string
	body    []byte
	size    int // bytes of one order record plus its session
	client  *http.Client
	gateway *app.SandboxGateway
	idem    atomic.Int64 // the last Idempotency-Key sent
}

func newCheckoutBench(b *testing.B) *checkoutBench {
	b.Helper()
	db, err := storage.Open(filepath.Join(b.TempDir(), "bench.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	secret, _ := db.Secret("tokens")
	cur, _ := db.Secret("cursors")
	svc := app.NewServices(db, auth.NewJWT(secret, nil), auth.NewBcrypt(4), nil, nil, slog.New(slog.DiscardHandler), app.Options{
		PublicURL: "http://127.0.0.1", GatewaySecrets: map[string][]byte{app.WalletA: []byte("bench-a")},
	})
	srv := web.New(web.Config{CursorSecret: cur}, svc)
	srv.Mount()
	st, key, err := svc.Stores.Create(app.NewStore{Name: "Bench", Subdomain: "bench", Currency: "USD"})
	if err != nil {
		b.Fatal(err)
	}
	name, price, stock := "Mug", app.Money(1250), int64(app.MaxStock)
	p, err := svc.Catalog.SaveProduct(st.ID, 0, app.ProductInput{Name: &name, Price: &price, Stock: &stock})
	if err != nil {
		b.Fatal(err)
	}
	body, _ := json.Marshal(order(1, p))
	e := &checkoutBench{db: db, svc: svc, key: key, body: body, gateway: &app.SandboxGateway{Code: app.WalletA, Secret: []byte("bench-a")}}
	e.base = serveCheckout(b, srv.App)

	// The bare handler: decode nothing, write one value of the record size.
	bare := fiber.New(fiber.Config{DisableStartupMessage: true})
	var seq atomic.Uint64
	write := func(batch bool) fiber.Handler {
		return func(c *fiber.Ctx) error {
			k := strconv.AppendUint(nil, seq.Add(1), 10)
			v := make([]byte, e.size)
			copy(v, c.Body())
			fn := func(tx *bolt.Tx) error {
				bk, err := tx.CreateBucketIfNotExists([]byte("bench"))
				if err != nil {
					return err
				}
				return bk.Put(k, v)
			}
			var err error
			if batch {
				err = db.Bolt().Batch(fn)
			} else {
				err = db.Bolt().Update(fn)
			}
			if err != nil {
				return err
			}
			return c.JSON(fiber.Map{"status": true})
		}
	}
	bare.Post("/update", write(false))
	bare.Post("/batch", write(true))
	e.bare = serveCheckout(b, bare)
	e.client = &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 128, MaxConnsPerHost: 128}}
	b.Cleanup(e.client.CloseIdleConnections)

	// One checkout measures the record size and warms everything up.
	res := e.initiate(b)
	_ = db.View(func(tx app.Tx) error {
		o, _ := tx.Order(st.ID, res.OrderID)
		var ps *app.PaymentSession
		for n := uint64(1); ps == nil || ps.ID != res.PaymentSessionID; n++ {
			if ps, _ = tx.PaymentSession(st.ID, n); ps == nil {
				break
			}
		}
		ob, _ := json.Marshal(o)
		pb, _ := json.Marshal(ps)
		e.size = len(ob) + len(pb)
		return nil
	})
	return e
}

func serveCheckout(b *testing.B, a *fiber.App) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = a.Listener(ln) }()
	b.Cleanup(func() { _ = a.ShutdownWithTimeout(5 * time.Second) })
	return "http://" + ln.Addr().String()
}

func (e *checkoutBench) post(b *testing.B, url string, body []byte, out any) {
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Service-Key", e.key)
	if strings.HasSuffix(url, "/payment/initiate/") {
		// a fresh key on every initiation, as shops' clients (and make bench) send:
		// its record is a random insert, about one more page per order
		req.Header.Set("Idempotency-Key", "bench-"+strconv.FormatInt(e.idem.Add(1), 10))
	}
	resp, err := e.client.Do(req)
	if err != nil {
		b.Error(err)
		return
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		b.Errorf("POST %s: %d %s", url, resp.StatusCode, raw)
		return
	}
	if out != nil {
		var env struct{ Data json.RawMessage }
		if err := json.Unmarshal(raw, &env); err != nil || json.Unmarshal(env.Data, out) != nil {
			b.Errorf("POST %s: %s", url, raw)
		}
	}
}

func (e *checkoutBench) initiate(b *testing.B) initiated {
	var res initiated
	e.post(b, e.base+"/api/v1/business/website/payment/initiate/", e.body, &res)
	return res
}

func (e *checkoutBench) checkout(b *testing.B) {
	res := e.initiate(b)
	if res.PaymentSessionID == "" {
		return
	}
	ps := &app.PaymentSession{ID: res.PaymentSessionID, Amount: 1250}
	params := map[string]string{}
	for k, v := range e.gateway.Params(ps, app.OutcomeSuccess, "tx_"+res.PaymentSessionID) {
		params[k] = v[0]
	}
	body, _ := json.Marshal(map[string]any{"payment_session_id": res.PaymentSessionID, "provider_params": params})
	var v verified
	e.post(b, e.base+"/api/v1/business/website/payment/verify/", body, &v)
	if !v.Success {
		b.Errorf("verify: %+v", v)
	}
}

// stats is what a measured stretch of operations took.
type stats struct {
	lat     []time.Duration
	elapsed time.Duration
}

func (s *stats) add(o stats) {
	s.lat = append(s.lat, o.lat...)
	s.elapsed += o.elapsed
}

func (s *stats) opsPerSec() float64 { return float64(len(s.lat)) / s.elapsed.Seconds() }

func (s *stats) pct(p int) float64 {
	l := slices.Clone(s.lat)
	slices.Sort(l)
	return float64(l[(len(l)-1)*p/100].Microseconds()) / 1000
}

// run does n operations over clients goroutines.
func run(clients, n int, op func()) stats {
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				t0 := time.Now()
				op()
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	return stats{lat: lat, elapsed: time.Since(start)}
}

// BenchmarkCheckout measures, at 1, 8 and 64 concurrent clients over HTTP with
// fsync on: initiation alone, a whole checkout (initiate + verify), and the
// bare handler's one write with Update and with Batch. Each b.N is one
// operation of every kind; the kinds alternate in rounds on one database so
// that noise from the machine hits them alike.
func BenchmarkCheckout(b *testing.B) {
	for _, n := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) {
			e := newCheckoutBench(b)
			kinds := []struct {
				name string
				op   func()
			}{
				{"bare_update", func() { e.post(b, e.bare+"/update", e.body, nil) }},
				{"bare_batch", func() { e.post(b, e.bare+"/batch", e.body, nil) }},
				// The load generator shares the CPU: like the bare calls, this
				// one reads the answer without decoding it.
				{"initiate", func() { e.post(b, e.base+"/api/v1/business/website/payment/initiate/", e.body, nil) }},
				{"checkout", func() { e.checkout(b) }},
			}
			all := make([]stats, len(kinds))
			round := max(n*4, 50)
			b.ResetTimer()
			for done := 0; done < b.N; done += round {
				for i, k := range kinds {
					all[i].add(run(n, min(round, b.N-done), k.op))
				}
			}
			b.StopTimer()
			for i, k := range kinds {
				b.ReportMetric(all[i].opsPerSec(), k.name+"/s")
				b.ReportMetric(all[i].pct(50), k.name+"_p50_ms")
				b.ReportMetric(all[i].pct(99), k.name+"_p99_ms")
			}
			b.ReportMetric(100*all[2].opsPerSec()/all[1].opsPerSec(), "initiate_vs_batch_%")
			b.ReportMetric(all[2].pct(50)/all[0].pct(50), "initiate_p50_vs_update_x")
			b.Logf("clients=%d size=%dB: update %.0f/s p50 %.2fms p99 %.2fms | batch %.0f/s p50 %.2fms p99 %.2fms | "+
				"initiate %.0f/s p50 %.2fms p99 %.2fms | checkout %.0f/s p50 %.2fms p99 %.2fms",
				n, e.size, all[0].opsPerSec(), all[0].pct(50), all[0].pct(99), all[1].opsPerSec(), all[1].pct(50), all[1].pct(99),
				all[2].opsPerSec(), all[2].pct(50), all[2].pct(99), all[3].opsPerSec(), all[3].pct(50), all[3].pct(99))
		})
	}
}
