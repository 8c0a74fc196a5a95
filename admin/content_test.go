package admin_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

func ctPath(sid uint64, res string) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d/%s/", sid, res)
}

type ctRow struct {
	name   string
	method string
	path   string
	body   any
	status int
	code   string
	field  string
}

func ctRun(t *testing.T, e *testenv.Env, tok string, rows []ctRow) {
	t.Helper()
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: tc.method, Path: tc.path, Token: tok, Body: tc.body}).Expect(t, tc.status, tc.code)
			if tc.field != "" {
				if _, has := r.Body.Errors[tc.field]; !has {
					t.Fatalf("errors: got %v, want a message for %s", r.Body.Errors, tc.field)
				}
			}
		})
	}
}

type ctListData struct {
	Items      []map[string]any `json:"items"`
	NextCursor *string          `json:"next_cursor"`
	HasMore    bool             `json:"has_more"`
}

func TestAdminBlogPosts(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staff, staffB := e.Staff(sid, "a@example.com"), e.Staff(sidB, "b@example.com")
	base := ctPath(sid, "blog-posts")
	var p map[string]any
	e.Do(testenv.Req{Method: "POST", Path: base, Token: staff, Body: map[string]any{"title": "Hello World", "content": "Body", "tags": []string{"a", " ", "b"}}}).
		Expect(t, 201, "").Decode(t, &p)
	if p["status"] != "DRAFT" || p["slug"] != "hello-world" || p["published_at"] != nil || p["content"] != "Body" || fmt.Sprint(p["tags"]) != "[a b]" {
		t.Fatalf("created: got %v", p)
	}
	one := fmt.Sprintf("%s%v/", base, p["id"])
	e.Do(testenv.Req{Method: "GET", Path: sitePath + "/blog-posts/hello-world/", Key: key}).Expect(t, 404, "not_found")
	e.Advance(time.Hour)
	e.Do(testenv.Req{Method: "PATCH", Path: one, Token: staff, Body: map[string]any{"status": "PUBLISHED"}}).Expect(t, 200, "").Decode(t, &p)
	published := p["published_at"]
	if published != app.UTC(e.Now()).Format(time.RFC3339) || p["content"] != "Body" {
		t.Fatalf("published: got %v", p)
	}
	e.Do(testenv.Req{Method: "GET", Path: sitePath + "/blog-posts/hello-world/", Key: key}).Expect(t, 200, "")
	e.Advance(time.Hour)
	e.Do(testenv.Req{Method: "PATCH", Path: one, Token: staff, Body: map[string]any{"title": "Hello again"}}).Expect(t, 200, "").Decode(t, &p)
	if p["published_at"] != published || p["title"] != "Hello again" || p["slug"] != "hello-world" {
		t.Fatalf("edited: got %v, want published_at kept", p)
	}
	e.Do(testenv.Req{Method: "POST", Path: base, Token: staff, Body: map[string]any{"title": "Second"}}).Expect(t, 201, "")
	var l ctListData
	e.Do(testenv.Req{Method: "GET", Path: base + "?limit=1", Token: staff}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 1 || l.Items[0]["slug"] != "second" || !l.HasMore {
		t.Fatalf("list: got %v", l)
	}
	e.Do(testenv.Req{Method: "GET", Path: base + "?limit=1&cursor=" + url.QueryEscape(*l.NextCursor), Token: staff}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 1 || l.Items[0]["slug"] != "hello-world" || l.HasMore {
		t.Fatalf("page 2: got %v", l)
	}
	long := make([]string, 21)
	for i := range long {
		long[i] = fmt.Sprint("t", i)
	}
	ctRun(t, e, staff, []ctRow{
		{"ErrNoTitle", "POST", base, map[string]any{"content": "x"}, 400, "validation_failed", "title"},
		{"ErrBadSlug", "POST", base, map[string]any{"title": "X", "slug": "Not A Slug"}, 400, "validation_failed", "slug"},
		{"ErrSlugTaken", "POST", base, map[string]any{"title": "Hello World"}, 409, "conflict", "slug"},
		{"ErrCoverImage", "POST", base, map[string]any{"title": "X", "cover_image": "ftp://x/y.png"}, 400, "validation_failed", "cover_image"},
		{"ErrStatus", "POST", base, map[string]any{"title": "X", "status": "LIVE"}, 400, "validation_failed", "status"},
		{"ErrTags", "POST", base, map[string]any{"title": "X", "tags": long}, 400, "validation_failed", "tags"},
		{"ErrBadJSON", "POST", base, "{", 400, "validation_failed", ""},
		{"ErrBadCursor", "GET", base + "?cursor=zz", nil, 400, "validation_failed", ""},
		{"ErrUnknown", "GET", base + "999/", nil, 404, "not_found", ""},
		{"ErrPatchSlugTaken", "PATCH", one, map[string]any{"slug": "second"}, 409, "conflict", "slug"},
	})
	ctRun(t, e, staffB, []ctRow{
		{"ErrOtherStaffGet", "GET", one, nil, 404, "not_found", ""},
		{"ErrOtherStaffList", "GET", base, nil, 404, "not_found", ""},
		{"ErrOtherStaffPatch", "PATCH", one, map[string]any{"title": "Mine"}, 404, "not_found", ""},
		{"ErrOtherStaffDelete", "DELETE", one, nil, 404, "not_found", ""},
		{"ErrOtherStoreID", "GET", fmt.Sprintf("%s%v/", ctPath(sidB, "blog-posts"), p["id"]), nil, 404, "not_found", ""},
	})
	ctRun(t, e, "", []ctRow{
		{"ErrNoToken", "GET", base, nil, 401, "unauthorized", ""},
		{"ErrNoTokenPost", "POST", base, map[string]any{"title": "X"}, 401, "unauthorized", ""},
	})
	ctRun(t, e, staff, []ctRow{
		{"Delete", "DELETE", one, nil, 200, "", ""},
		{"ErrDeleted", "GET", one, nil, 404, "not_found", ""},
		{"ErrDeleteAgain", "DELETE", one, nil, 404, "not_found", ""},
		{"SlugFreeAgain", "POST", base, map[string]any{"title": "Hello World"}, 201, "", ""},
	})
}

func TestAdminFlashDeals(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staff, staffB := e.Staff(sid, "a@example.com"), e.Staff(sidB, "b@example.com")
	p := e.Product(sid, 0, "Lamp", 2000, 10)
	e.Product(sidB, 0, "Filler", 2000, 10) // ids are per store: pB's id is unknown in store A
	pB := e.Product(sidB, 0, "Other", 2000, 10)
	base := ctPath(sid, "flash-deals")
	now := e.Now()
	at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339) }
	deal := func(over map[string]any) map[string]any {
		b := map[string]any{"title": "Lamp day", "product_id": p.ID, "deal_price": "15.00", "starts_at": at(0), "ends_at": at(time.Hour)}
		for k, v := range over {
			b[k] = v
		}
		return b
	}
	var d map[string]any
	e.Do(testenv.Req{Method: "POST", Path: base, Token: staff, Body: deal(nil)}).Expect(t, 201, "").Decode(t, &d)
	prod, _ := d["product"].(map[string]any)
	if d["deal_price"] != "15.00" || d["regular_price"] != "20.00" || d["variant_id"] != nil || prod["name"] != "Lamp" {
		t.Fatalf("created: got %v", d)
	}
	one := fmt.Sprintf("%s%v/", base, d["id"])
	e.Do(testenv.Req{Method: "PATCH", Path: one, Token: staff, Body: map[string]any{"deal_price": 12}}).Expect(t, 200, "").Decode(t, &d)
	if d["deal_price"] != "12.00" || d["ends_at"] != at(time.Hour) {
		t.Fatalf("patched: got %v", d)
	}
	var l ctListData
	e.Do(testenv.Req{Method: "GET", Path: sitePath + "/flash-deals/", Key: key}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 1 || l.Items[0]["deal_price"] != "12.00" {
		t.Fatalf("storefront: got %v", l.Items)
	}
	// moving the end re-indexes the deal: ended deals leave the storefront
	e.Do(testenv.Req{Method: "PATCH", Path: one, Token: staff, Body: map[string]any{"starts_at": at(-2 * time.Hour), "ends_at": at(-time.Hour)}}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "GET", Path: sitePath + "/flash-deals/", Key: key}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 0 {
		t.Fatalf("storefront after the end: got %v", l.Items)
	}
	e.Do(testenv.Req{Method: "GET", Path: base, Token: staff}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 1 {
		t.Fatalf("admin list: got %v", l.Items)
	}
	ctRun(t, e, staff, []ctRow{
		{"ErrPriceNotBelow", "POST", base, deal(map[string]any{"deal_price": "20.00"}), 400, "validation_failed", "deal_price"},
		{"ErrPriceNegative", "POST", base, deal(map[string]any{"deal_price": "-1.00"}), 400, "validation_failed", "deal_price"},
		{"ErrEndBeforeStart", "POST", base, deal(map[string]any{"ends_at": at(-time.Minute)}), 400, "validation_failed", "ends_at"},
		{"ErrEndEqualsStart", "POST", base, deal(map[string]any{"ends_at": at(0)}), 400, "validation_failed", "ends_at"},
		{"ErrNoStart", "POST", base, deal(map[string]any{"starts_at": nil}), 400, "validation_failed", "starts_at"},
		{"ErrBadTime", "POST", base, deal(map[string]any{"ends_at": "tomorrow"}), 400, "validation_failed", "ends_at"},
		{"ErrNoTitle", "POST", base, deal(map[string]any{"title": " "}), 400, "validation_failed", "title"},
		{"ErrUnknownProduct", "POST", base, deal(map[string]any{"product_id": 999}), 400, "validation_failed", "product_id"},
		{"ErrOtherStoreProduct", "POST", base, deal(map[string]any{"product_id": pB.ID}), 400, "validation_failed", "product_id"},
		{"ErrNoProduct", "POST", base, deal(map[string]any{"product_id": nil}), 400, "validation_failed", "product_id"},
		{"ErrBadVariant", "POST", base, deal(map[string]any{"variant_id": 77}), 400, "validation_failed", "variant_id"},
		{"ErrPatchPrice", "PATCH", one, map[string]any{"deal_price": "25.00"}, 400, "validation_failed", "deal_price"},
		{"ErrUnknown", "GET", base + "999/", nil, 404, "not_found", ""},
	})
	ctRun(t, e, staffB, []ctRow{
		{"ErrOtherStaffGet", "GET", one, nil, 404, "not_found", ""},
		{"ErrOtherStaffPost", "POST", base, deal(nil), 404, "not_found", ""},
	})
	ctRun(t, e, e.OwnerToken, []ctRow{
		{"ErrOtherStoreID", "GET", fmt.Sprintf("%s%v/", ctPath(sidB, "flash-deals"), d["id"]), nil, 404, "not_found", ""},
		{"OwnerGet", "GET", one, nil, 200, "", ""},
	})
	ctRun(t, e, "", []ctRow{{"ErrNoToken", "GET", one, nil, 401, "unauthorized", ""}})
	ctRun(t, e, staff, []ctRow{
		{"Delete", "DELETE", one, nil, 200, "", ""},
		{"ErrDeleted", "GET", one, nil, 404, "not_found", ""},
	})
}

func TestAdminBundles(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	staff, staffB := e.Staff(sid, "a@example.com"), e.Staff(sidB, "b@example.com")
	a := e.Product(sid, 0, "Cup", 1000, 10)
	b := e.Product(sid, 0, "Saucer", 500, 10)
	for _, n := range []string{"F1", "F2"} { // ids are per store: pB's id is unknown in store A
		e.Product(sidB, 0, n, 500, 10)
	}
	pB := e.Product(sidB, 0, "Other", 500, 10)
	base := ctPath(sid, "bundles")
	bundle := func(over map[string]any) map[string]any {
		m := map[string]any{"name": "Tea Set", "price": "12.00", "images": []string{"https://img.example/t.jpg"},
			"items": []map[string]any{{"product_id": a.ID, "quantity": 1}, {"product_id": b.ID, "quantity": 2}}}
		for k, v := range over {
			m[k] = v
		}
		return m
	}
	var bd map[string]any
	e.Do(testenv.Req{Method: "POST", Path: base, Token: staff, Body: bundle(nil)}).Expect(t, 201, "").Decode(t, &bd)
	if bd["slug"] != "tea-set" || bd["is_active"] != true || bd["regular_total"] != "20.00" || bd["price"] != "12.00" {
		t.Fatalf("created: got %v", bd)
	}
	one := fmt.Sprintf("%s%v/", base, bd["id"])
	var l ctListData
	e.Do(testenv.Req{Method: "GET", Path: sitePath + "/bundles/", Key: key}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 1 {
		t.Fatalf("storefront: got %v", l.Items)
	}
	e.Do(testenv.Req{Method: "PATCH", Path: one, Token: staff, Body: map[string]any{"is_active": false}}).Expect(t, 200, "").Decode(t, &bd)
	e.Do(testenv.Req{Method: "GET", Path: sitePath + "/bundles/", Key: key}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 0 || bd["is_active"] != false {
		t.Fatalf("storefront after deactivating: got %v", l.Items)
	}
	e.Do(testenv.Req{Method: "GET", Path: base, Token: staff}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 1 {
		t.Fatalf("admin list: got %v", l.Items)
	}
	many := make([]map[string]any, 21)
	for i := range many {
		many[i] = map[string]any{"product_id": a.ID, "quantity": 1}
	}
	ctRun(t, e, staff, []ctRow{
		{"ErrSlugTaken", "POST", base, bundle(nil), 409, "conflict", "slug"},
		{"ErrNoName", "POST", base, bundle(map[string]any{"name": "", "slug": "x"}), 400, "validation_failed", "name"},
		{"ErrNoItems", "POST", base, bundle(map[string]any{"slug": "x", "items": []any{}}), 400, "validation_failed", "items"},
		{"ErrTooManyItems", "POST", base, bundle(map[string]any{"slug": "x", "items": many}), 400, "validation_failed", "items"},
		{"ErrUnknownProduct", "POST", base, bundle(map[string]any{"slug": "x", "items": []map[string]any{{"product_id": 999, "quantity": 1}}}), 400, "validation_failed", "items[0].product_id"},
		{"ErrOtherStoreProduct", "POST", base, bundle(map[string]any{"slug": "x", "items": []map[string]any{{"product_id": pB.ID, "quantity": 1}}}), 400, "validation_failed", "items[0].product_id"},
		{"ErrQuantity", "POST", base, bundle(map[string]any{"slug": "x", "items": []map[string]any{{"product_id": a.ID, "quantity": 0}}}), 400, "validation_failed", "items[0].quantity"},
		{"ErrVariant", "POST", base, bundle(map[string]any{"slug": "x", "items": []map[string]any{{"product_id": a.ID, "variant_id": 5, "quantity": 1}}}), 400, "validation_failed", "items[0].variant_id"},
		{"ErrImages", "POST", base, bundle(map[string]any{"slug": "x", "images": []string{"javascript:alert(1)"}}), 400, "validation_failed", "images"},
		{"ErrPrice", "POST", base, bundle(map[string]any{"slug": "x", "price": "-1"}), 400, "validation_failed", "price"},
		{"ErrUnknown", "PATCH", base + "999/", map[string]any{"name": "X"}, 404, "not_found", ""},
	})
	ctRun(t, e, staffB, []ctRow{
		{"ErrOtherStaffGet", "GET", one, nil, 404, "not_found", ""},
		{"ErrOtherStaffDelete", "DELETE", one, nil, 404, "not_found", ""},
	})
	ctRun(t, e, "", []ctRow{{"ErrNoToken", "DELETE", one, nil, 401, "unauthorized", ""}})
	ctRun(t, e, staff, []ctRow{
		{"Delete", "DELETE", one, nil, 200, "", ""},
		{"ErrDeleted", "GET", one, nil, 404, "not_found", ""},
		{"SlugFreeAgain", "POST", base, bundle(nil), 201, "", ""},
	})
}
