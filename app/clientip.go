package app

import (
	"net/netip"
	"strings"
)

// ParseTrusted parses a list of IP addresses and CIDR ranges (the config's
// http.trusted_proxies, already validated); entries that parse as neither are
// skipped.
func ParseTrusted(list []string) []netip.Prefix {
	var out []netip.Prefix
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		}
	}
	return out
}

// ClientIP returns the address of the client behind a request: the peer's
// address, or, when the peer is a trusted proxy, the right-most address of
// X-Forwarded-For that is not itself a trusted proxy. The left part of the
// header is whatever the client wrote, so it is never believed; rate limits
// and logs key on this address.
func ClientIP(remote, forwardedFor string, trusted []netip.Prefix) string {
	peer, err := netip.ParseAddr(remote)
	if err != nil || !isTrusted(peer, trusted) || forwardedFor == "" {
		return remote
	}
	hops := strings.Split(forwardedFor, ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return remote // a hop we cannot read: trust nothing left of it
		}
		if !isTrusted(a, trusted) {
			return a.Unmap().String()
		}
	}
	return remote
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	a = a.Unmap()
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
