// Command loadbench is the load half of `make bench`: it wires Storefront in
// process over a seeded catalog in a temporary directory, serves it and the
// bare Fiber baselines on 127.0.0.1, measures each with wrk, and prints one
// table of req/s, latency and allocs/op (these from the Go benchmarks' output
// when -gobench names it). Only ratios within one run mean anything: the
// machines drift by 20% or more between runs. See docs/benchmarks.md.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
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

	"github.com/gofiber/fiber/v2"

	"storefront/bench"
)

func main() { os.Exit(run()) }

type options struct {
	duration time.Duration
	conns    int
	threads  int
	rounds   int
	wrk      string
	gobench  string
	strict   bool
	only     string
}

func run() int {
	var o options
	flag.DurationVar(&o.duration, "d", 2*time.Second, "duration of each wrk run")
	flag.IntVar(&o.conns, "c", 32, "wrk connections")
	flag.IntVar(&o.threads, "t", 1, "wrk threads")
	flag.IntVar(&o.rounds, "rounds", 5, "interleaved rounds; ratios are the median of the rounds' ratios")
	flag.StringVar(&o.wrk, "wrk", "wrk", "wrk binary")
	flag.StringVar(&o.gobench, "gobench", "", "file with `go test -bench -benchmem` output to take ns/op and allocs/op from")
	flag.BoolVar(&o.strict, "strict", false, "exit 1 when a target is missed")
	flag.StringVar(&o.only, "only", "", "comma-separated jobs to measure (rows need both of theirs), e.g. config,config_bare")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	missed, err := measure(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		return 1
	}
	if missed > 0 && o.strict {
		return 1
	}
	return 0
}

// server is one app listening on loopback.
type server struct {
	name string
	app  *fiber.App
	url  string
	key  string
}

func listen(name string, a *fiber.App, key string) (*server, error) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	go func() { _ = a.Listener(ln) }()
	return &server{name: name, app: a, url: "http://" + ln.Addr().String(), key: key}, nil
}

// job is one endpoint measured on one server (or two at once: srv2).
type job struct {
	id     string
	srv    *server
	path   string
	key    string       // the API key when not the server's
	script string       // a wrk Lua script (a POST body)
	conns  int          // connections when not -c
	srv2   *server      // a second process on the same database: half the connections each
	runs   []*wrkResult // one per round
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
	ours, base   string  // job ids
	oursB, baseB string  // go benchmark names (ns/op, allocs/op)
	target       float64 // minimum ours/base req/s ratio; 0: informational
	note         string
}

func measure(ctx context.Context, o options) (missed int, err error) {
	dir, err := os.MkdirTemp("", "storefront-bench-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	logFile, err := os.Create(filepath.Join(dir, "requests.log"))
	if err != nil {
		return 0, err
	}
	defer logFile.Close()

	t0 := time.Now()
	env, err := bench.Open(dir, logFile)
	if err != nil {
		return 0, err
	}
	defer env.Close()
	ours, err := env.Server(false)
	if err != nil {
		return 0, err
	}
	logged, err := env.Server(true)
	if err != nil {
		return 0, err
	}
	bl, err := bench.NewBaselines(ours.App, env.Key, dir)
	if err != nil {
		return 0, err
	}
	defer bl.Close()
	fmt.Printf("seeded %d products and the baselines in %v (temp dir %s)\n", bench.Products, time.Since(t0).Round(time.Millisecond), dir)

	var servers []*server
	defer func() {
		for _, s := range servers {
			_ = s.app.ShutdownWithTimeout(2 * time.Second)
		}
	}()
	for _, x := range []struct {
		name string
		app  *fiber.App
		key  string
	}{{"ours", ours.App, env.Key}, {"ours+log", logged.App, env.Key}, {"bare-config", bl.Config, ""}, {"bare-bbolt", bl.Docs.App, ""}} {
		s, err := listen(x.name, x.app, x.key)
		if err != nil {
			return 0, err
		}
		servers = append(servers, s)
	}
	oursS, loggedS, cfgS, docsS := servers[0], servers[1], servers[2], servers[3]
	catPath := bench.PathCategory(env.CategoryID)
	detailPath := bench.PathProducts + "/trail-runner-1-pro"
	checkoutKey, checkoutProduct, err := env.SeedCheckout()
	if err != nil {
		return 0, err
	}
	checkoutScript := filepath.Join(dir, "checkout.lua")
	if err := os.WriteFile(checkoutScript, []byte(luaPost(bench.Checkout(checkoutProduct))), 0o600); err != nil {
		return 0, err
	}
	// PostgreSQL beside bbolt when a server is given (make bench starts one).
	var pgJobs []*job
	var pgRows []row
	if url := os.Getenv("STOREFRONT_TEST_POSTGRES_URL"); url != "" {
		dbURL, err := bench.NewPostgresDatabase(url)
		if err != nil {
			return 0, err
		}
		pg, err := bench.OpenPostgres(dbURL, true, 32)
		if err != nil {
			return 0, err
		}
		defer pg.Close()
		pgKey, pgProduct, err := pg.SeedCheckout()
		if err != nil {
			return 0, err
		}
		pg2, err := bench.OpenPostgres(dbURL, false, 32) // a second process: its own pool and caches
		if err != nil {
			return 0, err
		}
		defer pg2.Close()
		pgScript := filepath.Join(dir, "checkout-pg.lua")
		if err := os.WriteFile(pgScript, []byte(luaPost(bench.Checkout(pgProduct))), 0o600); err != nil {
			return 0, err
		}
		var pgSrv [2]*server
		for i, e := range []*bench.Env{pg, pg2} {
			ws, err := e.Server(false)
			if err != nil {
				return 0, err
			}
			if pgSrv[i], err = listen(fmt.Sprintf("ours-pg%d", i+1), ws.App, pg.Key); err != nil {
				return 0, err
			}
			servers = append(servers, pgSrv[i])
		}
		pgJobs = []*job{
			{id: "products_pg", srv: pgSrv[0], path: bench.PathProducts},
			{id: "products_pg2", srv: pgSrv[0], srv2: pgSrv[1], path: bench.PathProducts},
			{id: "detail", srv: oursS, path: detailPath},
			{id: "detail_pg", srv: pgSrv[0], path: detailPath},
			{id: "checkout", srv: oursS, path: bench.PathCheckout, key: checkoutKey, script: checkoutScript, conns: 64},
			{id: "checkout_pg", srv: pgSrv[0], path: bench.PathCheckout, key: pgKey, script: pgScript, conns: 64},
			{id: "checkout_pg2", srv: pgSrv[0], srv2: pgSrv[1], path: bench.PathCheckout, key: pgKey, script: pgScript, conns: 64},
		}
		pgRows = []row{
			{endpoint: "GET products, PostgreSQL", ours: "products_pg", base: "products", target: 0.50, note: "base: ours on bbolt (target: catalog page on PostgreSQL >= 50%)"},
			{endpoint: "GET products, PostgreSQL x2", ours: "products_pg2", base: "products", note: "base: ours on bbolt; two processes on one database"},
			{endpoint: "GET product detail, PostgreSQL", ours: "detail_pg", base: "detail", note: "base: ours on bbolt"},
			{endpoint: "POST checkout (64 clients), PostgreSQL", ours: "checkout_pg", base: "checkout", note: "base: ours on bbolt; target >= 1,000 orders/s absolute"},
			{endpoint: "POST checkout (64 clients), PostgreSQL x2", ours: "checkout_pg2", base: "checkout", note: "base: ours on bbolt; two processes on one database"},
		}
	}
	jobs := []*job{
		{id: "config", srv: oursS, path: bench.PathConfig},
		{id: "config_bare", srv: cfgS, path: bench.PathConfig},
		{id: "products", srv: oursS, path: bench.PathProducts},
		{id: "products_bare", srv: docsS, path: bench.PathProducts},
		{id: "products_fields", srv: oursS, path: bench.PathFields},
		{id: "category_cached", srv: oursS, path: catPath},
		{id: "products_logged", srv: loggedS, path: bench.PathProducts},
	}
	jobs = append(jobs, pgJobs...)
	byID := map[string]*job{}
	for _, j := range jobs {
		byID[j.id] = j
	}
	rows := []row{
		{endpoint: "GET config", ours: "config", base: "config_bare", oursB: "config", baseB: "config_bare", target: 0.80, note: "base: bare Fiber, same bytes"},
		{endpoint: "GET products (24, full)", ours: "products", base: "products_bare", oursB: "products", baseB: "products_bare", target: 0.50, note: "base: bare Fiber+bbolt, same bytes"},
		{endpoint: "GET products?fields=id,name,price", ours: "products_fields", base: "products_bare", oursB: "products_fields", baseB: "products_bare", note: "base: the full page baseline"},
		{endpoint: "GET category products (cached)", ours: "category_cached", base: "products_bare", oursB: "category_cached", baseB: "products_bare", note: "base: the full page baseline"},
		{endpoint: "GET products, LogRequests on", ours: "products_logged", base: "products", oursB: "products_logged", baseB: "products", note: "base: ours, log off (cost of the log)"},
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
	// warm up every server (page cache, pools, the category cache)
	for _, j := range jobs {
		if _, err := runWrk(ctx, o, j, time.Second); err != nil {
			return 0, err
		}
	}
	fmt.Printf("measuring %d endpoints x %d rounds x %v (wrk -t%d -c%d, interleaved)\n", len(jobs), o.rounds, o.duration, o.threads, o.conns)
	for r := 0; r < o.rounds; r++ {
		for _, j := range jobs {
			res, err := runWrk(ctx, o, j, o.duration)
			if err != nil {
				return 0, err
			}
			fmt.Printf("  round %d %-16s %10.0f req/s  p50 %-9s p99 %s\n", r+1, j.id, res.rps, fmtDur(res.p50), fmtDur(res.p99))
			j.runs = append(j.runs, res)
		}
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
	fmt.Printf("Storefront benchmarks (%s, %d CPUs, GOMAXPROCS %d, wrk -t%d -c%d -d%v, rate limit off, medians of %d rounds)\n",
		machine(), numCPU(), gomaxprocs(), o.threads, o.conns, o.duration, o.rounds)
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
	if j := byID["checkout_pg"]; j != nil && len(j.runs) > 0 {
		got := j.median().rps
		verdict := "ok"
		if got < 1000 {
			verdict = "MISSED"
			missed++
		}
		fmt.Printf("checkout on PostgreSQL at 64 clients: %.0f orders/s (target >= 1,000): %s\n", got, verdict)
	}
	if missed > 0 {
		fmt.Printf("%d target(s) missed\n", missed)
	} else {
		fmt.Println("all targets met")
	}
	return missed, nil
}

type wrkResult struct {
	rps      float64
	p50, p99 time.Duration
}

var (
	reRPS  = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	reLat  = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([0-9.]+)(us|ms|s)\s*$`)
	reNon2 = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	reErrs = regexp.MustCompile(`Socket errors: (.*)`)
)

func runWrk(ctx context.Context, o options, j *job, d time.Duration) (*wrkResult, error) {
	conns := o.conns
	if j.conns > 0 {
		conns = j.conns
	}
	if j.srv2 == nil {
		return runWrkOn(ctx, o, j, j.srv, conns, d)
	}
	// Two processes behind a balancer: one wrk per server, half the connections each.
	type out struct {
		r   *wrkResult
		err error
	}
	ch := make(chan out, 2)
	for _, srv := range []*server{j.srv, j.srv2} {
		go func() {
			r, err := runWrkOn(ctx, o, j, srv, max(1, conns/2), d)
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
		sum.p50 = max(sum.p50, x.r.p50)
		sum.p99 = max(sum.p99, x.r.p99)
	}
	return sum, nil
}

func runWrkOn(ctx context.Context, o options, j *job, srv *server, conns int, d time.Duration) (*wrkResult, error) {
	ctx, cancel := context.WithTimeout(ctx, d+15*time.Second)
	defer cancel()
	args := []string{"-t" + strconv.Itoa(o.threads), "-c" + strconv.Itoa(conns), "-d" + strconv.Itoa(max(1, int(d/time.Second))) + "s",
		"--latency", "--timeout", "2s"}
	key := srv.key
	if j.key != "" {
		key = j.key
	}
	if key != "" {
		args = append(args, "-H", "X-Service-Key: "+key)
	}
	if j.script != "" {
		args = append(args, "-s", j.script)
	}
	args = append(args, srv.url+j.path)
	out, err := exec.CommandContext(ctx, o.wrk, args...).CombinedOutput()
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

// luaPost is a wrk script sending body as a JSON POST.
func luaPost(body string) string {
	return "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = " + strconv.Quote(body) + "\n"
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

func numCPU() int     { return runtime.NumCPU() }
func gomaxprocs() int { return runtime.GOMAXPROCS(0) }
