package webhook

import (
	"context"
	"errors"
	"net/netip"
	"testing"
)

// TestCheckURLResolves: at save time a host name is resolved and refused
// when an address of it is special-purpose, as delivery refuses it; a name
// that does not resolve (yet) is taken, a public one is, and with private
// targets allowed nothing is looked up.
func TestCheckURLResolves(t *testing.T) {
	names := map[string][]string{
		"loop.example": {"127.0.0.1"}, "mixed.example": {"93.184.215.14", "10.0.0.7"},
		"v6.example": {"::1"}, "public.example": {"93.184.215.14", "2606:4700:4700::1111"},
	}
	s := New(0, false)
	s.lookup = func(_ context.Context, host string) ([]netip.Addr, error) {
		list, ok := names[host]
		if !ok {
			return nil, errors.New("no such host")
		}
		var out []netip.Addr
		for _, a := range list {
			out = append(out, netip.MustParseAddr(a))
		}
		return out, nil
	}
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://loop.example/hook", false}, {"https://mixed.example/hook", false}, {"https://v6.example/", false},
		{"https://public.example/hook", true}, {"https://unknown.example/hook", true},
		{"http://2130706433/", false}, {"http://134744072/", true}, {"http://0x08080808/", true}, {"http://8.8.8.8/", true},
	} {
		if err := s.CheckURL(tc.url); (err == nil) != tc.ok {
			t.Errorf("%s: got %v, want ok=%v", tc.url, err, tc.ok)
		}
	}
	lax := New(0, true)
	lax.lookup = func(context.Context, string) ([]netip.Addr, error) { t.Fatal("looked up"); return nil, nil }
	if err := lax.CheckURL("https://loop.example/"); err != nil {
		t.Fatal(err)
	}
}
