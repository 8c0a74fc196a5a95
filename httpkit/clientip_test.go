package httpkit_test

import (
	"testing"

	"storefront/httpkit"
)

func TestClientIP(t *testing.T) {
	trusted := httpkit.NewProxies([]string{"127.0.0.1", "10.0.0.0/8", "bogus"})
	for _, tc := range []struct {
		name, remote, xff, want string
	}{
		{"NoProxy", "203.0.113.9", "", "203.0.113.9"},
		{"UntrustedPeerIgnoresHeader", "203.0.113.9", "198.51.100.1", "203.0.113.9"},
		{"TrustedPeer", "127.0.0.1", "198.51.100.1", "198.51.100.1"},
		{"ClientWrittenLeftPartIgnored", "127.0.0.1", "1.2.3.4, 198.51.100.1", "198.51.100.1"},
		{"ProxyChain", "127.0.0.1", "198.51.100.1, 10.1.2.3", "198.51.100.1"},
		{"Garbage", "127.0.0.1", "1.2.3.4, nonsense", "127.0.0.1"},
		{"OnlyProxies", "127.0.0.1", "10.0.0.1", "127.0.0.1"},
	} {
		if got := trusted.Resolve(tc.remote, tc.xff); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
