package httpkit

import (
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// Proxies are the trusted proxies (http.trusted_proxies) whose
// X-Forwarded-For is believed. The zero value trusts no one.
type Proxies struct{ trusted []netip.Prefix }

// NewProxies parses a list of IP addresses and CIDR ranges (the config's
// http.trusted_proxies, already validated); entries that parse as neither are
// skipped.
func NewProxies(list []string) Proxies {
	var out []netip.Prefix
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		}
	}
	return Proxies{trusted: out}
}

// ClientIP is the address of the client of c: the peer, or behind a trusted
// proxy the right-most address of X-Forwarded-For that is not a proxy
// (Resolve). Rate limits, login lockouts and logs key on it. The string is
// the caller's to keep.
func (p Proxies) ClientIP(c *fiber.Ctx) string {
	return p.ClientIPFrom(c, c.Context().RemoteIP().String())
}

// ClientIPFrom is ClientIP with the peer's address already formatted
// (remote), for callers that keep it per connection.
func (p Proxies) ClientIPFrom(c *fiber.Ctx, remote string) string {
	if len(p.trusted) == 0 {
		return remote
	}
	return p.Resolve(remote, c.Get(fiber.HeaderXForwardedFor))
}

// Resolve returns the address of the client behind a request: the peer's
// address, or, when the peer is a trusted proxy, the right-most address of
// X-Forwarded-For that is not itself a trusted proxy. The left part of the
// header is whatever the client wrote, so it is never believed.
func (p Proxies) Resolve(remote, forwardedFor string) string {
	peer, err := netip.ParseAddr(remote)
	if err != nil || !p.trusts(peer) || forwardedFor == "" {
		return remote
	}
	hops := strings.Split(forwardedFor, ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return remote // a hop we cannot read: trust nothing left of it
		}
		if !p.trusts(a) {
			return a.Unmap().String()
		}
	}
	return remote
}

func (p Proxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, t := range p.trusted {
		if t.Contains(a) {
			return true
		}
	}
	return false
}
