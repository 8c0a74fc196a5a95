package web_test

import (
	"testing"

	"storefront/testenv"
)

func TestCORS(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	idA, keyA := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	admin := testenv.Path("/api/v1/admin/stores/%d/", idA)
	e.Do(testenv.Req{Method: "PATCH", Path: admin, Token: e.OwnerToken,
		Body: map[string]any{"allowed_origins": []string{"https://Shop-A.example", "http://localhost:3000"}}}).Expect(t, 200, "")

	const products = "/api/v1/business/website/products/"
	const me = "/api/v1/customer/me/"
	preflight := func(path, origin string) *testenv.Response {
		return e.Do(testenv.Req{Method: "OPTIONS", Path: path, Header: map[string]string{
			"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-service-key, content-type"}})
	}
	t.Run("PreflightAllowedNoKey", func(t *testing.T) {
		for _, p := range []string{products, me, "/api/v1/business/website/checkout/initiate/"} {
			r := preflight(p, "https://shop-a.example")
			if r.Status != 204 {
				t.Fatalf("%s: got %d, want 204: %s", p, r.Status, r.Raw)
			}
			h := r.Header
			if h.Get("Access-Control-Allow-Origin") != "https://shop-a.example" {
				t.Fatalf("got Allow-Origin %q", h.Get("Access-Control-Allow-Origin"))
			}
			for _, want := range []string{"X-Service-Key", "Authorization", "Content-Type", "Idempotency-Key", "X-Cart-Token"} {
				if !contains(h.Get("Access-Control-Allow-Headers"), want) {
					t.Fatalf("got Allow-Headers %q, want %s", h.Get("Access-Control-Allow-Headers"), want)
				}
			}
			if !contains(h.Get("Access-Control-Allow-Methods"), "PATCH") || h.Get("Vary") != varyPreflight {
				t.Fatalf("got headers %v, want Vary %q", h, varyPreflight)
			}
		}
	})
	t.Run("PreflightDisallowed", func(t *testing.T) {
		for _, o := range []string{"https://evil.example", "null", "https://shop-a.example.evil.example", "http://shop-a.example"} {
			r := preflight(products, o)
			if r.Status != 204 || r.Header.Get("Access-Control-Allow-Origin") != "" || r.Header.Get("Vary") != varyPreflight {
				t.Fatalf("%s: got %d Allow-Origin %q, want 204 without it", o, r.Status, r.Header.Get("Access-Control-Allow-Origin"))
			}
		}
	})
	t.Run("ActualAllowed", func(t *testing.T) {
		r := e.Do(testenv.Req{Method: "GET", Path: products, Key: keyA, Header: map[string]string{"Origin": "http://localhost:3000"}}).Expect(t, 200, "")
		if vary := r.Header["Vary"]; r.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" || len(vary) != 1 || vary[0] != "Origin" {
			t.Fatalf("got headers %v, want one Vary: Origin", r.Header)
		}
		exp := r.Header.Get("Access-Control-Expose-Headers")
		if !contains(exp, "X-Request-ID") || !contains(exp, "Retry-After") {
			t.Fatalf("got Expose-Headers %q", exp)
		}
	})
	t.Run("ActualOtherStoreKey", func(t *testing.T) { // shop B does not list shop A's origin
		r := e.Do(testenv.Req{Method: "GET", Path: products, Key: keyB, Header: map[string]string{"Origin": "http://localhost:3000"}}).Expect(t, 200, "")
		if r.Header.Get("Access-Control-Allow-Origin") != "" || !contains(r.Header.Get("Vary"), "Origin") {
			t.Fatalf("got headers %v", r.Header)
		}
	})
	t.Run("ActualDisallowed", func(t *testing.T) {
		r := e.Do(testenv.Req{Method: "GET", Path: products, Key: keyA, Header: map[string]string{"Origin": "https://evil.example"}}).Expect(t, 200, "")
		if r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("got Allow-Origin %q", r.Header.Get("Access-Control-Allow-Origin"))
		}
	})
	t.Run("ErrNoKeyActual", func(t *testing.T) { // only the preflight goes without a key
		r := e.Do(testenv.Req{Method: "GET", Path: products, Header: map[string]string{"Origin": "https://shop-a.example"}}).Expect(t, 401, "invalid_api_key")
		if r.Header.Get("Access-Control-Allow-Origin") != "https://shop-a.example" {
			t.Fatalf("got headers %v: the browser must be able to read the 401", r.Header)
		}
	})
	t.Run("InactiveStoreOriginDropped", func(t *testing.T) {
		e.Do(testenv.Req{Method: "PATCH", Path: admin, Token: e.OwnerToken, Body: map[string]any{"is_active": false}}).Expect(t, 200, "")
		if r := preflight(products, "https://shop-a.example"); r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("got Allow-Origin %q for an inactive store's origin", r.Header.Get("Access-Control-Allow-Origin"))
		}
		e.Do(testenv.Req{Method: "PATCH", Path: admin, Token: e.OwnerToken, Body: map[string]any{"is_active": true}}).Expect(t, 200, "")
		if r := preflight(products, "https://shop-a.example"); r.Header.Get("Access-Control-Allow-Origin") == "" {
			t.Fatal("got no Allow-Origin after reactivation")
		}
	})
	t.Run("AdminAPISameOrigin", func(t *testing.T) {
		r := e.Do(testenv.Req{Method: "GET", Path: admin, Token: e.OwnerToken, Header: map[string]string{"Origin": "https://shop-a.example"}}).Expect(t, 200, "")
		if r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("admin API answered Allow-Origin %q", r.Header.Get("Access-Control-Allow-Origin"))
		}
		r = e.Do(testenv.Req{Method: "OPTIONS", Path: admin, Header: map[string]string{"Origin": "https://shop-a.example", "Access-Control-Request-Method": "GET"}})
		if r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("admin preflight answered Allow-Origin %q", r.Header.Get("Access-Control-Allow-Origin"))
		}
	})
}

// varyPreflight is the Vary of every preflight answer (caches must key on
// the three request headers it depends on).
const varyPreflight = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"

func contains(list, item string) bool {
	for _, x := range splitComma(list) {
		if x == item {
			return true
		}
	}
	return false
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			x := s[start:i]
			for len(x) > 0 && x[0] == ' ' {
				x = x[1:]
			}
			out = append(out, x)
			start = i + 1
		}
	}
	return out
}
