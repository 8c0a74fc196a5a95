// Package webhook posts signed webhook requests (app.WebhookSender) over
// net/http: every request has a deadline, redirects are not followed, and
// unless AllowPrivate is set the resolved address is checked at dial time,
// so a hostname that resolves to a loopback, private or link-local address
// is refused even if it changes between checks (DNS rebinding). It imports
// app and nothing of web, admin or storage.
package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"storefront/app"
)

// Sender is the net/http app.WebhookSender.
type Sender struct {
	client       *http.Client
	fetcher      *http.Client // Get: the same transport, redirects followed
	allowPrivate bool
	// lookup resolves a host name at save time (net.DefaultResolver).
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

// lookupTimeout bounds the resolution of a webhook's host at save time.
const lookupTimeout = 3 * time.Second

// ErrPrivateTarget is returned for a refused address.
var ErrPrivateTarget = errors.New("webhook: the target resolves to a loopback, private or other special-purpose address (webhooks.allow_private_targets is off)")

// New returns a Sender; timeout bounds each request (0: 10s).
func New(timeout time.Duration, allowPrivate bool) *Sender {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	s := &Sender{allowPrivate: allowPrivate, lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}}
	dialer := &net.Dialer{Timeout: timeout, Control: s.control}
	tr := &http.Transport{
		Proxy:                 nil, // a proxy would hide the real target from the check
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		MaxIdleConns:          20,
		IdleConnTimeout:       30 * time.Second,
	}
	s.client = &http.Client{Transport: tr, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	s.fetcher = &http.Client{Transport: tr, Timeout: timeout, CheckRedirect: checkRedirect}
	return s
}

// control runs after name resolution, with the address actually dialled.
func (s *Sender) control(network, address string, _ syscall.RawConn) error {
	if s.allowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("webhook: unexpected address %q", address)
	}
	if app.PrivateAddr(ap.Addr()) {
		return ErrPrivateTarget
	}
	return nil
}

// CheckURL refuses, at save time, a URL whose host is a special-purpose
// address as delivery would: localhost, a literal address in any of the
// forms a resolver takes (127.0.0.1, 127.1, 2130706433, 0x7f000001, ::1),
// or a name that resolves to one now. A name that does not resolve yet is
// taken; every dial checks the address again.
func (s *Sender) CheckURL(raw string) error {
	if s.allowPrivate {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return app.Invalid("url", "is not a URL")
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return app.Invalid("url", "must not point to this machine (localhost)")
	}
	special := app.Invalid("url", "must not be a loopback, private or other special-purpose address (IANA registry)")
	if ip, ok := literalAddr(host); ok {
		if app.PrivateAddr(ip) {
			return special
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	addrs, err := s.lookup(ctx, host)
	if err != nil {
		return nil // not resolvable now: the dial checks it
	}
	for _, a := range addrs {
		if app.PrivateAddr(a) {
			return app.Invalid("url", "its host "+host+" resolves to "+a.String()+", a loopback, private or other special-purpose address (IANA registry)")
		}
	}
	return nil
}

// literalAddr parses host as an address literal: IPv6, or IPv4 in the
// inet_aton forms resolvers accept (one to four parts, each decimal, octal
// with a leading 0 or hex with 0x: 127.1, 2130706433, 0x7f.0.0.1).
func literalAddr(host string) (netip.Addr, bool) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip, true
	}
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 0, 32)
		if err != nil || p == "" {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	last := len(nums) - 1
	v := nums[last]
	if v >= 1<<(8*(4-last)) {
		return netip.Addr{}, false
	}
	for i, n := range nums[:last] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// Post sends r and returns the status and the first 1 KiB of the body.
func (s *Sender) Post(ctx context.Context, r app.WebhookRequest) (app.WebhookResult, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, strings.NewReader(string(r.Body)))
	if err != nil {
		return app.WebhookResult{}, err
	}
	for k, v := range r.Headers {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		if errors.Is(err, ErrPrivateTarget) {
			return app.WebhookResult{}, ErrPrivateTarget
		}
		return app.WebhookResult{}, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // let the connection be reused
	body := string(b)
	for !utf8.ValidString(body) && len(body) > 0 {
		body = body[:len(body)-1]
	}
	return app.WebhookResult{StatusCode: resp.StatusCode, Body: body}, nil
}
