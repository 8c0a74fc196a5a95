package web_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

type productList struct {
	Items      []map[string]any `json:"items"`
	NextCursor *string          `json:"next_cursor"`
	HasMore    bool             `json:"has_more"`
	Category   *app.CategoryRef `json:"category"`
}

func TestListProductsWalk(t *testing.T) {
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
