package web_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestDemoLocalOrigins: in demo mode the demo store allows http://localhost
// and http://127.0.0.1 on any port for CORS and as callback_url, whatever it
// lists; another store, or any store outside demo mode, does not (issue 29.4).
func TestDemoLocalOrigins(t *testing.T) {
	t.Parallel()
	e := testenv.NewWith(t, testenv.Options{App: app.Options{DemoSubdomain: "shop-a"}})
	sid, key := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	pB := e.Product(sidB, 0, "Mug", 1250, 10)
	for _, id := range []uint64{sid, sidB} { // a list: callbacks are no longer open to any origin
		e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/", id), Token: e.OwnerToken,
			Body: map[string]any{"allowed_origins": []string{"https://front.example"}}}).Expect(t, 200, "")
	}
	const products = "/api/v1/business/website/products/"
	allowOrigin := func(k, origin string) string {
		r := e.Do(testenv.Req{Method: "GET", Path: products, Key: k, Header: map[string]string{"Origin": origin}}).Expect(t, 200, "")
		return r.Header.Get("Access-Control-Allow-Origin")
	}
	for _, o := range []string{"http://localhost:5173", "http://127.0.0.1:8080", "http://localhost", "https://front.example"} {
		if got := allowOrigin(key, o); got != o {
			t.Errorf("demo store, %s: got Allow-Origin %q", o, got)
		}
	}
	for _, o := range []string{"https://localhost:5173", "http://localhost.evil.example:5173", "http://127.0.0.2:80", "http://[::1]:5173"} {
		if got := allowOrigin(key, o); got != "" {
			t.Errorf("demo store, %s: got Allow-Origin %q, want none", o, got)
		}
	}
	if got := allowOrigin(keyB, "http://localhost:5173"); got != "" {
		t.Errorf("another store: got Allow-Origin %q, want none", got)
	}
	pre := e.Do(testenv.Req{Method: "OPTIONS", Path: products, Header: map[string]string{
		"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-service-key, x-cart-token"}})
	if pre.Status != 204 || pre.Header.Get("Access-Control-Allow-Origin") != "http://localhost:5173" {
		t.Fatalf("preflight: got %d %v", pre.Status, pre.Header)
	}

	withCallback := func(k string, pr *app.Product, u string) testenv.Req {
		b := order(1, pr)
		b["callback_url"] = u
		return testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: k, Body: b}
	}
	e.Do(withCallback(key, p, "http://localhost:5173/checkout/done")).Expect(t, 200, "")
	e.Do(withCallback(key, p, "http://127.0.0.1:3000/done")).Expect(t, 200, "")
	e.Do(withCallback(key, p, "https://front.example/done")).Expect(t, 200, "")
	r := e.Do(withCallback(key, p, "https://elsewhere.example/return")).Expect(t, 400, "validation_failed")
	msg := r.Body.Errors["callback_url"]
	for _, want := range []string{"https://elsewhere.example", "callback_origins", "allowed_origins"} {
		if !strings.Contains(msg, want) {
			t.Errorf("errors.callback_url: got %q, want it to name %q", msg, want)
		}
	}
	e.Do(withCallback(keyB, pB, "http://localhost:5173/checkout/done")).Expect(t, 400, "validation_failed")

	t.Run("OutsideDemoMode", func(t *testing.T) {
		e := testenv.New(t)
		_, key := e.Store("Shop A")
		r := e.Do(testenv.Req{Method: "GET", Path: products, Key: key, Header: map[string]string{"Origin": "http://localhost:5173"}}).Expect(t, 200, "")
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Fatalf("got Allow-Origin %q, want none", got)
		}
		pre := e.Do(testenv.Req{Method: "OPTIONS", Path: products, Header: map[string]string{
			"Origin": "http://localhost:5173", "Access-Control-Request-Method": "GET"}})
		if got := pre.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Fatalf("preflight: got Allow-Origin %q, want none", got)
		}
	})
}
