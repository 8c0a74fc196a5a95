package web_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"storefront/app"
	"storefront/bench"
	"storefront/testenv"
)

type productList struct {
	Items      []map[string]any `json:"items"`
	NextCursor *string          `json:"next_cursor"`
	HasMore    bool             `json:"has_more"`
	Category   *app.CategoryRef `json:"category"`
}

func TestListProductsWalk(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	cat := e.Category(sid, "Shoes")
	for i := 0; i < 30; i++ {
		e.Product(sid, cat.ID, fmt.Sprintf("Product %02d", i), app.Money(1000+i*7%13*100), int64(i%3))
	}
	for _, sort := range app.ProductSorts {
		t.Run(sort, func(t *testing.T) {
			seen := map[float64]bool{}
			cursor := ""
			for pages := 0; ; pages++ {
				p := "/api/v1/business/website/products/?limit=7&sort=" + sort
				if sort == app.SortRelevance {
					p += "&q=product" // relevance needs q; every name has the word
				}
				if cursor != "" {
					p += "&cursor=" + url.QueryEscape(cursor)
				}
				r := e.Do(testenv.Req{Method: "GET", Path: p, Key: key}).Expect(t, 200, "")
				var l productList
				r.Decode(t, &l)
				for _, it := range l.Items {
					id := it["id"].(float64)
					if seen[id] {
						t.Fatalf("product %v seen twice", id)
					}
					seen[id] = true
				}
				if !l.HasMore {
					if l.NextCursor != nil {
						t.Fatalf("has_more false with a cursor")
					}
					break
				}
				cursor = *l.NextCursor
			}
			if len(seen) != 30 {
				t.Fatalf("got %d products, want 30", len(seen))
			}
		})
	}
}

func TestProductsFieldsAndCategory(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	cat := e.Category(sid, "Shoes")
	e.Product(sid, cat.ID, "Red Shoe", 1250, 3)
	r := e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products?fields=name,price,bogus", Key: key}).Expect(t, 200, "")
	var l productList
	r.Decode(t, &l)
	if len(l.Items) != 1 || len(l.Items[0]) != 3 || l.Items[0]["price"] != "12.50" {
		t.Fatalf("got %v", l.Items)
	}
	r = e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/business/website/categories/%d/products/", cat.ID), Key: key}).Expect(t, 200, "")
	r.Decode(t, &l)
	if l.Category == nil || l.Category.Name != "Shoes" || len(l.Items) != 1 {
		t.Fatalf("got %s", r.Raw)
	}
	r = e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/red-shoe/", Key: key}).Expect(t, 200, "")
	var full map[string]json.RawMessage
	r.Decode(t, &full)
	if _, ok := full["variants"]; !ok {
		t.Fatalf("detail without variants: %s", r.Raw)
	}
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/?cursor=abc", Key: key}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/", Key: "nope"}).Expect(t, 401, "invalid_api_key")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/config/", Key: key}).Expect(t, 200, "")
}

// TestProductListsVariantsOnlyWhenAsked: lists read their docs without the
// variants unless fields names them (ProductQuery.Light); fields=variants
// still gets them from every list (plain, search, a cached category page)
// and a light page in the category cache is never served to it.
func TestProductListsVariantsOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	cat := e.Category(sid, "Shoes")
	if _, err := e.Svc.Catalog.SaveProduct(sid, 0, bench.ProductInput(1, cat.ID)); err != nil {
		t.Fatal(err)
	}
	var detail map[string]json.RawMessage
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/trail-runner-1-pro", Key: key}).Expect(t, 200, "").Decode(t, &detail)
	want := string(detail["variants"])
	if len(want) < 50 {
		t.Fatalf("the detail's variants: %s", want)
	}
	base := "/api/v1/business/website/products"
	catPath := fmt.Sprintf("/api/v1/business/website/categories/%d/products", cat.ID)
	var light []byte
	for _, tc := range []struct {
		path     string
		variants bool
	}{
		{base, false},
		{base + "?fields=id,variants", true},
		{base + "?q=trail", false},
		{base + "?q=trail&fields=name,variants", true},
		{catPath, false}, // cached now, light
		{catPath + "?fields=variants", true},
		{catPath, false},
		{catPath + "?fields=variants", true}, // cached too, with its variants
	} {
		r := e.Do(testenv.Req{Method: "GET", Path: tc.path, Key: key}).Expect(t, 200, "")
		var l struct {
			Items []map[string]json.RawMessage `json:"items"`
		}
		r.Decode(t, &l)
		if len(l.Items) != 1 {
			t.Fatalf("%s: %d items", tc.path, len(l.Items))
		}
		got, ok := l.Items[0]["variants"]
		if ok != tc.variants || ok && string(got) != want {
			t.Fatalf("%s: variants %v %s, want %v %s", tc.path, ok, got, tc.variants, want)
		}
		if tc.path == catPath {
			if light != nil && string(light) != string(r.Raw) {
				t.Fatalf("the cached category page changed:\n%s\n%s", light, r.Raw)
			}
			light = r.Raw
		}
	}
}
