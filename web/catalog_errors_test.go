package web_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"storefront/app"
	"storefront/testenv"
	"storefront/web"
)

const site = "/api/v1/business/website"

func TestCatalogErrors(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	cat := e.Category(sid, "Shoes")
	e.Product(sid, cat.ID, "Red Shoe", 1250, 3)
	first := e.Do(testenv.Req{Method: "GET", Path: site + "/products/?limit=1&sort=price_asc", Key: key})
	var l productList
	first.Decode(t, &l)
	e.Product(sid, cat.ID, "Blue Shoe", 1350, 3)
	first = e.Do(testenv.Req{Method: "GET", Path: site + "/products/?limit=1&sort=price_asc", Key: key})
	first.Decode(t, &l)
	if l.NextCursor == nil {
		t.Fatalf("want a next cursor: %s", first.Raw)
	}
	cur := url.QueryEscape(*l.NextCursor)
	for _, tc := range []struct {
		name, path, key string
		status          int
		code            string
	}{
		{"NoKey", "/products/", "", 401, "invalid_api_key"},
		{"UnknownKey", "/products/", "sk_nope", 401, "invalid_api_key"},
		{"LimitZero", "/products/?limit=0", key, 400, "validation_failed"},
		{"LimitText", "/products/?limit=ten", key, 400, "validation_failed"},
		{"LimitHuge", "/products/?limit=100000000000000000000", key, 200, ""},
		{"BadSort", "/products/?sort=cheapest", key, 400, "validation_failed"},
		{"TamperedCursor", "/products/?sort=price_asc&cursor=" + cur[:len(cur)-3] + "xyz", key, 400, "validation_failed"},
		{"CrossSortCursor", "/products/?sort=name_asc&cursor=" + cur, key, 400, "validation_failed"},
		{"CursorOfOtherStore", "/products/?sort=price_asc&cursor=" + cur, keyB, 400, "validation_failed"},
		{"CursorOfOtherList", fmt.Sprintf("/categories/%d/products/?sort=price_asc&cursor=%s", cat.ID, cur), key, 400, "validation_failed"},
		{"CursorOK", "/products/?sort=price_asc&cursor=" + cur, key, 200, ""},
		{"BadMinPrice", "/products/?min_price=abc", key, 400, "validation_failed"},
		{"BadInStock", "/products/?in_stock=maybe", key, 400, "validation_failed"},
		{"BadCategoryFilter", "/products/?category_id=-1", key, 400, "validation_failed"},
		{"UnknownSlug", "/products/nope/", key, 404, "not_found"},
		{"UnknownCategory", "/categories/999/products/", key, 404, "not_found"},
		{"BadCategoryID", "/categories/abc/products/", key, 404, "not_found"},
		{"OtherStoreCategory", fmt.Sprintf("/categories/%d/products/", cat.ID), keyB, 404, "not_found"},
		{"OtherStoreSlug", "/products/red-shoe/", keyB, 404, "not_found"},
		{"NoSlash", "/products", key, 200, ""},
		{"UnknownRoute", "/nothing-here/", key, 404, "not_found"},
		{"CompleteSetLimitZero", "/categories/?limit=0", key, 400, "validation_failed"},
		{"CompleteSetLimitText", "/payment-methods/?limit=abc", key, 400, "validation_failed"},
		{"CompleteSetCursor", "/categories/?cursor=" + cur, key, 400, "validation_failed"},
		{"CompleteSetSort", "/categories/?sort=price_asc", key, 400, "validation_failed"},
		{"CompleteSetOK", "/categories/?limit=1000&sort=newest", key, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// LimitHuge sends a limit past int64 on purpose (it is clamped).
			e.Do(testenv.Req{Method: "GET", Path: site + tc.path, Key: tc.key, OffContract: tc.name == "LimitHuge"}).Expect(t, tc.status, tc.code)
		})
	}
}

func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sidA, keyA := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	e.Product(sidA, 0, "Only In A", 100, 1)
	e.Product(sidB, 0, "Only In B", 100, 1)
	for _, tc := range []struct{ key, want string }{{keyA, "Only In A"}, {keyB, "Only In B"}} {
		var l productList
		e.Do(testenv.Req{Method: "GET", Path: site + "/products/", Key: tc.key}).Expect(t, 200, "").Decode(t, &l)
		if len(l.Items) != 1 || l.Items[0]["name"] != tc.want {
			t.Fatalf("got %v, want only %q", l.Items, tc.want)
		}
	}
}

func TestInactiveStoreAndRotatedKey(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	if _, err := e.Svc.Stores.SetActive(sid, false); err != nil {
		t.Fatal(err)
	}
	e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: key}).Expect(t, 403, "store_inactive")
	if _, err := e.Svc.Stores.SetActive(sid, true); err != nil {
		t.Fatal(err)
	}
	e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: key}).Expect(t, 200, "")
	_, newKey, err := e.Svc.Stores.RotateKey(sid)
	if err != nil {
		t.Fatal(err)
	}
	e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: key}).Expect(t, 401, "invalid_api_key")
	e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: newKey}).Expect(t, 200, "")
}

func TestConfigServedAndInvalidated(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	var cfg map[string]any
	e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: key}).Expect(t, 200, "").Decode(t, &cfg)
	if cfg["subdomain"] != "shop-a" || cfg["is_active"] != true || cfg["store"].(map[string]any)["name"] != "Shop A" {
		t.Fatalf("got %v", cfg)
	}
	if _, err := e.Svc.Stores.PatchConfig(sid, []byte(`{"theme_color":"#000000","store":{"phone":"123"}}`)); err != nil {
		t.Fatal(err)
	}
	e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: key}).Expect(t, 200, "").Decode(t, &cfg)
	if cfg["theme_color"] != "#000000" || cfg["store"].(map[string]any)["phone"] != "123" || cfg["store"].(map[string]any)["name"] != "Shop A" {
		t.Fatalf("config not updated or merge lost fields: %v", cfg)
	}
	var pm struct {
		Items   []map[string]any `json:"items"`
		HasMore bool             `json:"has_more"`
	}
	e.Do(testenv.Req{Method: "GET", Path: site + "/payment-methods/", Key: key}).Expect(t, 200, "").Decode(t, &pm)
	if len(pm.Items) != 2 || pm.Items[0]["code"] != app.WalletA || pm.HasMore {
		t.Fatalf("got %v", pm)
	}
}

func TestCategoriesAndFilters(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	shoes, hats := e.Category(sid, "Shoes"), e.Category(sid, "Hats")
	e.Product(sid, shoes.ID, "Red Shoe", 1000, 0)
	e.Product(sid, shoes.ID, "Blue Shoe", 3000, 5)
	e.Product(sid, hats.ID, "Red Hat", 2000, 5)
	var cats struct {
		Items      []map[string]any `json:"items"`
		NextCursor *string          `json:"next_cursor"`
	}
	e.Do(testenv.Req{Method: "GET", Path: site + "/categories/", Key: key}).Expect(t, 200, "").Decode(t, &cats)
	if len(cats.Items) != 2 || cats.NextCursor != nil {
		t.Fatalf("got %v", cats)
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"q=red&sort=name_asc", []string{"Red Hat", "Red Shoe"}},
		{"q=RED&in_stock=true", []string{"Red Hat"}},
		{"min_price=15&max_price=25", []string{"Red Hat"}},
		{fmt.Sprintf("category_id=%d&sort=price_desc", shoes.ID), []string{"Blue Shoe", "Red Shoe"}},
		{"sort=price_asc", []string{"Red Shoe", "Red Hat", "Blue Shoe"}},
		{"sort=newest", []string{"Red Hat", "Blue Shoe", "Red Shoe"}},
	} {
		var l productList
		e.Do(testenv.Req{Method: "GET", Path: site + "/products/?" + tc.query, Key: key}).Expect(t, 200, "").Decode(t, &l)
		var got []string
		for _, it := range l.Items {
			got = append(got, it["name"].(string))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.query, got, tc.want)
		}
	}
}

func TestCategoryPageCache(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	cat := e.Category(sid, "Shoes")
	e.Product(sid, cat.ID, "Red Shoe", 1000, 1)
	path := fmt.Sprintf("%s/categories/%d/products/", site, cat.ID)
	e.Do(testenv.Req{Method: "GET", Path: path, Key: key}).Expect(t, 200, "")
	if n := e.Svc.Catalog.CachedPages(); n != 1 {
		t.Fatalf("got %d cached pages, want 1", n)
	}
	// a catalog write retires the store's pages: the new product shows at once
	e.Product(sid, cat.ID, "Blue Shoe", 1000, 1)
	var l productList
	e.Do(testenv.Req{Method: "GET", Path: path, Key: key}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 2 {
		t.Fatalf("got %d items after a write, want 2", len(l.Items))
	}
	e.Advance(app.CategoryCacheTTL + 1)
	if n := e.Svc.Catalog.EvictExpired(); n != 1 {
		t.Fatalf("evicted %d, want 1", n)
	}
}

// TestProductListCache: on PostgreSQL the product list is cached like a
// category page (a page read is a round trip there) and a write shows at
// once; on bbolt it is read every time. Both backends: a list (with its
// category_id filter) never answers a category page's request, nor the
// other way round.
func TestProductListCache(t *testing.T) {
	t.Parallel()
	testenv.ForEachBackend(t, testenv.Options{}, func(t *testing.T, e *testenv.Env) {
		sid, key := e.Store("Shop A")
		cat := e.Category(sid, "Shoes")
		p := e.Product(sid, cat.ID, "Red Shoe", 1000, 1)
		list := site + "/products/?category_id=" + fmt.Sprint(cat.ID)
		names := func(path string) []string {
			var l productList
			e.Do(testenv.Req{Method: "GET", Path: path, Key: key}).Expect(t, 200, "").Decode(t, &l)
			var got []string
			for _, it := range l.Items {
				got = append(got, it["name"].(string)+" "+it["price"].(string))
			}
			return got
		}
		if got := fmt.Sprint(names(list)); got != "[Red Shoe 10.00]" {
			t.Fatalf("list: %s", got)
		}
		want := 0
		if e.Backend == testenv.BackendPostgres {
			want = 1
		}
		if n := e.Svc.Catalog.CachedPages(); n != want {
			t.Fatalf("%s: %d cached pages after a list, want %d", e.Backend, n, want)
		}
		var l productList
		e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/categories/%d/products/", site, cat.ID), Key: key}).Expect(t, 200, "").Decode(t, &l)
		if l.Category == nil || l.Category.Name != "Shoes" {
			t.Fatalf("the category page after the list has no category: %+v", l.Category)
		}
		// a write retires the store's pages: the new price and product show at once
		price := app.Money(725)
		if _, err := e.Svc.Catalog.SaveProduct(sid, p.ID, app.ProductInput{Price: &price}); err != nil {
			t.Fatal(err)
		}
		e.Product(sid, cat.ID, "Blue Shoe", 1000, 1)
		if got := fmt.Sprint(names(list + "&sort=name_asc")); got != "[Blue Shoe 10.00 Red Shoe 7.25]" {
			t.Fatalf("list after the writes: %s", got)
		}
		if got := fmt.Sprint(names(list)); got != "[Blue Shoe 10.00 Red Shoe 7.25]" { // newest first
			t.Fatalf("the cached list after the writes: %s", got)
		}
		// a later page (a cursor) is read, not cached: walks keep the first pages in
		before := e.Svc.Catalog.CachedPages()
		var first productList
		e.Do(testenv.Req{Method: "GET", Path: list + "&limit=1", Key: key}).Expect(t, 200, "").Decode(t, &first)
		if first.NextCursor == nil {
			t.Fatal("no second page")
		}
		if got := fmt.Sprint(names(list + "&limit=1&cursor=" + url.QueryEscape(*first.NextCursor))); got != "[Red Shoe 7.25]" {
			t.Fatalf("second page: %s", got)
		}
		if n := e.Svc.Catalog.CachedPages() - before; n != want {
			t.Fatalf("%s: %d more cached pages after a first and a second page, want %d", e.Backend, n, want)
		}
	})
}

// TestWalkWhileWriting walks every sort with limit=7 while other goroutines add
// and delete products: each product that existed for the whole walk is seen
// exactly once.
func TestWalkWhileWriting(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	stable := map[float64]bool{}
	for i := 0; i < 40; i++ {
		p := e.Product(sid, 0, fmt.Sprintf("Stable %02d", i), app.Money(100*(i%9)+1), 1)
		stable[float64(p.ID)] = true
	}
	for _, sort := range app.ProductSorts {
		if sort == app.SortRelevance { // needs q: TestSearch walks it
			continue
		}
		t.Run(sort, func(t *testing.T) {
			stop := make(chan struct{})
			var wg sync.WaitGroup
			var churn atomic.Int64
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					name := fmt.Sprintf("Churn %s %d", sort, i)
					price := app.Money(i % 1000)
					stock := int64(1)
					p, err := e.Svc.Catalog.SaveProduct(sid, 0, app.ProductInput{Name: &name, Price: &price, Stock: &stock})
					if err != nil {
						t.Error(err)
						return
					}
					if i%2 == 0 {
						if err := e.Svc.Catalog.DeleteProduct(sid, p.ID); err != nil {
							t.Error(err)
							return
						}
					}
					churn.Add(1)
				}
			}()
			seen := map[float64]int{}
			cursor := ""
			for {
				p := site + "/products/?limit=7&sort=" + sort
				if cursor != "" {
					p += "&cursor=" + url.QueryEscape(cursor)
				}
				var l productList
				e.Do(testenv.Req{Method: "GET", Path: p, Key: key}).Expect(t, 200, "").Decode(t, &l)
				for _, it := range l.Items {
					seen[it["id"].(float64)]++
				}
				if !l.HasMore {
					break
				}
				cursor = *l.NextCursor
			}
			close(stop)
			wg.Wait()
			for id := range stable {
				if seen[id] != 1 {
					t.Errorf("stable product %v seen %d times", id, seen[id])
				}
			}
			for id, n := range seen {
				if n > 1 {
					t.Errorf("product %v seen %d times", id, n)
				}
			}
		})
	}
}

func TestAPIRateLimit(t *testing.T) {
	t.Parallel()
	e := testenv.NewWith(t, testenv.Options{Web: web.Config{APIPerSecond: 3}})
	_, key := e.Store("Shop A")
	for i := 0; i < 3; i++ {
		e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: key}).Expect(t, 200, "")
	}
	r := e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: key}).Expect(t, 429, "rate_limited")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
}

func TestBodyLimitAndBadJSON(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	// a raw request announcing a body over the limit: the server answers 413
	// from the Content-Length alone, before reading (or the client writing) it
	base := strings.TrimPrefix(e.Listen(), "http://")
	conn, err := net.Dial("tcp", base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/admin/auth/login/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", web.BodyLimit+10)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || !strings.Contains(string(body), `"error_code":"payload_too_large"`) {
		t.Fatalf("got %d %s, want 413 payload_too_large", resp.StatusCode, body)
	}
	e.Do(testenv.Req{Method: "POST", Path: "/api/v1/admin/auth/login/", Body: "{nope"}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "POST", Path: "/api/v1/admin/auth/login/", Body: `{"email":1}`}).Expect(t, 400, "validation_failed")
	// errors name the problem, never Go's types
	_, key := e.Store("Shop A")
	for _, body := range []string{`[]`, `{"name":`, `"x"`} {
		r := e.Do(testenv.Req{Method: "POST", Path: site + "/contact/", Key: key, Body: body}).Expect(t, 400, "validation_failed")
		if strings.Contains(string(r.Raw), "Go value") || strings.Contains(string(r.Raw), "app.") {
			t.Fatalf("%s: internal names in %s", body, r.Raw)
		}
	}
}

func TestTokenKindsDoNotMix(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	_, shopperTok := e.Shopper(sid, "a@example.com")
	// an admin token is not a shopper token
	if _, err := e.Svc.Tokens.Verify(e.OwnerToken, app.TokenShopper); app.ErrorCode(err) != app.EUnauthorized {
		t.Fatalf("admin token verified as shopper: %v", err)
	}
	// and a shopper token is refused by the admin API
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/stores/", Token: shopperTok}).Expect(t, 401, "unauthorized")
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/admin/stores/", Token: e.OwnerToken}).Expect(t, 200, "")
}

func FuzzProductsQuery(f *testing.F) {
	e := testenv.New(f)
	sid, key := e.Store("Shop A")
	for i := 0; i < 5; i++ {
		e.Product(sid, 0, fmt.Sprintf("P %d", i), app.Money(i*100), int64(i))
	}
	for _, q := range []string{"limit=2", "sort=price_desc&limit=1", "q=p&in_stock=true", "min_price=1.5&max_price=x", "cursor=AAAA", "fields=id,name,variants,reviews", "limit=-1", "category_id=99"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		u, err := url.ParseQuery(q)
		if err != nil || len(u.Encode()) > 2000 { // request lines past 4 KiB are fasthttp's 431
			return
		}
		r := e.With(t).Do(testenv.Req{Method: "GET", Path: site + "/products/?" + u.Encode(), Key: key})
		if r.Status != 200 && r.Status != 400 {
			t.Fatalf("%q: got %d: %s", q, r.Status, r.Raw)
		}
	})
}
