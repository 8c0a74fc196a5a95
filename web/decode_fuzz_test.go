package web_test

import (
	"fmt"
	"testing"

	"storefront/testenv"
)

// FuzzRequestBodies posts arbitrary bodies to the endpoints that decode JSON:
// whatever arrives, the answer is a 2xx or a clear 4xx in the envelope, never
// a 500 (testenv fails the test on a body that is not the envelope).
func FuzzRequestBodies(f *testing.F) {
	e := testenv.New(f)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 950, 1000)
	_, tok := e.Shopper(sid, "ada@example.com")
	endpoints := []struct {
		method, path string
		token        bool
	}{
		{"POST", "/api/v1/customer/auth/register/", false},
		{"POST", "/api/v1/customer/auth/login/", false},
		{"POST", "/api/v1/customer/auth/refresh/", false},
		{"PATCH", "/api/v1/customer/me/", true},
		{"POST", site + "/cart/items/", true},
		{"POST", site + "/payment/initiate/", false},
		{"POST", site + "/payment/verify/", false},
		{"PATCH", site + "/orders/", true},
		{"POST", site + "/orders/cancel/", true},
		{"POST", site + "/orders/refund/", true},
		{"POST", site + "/addresses/", true},
		{"POST", site + "/tickets/", true},
		{"POST", site + "/reviews/", true},
		{"POST", site + "/contact/", false},
	}
	for _, seed := range []string{
		`{}`, `[]`, `null`, `"x"`, `{"email":1}`, `{"quantity":-1,"product_id":"x"}`,
		fmt.Sprintf(`{"items":[{"product_id":%d,"quantity":1,"unit_price":"9.50"}],"payment_method":"WALLET_A","callback_url":"https://x.example/","email":"a@b.co","receiver_name":"A","phone":"1","address":"x","delivery_fee":"0.00"}`, p.ID),
		`{"rating":5.5,"product_id":1}`, `{"amount":"1e400","order_id":1}`, `{"metadata":{"a":1}}`,
		`{"payment_session_id":"x","provider_params":{"a":"b"}}`, "\x00", `{"a":` + "\"\xff\"}",
	} {
		for i := range endpoints {
			f.Add(i, []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, i int, body []byte) {
		if i < 0 || len(body) > 4096 {
			return
		}
		ep := endpoints[i%len(endpoints)]
		req := testenv.Req{Method: ep.method, Path: ep.path, Key: key, Body: body, OffContract: true} // any bytes, on purpose
		if ep.token {
			req.Token = tok
		}
		r := e.With(t).Do(req)
		if r.Status >= 500 {
			t.Fatalf("%s %s %q: got %d: %s", ep.method, ep.path, body, r.Status, r.Raw)
		}
	})
}
