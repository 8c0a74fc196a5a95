package web

import (
	"crypto/subtle"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"storefront/httpkit"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"storefront/app"
)

// DBStats are the database figures /metrics reports; main reads them from
// bbolt (web must not import storage).
type DBStats struct {
	ReadTx         int   // read transactions started
	OpenReadTx     int   // read transactions open now
	FreePages      int   // pages on the freelist
	PendingPages   int   // pages freed but still used by open transactions
	FreeAllocBytes int   // bytes in free pages
	FreelistBytes  int   // bytes of the freelist itself
	PageWrites     int64 // page writes of committed write transactions
	PageAllocBytes int64 // bytes allocated by write transactions
	WriteTime      time.Duration
	FileSizeBytes  int64
	CachedPages    int // category pages in the memory cache
	// CachedDetails product details in the memory cache, holding
	// CachedDetailBytes of JSON (at most 8 MB).
	CachedDetails, CachedDetailBytes int
	Commits                          uint64 // write transactions committed (Update, and Batch groups)
	BatchedWrites                    uint64 // Batch calls carried by those commits
	// StorageFull is true while writes fail for want of disk space;
	// StorageFullErrors counts the writes that failed so.
	StorageFull       bool
	StorageFullErrors int64
	// Pool is the PostgreSQL connection pool (nil on bbolt).
	Pool *PoolStats
}

// PoolStats are the figures of a PostgreSQL connection pool.
type PoolStats struct {
	MaxConns, TotalConns, IdleConns, AcquiredConns int
	Acquires, EmptyAcquires, CanceledAcquires      int64
	AcquireWait                                    time.Duration
}

// Ops is what the operations endpoints ask of the rest of the server.
type Ops struct {
	// Version is reported as storefront_build_info{version}.
	Version string
	// Ping reports whether the server is ready: the database answers and
	// takes writes, and no shutdown has begun. An app error's code and
	// message are shown (storage_full); any other error reads "internal".
	Ping func() error
	// MetricsToken, when set, is the bearer token GET /metrics requires.
	MetricsToken string
	// Stats reads the database figures at each scrape; nil: none.
	Stats func() DBStats
	// LogDropped counts log lines dropped because the log queue was full;
	// nil: not reported.
	LogDropped func() uint64
}

// Metrics is the Prometheus registry of one server: requests by route,
// method and status, a latency histogram, bbolt figures and the Go runtime.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec

	mu    sync.RWMutex
	cache map[obsKey]*obsVal // the series of each (route, method, status) seen
	// hot holds the series last observed in each of its slots (obsSlot), so
	// that a request usually finds its series by one slot and a comparison
	// of strings, without hashing them for the map (most of Observe's cost).
	hot [64]atomic.Pointer[obsVal]
}

type obsKey struct {
	route, method string
	status        int
}

// obsVal is a series' key (its own copies of the strings) and its metrics.
type obsVal struct {
	obsKey
	count   prometheus.Counter
	latency prometheus.Observer
}

// NewMetrics builds the registry. Pass m.Observe as Config.Observe and mount
// the handler with RegisterOps.
func NewMetrics(o Ops) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), cache: map[obsKey]*obsVal{}}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "storefront_http_requests_total",
		Help: "HTTP requests by route pattern, method and status.",
	}, []string{"route", "method", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "storefront_http_request_duration_seconds",
		Help:    "HTTP request latency by route pattern and method.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
	}, []string{"route", "method"})
	build := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "storefront_build_info", Help: "Always 1; the label is the binary's version.",
		ConstLabels: prometheus.Labels{"version": o.Version},
	})
	build.Set(1)
	m.reg.MustRegister(m.requests, m.latency, build,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if o.Stats != nil {
		m.reg.MustRegister(dbCollector{stats: o.Stats})
	}
	if o.LogDropped != nil {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "storefront_log_dropped_lines_total",
			Help: "Log lines dropped because the asynchronous log queue was full.",
		}, func() float64 { return float64(o.LogDropped()) }))
	}
	return m
}

// Observe records one request; it is web.Config.Observe. route is the route
// pattern (bounded), never the raw path. Fiber's strings point into buffers
// that are reused after the request, so the label values are copied once,
// when a series is first seen; later requests find it without allocating.
func (m *Metrics) Observe(route, method string, status int, d time.Duration) {
	if route == "" {
		route = "/"
	}
	slot := &m.hot[obsSlot(route, method, status)&(len(m.hot)-1)]
	v := slot.Load()
	if v == nil || v.status != status || v.route != route || v.method != method {
		v = m.series(route, method, status)
		slot.Store(v)
	}
	v.count.Inc()
	v.latency.Observe(d.Seconds())
}

// obsSlot mixes what is cheap to read of a series' key: the route's length
// and two of its bytes, the method's length and the status.
func obsSlot(route, method string, status int) int {
	return len(route)*31 + int(route[len(route)-1])*7 + int(route[len(route)/2])*3 + len(method)*17 + status
}

// series returns the series of a key, made on first sight.
func (m *Metrics) series(route, method string, status int) *obsVal {
	k := obsKey{route, method, status}
	m.mu.RLock()
	v, ok := m.cache[k]
	m.mu.RUnlock()
	if ok {
		return v
	}
	k = obsKey{strings.Clone(route), strings.Clone(method), status}
	v = &obsVal{obsKey: k,
		count:   m.requests.WithLabelValues(k.route, k.method, strconv.Itoa(status)),
		latency: m.latency.WithLabelValues(k.route, k.method),
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.cache[k]; ok {
		return old // made meanwhile by another request
	}
	m.cache[k] = v
	return v
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() fiber.Handler {
	return adaptor.HTTPHandler(promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
}

// RegisterOps mounts GET /healthz (the process answers), GET /readyz (the
// database answers; 503 when not) and GET /metrics. Register before Mount.
func RegisterOps(r fiber.Router, o Ops, m *Metrics) {
	r.Get("/healthz", func(c *fiber.Ctx) error {
		return httpkit.OK(c, fiber.Map{"status": "ok"})
	})
	r.Get("/readyz", func(c *fiber.Ctx) error {
		if o.Ping != nil {
			if err := o.Ping(); err != nil {
				body := errorBody{StatusCode: fiber.StatusServiceUnavailable, Message: "the database does not answer", ErrorCode: app.EInternal}
				var ae *app.Error
				if errors.As(err, &ae) {
					body.Message, body.ErrorCode = ae.Message, ae.Code
				}
				return c.Status(fiber.StatusServiceUnavailable).JSON(body)
			}
		}
		return httpkit.OK(c, fiber.Map{"status": "ok"})
	})
	if m != nil {
		r.Get("/metrics", MetricsHandler(m, o.MetricsToken))
	}
}

// MetricsHandler serves the registry; with token set it requires
// Authorization: Bearer <token> (401 unauthorized otherwise).
func MetricsHandler(m *Metrics, token string) fiber.Handler {
	h := m.Handler()
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return func(c *fiber.Ctx) error {
		if subtle.ConstantTimeCompare([]byte(c.Get(fiber.HeaderAuthorization)), want) != 1 {
			return app.Errorf(app.EUnauthorized, "metrics need the bearer token of http.metrics_token")
		}
		return h(c)
	}
}

// MetricsApp is the separate listener of http.metrics_addr: GET /metrics only.
func (s *Server) MetricsApp(m *Metrics, token string) *fiber.App {
	a := fiber.New(fiber.Config{ErrorHandler: s.ErrorHandler, DisableStartupMessage: true,
		ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second})
	a.Get("/metrics", MetricsHandler(m, token))
	a.Use(func(c *fiber.Ctx) error { return app.Errorf(app.ENotFound, "only /metrics is served here") })
	return a
}

// dbCollector reads DBStats at scrape time.
type dbCollector struct{ stats func() DBStats }

var (
	descReadTx     = prometheus.NewDesc("storefront_bbolt_read_tx_total", "Read transactions started.", nil, nil)
	descOpenReadTx = prometheus.NewDesc("storefront_bbolt_open_read_tx", "Read transactions open now.", nil, nil)
	descFreePages  = prometheus.NewDesc("storefront_bbolt_free_pages", "Pages on the freelist.", nil, nil)
	descPending    = prometheus.NewDesc("storefront_bbolt_pending_pages", "Freed pages still held by open transactions.", nil, nil)
	descFreeAlloc  = prometheus.NewDesc("storefront_bbolt_free_alloc_bytes", "Bytes in free pages.", nil, nil)
	descFreelist   = prometheus.NewDesc("storefront_bbolt_freelist_inuse_bytes", "Bytes used by the freelist.", nil, nil)
	descWrites     = prometheus.NewDesc("storefront_bbolt_page_writes_total", "Pages written by committed write transactions.", nil, nil)
	descAlloc      = prometheus.NewDesc("storefront_bbolt_page_alloc_bytes_total", "Bytes allocated by write transactions.", nil, nil)
	descWriteTime  = prometheus.NewDesc("storefront_bbolt_write_seconds_total", "Time spent writing pages to disk.", nil, nil)
	descFileSize   = prometheus.NewDesc("storefront_bbolt_file_size_bytes", "Size of the database file.", nil, nil)
	descCatPages   = prometheus.NewDesc("storefront_category_cache_pages", "Product pages in the memory cache: category pages, and product lists on PostgreSQL.", nil, nil)
	descDetails    = prometheus.NewDesc("storefront_product_detail_cache_entries", "Product details in the memory cache.", nil, nil)
	descDetailSize = prometheus.NewDesc("storefront_product_detail_cache_bytes", "JSON held by the product detail cache (bounded at 8 MB).", nil, nil)
	descCommits    = prometheus.NewDesc("storefront_db_commits_total", "Write transactions committed (each one fsynced).", nil, nil)
	descBatched    = prometheus.NewDesc("storefront_db_batched_writes_total", "Grouped writes (checkout) carried by those commits.", nil, nil)
	descFull       = prometheus.NewDesc("storefront_storage_full", "1 while writes fail because the disk is full.", nil, nil)
	descFullErrors = prometheus.NewDesc("storefront_storage_full_errors_total", "Writes that failed because the disk was full (answered 507 storage_full).", nil, nil)

	descPoolMax      = prometheus.NewDesc("storefront_pg_pool_max_conns", "PostgreSQL pool: maximum connections.", nil, nil)
	descPoolTotal    = prometheus.NewDesc("storefront_pg_pool_total_conns", "PostgreSQL pool: open connections.", nil, nil)
	descPoolIdle     = prometheus.NewDesc("storefront_pg_pool_idle_conns", "PostgreSQL pool: idle connections.", nil, nil)
	descPoolAcquired = prometheus.NewDesc("storefront_pg_pool_acquired_conns", "PostgreSQL pool: connections in use.", nil, nil)
	descPoolAcquires = prometheus.NewDesc("storefront_pg_pool_acquires_total", "PostgreSQL pool: connections acquired.", nil, nil)
	descPoolEmpty    = prometheus.NewDesc("storefront_pg_pool_empty_acquires_total", "PostgreSQL pool: acquires that had to wait for a connection.", nil, nil)
	descPoolCanceled = prometheus.NewDesc("storefront_pg_pool_canceled_acquires_total", "PostgreSQL pool: acquires canceled while waiting.", nil, nil)
	descPoolWait     = prometheus.NewDesc("storefront_pg_pool_acquire_seconds_total", "PostgreSQL pool: time spent acquiring connections.", nil, nil)
)

func (dbCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descReadTx, descOpenReadTx, descFreePages, descPending, descFreeAlloc,
		descFreelist, descWrites, descAlloc, descWriteTime, descFileSize, descCatPages, descDetails, descDetailSize, descCommits, descBatched, descFull, descFullErrors,
		descPoolMax, descPoolTotal, descPoolIdle, descPoolAcquired, descPoolAcquires, descPoolEmpty, descPoolCanceled, descPoolWait} {
		ch <- d
	}
}

func (c dbCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.stats()
	counter := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	gauge(descCatPages, float64(s.CachedPages))
	gauge(descDetails, float64(s.CachedDetails))
	gauge(descDetailSize, float64(s.CachedDetailBytes))
	if p := s.Pool; p != nil { // PostgreSQL: the pool, no file figures
		gauge(descPoolMax, float64(p.MaxConns))
		gauge(descPoolTotal, float64(p.TotalConns))
		gauge(descPoolIdle, float64(p.IdleConns))
		gauge(descPoolAcquired, float64(p.AcquiredConns))
		counter(descPoolAcquires, float64(p.Acquires))
		counter(descPoolEmpty, float64(p.EmptyAcquires))
		counter(descPoolCanceled, float64(p.CanceledAcquires))
		counter(descPoolWait, p.AcquireWait.Seconds())
		return
	}
	counter(descReadTx, float64(s.ReadTx))
	gauge(descOpenReadTx, float64(s.OpenReadTx))
	gauge(descFreePages, float64(s.FreePages))
	gauge(descPending, float64(s.PendingPages))
	gauge(descFreeAlloc, float64(s.FreeAllocBytes))
	gauge(descFreelist, float64(s.FreelistBytes))
	counter(descWrites, float64(s.PageWrites))
	counter(descAlloc, float64(s.PageAllocBytes))
	counter(descWriteTime, s.WriteTime.Seconds())
	gauge(descFileSize, float64(s.FileSizeBytes))
	counter(descCommits, float64(s.Commits))
	counter(descBatched, float64(s.BatchedWrites))
	full := 0.0
	if s.StorageFull {
		full = 1
	}
	gauge(descFull, full)
	counter(descFullErrors, float64(s.StorageFullErrors))
}
