package web

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"storefront/app"
)

// countingPipe is a counting connection over one end of a pipe (which
// honours deadlines) and the other end, for the test to play the peer.
func countingPipe(t *testing.T) (*countingConn, net.Conn) {
	t.Helper()
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	return &countingConn{Conn: a}, b
}

// timedOut reports whether err is a deadline passing.
func timedOut(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }

// TestDeadlineLaterIsKept: a later read deadline is not handed on, and the
// earlier one it keeps does not cut the read short: when it passes the
// connection arms the later one and reads on.
func TestDeadlineLaterIsKept(t *testing.T) {
	t.Parallel()
	c, peer := countingPipe(t)
	if err := c.SetReadDeadline(time.Now().Add(-time.Second)); err != nil { // armed, passed
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := c.SetReadDeadline(later); err != nil {
		t.Fatal(err)
	}
	if !c.rd.armed.Before(later) {
		t.Fatalf("armed %v, want the earlier deadline kept", c.rd.armed)
	}
	go func() { _, _ = peer.Write([]byte("GET")) }()
	b := make([]byte, 8)
	n, err := c.Read(b)
	if err != nil || string(b[:n]) != "GET" {
		t.Fatalf("Read = %q, %v; want GET (the deadline asked for is a minute away)", b[:n], err)
	}
	if !c.rd.armed.Equal(later) {
		t.Fatalf("armed %v after the early timeout, want %v", c.rd.armed, later)
	}
	if c.read.Load() != 3 {
		t.Fatalf("counted %d bytes, want 3", c.read.Load())
	}
}

// TestDeadlineKeptStillFires: a slow peer is still cut off at the deadline
// asked for, not at the earlier armed one and not later.
func TestDeadlineKeptStillFires(t *testing.T) {
	t.Parallel()
	c, _ := countingPipe(t)
	start := time.Now()
	_ = c.SetReadDeadline(start.Add(20 * time.Millisecond))
	want := start.Add(150 * time.Millisecond)
	_ = c.SetReadDeadline(want) // kept: the 20 ms one is armed
	_, err := c.Read(make([]byte, 8))
	if !timedOut(err) {
		t.Fatalf("Read: %v, want a timeout", err)
	}
	if now := time.Now(); now.Before(want) {
		t.Fatalf("timed out after %v, want not before %v", now.Sub(start), want.Sub(start))
	} else if now.Sub(want) > 5*time.Second {
		t.Fatalf("timed out after %v, want about %v", now.Sub(start), want.Sub(start))
	}
}

// TestDeadlineEarlierIsArmed: an earlier deadline is handed on at once (the
// later armed one would let a slow peer hold the connection).
func TestDeadlineEarlierIsArmed(t *testing.T) {
	t.Parallel()
	c, _ := countingPipe(t)
	start := time.Now()
	_ = c.SetReadDeadline(start.Add(20 * time.Second))
	_ = c.SetReadDeadline(start.Add(30 * time.Millisecond))
	_, err := c.Read(make([]byte, 8))
	if !timedOut(err) {
		t.Fatalf("Read: %v, want a timeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("timed out after %v, want about 30ms (the 20s deadline stayed armed)", d)
	}
	// a deadline already passed fails at once
	_ = c.SetReadDeadline(time.Now().Add(time.Minute))
	_ = c.SetReadDeadline(time.Now().Add(-time.Millisecond))
	if _, err := c.Read(make([]byte, 8)); !timedOut(err) {
		t.Fatalf("Read past the deadline: %v, want a timeout", err)
	}
}

// TestDeadlineZeroClears: no deadline is always handed on, by SetReadDeadline
// and by SetDeadline (fasthttp clears both when a handler hijacks).
func TestDeadlineZeroClears(t *testing.T) {
	t.Parallel()
	c, peer := countingPipe(t)
	_ = c.SetReadDeadline(time.Now().Add(-time.Second))
	_ = c.SetReadDeadline(time.Time{})
	go func() { _, _ = peer.Write([]byte("x")) }()
	if _, err := c.Read(make([]byte, 1)); err != nil {
		t.Fatalf("Read without a deadline: %v", err)
	}
	_ = c.SetWriteDeadline(time.Now().Add(-time.Second))
	_ = c.SetReadDeadline(time.Now().Add(-time.Second))
	_ = c.SetDeadline(time.Time{})
	go func() { _, _ = peer.Write([]byte("y")) }()
	if _, err := c.Read(make([]byte, 1)); err != nil {
		t.Fatalf("Read after SetDeadline(zero): %v", err)
	}
	go func() { _, _ = io.ReadFull(peer, make([]byte, 1)) }()
	if _, err := c.Write([]byte("z")); err != nil {
		t.Fatalf("Write after SetDeadline(zero): %v", err)
	}
}

// TestWriteDeadline: the write deadline behaves alike: a later one kept
// over a passed armed one lets a write through whole; one asked for cuts
// off a peer that does not read.
func TestWriteDeadline(t *testing.T) {
	t.Parallel()
	c, peer := countingPipe(t)
	_ = c.SetWriteDeadline(time.Now().Add(-time.Second))
	_ = c.SetWriteDeadline(time.Now().Add(time.Minute))
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 5)
		_, _ = io.ReadFull(peer, b)
		got <- string(b)
	}()
	if n, err := c.Write([]byte("hello")); n != 5 || err != nil {
		t.Fatalf("Write = %d, %v; want 5, nil", n, err)
	}
	if s := <-got; s != "hello" {
		t.Fatalf("peer read %q", s)
	}
	start := time.Now()
	want := start.Add(100 * time.Millisecond)
	_ = c.SetWriteDeadline(start.Add(10 * time.Millisecond))
	_ = c.SetWriteDeadline(want) // kept
	if _, err := c.Write([]byte("nobody reads")); !timedOut(err) {
		t.Fatalf("Write to a peer that does not read: %v, want a timeout", err)
	}
	if time.Now().Before(want) {
		t.Fatalf("timed out after %v, want not before %v", time.Since(start), want.Sub(start))
	}
}

// TestAnsweredArmsNextDeadlines: after a request is answered its
// connection writes within the write timeout and waits for the next request
// within the idle timeout, both counted from the answer, with no clock read
// of fasthttp's (Server.tuneServer).
func TestAnsweredArmsNextDeadlines(t *testing.T) {
	t.Parallel()
	c, _ := countingPipe(t) // the peer neither reads nor writes
	end := time.Now()
	c.answered(end, timeouts{write: 30 * time.Millisecond, idle: 60 * time.Millisecond})
	if _, err := c.Write([]byte("nobody reads")); !timedOut(err) {
		t.Fatalf("Write: %v, want a timeout", err)
	}
	if d := time.Since(end); d < 30*time.Millisecond {
		t.Fatalf("Write timed out after %v, want 30ms", d)
	}
	if _, err := c.Read(make([]byte, 1)); !timedOut(err) {
		t.Fatalf("Read: %v, want a timeout", err)
	}
	if d := time.Since(end); d < 60*time.Millisecond {
		t.Fatalf("Read timed out after %v, want 60ms", d)
	}
}

// TestBodyHasReadTimeout: a request with a body has the read timeout from
// its headers (the idle timeout that covers the headers may be almost
// over); one without a body keeps the deadline it has.
func TestBodyHasReadTimeout(t *testing.T) {
	t.Parallel()
	s := New(Config{ReadTimeout: 7 * time.Second}, &app.Services{})
	received := s.App.Server().HeaderReceived
	for raw, want := range map[string]time.Duration{
		"GET /x HTTP/1.1\r\nHost: x\r\n\r\n":                                     0,
		"POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n":               0,
		"POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n":               7 * time.Second,
		"POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n":      7 * time.Second,
		"POST /x/images/ HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n": 7 * time.Second,
	} {
		var h fasthttp.RequestHeader
		if err := h.Read(bufio.NewReader(strings.NewReader(raw))); err != nil {
			t.Fatal(err)
		}
		if got := received(&h).ReadTimeout; got != want {
			t.Errorf("%q: ReadTimeout %v, want %v", raw, got, want)
		}
	}
}
