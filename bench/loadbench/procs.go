package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// proc is a server process of the run: the binary as shipped, or this
// program serving the bare baselines (-bare-serve).
type proc struct {
	name string
	cmd  *exec.Cmd
	url  string
	log  *os.File

	stopped bool
}

// pinned prefixes argv with taskset so that the servers share one core and
// wrk has the other (no pinning on a one-core machine or without taskset).
func pinned(core int, argv ...string) []string {
	if numCPU() < 2 {
		return argv
	}
	if _, err := exec.LookPath("taskset"); err != nil {
		return argv
	}
	return append([]string{"taskset", "-c", fmt.Sprint(core)}, argv...)
}

// freeAddr returns a loopback address with a free port.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// startBinary starts `bin serve` over dataDir the way a user does (the
// default configuration, the request log on, written to a file), with the
// per-key rate limit and the unpaid-orders limit off (one load generator from
// one IP would measure 429s).
// pin false leaves it unpinned (the PostgreSQL runs: two processes).
func startBinary(ctx context.Context, bin, dataDir string, pin bool, extraEnv ...string) (*proc, error) {
	return startBinaryPoll(ctx, bin, dataDir, pin, 20*time.Millisecond, extraEnv...)
}

// startBinaryPoll is startBinary polling /readyz every poll (start-up timing).
func startBinaryPoll(ctx context.Context, bin, dataDir string, pin bool, poll time.Duration, extraEnv ...string) (*proc, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	logf, err := os.Create(filepath.Join(dataDir, "server.log"))
	if err != nil {
		return nil, err
	}
	argv := []string{bin, "serve"}
	if pin {
		argv = pinned(0, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(),
		"STOREFRONT_DATA_DIR="+dataDir,
		"STOREFRONT_HTTP__ADDR="+addr,
		"STOREFRONT_RATELIMIT__API_PER_SECOND=0",
		"STOREFRONT_RATELIMIT__UNPAID_ORDERS_PER_HOUR=0",
	)
	cmd.Env = append(cmd.Env, extraEnv...)
	cmd.Stdout, cmd.Stderr = logf, logf
	p := &proc{name: "storefront", cmd: cmd, url: "http://" + addr, log: logf}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	if err := waitReady(p.url+"/readyz", 60*time.Second, poll); err != nil {
		p.stop()
		b, _ := os.ReadFile(logf.Name())
		return nil, fmt.Errorf("%s did not become ready: %v\n%s", bin, err, b)
	}
	return p, nil
}

// startBare runs this program with -bare-serve dir and reads the address it prints.
func startBare(ctx context.Context, dir string) (*proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	argv := pinned(0, self, "-bare-serve", dir)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{name: "bare", cmd: cmd}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		p.stop()
		return nil, fmt.Errorf("bare server: %v", err)
	}
	go io.Copy(io.Discard, out)
	p.url = strings.TrimSpace(line)
	if err := waitReady(p.url+"/readyz", 30*time.Second, 20*time.Millisecond); err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

// stop sends SIGTERM and waits (SIGKILL after 10s).
func (p *proc) stop() {
	if p == nil || p.cmd.Process == nil || p.stopped {
		return
	}
	p.stopped = true
	_ = p.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
	if p.log != nil {
		p.log.Close()
	}
}

// rssKB returns VmRSS, RssAnon and RssFile of the process in KB.
func (p *proc) rss() (rss, anon, file int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return
	}
	for _, l := range strings.Split(string(b), "\n") {
		var v int64
		switch {
		case strings.HasPrefix(l, "VmRSS:"):
			fmt.Sscanf(strings.TrimPrefix(l, "VmRSS:"), "%d", &v)
			rss = v
		case strings.HasPrefix(l, "RssAnon:"):
			fmt.Sscanf(strings.TrimPrefix(l, "RssAnon:"), "%d", &v)
			anon = v
		case strings.HasPrefix(l, "RssFile:"):
			fmt.Sscanf(strings.TrimPrefix(l, "RssFile:"), "%d", &v)
			file = v
		}
	}
	return
}

// waitReady polls url every poll until it answers 200 or the deadline passes.
func waitReady(url string, d, poll time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
			err = errors.New(resp.Status)
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(poll) // polling a condition with a deadline
	}
}

// get fetches url with an optional service key.
func get(url, key string) ([]byte, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return nil, err
	}
	if key != "" {
		req.Header.Set("X-Service-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("GET %s: %s: %s", url, resp.Status, b)
	}
	return b, err
}

// cpuTime is the user+system CPU time the process has used.
func (p *proc) cpuTime() time.Duration { return statCPU(p.cmd.Process.Pid, false) }

// metrics scrapes the named counters of the binary's /metrics.
func metrics(url string, names ...string) map[string]float64 {
	out := map[string]float64{}
	b, err := get(url+"/metrics", "")
	if err != nil {
		return out
	}
	for _, l := range strings.Split(string(b), "\n") {
		for _, n := range names {
			if strings.HasPrefix(l, n+" ") {
				var v float64
				fmt.Sscan(strings.TrimPrefix(l, n+" "), &v)
				out[n] = v
			}
		}
	}
	return out
}

// dbServer is the PostgreSQL server of the run, found by its postmaster's
// process id (the parent of a backend), for its CPU time.
type dbServer struct{ postmaster int }

// findDBServer returns the server of the backend backendPID when it runs
// on this machine (nil otherwise: a remote server's CPU is not ours to read).
func findDBServer(backendPID int) *dbServer {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", backendPID))
	if err != nil || !strings.Contains(string(b), "(postgres)") {
		return nil
	}
	f := statFields(b)
	if len(f) < 2 {
		return nil
	}
	var ppid int
	if _, err := fmt.Sscan(f[1], &ppid); err != nil || ppid <= 1 {
		return nil
	}
	return &dbServer{postmaster: ppid}
}

// cpuTime is the CPU time of the whole server: the postmaster with the
// backends it reaped (cutime, cstime) and every backend still running.
func (s *dbServer) cpuTime() time.Duration {
	total := statCPU(s.postmaster, true)
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return total
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		if f := statFields(b); len(f) > 1 && f[1] == strconv.Itoa(s.postmaster) {
			total += statCPU(pid, false)
		}
	}
	return total
}

// statFields are the fields of /proc/PID/stat after the command name (the
// state first, the parent's id second).
func statFields(b []byte) []string {
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}

// statCPU is a process's user+system time, with that of its reaped
// children when children is set.
func statCPU(pid int, children bool) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := statFields(b)
	if len(f) < 15 {
		return 0
	}
	n := 2
	if children {
		n = 4
	}
	var ticks int64
	for _, v := range f[11 : 11+n] {
		var t int64
		fmt.Sscan(v, &t)
		ticks += t
	}
	return time.Duration(ticks) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}
