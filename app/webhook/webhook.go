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
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"storefront/app"
)

// Sender is the net/http app.WebhookSender.
type Sender struct {
	client       *http.Client
	allowPrivate bool
}

// ErrPrivateTarget is returned for a refused address.
var ErrPrivateTarget = errors.New("webhook: the target resolves to a loopback, private or other special-purpose address (webhooks.allow_private_targets is off)")

// New returns a Sender; timeout bounds each request (0: 10s).
func New(timeout time.Duration, allowPrivate bool) *Sender {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	s := &Sender{allowPrivate: allowPrivate}
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

// CheckURL refuses, at save time, a URL whose host is a literal private
// address or localhost (names are checked again at every dial).
func (s *Sender) CheckURL(raw string) error {
	if s.allowPrivate {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return app.Invalid("url", "is not a URL")
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return app.Invalid("url", "must not point to this machine (localhost)")
	}
	if ip, err := netip.ParseAddr(host); err == nil && app.PrivateAddr(ip) {
		return app.Invalid("url", "must not be a loopback, private or other special-purpose address (IANA registry)")
	}
	return nil
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
