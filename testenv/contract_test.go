package testenv

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/routers"
)

// findRoute is the route of method and target in the document the contract
// check uses for target.
func findRoute(t *testing.T, method, target string) (routers.Router, *routers.Route) {
	t.Helper()
	_, served, err := Contract()
	if err != nil {
		t.Fatal(err)
	}
	router := routerFor(served, target)
	route, _, err := router.FindRoute(httptest.NewRequest(method, "http://shop.test"+target, nil))
	if err != nil {
		t.Fatal(err)
	}
	return router, route
}

// TestContractBodies: the bodies the contract check reads itself
// (contract_body.go) are still checked, with either of kin-openapi's
// validators, and a verdict remembered for a body is not given to another.
func TestContractBodies(t *testing.T) {
	e := New(t)
	sid, key := e.Store("Shop")
	p := e.Product(sid, 0, "Mug", 1250, 5)
	target := "/api/v1/business/website/products/" + p.Slug + "/"
	r := e.Do(Req{Method: "GET", Path: target, Key: key}).Expect(t, 200, "")
	router, route := findRoute(t, "GET", target)
	ok := exchange{method: "GET", target: target, offContract: true, status: 200, respHeader: r.Header, body: r.Raw}
	if !checkedAsLegacy(route.Operation.Responses.Status(200).Value.Content.Get("application/json").Schema.Value) {
		t.Fatal("a product's answer is not checked with the 3.0 validator: this test no longer covers it")
	}
	var body struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(r.Raw, &body); err != nil {
		t.Fatal(err)
	}
	body.Data["name"] = 5
	bad := ok
	bad.body, _ = json.Marshal(map[string]any{"status": true, "status_code": 200, "message": "", "data": body.Data})
	for range 2 { // the second time from the remembered verdicts
		if msg := validateExchange(router, ok); msg != "" {
			t.Fatalf("the server's own answer: %s", msg)
		}
		if msg := validateExchange(router, bad); !strings.Contains(msg, "at /data/name") {
			t.Fatalf("a number for the name: got %q, want a mismatch at /data/name", msg)
		}
	}

	// An error answer: its schema uses const, a JSON Schema 2020-12 keyword.
	missing := "/api/v1/business/website/products/no-such-thing/"
	r = e.Do(Req{Method: "GET", Path: missing, Key: key}).Expect(t, 404, "not_found")
	router, route = findRoute(t, "GET", missing)
	if checkedAsLegacy(route.Operation.Responses.Status(404).Value.Content.Get("application/json").Schema.Value) {
		t.Fatal("an error answer is checked with the 3.0 validator: this test no longer covers the 2020-12 one")
	}
	notFound := exchange{method: "GET", target: missing, offContract: true, status: 404, respHeader: r.Header, body: r.Raw}
	if msg := validateExchange(router, notFound); msg != "" {
		t.Fatalf("the server's own 404: %s", msg)
	}
	notFound.body = []byte(strings.Replace(string(r.Raw), `"status":false`, `"status":true`, 1))
	if msg := validateExchange(router, notFound); !strings.Contains(msg, "status") {
		t.Fatalf("a 404 saying status true: got %q, want a mismatch at status", msg)
	}
	router, _ = findRoute(t, "GET", target)
	ok.respHeader = http.Header{"Content-Type": {"text/plain"}}
	if msg := validateExchange(router, ok); !strings.Contains(msg, "Content-Type") {
		t.Fatalf("a product in text/plain: got %q, want the Content-Type refused", msg)
	}
}

// TestContractRequestBodies: a request body of the wrong shape that was
// answered 200 is caught, and a missing required body too.
func TestContractRequestBodies(t *testing.T) {
	target := "/api/v1/business/website/cart/items/"
	_, route := findRoute(t, "POST", target)
	x := exchange{method: "POST", target: target, header: http.Header{"Content-Type": {"application/json"}},
		reqBody: []byte(`{"product_id": "one", "quantity": 1}`), status: 200}
	if msg := validateRequest(route, nil, x); !strings.Contains(msg, "product_id") {
		t.Fatalf("a string for product_id: got %q, want a mismatch naming product_id", msg)
	}
	x.reqBody = nil
	if route.Operation.RequestBody.Value.Required {
		if msg := validateRequest(route, nil, x); !strings.Contains(msg, "request body") {
			t.Fatalf("no body: got %q, want the missing body named", msg)
		}
	}
}
