package web_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

type ctList struct {
	Items      []map[string]any `json:"items"`
	NextCursor *string          `json:"next_cursor"`
	HasMore    bool             `json:"has_more"`
}

func ctGet(t *testing.T, e *testenv.Env, key, path string) ctList {
	t.Helper()
	var l ctList
	e.Do(testenv.Req{Method: "GET", Path: path, Key: key}).Expect(t, 200, "").Decode(t, &l)
	return l
}

func ctField(items []map[string]any, name string) string {
	var out []string
	for _, it := range items {
		b, _ := json.Marshal(it[name])
		out = append(out, strings.Trim(string(b), `"`))
	}
	return strings.Join(out, ",")
}

func ctPtr[T any](v T) *T { return &v }

func ctPost(t *testing.T, e *testenv.Env, sid uint64, title, status string) *app.BlogPost {
	t.Helper()
	p, err := e.Svc.Content.SavePost(sid, 0, app.BlogPostInput{Title: ctPtr(title), Content: ctPtr("body of " + title),
		Excerpt: ctPtr("short"), Tags: &[]string{"news"}, Status: ctPtr(status), CoverImage: ctPtr("https://img.example/c.jpg")})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBlogPosts(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	ctPost(t, e, sid, "First", app.PostPublished)
	e.Advance(time.Minute)
	draft := ctPost(t, e, sid, "Draft", app.PostDraft)
	e.Advance(time.Minute)
	ctPost(t, e, sid, "Second", app.PostPublished)
	e.Advance(time.Minute)
	ctPost(t, e, sid, "Third", app.PostPublished)
	e.Advance(time.Minute)
	// publishing the draft now puts it first
	if _, err := e.Svc.Content.SavePost(sid, draft.ID, app.BlogPostInput{Status: ctPtr(app.PostPublished)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Content.SavePost(sid, 0, app.BlogPostInput{Title: ctPtr("Hidden"), Status: ctPtr(app.PostDraft)}); err != nil {
		t.Fatal(err)
	}
	base := api + "/blog-posts/"

	t.Run("ListNewestPublishedFirst", func(t *testing.T) {
		l := ctGet(t, e, key, base)
		if got := ctField(l.Items, "slug"); got != "draft,third,second,first" {
			t.Fatalf("got %s, want draft,third,second,first", got)
		}
		if _, has := l.Items[0]["content"]; has {
			t.Fatalf("list item has content without fields: %v", l.Items[0])
		}
		if l.Items[1]["status"] != "PUBLISHED" || l.Items[1]["cover_image"] != "https://img.example/c.jpg" || l.Items[1]["published_at"] == nil {
			t.Fatalf("got %v", l.Items[1])
		}
	})
	t.Run("FieldsContent", func(t *testing.T) {
		l := ctGet(t, e, key, base+"?fields=title,content")
		if l.Items[0]["content"] != "body of Draft" || l.Items[0]["id"] == nil || l.Items[0]["slug"] != nil {
			t.Fatalf("got %v, want id, title and content", l.Items[0])
		}
	})
	t.Run("Walk", func(t *testing.T) {
		got, cursor := "", ""
		for i := 0; i < 5; i++ {
			path := base + "?limit=3"
			if cursor != "" {
				path += "&cursor=" + url.QueryEscape(cursor)
			}
			l := ctGet(t, e, key, path)
			got += ctField(l.Items, "slug") + ";"
			if !l.HasMore {
				break
			}
			cursor = *l.NextCursor
		}
		if got != "draft,third,second;first;" {
			t.Fatalf("got %s", got)
		}
	})
	t.Run("LimitClamps", func(t *testing.T) {
		if l := ctGet(t, e, key, base+"?limit=5000"); len(l.Items) != 4 || l.HasMore {
			t.Fatalf("got %d items, has_more %v", len(l.Items), l.HasMore)
		}
	})
	for _, tc := range []struct{ name, path string }{
		{"ErrBadCursor", base + "?cursor=bogus"},
		{"ErrLimitZero", base + "?limit=0"},
		{"ErrBadSort", base + "?sort=price_asc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "GET", Path: tc.path, Key: key}).Expect(t, 400, "validation_failed")
		})
	}
	t.Run("ErrCursorOfAnotherList", func(t *testing.T) {
		e.Svc.Content.SaveBundle(sid, 0, app.BundleInput{}) // invalid: no effect
		l := ctGet(t, e, key, base+"?limit=1")
		e.Do(testenv.Req{Method: "GET", Path: api + "/bundles/?cursor=" + url.QueryEscape(*l.NextCursor), Key: key}).Expect(t, 400, "validation_failed")
	})
	t.Run("Detail", func(t *testing.T) {
		var p map[string]any
		e.Do(testenv.Req{Method: "GET", Path: base + "second/", Key: key}).Expect(t, 200, "").Decode(t, &p)
		if p["content"] != "body of Second" || p["title"] != "Second" || ctField([]map[string]any{p}, "tags") != `["news"]` {
			t.Fatalf("got %v", p)
		}
		e.Do(testenv.Req{Method: "GET", Path: base + "second", Key: key}).Expect(t, 200, "")
	})
	t.Run("ErrDraftSlug", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: base + "hidden/", Key: key}).Expect(t, 404, "not_found")
	})
	t.Run("ErrUnknownSlug", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: base + "nope/", Key: key}).Expect(t, 404, "not_found")
	})
	t.Run("ErrOtherStore", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: base + "second/", Key: keyB}).Expect(t, 404, "not_found")
		if l := ctGet(t, e, keyB, base); len(l.Items) != 0 {
			t.Fatalf("store B sees %d posts, want 0", len(l.Items))
		}
	})
	t.Run("ErrNoKey", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: base}).Expect(t, 401, "invalid_api_key")
		e.Do(testenv.Req{Method: "GET", Path: base + "second/"}).Expect(t, 401, "invalid_api_key")
	})
}

func ctDeal(t *testing.T, e *testenv.Env, sid, pid uint64, price string, from, to time.Duration) app.FlashDealView {
	t.Helper()
	now := e.Now()
	d, err := e.Svc.Content.SaveDeal(sid, 0, app.FlashDealInput{Title: ctPtr("Deal " + price), ProductID: &pid,
		DealPrice: ctPtr(mustMoney(t, price)), StartsAt: ctPtr(now.Add(from).Format(time.RFC3339)), EndsAt: ctPtr(now.Add(to).Format(time.RFC3339))})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustMoney(t *testing.T, s string) app.Money {
	m, err := app.ParseMoney(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFlashDeals(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Lamp", 2000, 10)
	q := e.Product(sid, 0, "Rug", 5000, 10)
	off := e.Product(sid, 0, "Gone", 5000, 10)
	ctDeal(t, e, sid, p.ID, "15.00", -time.Hour, 2*time.Hour)
	ctDeal(t, e, sid, q.ID, "40.00", 0, time.Hour)
	ctDeal(t, e, sid, p.ID, "12.00", 5*time.Hour, 6*time.Hour)    // future
	ctDeal(t, e, sid, q.ID, "30.00", -2*time.Hour, -time.Hour)    // over
	ctDeal(t, e, sid, off.ID, "30.00", -2*time.Hour, 3*time.Hour) // product deactivated below
	if _, err := e.Svc.Catalog.SaveProduct(sid, off.ID, app.ProductInput{IsActive: ctPtr(false)}); err != nil {
		t.Fatal(err)
	}
	base := api + "/flash-deals/"

	t.Run("ActiveSoonestEndFirst", func(t *testing.T) {
		l := ctGet(t, e, key, base)
		if got := ctField(l.Items, "deal_price"); got != "40.00,15.00" {
			t.Fatalf("got %s, want 40.00,15.00", got)
		}
		it := l.Items[1]
		prod, _ := it["product"].(map[string]any)
		if it["regular_price"] != "20.00" || it["variant_id"] != nil || prod["name"] != "Lamp" || prod["slug"] != p.Slug || prod["price"] != "20.00" || prod["images"] == nil {
			t.Fatalf("got %v", it)
		}
	})
	t.Run("Walk", func(t *testing.T) {
		l := ctGet(t, e, key, base+"?limit=1")
		if !l.HasMore || ctField(l.Items, "deal_price") != "40.00" {
			t.Fatalf("page 1: got %v", l)
		}
		l = ctGet(t, e, key, base+"?limit=1&cursor="+url.QueryEscape(*l.NextCursor))
		if l.HasMore || ctField(l.Items, "deal_price") != "15.00" {
			t.Fatalf("page 2: got %v", l)
		}
	})
	t.Run("LimitClamps", func(t *testing.T) {
		if l := ctGet(t, e, key, base+"?limit=101"); len(l.Items) != 2 {
			t.Fatalf("got %d items, want 2", len(l.Items))
		}
	})
	t.Run("ErrBadCursor", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: base + "?cursor=AAAA", Key: key}).Expect(t, 400, "validation_failed")
	})
	t.Run("ErrOtherStore", func(t *testing.T) {
		if l := ctGet(t, e, keyB, base); len(l.Items) != 0 {
			t.Fatalf("store B sees %d deals, want 0", len(l.Items))
		}
	})
	t.Run("ErrNoKey", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: base}).Expect(t, 401, "invalid_api_key")
	})
	t.Run("Later", func(t *testing.T) {
		e.Advance(5*time.Hour + time.Minute) // the first two ended, the future one runs
		if got := ctField(ctGet(t, e, key, base).Items, "deal_price"); got != "12.00" {
			t.Fatalf("got %s, want 12.00", got)
		}
	})
}

// TestFlashDealPricing: while a deal runs, cart and checkout price the product
// at the deal price; after it ends, the deal price is 409 price_changed.
func TestFlashDealPricing(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, tok := e.Shopper(sid, "ada@example.com")
	p := e.Product(sid, 0, "Lamp", 2000, 10)
	other := e.Product(sid, 0, "Rug", 5000, 10)
	ctDeal(t, e, sid, p.ID, "15.00", 0, 10*time.Minute) // within the access token's life

	var item struct {
		Item struct {
			UnitPrice string `json:"unit_price"`
			LineTotal string `json:"line_total"`
		} `json:"item"`
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/cart/items/", Key: key, Token: tok, Body: map[string]any{"product_id": p.ID, "quantity": 2}}).
		Expect(t, 200, "").Decode(t, &item)
	if item.Item.UnitPrice != "15.00" || item.Item.LineTotal != "30.00" {
		t.Fatalf("added: got %+v, want 15.00 x 2", item.Item)
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/cart/items/", Key: key, Token: tok, Body: map[string]any{"product_id": other.ID}}).Expect(t, 200, "")
	var cart struct {
		Subtotal string `json:"subtotal"`
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &cart)
	if cart.Subtotal != "80.00" {
		t.Fatalf("cart subtotal: got %s, want 80.00", cart.Subtotal)
	}

	body := func() map[string]any {
		b := order(1, p)
		b["items"].([]map[string]any)[0]["unit_price"] = "15.00"
		return b
	}
	var res initiated
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: body()}).Expect(t, 200, "").Decode(t, &res)
	if o := e.Order(sid, res.OrderID); o.Total != 1500 || o.Items[0].UnitPrice != 1500 {
		t.Fatalf("order: got total %s unit %s, want 15.00", o.Total, o.Items[0].UnitPrice)
	}
	// the regular price while the deal runs is 409 too
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p)}).Expect(t, 409, "price_changed")
	if got := r.Body.Errors["items[0].unit_price"]; got != "15.00" {
		t.Fatalf("during the deal: got %q, want 15.00", got)
	}

	e.Advance(10 * time.Minute) // ends_at is exclusive
	r = e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: body()}).Expect(t, 409, "price_changed")
	if got := r.Body.Errors["items[0].unit_price"]; got != "20.00" {
		t.Fatalf("after the deal: got %q, want 20.00", got)
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &cart)
	if cart.Subtotal != "90.00" {
		t.Fatalf("cart after the deal: got %s, want 90.00", cart.Subtotal)
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: order(1, p)}).Expect(t, 200, "")
}

// TestFlashDealVariant: a deal on one variant prices that variant only.
func TestFlashDealVariant(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, tok := e.Shopper(sid, "ada@example.com")
	p, err := e.Svc.Catalog.SaveProduct(sid, 0, app.ProductInput{Name: ctPtr("Shirt"), Price: ctPtr(app.Money(3000)), Stock: ctPtr(int64(5)),
		Variants: &[]app.VariantInput{{Name: "S", Stock: 5}, {Name: "L", Stock: 5, Price: ctPtr(app.Money(3500))}}})
	if err != nil {
		t.Fatal(err)
	}
	small, large := p.Variants[0].ID, p.Variants[1].ID
	now := e.Now()
	if _, err := e.Svc.Content.SaveDeal(sid, 0, app.FlashDealInput{Title: ctPtr("L off"), ProductID: &p.ID, VariantID: &large,
		DealPrice: ctPtr(app.Money(2500)), StartsAt: ctPtr(now.Format(time.RFC3339)), EndsAt: ctPtr(now.Add(time.Hour).Format(time.RFC3339))}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		variant uint64
		want    string
	}{{small, "30.00"}, {large, "25.00"}} {
		var item struct {
			Item struct {
				UnitPrice string `json:"unit_price"`
			} `json:"item"`
		}
		e.Do(testenv.Req{Method: "POST", Path: api + "/cart/items/", Key: key, Token: tok, Body: map[string]any{"product_id": p.ID, "variant_id": tc.variant}}).
			Expect(t, 200, "").Decode(t, &item)
		if item.Item.UnitPrice != tc.want {
			t.Fatalf("variant %d: got %s, want %s", tc.variant, item.Item.UnitPrice, tc.want)
		}
	}
	l := ctGet(t, e, key, api+"/flash-deals/")
	if len(l.Items) != 1 || l.Items[0]["regular_price"] != "35.00" || l.Items[0]["variant_id"] != float64(large) {
		t.Fatalf("got %v", l.Items)
	}
	// the product reads show what the cart charges: each variant its own
	// deal_price (null for S), the product's none (no deal covers them all)
	type variant struct {
		ID        uint64  `json:"id"`
		Price     string  `json:"price"`
		DealPrice *string `json:"deal_price"`
	}
	type product struct {
		ID        uint64    `json:"id"`
		DealPrice *string   `json:"deal_price"`
		Variants  []variant `json:"variants"`
	}
	check := func(name string, pr product) {
		t.Helper()
		if pr.DealPrice != nil || len(pr.Variants) != 2 || pr.Variants[0].DealPrice != nil ||
			pr.Variants[1].DealPrice == nil || *pr.Variants[1].DealPrice != "25.00" || pr.Variants[1].Price != "35.00" {
			t.Fatalf("%s: %+v", name, pr)
		}
	}
	var detail product
	e.Do(testenv.Req{Method: "GET", Path: api + "/products/" + p.Slug + "/", Key: key}).Expect(t, 200, "").Decode(t, &detail)
	check("detail", detail)
	for _, path := range []string{"/products/?fields=variants,deal_price", "/products/?fields=variants"} {
		var list struct{ Items []product }
		e.Do(testenv.Req{Method: "GET", Path: api + path, Key: key}).Expect(t, 200, "").Decode(t, &list)
		if len(list.Items) != 1 {
			t.Fatalf("%s: %d items", path, len(list.Items))
		}
		check(path, list.Items[0])
	}
	// once the deal has ended, the variants are as stored
	e.Advance(2 * time.Hour)
	var after product
	e.Do(testenv.Req{Method: "GET", Path: api + "/products/" + p.Slug + "/", Key: key}).Expect(t, 200, "").Decode(t, &after)
	if len(after.Variants) != 2 || after.Variants[1].DealPrice != nil {
		t.Fatalf("after the deal: %+v", after)
	}
}

func TestBundles(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	a := e.Product(sid, 0, "Cup", 1000, 10)
	b := e.Product(sid, 0, "Saucer", 500, 10)
	c := e.Product(sid, 0, "Tray", 3000, 10)
	mk := func(name string, active bool, items ...app.BundleItem) {
		t.Helper()
		if _, err := e.Svc.Content.SaveBundle(sid, 0, app.BundleInput{Name: ctPtr(name), Items: &items, Price: ctPtr(app.Money(2000)),
			IsActive: &active, Images: &[]string{"https://img.example/b.jpg"}}); err != nil {
			t.Fatal(err)
		}
	}
	mk("Tea set", true, app.BundleItem{ProductID: a.ID, Quantity: 2}, app.BundleItem{ProductID: b.ID, Quantity: 2})
	mk("Hidden set", false, app.BundleItem{ProductID: a.ID, Quantity: 1})
	mk("Tray set", true, app.BundleItem{ProductID: c.ID, Quantity: 1}, app.BundleItem{ProductID: a.ID, Quantity: 1})
	mk("Broken set", true, app.BundleItem{ProductID: c.ID, Quantity: 1})
	mk("Cup only", true, app.BundleItem{ProductID: a.ID, Quantity: 3})
	if err := e.Svc.Catalog.DeleteProduct(sid, c.ID); err != nil { // hides the bundles that hold it
		t.Fatal(err)
	}
	base := api + "/bundles/"
	t.Run("ActiveNewestFirst", func(t *testing.T) {
		l := ctGet(t, e, key, base)
		if got := ctField(l.Items, "slug"); got != "cup-only,tea-set" {
			t.Fatalf("got %s, want cup-only,tea-set", got)
		}
		tea := l.Items[1]
		items, _ := tea["items"].([]any)
		first, _ := items[0].(map[string]any)
		if tea["price"] != "20.00" || tea["regular_total"] != "30.00" || len(items) != 2 || first["name"] != "Cup" || first["unit_price"] != "10.00" || first["quantity"] != 2.0 {
			t.Fatalf("got %v", tea)
		}
	})
	t.Run("Walk", func(t *testing.T) {
		l := ctGet(t, e, key, base+"?limit=1")
		l2 := ctGet(t, e, key, base+"?limit=1&cursor="+url.QueryEscape(*l.NextCursor))
		if ctField(l.Items, "slug") != "cup-only" || ctField(l2.Items, "slug") != "tea-set" || l2.HasMore {
			t.Fatalf("got %v then %v", l, l2)
		}
	})
	t.Run("LimitClamps", func(t *testing.T) {
		var l ctList // a limit past int64, off the document on purpose: it is clamped
		e.Do(testenv.Req{Method: "GET", Path: base + "?limit=100000000000000000000", Key: key, OffContract: true}).Expect(t, 200, "").Decode(t, &l)
		if len(l.Items) != 2 {
			t.Fatalf("got %d, want 2", len(l.Items))
		}
	})
	t.Run("ErrBadCursor", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: base + "?cursor=xyz", Key: key}).Expect(t, 400, "validation_failed")
	})
	t.Run("ErrOtherStore", func(t *testing.T) {
		if l := ctGet(t, e, keyB, base); len(l.Items) != 0 {
			t.Fatalf("store B sees %d bundles", len(l.Items))
		}
	})
	t.Run("ErrNoKey", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: base}).Expect(t, 401, "invalid_api_key")
	})
}
