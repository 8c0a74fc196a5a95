package shop_test

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"storefront/app"
	"storefront/shop"
)

func TestProductGrid(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	cat := e.Category(a, "Tools").ID
	e.Product(a, cat, "Cheap Nail", 50, 100)
	e.Product(a, cat, "Mid Saw", 2500, 0)
	e.Product(a, cat, "Dear Drill", 9900, 3)
	br := newBrowser(t, e, hostOf("Acme"))

	t.Run("OK", func(t *testing.T) {
		p := br.get("/products/").expect(t, 200, "<title>All products · Acme</title>", "Cheap Nail", "Mid Saw", "Dear Drill",
			`<link rel="canonical" href="http://acme.shops.test/products/">`, "3 products on this page", `<label for="f-sort">`)
		if ldOfType(jsonLD(t, p.Body), "BreadcrumbList") == nil {
			t.Fatal("no BreadcrumbList")
		}
	})
	t.Run("Sort", func(t *testing.T) {
		p := br.get("/products/?sort=price_desc").expect(t, 200, `<meta name="robots" content="noindex">`)
		if i, j := strings.Index(p.Body, "Dear Drill"), strings.Index(p.Body, "Cheap Nail"); i < 0 || i > j {
			t.Fatal("not sorted by price, high to low")
		}
	})
	t.Run("Filters", func(t *testing.T) {
		br.get("/products/?min_price=10&max_price=50").expect(t, 200, "Mid Saw").lacks(t, "Cheap Nail", "Dear Drill")
		br.get("/products/?in_stock=1").expect(t, 200, "Cheap Nail", "Dear Drill").lacks(t, "Mid Saw")
	})
	t.Run("ErrFilters", func(t *testing.T) {
		p := br.get("/products/?min_price=abc&sort=cheapest&in_stock=maybe").
			expect(t, 400, "Enter an amount such as 12.50.", "Choose a sort from the list.", "Tick the box",
				`value="abc"`, `aria-invalid="true"`).lacks(t, "Cheap Nail")
		_ = p
		br.get("/products/?sort=relevance").expect(t, 400, "Best match needs a search.")
		br.get("/products/?min_price=-1").expect(t, 400, "Enter an amount")
	})
}

func TestGridPaging(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	for i := 0; i < 30; i++ {
		e.Product(a, 0, fmt.Sprintf("Widget %02d", i), app.Money(100+i), 5)
	}
	br := newBrowser(t, e, hostOf("Acme"))
	first := br.get("/products/?sort=price_asc").expect(t, 200, "Widget 00", "Widget 23").lacks(t, "Widget 24")
	next := regexp.MustCompile(`rel="next" href="([^"]+)"`).FindStringSubmatch(first.Body)
	if next == nil {
		t.Fatalf("no next link:\n%s", first.Body)
	}
	href := strings.ReplaceAll(next[1], "&amp;", "&")
	second := br.get(href).expect(t, 200, "Widget 24", "Widget 29", "First page").lacks(t, "Widget 23", `rel="next"`)
	_ = second
	// the cursor is the API's: the API takes it for the same list
	u, _ := url.Parse(href)
	cur := u.Query().Get("cursor")
	// a tampered cursor, or one of another sort, is a page with a message
	br.get("/products/?sort=price_asc&cursor="+cur[:len(cur)-2]+"xx").expect(t, 400, "This page link is out of date")
	br.get("/products/?sort=newest&cursor="+cur).expect(t, 400, "out of date")
	// a cursor of another store is no good either
	b, _ := e.Store("Bravo")
	e.Product(b, 0, "Bravo Thing", 100, 1)
	newBrowser(t, e, hostOf("Bravo")).get("/products/?sort=price_asc&cursor="+cur).expect(t, 400, "out of date").lacks(t, "Widget")
}

func TestSearchPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	e.Product(a, 0, "Red Kite", 900, 5)
	e.Product(a, 0, "Blue Boat", 1200, 5)
	br := newBrowser(t, e, hostOf("Acme"))
	br.get("/search/?q=kite").expect(t, 200, "Red Kite", "Results for “kite”", `value="relevance" selected`).lacks(t, "Blue Boat")
	br.get("/search/").expect(t, 200, "Type what you are looking for")
	br.get("/search/?q=zzz").expect(t, 200, "No products match.")
	br.get("/search/?q="+strings.Repeat("a", 101)).expect(t, 400, "at most 100 characters")
	br.get("/search/?q=%3Cscript%3E").expect(t, 200, "&lt;script&gt;").lacks(t, "<script>alert")
	// forgiving: a plural, a typo; nothing found suggests the closest names
	br.get("/search/?q=kites").expect(t, 200, "Red Kite").lacks(t, "Blue Boat", "Did you mean")
	br.get("/search/?q=bpat").expect(t, 200, "Blue Boat").lacks(t, "Red Kite")
	br.get("/search/?q=reed+kyyte").expect(t, 200, "No products match.", `Did you mean <a href="/products/red-kite/">Red Kite</a>?`)
	br.get("/search/?q=qqqqqqqq").expect(t, 200, "No products match.").lacks(t, "Did you mean")
}

// TestSearchHints: GET /search/suggest answers the products the text typed
// so far finds, best first, as JSON for shop.js; no word, no items; another
// store's products never.
func TestSearchHints(t *testing.T) {
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	e.Product(a, 0, "Red Kite", 900, 5)
	e.Product(a, 0, "Red Boat", 1200, 5)
	b, _ := e.Store("Bravo")
	e.Product(b, 0, "Red Bravo", 100, 1)
	br := newBrowser(t, e, hostOf("Acme"))
	for _, c := range []struct{ q, want string }{
		{"red", `{"items":[{"name":"Red Boat","url":"/products/red-boat/"},{"name":"Red Kite","url":"/products/red-kite/"}]}`},
		{"red+ki", `{"items":[{"name":"Red Kite","url":"/products/red-kite/"}]}`},
		{"kiet", `{"items":[{"name":"Red Kite","url":"/products/red-kite/"}]}`},
		{"%21%21", `{"items":[]}`},
		{"", `{"items":[]}`},
		{strings.Repeat("a", 101), `{"items":[]}`},
	} {
		p := br.get("/search/suggest?q="+c.q).expect(t, 200)
		if strings.TrimSpace(p.Body) != c.want {
			t.Errorf("q=%s: %s, want %s", c.q, p.Body, c.want)
		}
	}
}

func TestCategoryPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	tools := e.Category(a, "Power Tools")
	toys := e.Category(a, "Toys")
	e.Product(a, tools.ID, "Drill", 9900, 3)
	e.Product(a, toys.ID, "Kite", 900, 3)
	br := newBrowser(t, e, hostOf("Acme"))
	path := fmt.Sprintf("/categories/%d/power-tools/", tools.ID)

	p := br.get(path).expect(t, 200, "<title>Power Tools · Acme</title>", "Drill", `href="http://acme.shops.test`+path+`"`).lacks(t, "Kite")
	bc := ldOfType(jsonLD(t, p.Body), "BreadcrumbList")
	if items, _ := bc["itemListElement"].([]any); len(items) != 3 {
		t.Fatalf("breadcrumbs %v", bc)
	}
	if r := br.get(fmt.Sprintf("/categories/%d/", tools.ID)); r.Status != 301 || r.Location != path {
		t.Fatalf("id only: %d %q", r.Status, r.Location)
	}
	if r := br.get(fmt.Sprintf("/categories/%d/wrong/?sort=price_asc", tools.ID)); r.Status != 301 || r.Location != path+"?sort=price_asc" {
		t.Fatalf("wrong slug: %d %q", r.Status, r.Location)
	}
	if r := br.get("/categories/power-tools"); r.Status != 301 || r.Location != path {
		t.Fatalf("by slug: %d %q", r.Status, r.Location)
	}
	br.get("/categories/no-such-slug/").expect(t, 404, "Page not found")
	br.get("/categories/999/x/").expect(t, 404, "Page not found")
	br.get("/categories/abc/").expect(t, 404, "Page not found")
	br.get(path+"?max_price=x").expect(t, 400, "Enter an amount")
}

func TestProductPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	cat := e.Category(a, "Tools")
	p := e.Product(a, cat.ID, "Hammer <b>Pro</b>", 1250, 0)
	hash := strings.Repeat("ab", 32)
	up, err := e.Svc.Catalog.AddProductImages(a, p.ID, []app.Media{{Hash: hash, Ext: "jpg",
		Files: map[int][]byte{160: []byte("s"), 480: []byte("m"), 1200: []byte("l")}}})
	if err != nil {
		t.Fatal(err)
	}
	img := up.Images[0]
	compare, desc := app.Money(1500), "A good hammer.\n\nIt hits nails."
	vs := []app.VariantInput{{Name: "Small", Stock: 2}, {Name: "Large", Stock: 0, Price: ptr(app.Money(1400))}}
	editProduct(t, e, a, p.ID, app.ProductInput{Images: &[]string{img, "https://cdn.example/b.jpg"},
		CompareAtPrice: &compare, Description: &desc, Variants: &vs})
	br := newBrowser(t, e, hostOf("Acme"))
	path := "/products/" + p.Slug + "/"

	t.Run("OK", func(t *testing.T) {
		pg := br.get(path).expect(t, 200, "Hammer &lt;b&gt;Pro&lt;/b&gt;", "$12.50", "$15.00", "Only 2 left",
			`action="/cart/add"`, `name="product_id" value="`, `name="variant_id"`, `name="quantity"`, `name="csrf"`,
			"Large – $14.00 (Out of stock)", "<p>It hits nails.</p>",
			fmt.Sprintf(`src="/media/%d/%s-1200.jpg"`, a, hash), fmt.Sprintf("/media/%d/%s-160.jpg 160w", a, hash), `fetchpriority="high"`,
			`property="og:type" content="product"`, `property="product:price:amount" content="12.50"`,
			`property="og:image" content="http://acme.shops.test/media/`, "No reviews yet.", `href="/categories/`).
			lacks(t, "javascript:", "<b>Pro</b>", "cdn.example", "http://shop.test/media/") // pictures from the media store only, from the page's own host
		lds := jsonLD(t, pg.Body)
		prod := ldOfType(lds, "Product")
		// the owner's alt text of an image, else its place and the product's name
		if _, err := e.Svc.Catalog.SetProductImageAlt(a, p.ID, 0, "A steel hammer on <wood>"); err != nil {
			t.Fatal(err)
		}
		br.get(path).expect(t, 200, `alt="A steel hammer on &lt;wood&gt;"`)
		offer, _ := prod["offers"].(map[string]any)
		if offer["price"] != "12.50" || offer["priceCurrency"] != "USD" || offer["availability"] != "https://schema.org/InStock" {
			t.Fatalf("offer %v", offer)
		}
		if _, has := prod["aggregateRating"]; has {
			t.Fatal("aggregateRating without reviews")
		}
		if ldOfType(lds, "BreadcrumbList") == nil {
			t.Fatal("no BreadcrumbList")
		}
		// a guest sees no review form, a link to sign in
		pg.lacks(t, `name="rating"`)
	})
	t.Run("Reviews", func(t *testing.T) {
		for i := 0; i < 12; i++ {
			cid, _ := e.Shopper(a, fmt.Sprintf("r%d@example.com", i))
			rating := float64(4 + i%2)
			r, err := e.Svc.Reviews.Submit(app.Shopper{StoreID: a, CustomerID: cid},
				app.ReviewInput{ProductID: &p.ID, Rating: &rating, Title: fmt.Sprintf("Review %02d <i>", i)})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.Svc.Reviews.Approve(a, r.ID); err != nil {
				t.Fatal(err)
			}
		}
		pg := br.get(path).expect(t, 200, "Review 11 &lt;i&gt;", "4.5 out of 5 from 12 reviews", "More reviews",
			`<p class="stars"><span role="img" aria-label="Rated 5 out of 5">★★★★★</span></p>`).lacks(t, "Review 01")
		ar, _ := ldOfType(jsonLD(t, pg.Body), "Product")["aggregateRating"].(map[string]any)
		if ar["reviewCount"] != float64(12) || ar["ratingValue"] != 4.5 {
			t.Fatalf("aggregateRating %v", ar)
		}
		more := regexp.MustCompile(`rel="next" href="([^"]+)"`).FindStringSubmatch(pg.Body)
		br.get(strings.ReplaceAll(more[1], "&amp;", "&")).expect(t, 200, "Review 01", "Newest reviews").lacks(t, "Review 11")
		br.get(path+"?reviews=bogus").expect(t, 404)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		br.get("/products/no-such-thing/").expect(t, 404, "Page not found")
		off := false
		q := e.Product(a, cat.ID, "Hidden", 100, 1)
		editProduct(t, e, a, q.ID, app.ProductInput{IsActive: &off})
		br.get("/products/"+q.Slug+"/").expect(t, 404)
	})
	t.Run("ReviewAsGuest", func(t *testing.T) {
		r := br.do("POST", path+"reviews", url.Values{"rating": {"5"}, "csrf": {br.token()}})
		if r.Status != 303 || !strings.HasPrefix(r.Location, "/account/login/") {
			t.Fatalf("guest review: %d %q", r.Status, r.Location)
		}
		// without the CSRF token: refused
		br.do("POST", path+"reviews", url.Values{"rating": {"5"}}).expect(t, 403, "Your session expired")
	})
}

func TestStoresNeverMix(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	b, _ := e.Store("Bravo")
	pa := e.Product(a, e.Category(a, "Alpha Things").ID, "Acme Anvil", 100, 1)
	pb := e.Product(b, e.Category(b, "Bravo Things").ID, "Bravo Bucket", 100, 1)
	post(t, e, b, "Bravo News", "Only Bravo.")
	ba, bb := newBrowser(t, e, hostOf("Acme")), newBrowser(t, e, hostOf("Bravo"))
	ba.get("/products/"+pb.Slug+"/").expect(t, 404).lacks(t, "Bravo Bucket")
	bb.get("/products/"+pa.Slug+"/").expect(t, 404).lacks(t, "Acme Anvil")
	for _, path := range []string{"/", "/products/", "/search/?q=bucket", "/categories/1/alpha-things/", "/blog/", "/sitemap.xml"} {
		ba.get(path).lacks(t, "Bravo", "bravo-bucket")
	}
	ba.get("/blog/bravo-news/").expect(t, 404)
	bb.get("/products/").expect(t, 200, "Bravo Bucket").lacks(t, "Acme Anvil")
}

func ptr[T any](v T) *T { return &v }

// TestReviewSignedIn: a signed-in shopper sees the review form on a
// product page (never from the page cache: the layout names the account),
// sends a review (POST-redirect-GET) and is told it waits for approval.
func TestReviewSignedIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	p := e.Product(a, 0, "Hammer", 1250, 5)
	e.Shopper(a, "ann@example.com")
	path := "/products/" + p.Slug + "/"
	guest := newBrowser(t, e, hostOf("Acme"))
	guest.get(path).expect(t, 200, "Sign in to review").lacks(t, `name="rating"`)
	br := newBrowser(t, e, hostOf("Acme"))
	signIn(t, e, br, a, "ann@example.com")
	br.get(path).expect(t, 200, `name="rating"`, "Write a review", ">Account<").lacks(t, "Sign in to review")
	br.post(path, path+"reviews", url.Values{"rating": {"0"}, "title": {"Meh <x>"}}).
		expect(t, 400, "Choose a rating from 1 to 5.", `value="Meh &lt;x&gt;"`)
	r := br.post(path, path+"reviews", url.Values{"rating": {"5"}, "title": {"Great"}})
	if r.Status != 303 || r.Location != path+"?review=sent#reviews" {
		t.Fatalf("review: %d %q", r.Status, r.Location)
	}
	br.get(path+"?review=sent").expect(t, 200, "will appear once it is approved")
	br.post(path, path+"reviews", url.Values{"rating": {"4"}}).expect(t, 409, "already reviewed")
	// the guest's cached page never shows the shopper's form
	guest.get(path).expect(t, 200, "Sign in to review").lacks(t, `name="rating"`)
}
