package testenv

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// StartStripeMock starts the stripe-mock at bin and returns its HTTP base URL
// and a stop function. Both of its listeners, HTTP and HTTPS, get a free
// loopback port of its own choosing: given only -http-addr it also binds
// HTTPS on *:12112 and exits when that port is busy, right after saying where
// its HTTP listens (and a port picked by the caller and handed over could be
// taken meanwhile by another test process). It waits up to 30 s for the mock
// to say where both listen.
func StartStripeMock(bin string) (url string, stop func(), err error) {
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("starting stripe-mock: %w", err)
	}
	stop = func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	found := make(chan string, 1)
	go func() { found <- stripeMockAddr(out) }()
	select {
	case addr := <-found:
		if addr == "" {
			stop()
			return "", nil, fmt.Errorf("stripe-mock exited before listening on HTTP and HTTPS")
		}
		return "http://" + addr, stop, nil
	case <-time.After(30 * time.Second):
		stop()
		return "", nil, fmt.Errorf("stripe-mock did not say where it listens within 30s")
	}
}

// stripeMockAddr reads stripe-mock's output until it has said where it
// listens for HTTP and then for HTTPS, returns the HTTP address ("" when the
// output ends first) and drains the rest (its request log) in the background.
func stripeMockAddr(out io.Reader) string {
	const httpLine, httpsLine = "Listening for HTTP at address: ", "Listening for HTTPS at address: "
	sc := bufio.NewScanner(out)
	addr := ""
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, httpLine) {
			addr = strings.TrimSpace(strings.TrimPrefix(line, httpLine))
		}
		if strings.HasPrefix(line, httpsLine) && addr != "" {
			go func() { _, _ = io.Copy(io.Discard, out) }()
			return addr
		}
	}
	return ""
}
