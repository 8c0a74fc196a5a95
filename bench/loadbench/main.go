// Command loadbench is the load half of `make bench`: it wires Storefront in
// process over a seeded catalog in a temporary directory, serves it and the
// bare Fiber baselines on 127.0.0.1, measures each with wrk, and prints one
// table of req/s, latency and allocs/op (these from the Go benchmarks' output
// when -gobench names it). Only ratios within one run mean anything: the
// machines drift by 20% or more between runs. See docs/benchmarks.md.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"storefront/bench"
)

func main() { os.Exit(run()) }

type options struct {
	duration time.Duration
	conns    int
	threads  int
	rounds   int
	wrk      string
	bin      string
	gobench  string
	strict   bool
	only     string
	million  int
	locale   string
}

func run() int {
	var o options
	var bareDir string
	flag.DurationVar(&o.duration, "d", 3*time.Second, "duration of each wrk run")
	flag.IntVar(&o.conns, "c", 64, "wrk connections")
	flag.IntVar(&o.threads, "t", 1, "wrk threads")
	flag.IntVar(&o.rounds, "rounds", 3, "interleaved rounds; ratios are the median of the rounds' ratios")
	flag.StringVar(&o.wrk, "wrk", "wrk", "wrk binary")
	flag.StringVar(&o.bin, "bin", "bin/storefront", "the storefront binary as shipped (make build)")
	flag.StringVar(&o.gobench, "gobench", "", "file with `go test -bench -benchmem` output to take ns/op and allocs/op from")
	flag.BoolVar(&o.strict, "strict", false, "exit 1 when a target is missed")
	flag.StringVar(&o.only, "only", "", "comma-separated jobs to measure (rows need both of theirs), e.g. config,config_bare")
	flag.StringVar(&o.locale, "locale", "", "the measured store's locale (config key locale: de, fr...; empty: English): the shop rows in that language")
	flag.IntVar(&o.million, "products", 0, "instead of the usual run: the big-catalog run at this many products (make bench-1m: 1000000)")
	flag.StringVar(&bareDir, "bare-serve", "", "internal: serve the bare baselines of this run directory")
	flag.Parse()
	if bareDir != "" {
		return serveBare(bareDir)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	measureFn := measure
	if o.million > 0 {
		measureFn = func(ctx context.Context, o options) (int, error) { return measureMillion(ctx, o, o.million) }
	}
	missed, err := measureFn(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		return 1
	}
	if missed > 0 && o.strict {
		return 1
	}
	return 0
}

// server is one process answering on loopback.
type server struct {
	name string
	url  string
	key  string
	proc *proc
	db   *dbServer // the PostgreSQL server it uses (nil: none), for its CPU time
}

// job is one endpoint measured on one server.
type job struct {
	id     string
	srv    *server
	path   string
	script string // wrk Lua script (POSTs)
	// browser: the request says it takes gzip, as every browser does (the
	// shop rows: pages are measured as shoppers get them)
	browser bool
	srv2    *server      // a second process on the same database: half the connections each
	bg      *job         // a load run at the same time (its figures are not kept)
	runs    []*wrkResult // one per round
}

// median returns the run with the median req/s.
func (j *job) median() *wrkResult {
	rs := append([]*wrkResult(nil), j.runs...)
	sort.Slice(rs, func(a, b int) bool { return rs[a].rps < rs[b].rps })
	return rs[len(rs)/2]
}

// ratio is the median over rounds of ours/base req/s: each round's runs are
// minutes apart at most, so a drifting machine cancels out.
func ratio(ours, base *job) float64 {
	var rs []float64
	for i := range ours.runs {
		rs = append(rs, ours.runs[i].rps/base.runs[i].rps)
	}
	sort.Float64s(rs)
	return rs[len(rs)/2]
}

// row is one line of the table: ours against a reference.
type row struct {
	endpoint     string
	ours, base   string        // job ids
	oursB, baseB string        // go benchmark names (ns/op, allocs/op)
	target       float64       // minimum ours/base req/s ratio; 0: informational
	p99          time.Duration // maximum p99 of ours; 0: none
	note         string
}

// postScript writes a wrk Lua script that POSTs body as JSON with key, and a
// fresh Idempotency-Key on every request when idem (as shops' clients send).
func postScript(dir, name string, body []byte, key string, idem bool) (string, error) {
	var b strings.Builder
	b.WriteString("wrk.method = \"POST\"\n")
	fmt.Fprintf(&b, "wrk.body = %s\n", luaString(body))
	b.WriteString("wrk.headers[\"Content-Type\"] = \"application/json\"\n")
	if key != "" {
		fmt.Fprintf(&b, "wrk.headers[\"X-Service-Key\"] = %s\n", luaString([]byte(key)))
	}
	if idem {
		b.WriteString(`math.randomseed(os.time() + math.floor(os.clock() * 1000000))
local prefix = "k" .. math.random(1, 1000000000) .. "-"
local n = 0
request = function()
  n = n + 1
  wrk.headers["Idempotency-Key"] = prefix .. n
  return wrk.format()
end
`)
	}
	path := filepath.Join(dir, name+".lua")
	return path, os.WriteFile(path, []byte(b.String()), 0o600)
}

func luaString(b []byte) string {
	var s strings.Builder
	s.WriteByte('"')
	for _, c := range b {
		if c == '"' || c == '\\' || c < 0x20 || c > 0x7e {
			fmt.Fprintf(&s, "\\%03d", c)
			continue
		}
		s.WriteByte(c)
	}
	s.WriteByte('"')
	return s.String()
}

func measure(ctx context.Context, o options) (missed int, err error) {
	dir, err := os.MkdirTemp("", "storefront-bench-")
	if err != nil {
		return 0, err
	}
	if os.Getenv("KEEP") == "" {
		defer os.RemoveAll(dir)
	}
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return 0, err
	}
	if _, err := os.Stat(bin); err != nil {
		return 0, fmt.Errorf("%v (run make build, or pass -bin)", err)
	}

	// Seed through the services, then close: the binary opens the same file.
	t0 := time.Now()
	env, err := bench.Open(dir, nil)
	if err != nil {
		return 0, err
	}
	ck, err := env.SeedCheckout()
	if err != nil {
		env.Close()
		return 0, err
	}
	taxed, err := env.SeedTaxedCheckout()
	if err != nil {
		env.Close()
		return 0, err
	}
	key, catID, storeID := env.Key, env.CategoryID, env.StoreID
	if o.locale != "" {
		patch, _ := json.Marshal(map[string]string{"locale": o.locale})
		if _, err := env.Svc.Stores.PatchConfig(storeID, patch); err != nil {
			env.Close()
			return 0, err
		}
	}
	if err := env.Close(); err != nil {
		return 0, err
	}
	fmt.Printf("seeded %d products and a checkout store in %v (temp dir %s)\n", bench.Products, time.Since(t0).Round(time.Millisecond), dir)
	dbPath := filepath.Join(dir, "storefront.db")
	diskBefore, err := bench.ReadDiskUse(dbPath)
	if err != nil {
		return 0, err
	}

	t0 = time.Now()
	// the shop window answers 127.0.0.1 with the measured store
	sf, err := startBinary(ctx, bin, dir, true, "STOREFRONT_PAYMENTS__WALLET_A__SECRET="+sandboxSecret,
		"STOREFRONT_SHOP__DEFAULT_STORE="+strconv.FormatUint(storeID, 10))
	if err != nil {
		return 0, err
	}
	defer sf.stop()
	fmt.Printf("%s serve: ready in %v\n", o.bin, time.Since(t0).Round(time.Millisecond))

	// The bare server repeats our answers byte for byte.
	spec := bareSpec{RecordSize: ck.RecordSize}
	if spec.Config, err = get(sf.url+bench.PathConfig, key); err != nil {
		return 0, err
	}
	prods, err := get(sf.url+bench.PathProducts, key)
	if err != nil {
		return 0, err
	}
	if spec.Items, err = bench.Items(prods); err != nil {
		return 0, err
	}
	if spec.Detail, err = get(sf.url+bench.PathDetail, key); err != nil {
		return 0, err
	}
	raw, _ := json.Marshal(spec)
	if err := os.WriteFile(filepath.Join(dir, "bare.json"), raw, 0o600); err != nil {
		return 0, err
	}
	bp, err := startBare(ctx, dir)
	if err != nil {
		return 0, err
	}
	defer bp.stop()
	if got, err := get(bp.url+bench.PathProducts, ""); err != nil || !bytes.Equal(got, prods) {
		return 0, fmt.Errorf("the baseline's page differs from ours (%v):\n%s\n%s", err, got, prods)
	}
	if got, err := get(bp.url+bench.PathDetail, ""); err != nil || !bytes.Equal(got, spec.Detail) {
		return 0, fmt.Errorf("the baseline's detail differs from ours (%v)", err)
	}

	// The shop window's pages of the same product and category (HTML).
	shopProduct := "/products/" + bench.DetailSlug + "/"
	shopCategory := fmt.Sprintf("/categories/%d/running-shoes/", catID) // bench.seed's category
	for _, p := range []string{"/", shopProduct, shopCategory} {
		if _, err := get(sf.url+p, ""); err != nil {
			return 0, fmt.Errorf("shop page: %v", err)
		}
	}
	ours := &server{name: "ours", url: sf.url, key: key, proc: sf}
	// The bare baselines get the same requests as ours, headers and all, so
	// that a ratio counts only what our code adds to a request.
	bare := &server{name: "bare", url: bp.url, key: key, proc: bp}
	initScript, err := postScript(dir, "initiate", ck.Body, ck.Key, true)
	if err != nil {
		return 0, err
	}
	bareScript, err := postScript(dir, "bare", ck.Body, ck.Key, true)
	if err != nil {
		return 0, err
	}
	jobs := []*job{
		{id: "config", srv: ours, path: bench.PathConfig},
		{id: "config_bare", srv: bare, path: bench.PathConfig},
		{id: "products", srv: ours, path: bench.PathProducts},
		{id: "products_bare", srv: bare, path: bench.PathProducts},
		{id: "products_fields", srv: ours, path: bench.PathFields},
		{id: "category_cached", srv: ours, path: bench.PathCategory(catID)},
		{id: "search_rare", srv: ours, path: bench.PathProducts + "?q=17"},
		{id: "search_common", srv: ours, path: bench.PathProducts + "?q=trail+pro"},
		{id: "search_prefix", srv: ours, path: bench.PathProducts + "?q=run&sort=relevance"},
		{id: "search_typo", srv: ours, path: bench.PathProducts + "?q=" + bench.Typo("trail") + "+pro"}, // one typo
		{id: "detail", srv: ours, path: bench.PathDetail},
		{id: "detail_bare", srv: bare, path: bench.PathDetail},
		{id: "initiate", srv: ours, path: bench.PathInitiate, script: initScript},
		{id: "initiate_bare", srv: bare, path: pathBareBatch, script: bareScript},
		{id: "verify", srv: ours, path: bench.PathVerify}, // script: verifyScript, below
	}
	jobs = append(jobs, &job{id: "products_checkout", srv: ours, path: bench.PathProducts, bg: jobs[len(jobs)-2]},
		&job{id: "detail_checkout", srv: ours, path: bench.PathDetail, bg: jobs[len(jobs)-2]})
	jobs = append(jobs, &job{id: "shop_home", srv: ours, path: "/", browser: true}, &job{id: "shop_product", srv: ours, path: shopProduct, browser: true},
		&job{id: "shop_category", srv: ours, path: shopCategory, browser: true})
	taxScript, err := postScript(dir, "initiate-tax", taxed.Body, taxed.Key, true)
	if err != nil {
		return 0, err
	}
	jobs = append(jobs, &job{id: "initiate_tax", srv: ours, path: bench.PathInitiate, script: taxScript})
	// PostgreSQL beside bbolt when a server is given (make bench starts one):
	// the same binary with storage.driver postgres, one process and two.
	var pgRows []row
	if url := os.Getenv("STOREFRONT_TEST_POSTGRES_URL"); url != "" {
		pgJobs, rows, stop, err := postgresJobs(ctx, bin, dir, url)
		if err != nil {
			return 0, err
		}
		defer stop()
		jobs = append(jobs, pgJobs...)
		pgRows = rows
	}
	byID := map[string]*job{}
	for _, j := range jobs {
		byID[j.id] = j
	}
	rows := []row{
		{endpoint: "GET config", ours: "config", base: "config_bare", oursB: "config", baseB: "config_bare", target: 0.85, note: "base: bare Fiber, same bytes"},
		{endpoint: "GET products (24, full)", ours: "products", base: "products_bare", oursB: "products", baseB: "products_bare", target: 0.75, note: "base: bare Fiber+bbolt, same bytes"},
		{endpoint: "GET products?fields=id,name,price", ours: "products_fields", base: "products_bare", oursB: "products_fields", baseB: "products_bare", note: "base: the full page baseline"},
		{endpoint: "GET category products (cached)", ours: "category_cached", base: "products_bare", oursB: "category_cached", baseB: "products_bare", note: "base: the full page baseline"},
		{endpoint: "GET products?q=17 (rare word)", ours: "search_rare", base: "products", target: 0.5, note: "base: ours, unfiltered page (target: within 2x)"},
		{endpoint: "GET products?q=trail+pro (common)", ours: "search_common", base: "products", target: 0.5, note: "base: ours, unfiltered page (target: within 2x)"},
		{endpoint: "GET products?q=run&sort=relevance (prefix)", ours: "search_prefix", base: "products", target: 0.5, note: "base: ours, unfiltered page (target: within 2x)"},
		{endpoint: "GET products?q=" + bench.Typo("trail") + "+pro (a typo: every product)", ours: "search_typo", base: "products", target: 0.5, note: "base: ours, unfiltered page (target: within 2x)"},
		{endpoint: "GET product detail", ours: "detail", base: "detail_bare", target: 0.75, note: "base: bare Fiber+bbolt point read of the same bytes"},
		{endpoint: "GET products during a checkout load", ours: "products_checkout", base: "products", note: "base: ours, no other load (64 connections initiating orders meanwhile)"},
		{endpoint: "shop: GET / (home, HTML)", ours: "shop_home", base: "config", target: 0.75, p99: 10 * time.Millisecond, note: "base: ours, GET config (issue 36)"},
		{endpoint: "shop: GET /products/{slug}/ (HTML)", ours: "shop_product", base: "detail", target: 0.75, p99: 10 * time.Millisecond, note: "base: ours, GET product detail (issue 36)"},
		{endpoint: "shop: GET /categories/{id}/{slug}/ (HTML)", ours: "shop_category", base: "products", target: 0.75, p99: 10 * time.Millisecond, note: "base: ours, GET products page (issue 36)"},
		{endpoint: "GET product detail during a checkout load", ours: "detail_checkout", base: "detail", note: "base: ours, no other load (every order changes the catalog: the detail cache misses)"},
		{endpoint: "POST payment/initiate (guest, 1 line)", ours: "initiate", base: "initiate_bare", target: 0.6, p99: 50 * time.Millisecond, note: "base: bare Fiber, one bbolt.Batch write of the order+session size, fsync on"},
		{endpoint: "POST payment/initiate, two tax rates set", ours: "initiate_tax", base: "initiate_bare", target: 0.65, p99: 20 * time.Millisecond, note: "base: the same bare Batch handler (issue 35: taxes computed on every checkout)"},
		{endpoint: "POST payment/verify (sandbox, paid)", ours: "verify", base: "initiate_bare", target: 0.6, p99: 50 * time.Millisecond, note: "base: the same bare Batch handler; each request verifies another session, paid by the sandbox's signed return"},
	}
	rows = append(rows, pgRows...)

	if o.only != "" {
		keep := map[string]bool{}
		for _, id := range strings.Split(o.only, ",") {
			keep[strings.TrimSpace(id)] = true
		}
		jobs = slices.DeleteFunc(jobs, func(j *job) bool { return !keep[j.id] })
		rows = slices.DeleteFunc(rows, func(r row) bool { return !keep[r.ours] || !keep[r.base] })
	}
	// The verify load's sessions: enough for the warm-up and every round at
	// 25k verifications a second (more are counted as reused below).
	verifyN := int(25000 * (1 + float64(o.rounds)*o.duration.Seconds()))
	for _, j := range jobs {
		if j.id == "verify" {
			t0 := time.Now()
			if j.script, err = verifyScript(ctx, dir, ours, ck, verifyN, o.threads); err != nil {
				return 0, err
			}
			fmt.Printf("placed %d checkouts for the verify load in %v\n", verifyN, time.Since(t0).Round(time.Millisecond))
		}
	}
	// warm up every server (page cache, pools, the category cache)
	for _, j := range jobs {
		if _, err := runWrk(ctx, o, j, time.Second); err != nil {
			return 0, err
		}
	}
	fmt.Printf("measuring %d endpoints x %d rounds x %v (wrk -t%d -c%d, interleaved)\n", len(jobs), o.rounds, o.duration, o.threads, o.conns)
	for r := 0; r < o.rounds; r++ {
		for _, j := range jobs {
			var m0 map[string]float64
			if j.srv == ours {
				m0 = metrics(ours.url, dbCounters...)
			}
			cpu0, db0 := j.cpuTime()
			res, err := runWrk(ctx, o, j, o.duration)
			if err != nil {
				return 0, err
			}
			cpu1, db1 := j.cpuTime()
			res.cpuPerReq = (cpu1 - cpu0) / time.Duration(max(1, res.requests))
			extra := ""
			if j.srv.db != nil {
				res.dbCPUPerReq = (db1 - db0) / time.Duration(max(1, res.requests))
				extra = fmt.Sprintf("  postgres cpu/req %v", res.dbCPUPerReq.Round(100*time.Nanosecond))
			}
			if m0 != nil {
				m1 := metrics(ours.url, dbCounters...)
				commits := m1[dbCounters[0]] - m0[dbCounters[0]]
				if commits > 0 {
					extra += fmt.Sprintf("  commits/s %.0f, writes/commit %.1f, pages/commit %.1f",
						commits/o.duration.Seconds(), (m1[dbCounters[1]]-m0[dbCounters[1]])/commits, (m1[dbCounters[2]]-m0[dbCounters[2]])/commits)
				}
			}
			fmt.Printf("  round %d %-16s %10.0f req/s  p50 %-9s p99 %-9s cpu/req %v%s\n", r+1, j.id, res.rps, fmtDur(res.p50), fmtDur(res.p99), res.cpuPerReq.Round(100*time.Nanosecond), extra)
			j.runs = append(j.runs, res)
		}
	}

	rss, anon, file := sf.rss()
	memory := fmt.Sprintf("RSS %.1f MB: RssAnon (heap, stacks) %.1f MB, RssFile (binary, mapped database) %.1f MB",
		float64(rss)/1024, float64(anon)/1024, float64(file)/1024)
	// Bytes on disk per order: the binary stops (releasing the file) first.
	sf.stop()
	perOrder := "-"
	if diskAfter, err := bench.ReadDiskUse(dbPath); err == nil {
		perOrder = bench.PerOrder(diskBefore, diskAfter)
	} else {
		perOrder = err.Error()
	}

	gob := map[string]goBench{}
	var depth []string
	if o.gobench != "" {
		gob, depth, err = readGoBench(o.gobench)
		if err != nil {
			return 0, err
		}
	}

	fmt.Println()
	fmt.Printf("Storefront benchmarks (%s, %s, %d CPUs, servers pinned to CPU 0, wrk -t%d -c%d -d%v on CPU 1, medians of %d rounds, load %s)\n",
		time.Now().UTC().Format("2006-01-02"), machine(), numCPU(), o.threads, o.conns, o.duration, o.rounds, loadavg())
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "endpoint\tours req/s\tbase req/s\tratio\ttarget\tp50\tp99\tbase p50\tbase p99\tns/op\tbase ns/op\tallocs/op\tbase allocs/op\tok\t")
	for _, r := range rows {
		a, b := byID[r.ours].median(), byID[r.base].median()
		ratio := ratio(byID[r.ours], byID[r.base])
		target, ok := "-", "-"
		if r.target > 0 {
			target = fmt.Sprintf(">= %.2f", r.target)
			ok = "ok"
			if ratio < r.target {
				ok = "MISSED"
				missed++
			}
		}
		if r.p99 > 0 {
			target += fmt.Sprintf(", p99 <= %v", r.p99)
			if a.p99 > r.p99 {
				if ok != "MISSED" {
					missed++
				}
				ok = "MISSED"
			}
		}
		ga, gb := gob[r.oursB], gob[r.baseB]
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.endpoint, a.rps, b.rps, ratio, target,
			fmtDur(a.p50), fmtDur(a.p99), fmtDur(b.p50), fmtDur(b.p99), orDash(ga.ns), orDash(gb.ns), orDash(ga.allocs), orDash(gb.allocs), ok)
	}
	tw.Flush()
	fmt.Println("bases:")
	for _, r := range rows {
		fmt.Printf("  %-34s %s\n", r.endpoint, r.note)
	}
	if len(depth) > 0 {
		fmt.Println("page depth (Go benchmark, CatalogService.Products, newest, 24 items):")
		for _, l := range depth {
			fmt.Println("  " + l)
			if strings.Contains(l, "MISSED") {
				missed++
			}
		}
	}
	if j := byID["verify"]; j != nil && len(j.runs) > 0 {
		if n := verifyReused(dir, verifyN); n > 0 {
			fmt.Printf("verify: %d verifications went to sessions already verified (more than the %d placed): its figure is too high\n", n, verifyN)
		}
	}
	if j := byID["initiate_pg"]; j != nil && len(j.runs) > 0 {
		got := j.median().rps
		verdict := "ok"
		if got < 1000 {
			verdict = "MISSED"
			missed++
		}
		fmt.Printf("checkout on PostgreSQL at 64 clients: %.0f orders/s (target >= 1,000): %s\n", got, verdict)
	}
	fmt.Println("memory of the binary after the rounds: " + memory)
	fmt.Println("bytes on disk per order (every initiation above, with an Idempotency-Key, and the verified ones paid):")
	fmt.Println("  " + perOrder)
	if missed > 0 {
		fmt.Printf("%d target(s) missed\n", missed)
	} else {
		fmt.Println("all targets met")
	}
	return missed, nil
}

// loadavg is the 1, 5 and 15 minute load average.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

type wrkResult struct {
	rps       float64
	requests  int
	p50, p99  time.Duration
	cpuPerReq time.Duration // server CPU time per request (both processes of a two-process job)
	// dbCPUPerReq is the PostgreSQL server's CPU time per request (the
	// postmaster and every backend), for the jobs on PostgreSQL.
	dbCPUPerReq time.Duration
}

// cpuTime is the CPU time used so far by the job's server processes and by
// the PostgreSQL server they use (0 without one).
func (j *job) cpuTime() (procs, db time.Duration) {
	procs = j.srv.proc.cpuTime()
	if j.srv2 != nil {
		procs += j.srv2.proc.cpuTime()
	}
	if j.srv.db != nil {
		db = j.srv.db.cpuTime()
	}
	return procs, db
}

// dbCounters are the binary's metrics read around each run of ours.
var dbCounters = []string{"storefront_db_commits_total", "storefront_db_batched_writes_total", "storefront_bbolt_page_writes_total"}

var reReqs = regexp.MustCompile(`(\d+) requests in`)

var (
	reRPS  = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	reLat  = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([0-9.]+)(us|ms|s)\s*$`)
	reNon2 = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	reErrs = regexp.MustCompile(`Socket errors: (.*)`)
)

func runWrk(ctx context.Context, o options, j *job, d time.Duration) (*wrkResult, error) {
	if j.bg != nil {
		done := make(chan error, 1)
		go func() { _, err := runWrkOn(ctx, o, j.bg, j.bg.srv, o.conns, d); done <- err }()
		res, err := runWrkOn(ctx, o, j, j.srv, o.conns, d)
		if bgErr := <-done; err == nil {
			err = bgErr
		}
		return res, err
	}
	if j.srv2 == nil {
		return runWrkOn(ctx, o, j, j.srv, o.conns, d)
	}
	// Two processes behind a balancer: one wrk per server, half the connections each.
	type out struct {
		r   *wrkResult
		err error
	}
	ch := make(chan out, 2)
	for _, srv := range []*server{j.srv, j.srv2} {
		go func() {
			r, err := runWrkOn(ctx, o, j, srv, max(1, o.conns/2), d)
			ch <- out{r, err}
		}()
	}
	sum := &wrkResult{}
	for range 2 {
		x := <-ch
		if x.err != nil {
			return nil, x.err
		}
		sum.rps += x.r.rps
		sum.requests += x.r.requests
		sum.p50 = max(sum.p50, x.r.p50)
		sum.p99 = max(sum.p99, x.r.p99)
	}
	return sum, nil
}

func runWrkOn(ctx context.Context, o options, j *job, srv *server, conns int, d time.Duration) (*wrkResult, error) {
	ctx, cancel := context.WithTimeout(ctx, d+15*time.Second)
	defer cancel()
	args := pinned(1, o.wrk, "-t"+strconv.Itoa(o.threads), "-c"+strconv.Itoa(conns), "-d"+strconv.Itoa(max(1, int(d/time.Second)))+"s",
		"--latency", "--timeout", "2s")
	if j.script != "" {
		args = append(args, "-s", j.script)
	} else if srv.key != "" {
		args = append(args, "-H", "X-Service-Key: "+srv.key)
	}
	if j.browser {
		args = append(args, "-H", "Accept-Encoding: gzip, deflate, br")
	}
	args = append(args, srv.url+j.path)
	out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("wrk %s: %v: %s", j.id, err, out)
	}
	s := string(out)
	if m := reNon2.FindStringSubmatch(s); m != nil {
		return nil, fmt.Errorf("wrk %s: %s responses were not 2xx:\n%s", j.id, m[1], s)
	}
	if m := reErrs.FindStringSubmatch(s); m != nil && !strings.Contains(m[1], "connect 0, read 0, write 0, timeout 0") {
		return nil, fmt.Errorf("wrk %s: socket errors: %s", j.id, m[1])
	}
	m := reRPS.FindStringSubmatch(s)
	if m == nil {
		return nil, fmt.Errorf("wrk %s: no Requests/sec in:\n%s", j.id, s)
	}
	res := &wrkResult{}
	res.rps, _ = strconv.ParseFloat(m[1], 64)
	if m := reReqs.FindStringSubmatch(s); m != nil {
		res.requests, _ = strconv.Atoi(m[1])
	}
	for _, lm := range reLat.FindAllStringSubmatch(s, -1) {
		v, _ := strconv.ParseFloat(lm[2], 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[lm[3]]
		dur := time.Duration(v * float64(unit))
		if lm[1] == "50" {
			res.p50 = dur
		} else {
			res.p99 = dur
		}
	}
	return res, nil
}

// goBench is one in-memory handler benchmark (BenchmarkHandlers/*).
type goBench struct{ ns, allocs string }

// readGoBench takes ns/op and allocs/op of BenchmarkHandlers/* and the
// figures of BenchmarkProductPageDepth/* from go test output.
func readGoBench(path string) (map[string]goBench, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	out := map[string]goBench{}
	var depth []string
	reName := regexp.MustCompile(`^Benchmark(\w+)/(\S+?)(-\d+)?\s+\d+\s+(.*)$`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := reName.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		fields := strings.Fields(m[4])
		metric := func(unit string) string {
			for i := 1; i < len(fields); i++ {
				if fields[i] == unit {
					return fields[i-1]
				}
			}
			return ""
		}
		switch m[1] {
		case "Handlers":
			out[m[2]] = goBench{ns: metric("ns/op"), allocs: metric("allocs/op")}
		case "ProductPageDepth":
			depth = append(depth, fmt.Sprintf("page 1 at 1k products    %8s ns", metric("page1_1k_ns")))
			for _, x := range []struct{ label, ns, ratio string }{
				{"page 1 at 100k products  ", "page1_100k_ns", "page1_100k_x"},
				{"page ~99k deep at 100k   ", "deep_100k_ns", "deep_100k_x"},
			} {
				ok := "ok"
				if v, err := strconv.ParseFloat(metric(x.ratio), 64); err != nil || v > 1.5 {
					ok = "MISSED"
				}
				depth = append(depth, fmt.Sprintf("%s%8s ns  %5sx page 1 at 1k (target <= 1.5)  %s", x.label, metric(x.ns), metric(x.ratio), ok))
			}
			depth = append(depth, fmt.Sprintf("seeding 100k products took %ss (Tx.PutProduct, thousands per transaction)", metric("seed_100k_s")))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if len(out) == 0 {
		return nil, nil, errors.New("no BenchmarkHandlers lines in " + path)
	}
	return out, depth, nil
}

func fmtDur(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	if d < time.Millisecond {
		return fmt.Sprintf("%.0fµs", float64(d)/float64(time.Microsecond))
	}
	return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// machine names the CPU from /proc/cpuinfo.
func machine() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOOS + "/" + runtime.GOARCH
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOOS + "/" + runtime.GOARCH
}

func numCPU() int { return runtime.NumCPU() }
