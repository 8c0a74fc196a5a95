package shop_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/shop"
	"storefront/testenv"
)

func TestBlogPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	for i := 0; i < 12; i++ {
		post(t, e, a, fmt.Sprintf("Post %02d", i), "First paragraph.\n\nSecond <em>paragraph</em>.")
	}
	br := newBrowser(t, e, hostOf("Acme"))
	idx := br.get("/blog/").expect(t, 200, "<title>Blog · Acme</title>", "Post 11", "Older posts").lacks(t, "Post 01")
	_ = idx
	p := br.get("/blog/post-03/").expect(t, 200, "<title>Post 03 · Acme</title>", "<p>First paragraph.</p>",
		"Second &lt;em&gt;paragraph&lt;/em&gt;.", `<meta name="description" content="First paragraph.">`,
		`<link rel="canonical" href="http://acme.shops.test/blog/post-03/">`)
	if ldOfType(jsonLD(t, p.Body), "BlogPosting") == nil {
		t.Fatal("no BlogPosting")
	}
	br.get("/blog/no-such-post/").expect(t, 404, "Page not found")
	br.get("/blog/?cursor=bogus").expect(t, 404)
}

func TestContentPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	br := newBrowser(t, e, hostOf("Acme"))
	br.get("/about/").expect(t, 404)
	patchConfig(t, e, a, `{"pages":{"about":"We make <b>tools</b>.\n\nSince 1900.","terms":"Be nice."}}`)
	br.get("/about/").expect(t, 200, "<title>About us · Acme</title>", "We make &lt;b&gt;tools&lt;/b&gt;.", "<p>Since 1900.</p>")
	home := br.get("/").expect(t, 200, `href="/about/"`, `href="/terms/"`).lacks(t, `href="/privacy/"`)
	_ = home
	br.get("/privacy/").expect(t, 404)
}

func TestContactForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	br := newBrowser(t, e, hostOf("Acme"))
	br.get("/contact/").expect(t, 200, `<label for="c-name">`, `<label for="c-email">`, `<label for="c-message">`, `name="csrf"`)

	t.Run("ErrValidation", func(t *testing.T) {
		p := br.post("/contact/", "/contact/", url.Values{"name": {"Ann <x>"}, "email": {"not-an-email"},
			"message": {""}, "subject": {strings.Repeat("s", 300)}})
		p.expect(t, 400, "Please correct the highlighted fields.", "Enter an email address", "Enter a message",
			"At most 200 characters.", `value="Ann &lt;x&gt;"`, `value="not-an-email"`, `aria-describedby="e-email"`)
		if n := contactCount(t, e, a); n != 0 {
			t.Fatalf("%d messages stored", n)
		}
	})
	t.Run("OK", func(t *testing.T) {
		p := br.post("/contact/", "/contact/", url.Values{"name": {"Ann"}, "email": {"ann@example.com"}, "message": {"Hello"}})
		if p.Status != 303 || p.Location != "/contact/?sent=1" {
			t.Fatalf("got %d %q", p.Status, p.Location)
		}
		br.get(p.Location).expect(t, 200, "Your message has been sent")
		if n := contactCount(t, e, a); n != 1 {
			t.Fatalf("%d messages stored", n)
		}
	})
	t.Run("ErrCSRF", func(t *testing.T) {
		// a fresh browser (no seed cookie) sent here from another site
		fresh := newBrowser(t, e, hostOf("Acme"))
		fresh.send("POST", "/contact/", url.Values{"name": {"Ann"}, "email": {"ann@example.com"}, "message": {"Hi"}},
			map[string]string{"Sec-Fetch-Site": "cross-site"}).expect(t, 403, "Your session expired")
		// a browser with its seed cookie and no token
		fresh.token()
		fresh.do("POST", "/contact/", url.Values{"name": {"Ann"}, "email": {"ann@example.com"}, "message": {"Hi"}}).
			expect(t, 403, "Your session expired")
	})
}

func TestContactRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{ContactPerMinute: 1})
	e.Store("Acme")
	br := newBrowser(t, e, hostOf("Acme"))
	form := url.Values{"name": {"Ann"}, "email": {"ann@example.com"}, "message": {"Hello"}}
	if p := br.post("/contact/", "/contact/", form); p.Status != 303 {
		t.Fatalf("first: %d", p.Status)
	}
	br.post("/contact/", "/contact/", form).expect(t, 429, "Too many messages", `value="ann@example.com"`)
}

func contactCount(t *testing.T, e *testenv.Env, storeID uint64) int {
	t.Helper()
	page, err := e.Svc.Contact.List(storeID, nil, false, app.ListParams{Sort: app.SortNewest, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return len(page.Items)
}

func TestSitemapAndRobots(t *testing.T) {
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	cat := e.Category(a, "Tools")
	e.Product(a, cat.ID, "Hammer", 100, 1)
	post(t, e, a, "Hello", "Text")
	br := newBrowser(t, e, hostOf("Acme"))
	r := br.get("/robots.txt").expect(t, 200, "Disallow: /cart/", "Disallow: /checkout/", "Disallow: /account/", "Disallow: /orders/",
		"Sitemap: http://acme.shops.test/sitemap.xml")
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("robots content type %q", ct)
	}
	sm := br.get("/sitemap.xml").expect(t, 200, "<urlset", "<loc>http://acme.shops.test/</loc>",
		"<loc>http://acme.shops.test/products/hammer/</loc>", fmt.Sprintf("<loc>http://acme.shops.test/categories/%d/tools/</loc>", cat.ID),
		"<loc>http://acme.shops.test/blog/hello/</loc>")
	if ct := sm.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/xml") {
		t.Fatalf("sitemap content type %q", ct)
	}
	newBrowser(t, e, "nope."+shopDomain).get("/sitemap.xml").expect(t, 404)

	defer shop.SetSitemapMax(3)()
	idx := br.get("/sitemap.xml").expect(t, 200, "<sitemapindex", "<loc>http://acme.shops.test/sitemap-1.xml</loc>",
		"<loc>http://acme.shops.test/sitemap-3.xml</loc>").lacks(t, "sitemap-4.xml", "<urlset")
	_ = idx
	br.get("/sitemap-1.xml").expect(t, 200, "<urlset", "<loc>http://acme.shops.test/</loc>")
	br.get("/sitemap-3.xml").expect(t, 200, "<urlset")
	br.get("/sitemap-4.xml").expect(t, 404)
	br.get("/sitemap-0.xml").expect(t, 404)
}

func TestHomePage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	a, _ := e.Store("Acme")
	cat := e.Category(a, "Tools")
	e.Product(a, cat.ID, "Plain Nail", 50, 10)
	star := e.Product(a, cat.ID, "Star Drill", 9900, 10)
	post(t, e, a, "Big News", "Text")
	starts, ends := e.Now().Add(-time.Hour).Format(time.RFC3339), e.Now().Add(48*time.Hour).UTC()
	endStr, title, price := ends.Format(time.RFC3339), "Drill deal", app.Money(7900)
	if _, err := e.Svc.Content.SaveDeal(a, 0, app.FlashDealInput{Title: &title, ProductID: &star.ID, DealPrice: &price,
		StartsAt: &starts, EndsAt: &endStr}); err != nil {
		t.Fatal(err)
	}
	hero, err := e.Svc.Catalog.StoreMedia(a, app.Media{Hash: strings.Repeat("cd", 32), Ext: "jpg", Files: map[int][]byte{160: []byte("s"), 480: []byte("m"), 1200: []byte("l")}})
	if err != nil {
		t.Fatal(err)
	}
	rawConfig(t, e, a, `{"theme_color":"#ffcc00","store":{"logo":"javascript:alert(1)","email":"hi@acme.example"},
		"hero":{"title":"Tools <for> all","subtitle":"Since 1900","cta_url":"javascript:alert(2)","image":"`+hero+`"},
		"footer":{"text":"© Acme <Ltd>"},"home":{"featured":"star-drill, no-such-product"},
		"navigation":[{"label":"Evil","url":"javascript:alert(3)"},{"label":"Sale","url":"/categories/1/tools/"}],
		"banners":[{"image":"javascript:x","title":"bad"},{"image":"https://cdn.example/b1.jpg","title":"elsewhere"},{"image":"`+hero+`","title":"Banner one","url":"/products/"}]}`)
	br := newBrowser(t, e, hostOf("Acme"))
	p := br.get("/").expect(t, 200, "Tools &lt;for&gt; all", "Since 1900", `src="/media/`+fmt.Sprint(a)+"/"+strings.Repeat("cd", 32)+`-1200.jpg"`,
		"Featured", "Star Drill", "Flash deals", "$79.00", "$99.00", "Ends "+ends.Format("2 Jan 2006, 15:04 UTC"),
		"Big News", `href="/categories/`, "© Acme &lt;Ltd&gt;", "--brand:#ffcc00;--brand-ink:#000", `<span class="banner-title">Banner one</span>`,
		`href="/categories/1/tools/">Sale</a>`, `<link rel="canonical" href="http://acme.shops.test/">`).
		lacks(t, "javascript:", "Plain Nail", ">Evil<", `>bad<`, "cdn.example", ">elsewhere<")
	org := ldOfType(jsonLD(t, p.Body), "Organization")
	if org == nil || org["name"] != "Acme" || org["email"] != "hi@acme.example" || org["logo"] != nil || org["telephone"] != nil { // none safe, none set
		t.Fatalf("Organization %v", org)
	}
	// home.sections chooses and orders the sections
	patchConfig(t, e, a, `{"home":{"featured":"","sections":"posts, nonsense, categories"}}`)
	p = br.get("/").expect(t, 200, "Big News", "Shop by category").lacks(t, "Flash deals", "Star Drill")
	if strings.Index(p.Body, "Big News") > strings.Index(p.Body, "Shop by category") {
		t.Fatal("sections out of order")
	}
}

func TestThemeOverride(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	over := `{{define "main"}}<h1 class="themed">{{t "notfound.title"}} in {{.Rq.Look.Name}}</h1>{{end}}`
	if err := os.WriteFile(filepath.Join(dir, "notfound.html"), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, shop.Config{ThemeDir: dir})
	a, _ := e.Store("Acme")
	e.Product(a, 0, "Hammer", 100, 1)
	br := newBrowser(t, e, hostOf("Acme"))
	br.get("/nothing/here/").expect(t, 404, `<h1 class="themed">Page not found in Acme</h1>`)
	br.get("/products/hammer/").expect(t, 200, "Hammer", `action="/cart/add"`) // the rest: embedded
	// a broken override fails at start, not on a request
	if err := os.WriteFile(filepath.Join(dir, "product.html"), []byte(`{{define "main"}}{{.Nope`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := shop.New(shop.Config{ThemeDir: dir}, e.Svc); err == nil || !strings.Contains(err.Error(), "product.html") {
		t.Fatalf("broken theme: %v", err)
	}
}

func TestSafeURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://ex.example/a.png": "https://ex.example/a.png", "HTTP://ex.example": "HTTP://ex.example",
		"/products/": "/products/", " /x ": "/x", "//evil.example/x": "", "javascript:alert(1)": "",
		"JavaScript:alert(1)": "", " javascript:alert(1)": "", "data:text/html,x": "", "vbscript:x": "",
		"mailto:a@b.example": "", "": "", "relative/path": "", "java\tscript:x": "",
	} {
		if got := shop.SafeURL(in); got != want {
			t.Errorf("safeURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInkContrast(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"#ffcc00": "#000", "#1f6feb": "#fff", "#000": "#fff", "#fff": "#000", "#767676": "#000", "#595959": "#fff"} {
		if got := shop.InkOn(in); got != want {
			t.Errorf("inkOn(%s) = %s, want %s", in, got, want)
		}
	}
}
