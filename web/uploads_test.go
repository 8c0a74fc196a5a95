package web_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"storefront/testenv"
	"storefront/web"
)

// upload is an image upload of n bytes sent as a client does with
// Expect: 100-continue: the headers, then the body once the server asked
// for it (by then it has decided the body's limit and taken a slot).
type upload struct {
	conn net.Conn
	br   *bufio.Reader
}

func startUpload(t *testing.T, base, path, tok string, n int) *upload {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: image/png\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", path, tok, n)
	u := &upload{conn: conn, br: bufio.NewReader(conn)}
	if line, _ := u.br.ReadString('\n'); !strings.HasPrefix(line, "HTTP/1.1 100") {
		t.Fatalf("%s: got %q, want 100 Continue", path, line)
	}
	_, _ = u.br.ReadString('\n') // the blank line after it
	return u
}

// answer reads the final answer (sending the body first when send is set).
func (u *upload) answer(t *testing.T, send int) *http.Response {
	t.Helper()
	if send > 0 {
		_, _ = u.conn.Write(make([]byte, send))
	}
	resp, err := http.ReadResponse(u.br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// TestUploadsAtOnce: a store's staff reads at most web.UploadsPerStore
// uploads larger than the body limit at once (fasthttp makes room for a
// body's whole declared length), the next is 429 with Retry-After before its
// body is read; another store's upload goes on meanwhile; an upload given
// up half-way frees its slot.
func TestUploadsAtOnce(t *testing.T) {
	t.Parallel()
	e := testenv.New(t).Serve()
	sidA, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	tokA, tokB := e.Staff(sidA, "a@example.com"), e.Staff(sidB, "b@example.com")
	pA, pB := e.Product(sidA, 0, "A", 100, 1), e.Product(sidB, 0, "B", 100, 1)
	pathA := fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/images/", sidA, pA.ID)
	pathB := fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/images/", sidB, pB.ID)
	const n = 2 << 20 // over web.BodyLimit

	var held []*upload
	for range web.UploadsPerStore {
		held = append(held, startUpload(t, e.Base, pathA, tokA, n))
	}
	resp := startUpload(t, e.Base, pathA, tokA, n).answer(t, 0)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("store A's upload past its slots: %d, Retry-After %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp := startUpload(t, e.Base, pathB, tokB, n).answer(t, n); resp.StatusCode == 429 {
		t.Fatal("store B's upload was refused while store A held its slots")
	}
	// the first of A's gives up half-way: once its error is answered, its
	// slot is free
	_, _ = held[0].conn.Write(make([]byte, n/2))
	_ = held[0].conn.(*net.TCPConn).CloseWrite()
	if resp := held[0].answer(t, 0); resp.StatusCode/100 != 4 {
		t.Fatalf("an upload given up half-way: %d, want a 4xx", resp.StatusCode)
	}
	if resp := startUpload(t, e.Base, pathA, tokA, n).answer(t, n); resp.StatusCode == 429 {
		t.Fatal("store A's upload is still refused after one of its uploads was given up")
	}
	if resp := held[1].answer(t, n); resp.StatusCode == 429 {
		t.Fatalf("a held upload was answered 429")
	}
}
