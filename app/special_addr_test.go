package app_test

import (
	"net/netip"
	"testing"

	"storefront/app"
)

// TestPrivateAddrSpecialPurpose: every block of the IANA special-purpose
// registries is refused as a webhook target (issue 27 point 9), the
// IPv4-mapped forms too; public addresses are not.
func TestPrivateAddrSpecialPurpose(t *testing.T) {
	for _, s := range []string{
		"0.1.2.3", "10.0.0.1", "100.64.0.1", "127.0.0.1", "169.254.169.254", "172.16.0.1", "192.0.0.8",
		"192.0.0.170", "192.0.2.1", "192.31.196.1", "192.52.193.1", "192.88.99.1", "192.168.1.1", "192.175.48.1",
		"198.18.0.1", "198.19.255.254", "198.51.100.1", "203.0.113.1", "224.0.0.1", "240.0.0.1", "250.1.2.3",
		"255.255.255.255", "::", "::1", "::ffff:198.18.0.1", "::ffff:255.255.255.255", "64:ff9b::a00:1", "64:ff9b:1::1",
		"100::1", "100:0:0:1::1", "2001::1", "2001:2::1", "2001:10::1", "2001:db8::1", "2002:c000:201::1",
		"2620:4f:8000::1", "3fff::1", "5f00::1", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1",
	} {
		if !app.PrivateAddr(netip.MustParseAddr(s)) {
			t.Errorf("%s: got allowed, want refused", s)
		}
	}
	for _, s := range []string{"8.8.8.8", "1.1.1.1", "93.184.215.14", "198.20.0.1", "2606:4700:4700::1111", "2a00:1450:4001::1"} {
		if app.PrivateAddr(netip.MustParseAddr(s)) {
			t.Errorf("%s: got refused, want allowed", s)
		}
	}
}
