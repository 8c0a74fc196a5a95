package web

import (
	"net"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"storefront/httpkit"
)

// peer is a connection that only knows its peer's address.
type peer struct {
	net.Conn
	addr net.Addr
}

func (p peer) RemoteAddr() net.Addr { return p.addr }
func (p peer) LocalAddr() net.Addr  { return p.addr }

// TestClientIPPerConnection: the peer's address is formatted once per
// counting connection, and X-Forwarded-For is still read per request (a
// trusted proxy's connection carries many clients).
func TestClientIPPerConnection(t *testing.T) {
	t.Parallel()
	s := &Server{proxies: httpkit.NewProxies([]string{"10.0.0.1"})}
	a := fiber.New()
	proxy := &countingConn{Conn: peer{addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 5}}}
	direct := &countingConn{Conn: peer{addr: &net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 6}}}
	for i, tc := range []struct {
		conn      *countingConn
		xff, want string
	}{
		{proxy, "203.0.113.9", "203.0.113.9"},
		{proxy, "", "10.0.0.1"},
		{proxy, "198.51.100.2", "198.51.100.2"},
		{direct, "203.0.113.9", "192.0.2.7"},
		{direct, "", "192.0.2.7"},
	} {
		var fctx fasthttp.RequestCtx
		fctx.Init2(tc.conn, nil, false)
		fctx.Request.SetRequestURI("/")
		if tc.xff != "" {
			fctx.Request.Header.Set(fiber.HeaderXForwardedFor, tc.xff)
		}
		c := a.AcquireCtx(&fctx)
		if got := s.clientIP(c); got != tc.want {
			t.Errorf("request %d: got %s, want %s", i, got, tc.want)
		}
		if want := s.proxies.ClientIP(c); want != tc.want {
			t.Errorf("request %d: ClientIP says %s, want %s", i, want, tc.want)
		}
		a.ReleaseCtx(c)
	}
	if proxy.remote != "10.0.0.1" || direct.remote != "192.0.2.7" {
		t.Fatalf("got remotes %q %q, want each formatted once", proxy.remote, direct.remote)
	}
}
