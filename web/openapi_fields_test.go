package web_test

import (
	"testing"

	"storefront/testenv"
)

// TestOpenAPITrimmedLists: answers trimmed by fields= hold against the
// document as served (the one /openapi.json gives an outside client), not
// only against the full schema: lists and details trimmed to a few members,
// variants included. The same answers without fields= hold against the
// full schema (every member required), which the recorder of every test checks.
func TestOpenAPITrimmedLists(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	for _, target := range []string{
		api + "/products/?fields=name",
		api + "/products/?fields=name,price",
		api + "/products/?fields=name,variants",
		api + "/products/?fields=id",
		api + "/products/?fields=slug,price,in_stock&sort=price_asc",
		api + "/products/" + p.Slug + "/?fields=name",
		api + "/products/",
		api + "/blog-posts/?fields=title",
	} {
		t.Run(target, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "GET", Path: target, Key: key}).Expect(t, 200, "")
			if msg := testenv.ValidateResponse("GET", target, r.Status, r.Header, r.Raw); msg != "" {
				t.Fatal(msg)
			}
		})
	}
}

// TestAddressesRefuseBadParams: the shopper's address list (all at once)
// still checks limit, sort and cursor, and the document lists the 400.
func TestAddressesRefuseBadParams(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, tok := e.Shopper(sid, "a@example.com")
	for _, q := range []string{"limit=0", "sort=nope", "cursor=zz"} {
		e.Do(testenv.Req{Method: "GET", Path: api + "/addresses/?" + q, Key: key, Token: tok}).Expect(t, 400, "validation_failed")
	}
}
