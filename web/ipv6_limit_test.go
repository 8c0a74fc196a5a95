package web_test

import (
	"testing"

	"storefront/app"
	"storefront/testenv"
	"storefront/web"
)

// TestLimitsCountIPv6Per64: every limit that counts per client address
// counts an IPv6 client per /64 (a host picks any address of its /64 at
// will), an IPv4 client per address. The addresses come through a trusted
// proxy's X-Forwarded-For, as a reverse proxy in front of the shop sends
// them.
func TestLimitsCountIPv6Per64(t *testing.T) {
	t.Parallel()
	const (
		a1    = "2001:db8:1:2::1"
		a2    = "2001:db8:1:2:ffff:ffff:ffff:fffe" // the same /64
		a3    = "2001:db8:1:2:8000::3"             // the same /64
		other = "2001:db8:1:3::1"                  // the next /64
	)
	from := func(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }
	proxies := []string{"0.0.0.0", "127.0.0.1"}
	// expect sends one request from each address and wants the statuses.
	type call func(ip string) *testenv.Response
	expect := func(t *testing.T, do call, limited string) {
		t.Helper()
		do(a1).Expect(t, 200, "")
		do(a2).Expect(t, 200, "")
		do(a3).Expect(t, 429, "rate_limited") // a third address of the /64: over the limit of 2
		do(other).Expect(t, 200, "")
		if limited != "" {
			do(limited).Expect(t, 429, "rate_limited")
		}
	}
	t.Run("Contact", func(t *testing.T) {
		e := testenv.NewWith(t, testenv.Options{Web: web.Config{ContactPerMinute: 2, TrustedProxies: proxies}})
		_, key := e.Store("Shop A")
		body := map[string]any{"name": "Ada", "email": "ada@example.com", "message": "Hello there"}
		expect(t, func(ip string) *testenv.Response {
			return e.Do(testenv.Req{Method: "POST", Path: api + "/contact/", Key: key, Body: body, Header: from(ip)})
		}, "2001:db8:1:2:1:2:3:4")
	})
	t.Run("IPv4PerAddress", func(t *testing.T) {
		e := testenv.NewWith(t, testenv.Options{Web: web.Config{ContactPerMinute: 1, TrustedProxies: proxies}})
		_, key := e.Store("Shop A")
		body := map[string]any{"name": "Ada", "email": "ada@example.com", "message": "Hello there"}
		post := func(ip string) *testenv.Response {
			return e.Do(testenv.Req{Method: "POST", Path: api + "/contact/", Key: key, Body: body, Header: from(ip)})
		}
		post("198.51.100.7").Expect(t, 200, "")
		post("::ffff:198.51.100.7").Expect(t, 429, "rate_limited") // the same IPv4 client
		post("198.51.100.8").Expect(t, 200, "")
	})
	t.Run("Auth", func(t *testing.T) {
		e := testenv.NewWith(t, testenv.Options{Web: web.Config{AuthPerMinute: 2, TrustedProxies: proxies}})
		_, key := e.Store("Shop A")
		expect(t, func(ip string) *testenv.Response {
			return e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": "ada@example.com"}, Header: from(ip)})
		}, "")
	})
	t.Run("API", func(t *testing.T) {
		e := testenv.NewWith(t, testenv.Options{Web: web.Config{APIPerSecond: 2, TrustedProxies: proxies}})
		_, key := e.Store("Shop A")
		expect(t, func(ip string) *testenv.Response {
			return e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: key, Header: from(ip)})
		}, "")
	})
	t.Run("Orders", func(t *testing.T) {
		e := testenv.NewWith(t, testenv.Options{App: app.Options{UnpaidOrdersPerHour: 2}, Web: web.Config{TrustedProxies: proxies}})
		sid, key := e.Store("Shop A")
		p := e.Product(sid, e.Category(sid, "Tea").ID, "Green tea", 500, 100)
		n := 0
		expect(t, func(ip string) *testenv.Response {
			n++
			body := order(1, p)
			body["email"] = "guest" + string(rune('a'+n)) + "@example.com" // a new email each time: only the address limits
			return e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: body, Header: from(ip)})
		}, "")
	})
}
