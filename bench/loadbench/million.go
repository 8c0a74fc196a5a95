package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"storefront/bench"
)

// measureMillion is `make bench-1m`: a database of n products (and a store
// of bench.SmallProducts beside them) seeded through the storage layer, the
// binary's start-up time on it, then page 1, a deep page and searches of the
// big store over the socket against page 1 of the small store, with the
// memory of the process (anonymous pages and Go heap apart from the mapped
// file) sampled throughout.
func measureMillion(ctx context.Context, o options, n int) (missed int, err error) {
	// REUSE=DIR measures the database a run with KEEP=1 left in DIR again.
	dir := os.Getenv("REUSE")
	var big *bench.Big
	if dir != "" {
		raw, err := os.ReadFile(filepath.Join(dir, "big.json"))
		if err != nil {
			return 0, err
		}
		if err := json.Unmarshal(raw, &big); err != nil {
			return 0, err
		}
		n = big.Products
	} else if dir, err = os.MkdirTemp("", "storefront-bench-1m-"); err != nil {
		return 0, err
	}
	if os.Getenv("KEEP") == "" && os.Getenv("REUSE") == "" {
		defer os.RemoveAll(dir)
	}
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return 0, err
	}
	if _, err := os.Stat(bin); err != nil {
		return 0, fmt.Errorf("%v (run make build, or pass -bin)", err)
	}
	if big == nil {
		fmt.Printf("seeding %d products through the storage layer (%d per transaction) in %s\n", n, bench.SeedBatch, dir)
		big, err = bench.SeedBig(dir, n, func(done int, took time.Duration) {
			fmt.Printf("  %7d products in %v\n", done, took.Round(time.Second))
		})
		if err != nil {
			return 0, err
		}
		raw, _ := json.Marshal(big)
		if err := os.WriteFile(filepath.Join(dir, "big.json"), raw, 0o600); err != nil {
			return 0, err
		}
	}
	total := n + bench.SmallProducts
	perProduct := float64(big.Size) / float64(total)
	fmt.Printf("seeded in %v; file %.0f MB, %.0f B per product (%d products in two stores)\n",
		big.Seed.Round(time.Second), float64(big.Size)/1e6, perProduct, total)

	// Start-up: process start to the first 200 on /readyz, a few times (the
	// file is in the page cache: it was just written).
	// The same on an empty data directory, in turns: what the catalog adds.
	emptyDir := filepath.Join(dir, "empty")
	var starts, emptyStarts []time.Duration
	for range 5 {
		for _, s := range []struct {
			dir string
			out *[]time.Duration
		}{{dir, &starts}, {emptyDir, &emptyStarts}} {
			t0 := time.Now()
			p, err := startBinaryPoll(ctx, bin, s.dir, true, time.Millisecond)
			if err != nil {
				return 0, err
			}
			*s.out = append(*s.out, time.Since(t0))
			p.stop()
		}
	}
	slices.Sort(starts)
	slices.Sort(emptyStarts)
	startup, emptyStartup := starts[len(starts)/2], emptyStarts[len(emptyStarts)/2]
	fmt.Printf("start-up to the first 200 on /readyz (5 starts each): at %d products median %v (min %v, max %v); empty database median %v (min %v, max %v)\n",
		n, startup.Round(time.Millisecond), starts[0].Round(time.Millisecond), starts[len(starts)-1].Round(time.Millisecond),
		emptyStartup.Round(time.Millisecond), emptyStarts[0].Round(time.Millisecond), emptyStarts[len(emptyStarts)-1].Round(time.Millisecond))

	sf, err := startBinary(ctx, bin, dir, true)
	if err != nil {
		return 0, err
	}
	defer sf.stop()
	idle := sampleMemory(sf)

	large := &server{name: "1M", url: sf.url, key: big.BigKey, proc: sf}
	small := &server{name: "1k", url: sf.url, key: big.SmallKey, proc: sf}
	for _, p := range []struct {
		srv  *server
		path string
	}{{large, bench.PathProducts + "?q=" + big.RareWord}, {large, bench.PathProducts + "?cursor=" + url.QueryEscape(big.DeepCursor)}} {
		if _, err := get(p.srv.url+p.path, p.srv.key); err != nil {
			return 0, err
		}
	}
	jobs := []*job{
		{id: "page1_1k", srv: small, path: bench.PathProducts},
		{id: "page1_1m", srv: large, path: bench.PathProducts},
		{id: "deep_1m", srv: large, path: bench.PathProducts + "?cursor=" + url.QueryEscape(big.DeepCursor)},
		{id: "search_rare", srv: large, path: bench.PathProducts + "?q=" + big.RareWord},
		{id: "search_common", srv: large, path: bench.PathProducts + "?q=" + big.CommonWord},
		{id: "search_tenth", srv: large, path: bench.PathProducts + "?q=" + big.TenthWord},
		{id: "search_prefix", srv: large, path: bench.PathProducts + "?q=" + big.Prefix + "&sort=relevance"},
		{id: "search_price", srv: large, path: bench.PathProducts + "?q=" + big.TenthWord + "&min_price=6000&max_price=7000&sort=price_asc"},
		{id: "search_typo", srv: large, path: bench.PathProducts + "?q=" + bench.Typo(big.CommonWord)},
	}
	byID := map[string]*job{}
	for _, j := range jobs {
		byID[j.id] = j
	}
	p20 := 20 * time.Millisecond
	rows := []row{
		{endpoint: "GET products page 1 (1M)", ours: "page1_1m", base: "page1_1k", target: 0.67, note: "base: page 1 of the 1k store (target: at most 1.5x its time)"},
		{endpoint: "GET products deep page (10k from the end of 1M)", ours: "deep_1m", base: "page1_1k", target: 0.67, note: "base: page 1 of the 1k store (target: at most 1.5x its time)"},
		{endpoint: fmt.Sprintf("GET products?q=%s (rare word, 1 product)", big.RareWord), ours: "search_rare", base: "page1_1k", target: 0.5, p99: p20, note: "base: page 1 of the 1k store (target: within 2x)"},
		{endpoint: fmt.Sprintf("GET products?q=%s (common, every product)", big.CommonWord), ours: "search_common", base: "page1_1k", target: 0.5, p99: p20, note: "base: page 1 of the 1k store (target: within 2x)"},
		{endpoint: fmt.Sprintf("GET products?q=%s (one product in ten)", big.TenthWord), ours: "search_tenth", base: "page1_1k", target: 0.5, p99: p20, note: "base: page 1 of the 1k store (target: within 2x)"},
		{endpoint: fmt.Sprintf("GET products?q=%s&sort=relevance (prefix)", big.Prefix), ours: "search_prefix", base: "page1_1k", target: 0.5, p99: p20, note: "base: page 1 of the 1k store (target: within 2x)"},
		{endpoint: fmt.Sprintf("GET products?q=%s, price 60-70, price_asc", big.TenthWord), ours: "search_price", base: "page1_1k", note: "base: page 1 of the 1k store (informational)"},
		{endpoint: fmt.Sprintf("GET products?q=%s (a typo of %s: every product)", bench.Typo(big.CommonWord), big.CommonWord), ours: "search_typo", base: "page1_1k", target: 0.5, p99: p20, note: "base: page 1 of the 1k store (target: within 2x)"},
	}
	if o.only != "" {
		keep := map[string]bool{}
		for _, id := range splitComma(o.only) {
			keep[id] = true
		}
		jobs = slices.DeleteFunc(jobs, func(j *job) bool { return !keep[j.id] })
		rows = slices.DeleteFunc(rows, func(r row) bool { return !keep[r.ours] || !keep[r.base] })
	}

	// memory sampled every 50 ms while the catalog load runs
	var mu sync.Mutex
	peak := memSample{}
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stopSampling:
				return
			case <-tick.C:
				s := sampleMemory(sf)
				mu.Lock()
				peak = peak.max(s)
				mu.Unlock()
			}
		}
	}()
	for _, j := range jobs {
		if _, err := runWrk(ctx, o, j, time.Second); err != nil {
			close(stopSampling)
			return 0, err
		}
	}
	fmt.Printf("measuring %d reads x %d rounds x %v (wrk -t%d -c%d, interleaved)\n", len(jobs), o.rounds, o.duration, o.threads, o.conns)
	for r := 0; r < o.rounds; r++ {
		for _, j := range jobs {
			cpu0 := j.srv.proc.cpuTime()
			res, err := runWrk(ctx, o, j, o.duration)
			if err != nil {
				close(stopSampling)
				return 0, err
			}
			res.cpuPerReq = (j.srv.proc.cpuTime() - cpu0) / time.Duration(max(1, res.requests))
			fmt.Printf("  round %d %-14s %9.0f req/s  p50 %-9s p99 %-9s cpu/req %v\n", r+1, j.id, res.rps, fmtDur(res.p50), fmtDur(res.p99), res.cpuPerReq.Round(time.Microsecond))
			j.runs = append(j.runs, res)
		}
	}
	close(stopSampling)
	<-sampled
	after := sampleMemory(sf)
	// latency without queueing: one connection, one request at a time
	one := o
	one.conns = 1
	lat1 := map[string]*wrkResult{}
	for _, j := range jobs {
		res, err := runWrk(ctx, one, j, o.duration)
		if err != nil {
			return 0, err
		}
		lat1[j.id] = res
		fmt.Printf("  1 connection %-14s %9.0f req/s  p50 %-9s p99 %-9s\n", j.id, res.rps, fmtDur(res.p50), fmtDur(res.p99))
	}

	fmt.Println()
	fmt.Printf("Storefront at %d products (%s, %s, %d CPUs, server pinned to CPU 0, wrk -t%d -c%d -d%v on CPU 1, medians of %d rounds, load %s)\n",
		n, time.Now().UTC().Format("2006-01-02"), machine(), numCPU(), o.threads, o.conns, o.duration, o.rounds, loadavg())
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "read\treq/s\tbase req/s\tratio\ttarget\tp50\tp99\tbase p50\tbase p99\tp99 1 conn\tbase p99 1 conn\tcpu/req\tok\t")
	for _, r := range rows {
		a, b := byID[r.ours].median(), byID[r.base].median()
		ratio := ratio(byID[r.ours], byID[r.base])
		target, ok := "-", "-"
		if r.target > 0 {
			target = fmt.Sprintf(">= %.2f", r.target)
			ok = "ok"
			if ratio < r.target {
				ok = "MISSED"
			}
		}
		if r.p99 > 0 {
			target += fmt.Sprintf(", p99 <= %v", r.p99)
			if a.p99 > r.p99 {
				ok = "MISSED"
			}
		}
		if ok == "MISSED" {
			missed++
		}
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%v\t%s\t\n", r.endpoint, a.rps, b.rps, ratio, target,
			fmtDur(a.p50), fmtDur(a.p99), fmtDur(b.p50), fmtDur(b.p99), fmtDur(lat1[r.ours].p99), fmtDur(lat1[r.base].p99), a.cpuPerReq.Round(time.Microsecond), ok)
	}
	tw.Flush()
	verdict := func(ok bool) string {
		if ok {
			return "ok"
		}
		missed++
		return "MISSED"
	}
	fmt.Println("(p99 and the targets: 64 connections; p99 1 conn: one request at a time, no queueing)")
	fmt.Printf("start-up at %d products: median %v of 5 (target <= 300ms): %s; empty database %v\n", n, startup.Round(time.Millisecond), verdict(startup <= 300*time.Millisecond), emptyStartup.Round(time.Millisecond))
	fmt.Printf("memory idle after start: RssAnon %.1f MB, RssFile %.1f MB, Go heap in use %.1f MB\n", mb(idle.anonKB*1024), mb(idle.fileKB*1024), mb(idle.heapInuse))
	fmt.Printf("memory under the catalog load (peaks of 50 ms samples): RssAnon %.1f MB, RssFile (binary + mapped database) %.1f MB, Go heap in use %.1f MB (target <= 150 MB): %s\n",
		mb(peak.anonKB*1024), mb(peak.fileKB*1024), mb(peak.heapInuse), verdict(peak.heapInuse <= 150e6 && peak.anonKB*1024 <= 150e6))
	fmt.Printf("memory after the load: RssAnon %.1f MB, RssFile %.1f MB, Go heap in use %.1f MB\n", mb(after.anonKB*1024), mb(after.fileKB*1024), mb(after.heapInuse))
	fmt.Printf("database: %.0f MB for %d products, %.0f B per product (seeded in %v)\n", mb(float64(big.Size)), total, perProduct, big.Seed.Round(time.Second))
	if missed > 0 {
		fmt.Printf("%d target(s) missed\n", missed)
	} else {
		fmt.Println("all targets met")
	}
	return missed, nil
}

func mb[T int64 | float64](v T) float64 { return float64(v) / 1e6 }

// memSample is the memory of the process at one moment.
type memSample struct {
	anonKB, fileKB int64
	heapInuse      float64 // go_memstats_heap_inuse_bytes
}

func (a memSample) max(b memSample) memSample {
	return memSample{anonKB: max(a.anonKB, b.anonKB), fileKB: max(a.fileKB, b.fileKB), heapInuse: max(a.heapInuse, b.heapInuse)}
}

func sampleMemory(p *proc) memSample {
	_, anon, file := p.rss()
	m := metrics(p.url, "go_memstats_heap_inuse_bytes")
	return memSample{anonKB: anon, fileKB: file, heapInuse: m["go_memstats_heap_inuse_bytes"]}
}

func splitComma(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
