package testenv

import (
	"context"
	"net"
	"net/http"
	"time"
)

// ClientFrom is an HTTP client whose connections come from the loopback
// address ip (such as 127.0.0.2): the server sees a real source address, as
// from another machine, with no proxy header. It follows no redirect.
func ClientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{
		Timeout: 10 * time.Second,
		Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
