package app_test

import (
	"testing"

	"storefront/app"
)

func TestAddrKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"198.51.100.7", "198.51.100.7"},
		{"::ffff:198.51.100.7", "198.51.100.7"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"::1", "::/64"},
		{"0.0.0.0", "0.0.0.0"},
		{"", ""},
		{"not an address", "not an address"},
	} {
		if got := app.AddrKey(tc.in); got != tc.want {
			t.Errorf("AddrKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
