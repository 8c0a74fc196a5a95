package app

import "net/netip"

// AddrKey is what a limit counts for a client address: an IPv4 address as
// it is, an IPv6 address as its /64. One subscriber gets a /64 (or more)
// and its hosts pick any address in it at will (RFC 4941 temporary
// addresses), so a limit per IPv6 address would not limit anyone. An
// IPv4-mapped address counts as its IPv4 address; a string that is not an
// address (a test's peer, "") is returned as it is. Every limit that counts
// per address keys on AddrKey; logs and the audit keep the full address.
func AddrKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	p, err := a.Prefix(64)
	if err != nil {
		return ip
	}
	return p.String()
}
