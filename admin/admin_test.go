package admin_test

import (
	"fmt"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

const api = "/api/v1/admin"

func TestAdminLogin(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"OK", map[string]string{"email": "OWNER@example.com", "password": "owner-password"}, 200, ""},
		{"WrongPassword", map[string]string{"email": "owner@example.com", "password": "nope-nope"}, 401, "invalid_credentials"},
		{"UnknownEmail", map[string]string{"email": "who@example.com", "password": "owner-password"}, 401, "invalid_credentials"},
		{"NoBody", nil, 400, "validation_failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: tc.body}).Expect(t, tc.status, tc.code)
		})
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/stores/"}).Expect(t, 401, "unauthorized")
	e.Do(testenv.Req{Method: "GET", Path: api + "/stores/", Token: "garbage"}).Expect(t, 401, "unauthorized")
}

func TestStoresAdmin(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	var st struct {
		ID     uint64 `json:"id"`
		APIKey string `json:"api_key"`
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/stores/", Token: e.OwnerToken,
		Body: map[string]string{"name": "My Shop", "subdomain": "my-shop", "currency": "eur"}}).Expect(t, 201, "").Decode(t, &st)
	if st.ID == 0 || st.APIKey == "" {
		t.Fatalf("got %+v", st)
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/stores/", Token: e.OwnerToken,
		Body: map[string]string{"name": "Again", "subdomain": "my-shop", "currency": "EUR"}}).Expect(t, 409, "conflict")
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/stores/", Token: e.OwnerToken,
		Body: map[string]string{"name": "", "subdomain": "Bad Sub", "currency": "euro"}}).Expect(t, 400, "validation_failed")
	for _, f := range []string{"name", "subdomain", "currency"} {
		if r.Body.Errors[f] == "" {
			t.Errorf("no error for %s: %s", f, r.Raw)
		}
	}
	site := "/api/v1/business/website/config/"
	e.Do(testenv.Req{Method: "GET", Path: site, Key: st.APIKey}).Expect(t, 200, "")
	base := fmt.Sprintf("%s/stores/%d", api, st.ID)
	// config patch: a merge, validated
	e.Do(testenv.Req{Method: "PATCH", Path: base + "/config/", Token: e.OwnerToken, Body: `{"email_otp_enabled":"yes"}`}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "PATCH", Path: base + "/config/", Token: e.OwnerToken, Body: `{"delivery_options":[{"id":"x","name":"X","fee":-1}]}`}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "PATCH", Path: base + "/config/", Token: e.OwnerToken, Body: `{"delivery_options":[{"id":"std","name":"Standard","fee":"5.00"}],"hero":{"title":"Hi"},"custom_note":"x"}`}).Expect(t, 200, "")
	var cfg map[string]any
	e.Do(testenv.Req{Method: "GET", Path: site, Key: st.APIKey}).Expect(t, 200, "").Decode(t, &cfg)
	if cfg["hero"].(map[string]any)["title"] != "Hi" || cfg["custom_note"] != "x" {
		t.Fatalf("config not merged: %v", cfg)
	}
	if d := cfg["delivery_options"].([]any)[0].(map[string]any); d["fee"] != "5.00" {
		t.Fatalf("delivery fee: got %v", d)
	}
	// deactivate, rotate
	e.Do(testenv.Req{Method: "PATCH", Path: base + "/", Token: e.OwnerToken, Body: `{"is_active":false}`}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: site, Key: st.APIKey}).Expect(t, 403, "store_inactive")
	e.Do(testenv.Req{Method: "PATCH", Path: base + "/", Token: e.OwnerToken, Body: `{"is_active":true}`}).Expect(t, 200, "")
	var rot struct {
		APIKey string `json:"api_key"`
	}
	e.Do(testenv.Req{Method: "POST", Path: base + "/rotate-key/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &rot)
	e.Do(testenv.Req{Method: "GET", Path: site, Key: st.APIKey}).Expect(t, 401, "invalid_api_key")
	e.Do(testenv.Req{Method: "GET", Path: site, Key: rot.APIKey}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: api + "/stores/999/", Token: e.OwnerToken}).Expect(t, 404, "not_found")
}

func TestStaffSeesOnlyTheirStore(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	a, _ := e.Store("Shop A")
	b, _ := e.Store("Shop B")
	e.Staff(a, "staff@example.com")
	var login struct {
		AccessToken string `json:"access_token"`
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: map[string]string{"email": "staff@example.com", "password": "staff-password"}}).Expect(t, 200, "").Decode(t, &login)
	tok := login.AccessToken
	var list struct {
		Items []map[string]any `json:"items"`
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/stores/", Token: tok}).Expect(t, 200, "").Decode(t, &list)
	if len(list.Items) != 1 || list.Items[0]["id"].(float64) != float64(a) {
		t.Fatalf("staff sees %v", list.Items)
	}
	for _, p := range []string{"/", "/orders/", "/products/", "/categories/"} {
		e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/stores/%d%s", api, a, p), Token: tok}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/stores/%d%s", api, b, p), Token: tok}).Expect(t, 404, "not_found")
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/users/", Token: tok}).Expect(t, 403, "forbidden")
	e.Do(testenv.Req{Method: "POST", Path: api + "/stores/", Token: tok, Body: map[string]string{"name": "X", "subdomain": "x", "currency": "USD"}}).Expect(t, 403, "forbidden")
}

func TestUsersAdmin(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	a, _ := e.Store("Shop A")
	e.Do(testenv.Req{Method: "POST", Path: api + "/users/", Token: e.OwnerToken, Body: map[string]any{"email": "bad", "password": "short", "role": "king"}}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "POST", Path: api + "/users/", Token: e.OwnerToken, Body: map[string]any{"email": "s@example.com", "password": "long-enough", "role": "staff"}}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "POST", Path: api + "/users/", Token: e.OwnerToken, Body: map[string]any{"email": "s@example.com", "password": "long-enough", "role": "staff", "store_id": 99}}).Expect(t, 400, "validation_failed")
	var created map[string]any
	e.Do(testenv.Req{Method: "POST", Path: api + "/users/", Token: e.OwnerToken, Body: map[string]any{"email": "S@example.com", "password": "long-enough", "role": "staff", "store_id": a}}).Expect(t, 201, "").Decode(t, &created)
	if created["email"] != "s@example.com" || created["role"] != "staff" || created["store_id"].(float64) != float64(a) {
		t.Fatalf("got %v", created)
	}
	if _, leak := created["password_hash"]; leak {
		t.Fatal("password hash in the create response")
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/users/", Token: e.OwnerToken, Body: map[string]any{"email": "s@example.com", "password": "long-enough", "role": "staff", "store_id": a}}).Expect(t, 409, "conflict")
	var list struct {
		Items []map[string]any `json:"items"`
	}
	r := e.Do(testenv.Req{Method: "GET", Path: api + "/users/", Token: e.OwnerToken}).Expect(t, 200, "")
	r.Decode(t, &list)
	if len(list.Items) != 2 {
		t.Fatalf("got %d users, want 2", len(list.Items))
	}
	for _, u := range list.Items {
		if _, leak := u["password_hash"]; leak {
			t.Fatalf("password hash in response: %s", r.Raw)
		}
	}
	// the last owner cannot be removed; staff can
	e.Do(testenv.Req{Method: "DELETE", Path: api + "/users/1/", Token: e.OwnerToken}).Expect(t, 409, "conflict")
	e.Do(testenv.Req{Method: "DELETE", Path: api + "/users/2/", Token: e.OwnerToken}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "DELETE", Path: api + "/users/2/", Token: e.OwnerToken}).Expect(t, 404, "not_found")
}

func TestCatalogAdmin(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	a, key := e.Store("Shop A")
	b, _ := e.Store("Shop B")
	base := fmt.Sprintf("%s/stores/%d", api, a)
	e.Category(b, "Theirs 1")
	theirs := e.Category(b, "Theirs 2") // id 2 exists only in store B
	var cat app.Category
	e.Do(testenv.Req{Method: "POST", Path: base + "/categories/", Token: e.OwnerToken, Body: map[string]any{"name": "Shoes"}}).Expect(t, 201, "").Decode(t, &cat)
	if cat.Slug != "shoes" {
		t.Fatalf("slug %q", cat.Slug)
	}
	e.Do(testenv.Req{Method: "POST", Path: base + "/categories/", Token: e.OwnerToken, Body: map[string]any{"name": "Shoes"}}).Expect(t, 409, "conflict")
	e.Do(testenv.Req{Method: "POST", Path: base + "/categories/", Token: e.OwnerToken, Body: map[string]any{"name": ""}}).Expect(t, 400, "validation_failed")
	for _, tc := range []struct {
		name string
		body string
		code string
	}{
		{"NoName", `{"price":"1.00"}`, "validation_failed"},
		{"NegativePrice", `{"name":"X","price":"-1.00"}`, "validation_failed"},
		{"ThreeDecimals", `{"name":"X","price":"1.001"}`, "validation_failed"},
		{"BadImage", `{"name":"X","price":"1.00","images":["ftp://x"]}`, "validation_failed"},
		{"UnknownCategory", `{"name":"X","price":"1.00","category_id":99}`, "validation_failed"},
		{"OtherStoreCategory", fmt.Sprintf(`{"name":"X","price":"1.00","category_id":%d}`, theirs.ID), "validation_failed"},
		{"NegativeStock", `{"name":"X","price":"1.00","stock":-1}`, "validation_failed"},
		{"WrongType", `{"name":"X","price":true}`, "validation_failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "POST", Path: base + "/products/", Token: e.OwnerToken, Body: tc.body}).Expect(t, 400, tc.code)
		})
	}
	var p app.Product
	e.Do(testenv.Req{Method: "POST", Path: base + "/products/", Token: e.OwnerToken, Body: fmt.Sprintf(
		`{"name":"Runner","price":49.99,"category_id":%d,"images":["https://img.example/r.jpg"],"variants":[{"name":"42","sku":"R-42","price":"51.00","stock":3,"attributes":{"size":"42"}},{"name":"43","stock":2}]}`, cat.ID)}).
		Expect(t, 201, "").Decode(t, &p)
	if len(p.Variants) != 2 || p.Variants[1].Price != 4999 || p.AvailableStock() != 5 {
		t.Fatalf("got %+v", p)
	}
	var doc map[string]any
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/runner/", Key: key}).Expect(t, 200, "").Decode(t, &doc)
	if doc["stock"].(float64) != 5 || doc["category"].(map[string]any)["name"] != "Shoes" || len(doc["variants"].([]any)) != 2 {
		t.Fatalf("got %v", doc)
	}
	// rename the category: the product's doc follows
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s/categories/%d/", base, cat.ID), Token: e.OwnerToken, Body: `{"name":"Sneakers"}`}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/runner/", Key: key}).Expect(t, 200, "").Decode(t, &doc)
	if doc["category"].(map[string]any)["name"] != "Sneakers" {
		t.Fatalf("category name not updated: %v", doc["category"])
	}
	// patch keeps variant ids, deactivation hides the product
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s/products/%d/", base, p.ID), Token: e.OwnerToken,
		Body: fmt.Sprintf(`{"variants":[{"id":%d,"name":"42","stock":9}]}`, p.Variants[0].ID)}).Expect(t, 200, "").Decode(t, &p)
	if len(p.Variants) != 1 || p.Variants[0].Stock != 9 {
		t.Fatalf("got %+v", p.Variants)
	}
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s/products/%d/", base, p.ID), Token: e.OwnerToken, Body: `{"variants":[{"id":12345,"name":"x"}]}`}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s/products/%d/", base, p.ID), Token: e.OwnerToken, Body: `{"is_active":false}`}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/runner/", Key: key}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s/categories/%d/", base, cat.ID), Token: e.OwnerToken}).Expect(t, 409, "conflict")
	var list struct {
		Items []map[string]any `json:"items"`
	}
	e.Do(testenv.Req{Method: "GET", Path: base + "/products/?limit=1", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &list)
	if len(list.Items) != 1 {
		t.Fatalf("got %v", list)
	}
	e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s/products/%d/", base, p.ID), Token: e.OwnerToken}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/products/%d/", base, p.ID), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/stores/%d/products/%d/", api, b, p.ID), Token: e.OwnerToken}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "DELETE", Path: fmt.Sprintf("%s/categories/%d/", base, cat.ID), Token: e.OwnerToken}).Expect(t, 200, "")
}

// Failed admin logins are limited per account and address, for the JSON API
// and the panel alike; a success gives its own slot back.
func TestAdminLoginRateLimit(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	wrong := map[string]string{"email": "owner@example.com", "password": "wrong-password"}
	right := map[string]string{"email": "owner@example.com", "password": "owner-password"}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: wrong}).Expect(t, 401, "invalid_credentials")
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: right}).Expect(t, 200, "")
	for i := 0; i < 4; i++ {
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: wrong}).Expect(t, 401, "invalid_credentials")
	}
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: right}).Expect(t, 429, "rate_limited")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	e.Advance(app.LoginWindow)
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: right}).Expect(t, 200, "")
}
