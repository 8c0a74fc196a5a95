package web_test

import (
	"fmt"
	"testing"

	"storefront/testenv"
)

// TestVariantImage: a variant's own picture, set through the admin API,
// shows on the storefront's product read, stays when the variants are sent
// again without it, goes when sent empty, and must be an http(s) URL.
func TestVariantImage(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Pictures")
	p := e.Product(sid, 0, "Scarf", 2000, 10)
	path := fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", sid, p.ID)
	const red = "https://img.example.com/scarf-red.jpg"
	var got struct {
		Variants []struct {
			ID    uint64 `json:"id"`
			Image string `json:"image"`
		} `json:"variants"`
	}
	e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: map[string]any{"variants": []map[string]any{
		{"name": "Red", "image": red, "attributes": map[string]string{"Colour": "Red"}}}}}).Expect(t, 200, "").Decode(t, &got)
	id := got.Variants[0].ID
	read := func(want string) {
		t.Helper()
		got.Variants = nil
		e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/scarf", Key: key}).Expect(t, 200, "").Decode(t, &got)
		if len(got.Variants) != 1 || got.Variants[0].Image != want {
			t.Fatalf("storefront variants %+v, want image %q", got.Variants, want)
		}
	}
	read(red)
	for _, c := range []struct {
		variant map[string]any
		status  int
		want    string
	}{
		{map[string]any{"id": id, "name": "Red", "stock": 3}, 200, red},
		{map[string]any{"id": id, "name": "Red", "image": "ftp://img.example.com/x.jpg"}, 400, red},
		{map[string]any{"id": id, "name": "Red", "image": "/relative.jpg"}, 400, red},
		{map[string]any{"id": id, "name": "Red", "image": ""}, 200, ""},
	} {
		r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: map[string]any{"variants": []map[string]any{c.variant}}})
		if c.status == 400 {
			if r.Expect(t, 400, "validation_failed"); r.Body.Errors["variants[0].image"] == "" {
				t.Fatalf("after %v: errors %v", c.variant, r.Body.Errors)
			}
		} else {
			r.Expect(t, c.status, "")
		}
		read(c.want)
	}
}
