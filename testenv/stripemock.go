package testenv

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// StartStripeMock starts the stripe-mock at bin on a free loopback port of
// its own choosing (a port picked by the caller and handed over could be
// taken meanwhile by another test process) and returns its base URL and a
// stop function. It waits up to 30 s for the mock to say where it listens.
func StartStripeMock(bin string) (url string, stop func(), err error) {
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("starting stripe-mock: %w", err)
	}
	stop = func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	const prefix = "Listening for HTTP at address: "
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, prefix) {
				found <- strings.TrimSpace(strings.TrimPrefix(line, prefix))
				break
			}
		}
		_, _ = io.Copy(io.Discard, out) // its request log
	}()
	select {
	case addr := <-found:
		return "http://" + addr, stop, nil
	case <-time.After(30 * time.Second):
		stop()
		return "", nil, fmt.Errorf("stripe-mock did not say where it listens within 30s")
	}
}
