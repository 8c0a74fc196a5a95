package panel_test

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

var nextLinkRE = regexp.MustCompile(`href="([^"]*\?cursor=[^"]+)"`)

func TestPanelBlogPosts(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/blog-posts/", sid)
	newPage := base + "new/"
	b.get(fmt.Sprintf("/admin/stores/%d/", sid)).expect(t, 200, `href="`+base+`"`)
	b.get(base).expect(t, 200, "No blog posts yet.")
	b.get(newPage).expect(t, 200, "New blog post", `<option value="DRAFT" selected>`)

	p := b.submit(newPage, base, url.Values{"title": {"Summer <News>"}, "excerpt": {"Short"}, "content": {"Line one\nLine <two>"},
		"cover_image": {"https://img.example/c.jpg"}, "author": {"Ann"}, "tags": {" news, summer ,, "}, "status": {"PUBLISHED"}})
	posts, err := e.Svc.Content.Posts(sid, app.ListParams{Sort: app.SortNewest, Limit: 10})
	if err != nil || len(posts.Items) != 1 {
		t.Fatalf("got %d posts, %v; want 1", len(posts.Items), err)
	}
	bp := posts.Items[0]
	if bp.Title != "Summer <News>" || bp.Slug != "summer-news" || bp.Excerpt != "Short" || bp.Content != "Line one\nLine <two>" ||
		bp.CoverImage != "https://img.example/c.jpg" || bp.Author != "Ann" || strings.Join(bp.Tags, "|") != "news|summer" ||
		bp.Status != app.PostPublished || bp.PublishedAt == nil {
		t.Fatalf("got %+v", bp)
	}
	edit := fmt.Sprintf("%s%d/", base, bp.ID)
	p.redirectsTo(t, edit)
	b.get(edit).expect(t, 200, "Blog post “Summer &lt;News&gt;” created.", `value="news, summer"`, "Line &lt;two&gt;", `<option value="PUBLISHED" selected>`)
	b.get(base).expect(t, 200, "Summer &lt;News&gt;", "summer-news", "published", `<span class="tag">news</span>`)
	e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/blog-posts/summer-news/", Key: key}).Expect(t, 200, "")

	t.Run("Edit", func(t *testing.T) {
		b.submit(edit, edit, url.Values{"title": {"Summer News"}, "slug": {"summer"}, "content": {"New body"}, "tags": {""}, "status": {"DRAFT"}}).
			redirectsTo(t, edit)
		got, _ := e.Svc.Content.Post(sid, bp.ID)
		if got.Title != "Summer News" || got.Slug != "summer" || got.Content != "New body" || len(got.Tags) != 0 || got.Status != app.PostDraft ||
			got.CoverImage != "" || got.Author != "" {
			t.Fatalf("got %+v", got)
		}
		b.get(base).expect(t, 200, "draft")
		b.get(base+"999/").expect(t, 404)
	})
	t.Run("ErrValidationKeepsInput", func(t *testing.T) {
		p := b.submit(newPage, base, url.Values{"title": {""}, "slug": {"Bad Slug"}, "cover_image": {"not a url"},
			"content": {"typed <body>"}, "tags": {"a, b"}, "status": {"LIVE"}}).
			expect(t, 400, "validation failed", "must be lower-case letters", "must be an http(s) URL", "status")
		for _, s := range []string{`value="Bad Slug"`, `value="not a url"`, "typed &lt;body&gt;", `value="a, b"`} {
			if !strings.Contains(p.Body, s) {
				t.Fatalf("the form lost %s: %s", s, p.Body)
			}
		}
		b.submit(newPage, base, url.Values{"title": {"Other"}, "slug": {"summer"}, "status": {"DRAFT"}}).expect(t, 409)
		b.submit(edit, edit, url.Values{"title": {"Summer News"}, "slug": {"summer"}, "status": {"ARCHIVED"}}).expect(t, 400, "status")
		if got, _ := e.Svc.Content.Post(sid, bp.ID); got.Status != app.PostDraft {
			t.Fatalf("got status %s after a refused edit", got.Status)
		}
	})
	t.Run("ErrNoCSRF", func(t *testing.T) {
		b.do("POST", edit, url.Values{"title": {"Hacked"}, "status": {"DRAFT"}}).expect(t, 403, "Forbidden")
		b.do("POST", base, url.Values{"title": {"Hacked"}}).expect(t, 403)
		b.do("POST", edit+"delete/", url.Values{"confirm": {"yes"}}).expect(t, 403)
		got, err := e.Svc.Content.Post(sid, bp.ID)
		if err != nil || got.Title != "Summer News" {
			t.Fatalf("got %+v, %v; want the post unchanged", got, err)
		}
	})
	t.Run("StaffOfAnotherStore", func(t *testing.T) {
		s := staffBrowser(t, e, sidB)
		expectForeign(t, s, []string{base, newPage, edit}, []string{base, edit, edit + "delete/"},
			url.Values{"title": {"Hacked"}, "status": {"DRAFT"}, "confirm": {"yes"}})
		// A's post under B's store is not found either
		s.get(fmt.Sprintf("/admin/stores/%d/blog-posts/%d/", sidB, bp.ID)).expect(t, 404)
		if got, err := e.Svc.Content.Post(sid, bp.ID); err != nil || got.Title != "Summer News" {
			t.Fatalf("got %+v, %v; want the post unchanged", got, err)
		}
		staffBrowser(t, e, sid).get(edit).expect(t, 200, `value="Summer News"`)
	})
	t.Run("Paging", func(t *testing.T) {
		for i := 0; i < 30; i++ {
			title, status := fmt.Sprintf("Bulk %02d", i), app.PostDraft
			if _, err := e.Svc.Content.SavePost(sid, 0, app.BlogPostInput{Title: &title, Status: &status}); err != nil {
				t.Fatal(err)
			}
		}
		p := b.get(base).expect(t, 200, "Bulk 29", "Next page")
		m := nextLinkRE.FindStringSubmatch(p.Body)
		if m == nil {
			t.Fatalf("no next link")
		}
		p2 := b.get(strings.ReplaceAll(m[1], "&amp;", "&")).expect(t, 200, "Bulk 00", "Summer News", "First page")
		if strings.Contains(p2.Body, "Bulk 29") || strings.Contains(p2.Body, "Next page") {
			t.Fatalf("second page repeats the first or has a third")
		}
		b.get(base+"?cursor=bogus").expect(t, 400)
	})
	t.Run("Delete", func(t *testing.T) {
		b.submit(edit, edit+"delete/", url.Values{}).expect(t, 400, "confirm")
		b.submit(edit, edit+"delete/", url.Values{"confirm": {"yes"}}).redirectsTo(t, base)
		if _, err := e.Svc.Content.Post(sid, bp.ID); !app.IsNotFound(err) {
			t.Fatalf("got %v, want not found", err)
		}
		b.get(base).expect(t, 200, "Blog post “Summer News” deleted.")
		b.get(edit).expect(t, 404)
	})
}

func TestPanelFlashDeals(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	pr := e.Product(sid, 0, "Blue Mug", 2000, 10)
	other := e.Product(sid, 0, "Red Mug", 1000, 10)
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/flash-deals/", sid)
	newPage := base + "new/"
	b.get(base).expect(t, 200, "No flash deals yet.")
	b.get(newPage).expect(t, 200, "Starts at (UTC)", "in UTC, not your browser", `type="datetime-local"`, "Blue Mug", "Red Mug")

	start := e.Now().UTC().Truncate(time.Minute)
	end := start.Add(2 * time.Hour)
	const layout = "2006-01-02T15:04"
	p := b.submit(newPage, base, url.Values{"title": {"Mug <madness>"}, "product_id": {fmt.Sprint(pr.ID)}, "variant_id": {""},
		"deal_price": {"15"}, "starts_at": {start.Format(layout)}, "ends_at": {end.Format(layout)}})
	deals, err := e.Svc.Content.Deals(sid, app.ListParams{Sort: app.SortNewest, Limit: 10})
	if err != nil || len(deals.Items) != 1 {
		t.Fatalf("got %d deals, %v; want 1", len(deals.Items), err)
	}
	d := deals.Items[0]
	if d.Title != "Mug <madness>" || d.ProductID != pr.ID || d.VariantID != nil || d.DealPrice != 1500 ||
		!d.StartsAt.Equal(start) || !d.EndsAt.Equal(end) || d.RegularPrice != 2000 {
		t.Fatalf("got %+v, want 15.00 from %s to %s", d, start, end)
	}
	edit := fmt.Sprintf("%s%d/", base, d.ID)
	p.redirectsTo(t, edit)
	b.get(edit).expect(t, 200, "Flash deal “Mug &lt;madness&gt;” created.", "running now",
		`value="`+start.Format(layout)+`"`, `value="`+end.Format(layout)+`"`, `value="15.00"`)
	b.get(base).expect(t, 200, "Mug &lt;madness&gt;", "Blue Mug", "15.00 USD", "<s>20.00 USD</s>",
		start.Format("2006-01-02 15:04 UTC"), end.Format("2006-01-02 15:04 UTC"), "running")

	t.Run("Edit", func(t *testing.T) {
		later := start.Add(time.Hour)
		b.submit(edit, edit, url.Values{"title": {"Red deal"}, "product_id": {fmt.Sprint(other.ID)}, "deal_price": {"7.50"},
			"starts_at": {later.Format(layout) + ":00"}, "ends_at": {later.Add(time.Hour).Format(layout)}}).redirectsTo(t, edit)
		got, _ := e.Svc.Content.Deal(sid, d.ID)
		if got.Title != "Red deal" || got.ProductID != other.ID || got.DealPrice != 750 || !got.StartsAt.Equal(later) || !got.EndsAt.Equal(later.Add(time.Hour)) {
			t.Fatalf("got %+v", got)
		}
		b.get(base).expect(t, 200, "Red Mug", "7.50 USD", "<s>10.00 USD</s>", "upcoming")
		e.Advance(3 * time.Hour)
		b.get(base).expect(t, 200, "ended")
		b.get(base+"999/").expect(t, 404)
	})
	t.Run("ErrValidationKeepsInput", func(t *testing.T) {
		p := b.submit(newPage, base, url.Values{"title": {"Typed title"}, "product_id": {"abc"}, "deal_price": {"1.999"},
			"starts_at": {"tomorrow"}, "ends_at": {""}}).
			expect(t, 400, "must be a product id", "must be an amount like 12.50", "must be a date and time", "ends_at")
		for _, s := range []string{`value="Typed title"`, `value="abc"`, `value="1.999"`, `value="tomorrow"`} {
			if !strings.Contains(p.Body, s) {
				t.Fatalf("the form lost %s: %s", s, p.Body)
			}
		}
		// the service's rules: below the regular price, ends after starts, a product of this store
		p = b.submit(newPage, base, url.Values{"title": {"Too dear"}, "product_id": {fmt.Sprint(pr.ID)}, "deal_price": {"25.00"},
			"starts_at": {end.Format(layout)}, "ends_at": {start.Format(layout)}}).expect(t, 400, "below the regular price 20.00", "must be after starts_at")
		if !strings.Contains(p.Body, `value="25.00"`) {
			t.Fatalf("the form lost the price: %s", p.Body)
		}
		b.submit(newPage, base, url.Values{"title": {"Unknown"}, "product_id": {"999"}, "deal_price": {"1.00"},
			"starts_at": {start.Format(layout)}, "ends_at": {end.Format(layout)}}).expect(t, 400, "unknown product")
		b.submit(edit, edit, url.Values{"title": {"Red deal"}, "product_id": {fmt.Sprint(other.ID)}, "variant_id": {"77"}, "deal_price": {"1.00"},
			"starts_at": {start.Format(layout)}, "ends_at": {end.Format(layout)}}).expect(t, 400, "is not a variant of this product", `value="77"`)
		if page, _ := e.Svc.Content.Deals(sid, app.ListParams{Sort: app.SortNewest, Limit: 10}); len(page.Items) != 1 || page.Items[0].DealPrice != 750 {
			t.Fatalf("got %+v, want the one deal unchanged", page.Items)
		}
	})
	t.Run("ErrNoCSRF", func(t *testing.T) {
		b.do("POST", edit, url.Values{"title": {"Hacked"}, "product_id": {fmt.Sprint(pr.ID)}, "deal_price": {"0.01"},
			"starts_at": {start.Format(layout)}, "ends_at": {end.Format(layout)}}).expect(t, 403, "Forbidden")
		b.do("POST", edit+"delete/", url.Values{"confirm": {"yes"}}).expect(t, 403)
		if got, err := e.Svc.Content.Deal(sid, d.ID); err != nil || got.Title != "Red deal" || got.DealPrice != 750 {
			t.Fatalf("got %+v, %v; want the deal unchanged", got, err)
		}
	})
	t.Run("StaffOfAnotherStore", func(t *testing.T) {
		s := staffBrowser(t, e, sidB)
		expectForeign(t, s, []string{base, newPage, edit}, []string{base, edit, edit + "delete/"},
			url.Values{"title": {"Hacked"}, "product_id": {fmt.Sprint(pr.ID)}, "deal_price": {"0.01"},
				"starts_at": {start.Format(layout)}, "ends_at": {end.Format(layout)}, "confirm": {"yes"}})
		s.get(fmt.Sprintf("/admin/stores/%d/flash-deals/%d/", sidB, d.ID)).expect(t, 404)
		if got, err := e.Svc.Content.Deal(sid, d.ID); err != nil || got.Title != "Red deal" {
			t.Fatalf("got %+v, %v; want the deal unchanged", got, err)
		}
	})
	t.Run("Delete", func(t *testing.T) {
		b.submit(edit, edit+"delete/", url.Values{}).expect(t, 400, "confirm")
		b.submit(edit, edit+"delete/", url.Values{"confirm": {"yes"}}).redirectsTo(t, base)
		if _, err := e.Svc.Content.Deal(sid, d.ID); !app.IsNotFound(err) {
			t.Fatalf("got %v, want not found", err)
		}
		b.get(base).expect(t, 200, "Flash deal “Red deal” deleted.")
		b.get(base).expect(t, 200, "No flash deals yet.")
	})
}

func TestPanelBundles(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	p1 := e.Product(sid, 0, "Kettle", 1000, 10)
	p2 := e.Product(sid, 0, "Tea <Tin>", 500, 10)
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/bundles/", sid)
	newPage := base + "new/"
	b.get(base).expect(t, 200, "No bundles yet.")
	b.get(newPage).expect(t, 200, "product_id x quantity", `name="is_active" value="on" checked`)

	p := b.submit(newPage, base, url.Values{"name": {"Starter Kit"}, "description": {"All you need"}, "price": {"20"},
		"images": {"https://img.example/k.jpg\n\n https://img.example/t.jpg "}, "is_active": {"on"},
		"items": {fmt.Sprintf("%d x 2\n\n  %d  ", p1.ID, p2.ID)}})
	bundles, err := e.Svc.Content.AllBundles(sid, app.ListParams{Sort: app.SortNewest, Limit: 10})
	if err != nil || len(bundles.Items) != 1 {
		t.Fatalf("got %d bundles, %v; want 1", len(bundles.Items), err)
	}
	bu := bundles.Items[0]
	if bu.Name != "Starter Kit" || bu.Slug != "starter-kit" || bu.Description != "All you need" || bu.Price != 2000 || !bu.IsActive ||
		len(bu.Images) != 2 || bu.Images[1] != "https://img.example/t.jpg" || len(bu.Items) != 2 ||
		bu.Items[0].ProductID != p1.ID || bu.Items[0].Quantity != 2 || bu.Items[1].ProductID != p2.ID || bu.Items[1].Quantity != 1 ||
		bu.RegularTotal != 2500 {
		t.Fatalf("got %+v", bu)
	}
	edit := fmt.Sprintf("%s%d/", base, bu.ID)
	p.redirectsTo(t, edit)
	b.get(edit).expect(t, 200, "Bundle “Starter Kit” created.", fmt.Sprintf("%d x 2\n%d x 1", p1.ID, p2.ID), `value="20.00"`, "Tea &lt;Tin&gt;")
	b.get(base).expect(t, 200, "Starter Kit", "2 × Kettle", "1 × Tea &lt;Tin&gt;", "20.00 USD", "25.00 USD", "active")

	t.Run("Edit", func(t *testing.T) {
		b.submit(edit, edit, url.Values{"name": {"Tea Kit"}, "slug": {"tea"}, "price": {"12.50"}, "images": {""},
			"items": {fmt.Sprintf("%d × 3", p2.ID)}}).redirectsTo(t, edit)
		got, _ := e.Svc.Content.BundleByID(sid, bu.ID)
		if got.Name != "Tea Kit" || got.Slug != "tea" || got.Price != 1250 || got.IsActive || len(got.Images) != 0 ||
			len(got.Items) != 1 || got.Items[0].ProductID != p2.ID || got.Items[0].Quantity != 3 {
			t.Fatalf("got %+v", got)
		}
		b.get(base).expect(t, 200, "hidden", "3 × Tea")
		b.get(base+"999/").expect(t, 404)
	})
	t.Run("ErrValidationKeepsInput", func(t *testing.T) {
		p := b.submit(newPage, base, url.Values{"name": {"Broken"}, "price": {"x"}, "items": {"abc\n12 x many"}, "description": {"typed <desc>"}}).
			expect(t, 400, "must be an amount like 12.50", "line 1 (“abc”)", "line 2 (“12 x many”)")
		for _, s := range []string{`value="Broken"`, `value="x"`, "abc\n12 x many", "typed &lt;desc&gt;"} {
			if !strings.Contains(p.Body, s) {
				t.Fatalf("the form lost %q: %s", s, p.Body)
			}
		}
		b.submit(newPage, base, url.Values{"name": {"Empty"}, "price": {"1.00"}, "items": {""}}).expect(t, 400, "at least one item")
		typed := fmt.Sprintf("%d x 1\n%d/99 x 0", p1.ID, p2.ID)
		p = b.submit(edit, edit, url.Values{"name": {"Tea Kit"}, "price": {"1.00"}, "items": {typed}}).
			expect(t, 400, "line 2: variant_id is not a variant of this product", "line 2: quantity must be between 1 and 1000")
		if !strings.Contains(p.Body, typed) {
			t.Fatalf("the form lost the items: %s", p.Body)
		}
		b.submit(newPage, base, url.Values{"name": {"Other"}, "slug": {"tea"}, "price": {"1.00"}, "items": {fmt.Sprint(p1.ID)}}).expect(t, 409)
		if page, _ := e.Svc.Content.AllBundles(sid, app.ListParams{Sort: app.SortNewest, Limit: 10}); len(page.Items) != 1 || page.Items[0].Price != 1250 {
			t.Fatalf("got %+v, want the one bundle unchanged", page.Items)
		}
	})
	t.Run("ErrNoCSRF", func(t *testing.T) {
		b.do("POST", edit, url.Values{"name": {"Hacked"}, "price": {"0.01"}, "items": {fmt.Sprint(p1.ID)}}).expect(t, 403, "Forbidden")
		b.do("POST", base, url.Values{"name": {"Hacked"}, "price": {"0.01"}, "items": {fmt.Sprint(p1.ID)}}).expect(t, 403)
		b.do("POST", edit+"delete/", url.Values{"confirm": {"yes"}}).expect(t, 403)
		if got, err := e.Svc.Content.BundleByID(sid, bu.ID); err != nil || got.Name != "Tea Kit" || got.Price != 1250 {
			t.Fatalf("got %+v, %v; want the bundle unchanged", got, err)
		}
	})
	t.Run("StaffOfAnotherStore", func(t *testing.T) {
		s := staffBrowser(t, e, sidB)
		expectForeign(t, s, []string{base, newPage, edit}, []string{base, edit, edit + "delete/"},
			url.Values{"name": {"Hacked"}, "price": {"0.01"}, "items": {fmt.Sprint(p1.ID)}, "confirm": {"yes"}})
		s.get(fmt.Sprintf("/admin/stores/%d/bundles/%d/", sidB, bu.ID)).expect(t, 404)
		if got, err := e.Svc.Content.BundleByID(sid, bu.ID); err != nil || got.Name != "Tea Kit" {
			t.Fatalf("got %+v, %v; want the bundle unchanged", got, err)
		}
	})
	t.Run("Delete", func(t *testing.T) {
		b.submit(edit, edit+"delete/", url.Values{}).expect(t, 400, "confirm")
		b.submit(edit, edit+"delete/", url.Values{"confirm": {"yes"}}).redirectsTo(t, base)
		if _, err := e.Svc.Content.BundleByID(sid, bu.ID); !app.IsNotFound(err) {
			t.Fatalf("got %v, want not found", err)
		}
		b.get(base).expect(t, 200, "Bundle “Tea Kit” deleted.")
		b.get(base).expect(t, 200, "No bundles yet.")
	})
}
