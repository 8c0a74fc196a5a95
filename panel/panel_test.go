package panel_test

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"storefront/app"
	"storefront/panel"
	"storefront/testenv"
	"storefront/web"
)

// browser drives the panel like a browser without JavaScript: it keeps
// cookies, and fills forms with the CSRF token of the page they came from.
type browser struct {
	t       *testing.T
	e       *testenv.Env
	cookies map[string]string
}

type page struct {
	Status int
	Header http.Header
	Body   string
}

func newBrowser(t *testing.T, e *testenv.Env) *browser {
	return &browser{t: t, e: e, cookies: map[string]string{}}
}

func (b *browser) do(method, path string, form url.Values) page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range b.cookies {
		req.AddCookie(&http.Cookie{Name: k, Value: v})
	}
	resp, err := b.e.App.Test(req, -1)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	for _, c := range resp.Cookies() {
		if c.MaxAge < 0 || (!c.Expires.IsZero() && c.Expires.Year() < 2000) || c.Value == "" {
			delete(b.cookies, c.Name)
		} else {
			b.cookies[c.Name] = c.Value
		}
	}
	return page{Status: resp.StatusCode, Header: resp.Header, Body: string(raw)}
}

func (b *browser) get(path string) page { b.t.Helper(); return b.do("GET", path, nil) }

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// csrf returns the token of the first form on the page at path.
func (b *browser) csrf(path string) string {
	b.t.Helper()
	p := b.get(path)
	m := csrfRE.FindStringSubmatch(p.Body)
	if m == nil {
		b.t.Fatalf("GET %s (%d): no csrf field: %s", path, p.Status, p.Body)
	}
	return m[1]
}

// submit GETs formPage, then POSTs form to action with that page's token.
func (b *browser) submit(formPage, action string, form url.Values) page {
	b.t.Helper()
	form.Set("csrf", b.csrf(formPage))
	return b.do("POST", action, form)
}

func (b *browser) login(email, password string) page {
	b.t.Helper()
	return b.submit("/admin/login/", "/admin/login/", url.Values{"email": {email}, "password": {password}})
}

func (p page) expect(t *testing.T, status int, contains ...string) page {
	t.Helper()
	if p.Status != status {
		t.Fatalf("got status %d, want %d: %s", p.Status, status, p.Body)
	}
	for _, s := range contains {
		if !strings.Contains(p.Body, s) {
			t.Fatalf("page lacks %q: %s", s, p.Body)
		}
	}
	return p
}

func (p page) redirectsTo(t *testing.T, prefix string) {
	t.Helper()
	if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Header.Get("Location"), prefix) {
		t.Fatalf("got %d to %q, want 303 to %s…: %s", p.Status, p.Header.Get("Location"), prefix, p.Body)
	}
}

func owner(t *testing.T, e *testenv.Env) *browser {
	t.Helper()
	b := newBrowser(t, e)
	b.login("owner@example.com", "owner-password").redirectsTo(t, "/admin/")
	return b
}

func TestPanelLogin(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	t.Run("ErrWrongPassword", func(t *testing.T) {
		b := newBrowser(t, e)
		p := b.login("owner@example.com", "not-the-password").expect(t, 401, "Wrong email or password.")
		if strings.Contains(p.Body, "invalid_credentials") {
			t.Fatalf("error code leaked into the page")
		}
		if _, found := b.cookies["sf_admin"]; found {
			t.Fatalf("got a session cookie after a failed login")
		}
	})
	t.Run("OK", func(t *testing.T) {
		b := newBrowser(t, e)
		b.csrf("/admin/login/")
		p := b.do("POST", "/admin/login/", url.Values{"csrf": {b.csrf("/admin/login/")}, "email": {"Owner@Example.com "}, "password": {"owner-password"}})
		p.redirectsTo(t, "/admin/")
		var set string
		for _, h := range p.Header.Values("Set-Cookie") {
			if strings.HasPrefix(h, "sf_admin=") {
				set = h
			}
		}
		for _, want := range []string{"HttpOnly", "SameSite=Lax", "path=/admin"} {
			if !strings.Contains(strings.ToLower(set), strings.ToLower(want)) {
				t.Fatalf("session cookie %q lacks %s", set, want)
			}
		}
		if strings.Contains(strings.ToLower(set), "secure") {
			t.Fatalf("plain HTTP got a Secure cookie: %q", set)
		}
		b.get("/admin/").expect(t, 200, "owner@example.com", "Stores")
		// the login page of a logged-in admin goes to the panel
		b.get("/admin/login/").redirectsTo(t, "/admin/")
	})
	t.Run("NextStaysInPanel", func(t *testing.T) {
		b := newBrowser(t, e)
		b.get("/admin/users/").redirectsTo(t, "/admin/login/?next=%2Fadmin%2Fusers%2F")
		b.submit("/admin/login/?next=%2Fadmin%2Fusers%2F", "/admin/login/",
			url.Values{"email": {"owner@example.com"}, "password": {"owner-password"}, "next": {"/admin/users/"}}).redirectsTo(t, "/admin/users/")
		b2 := newBrowser(t, e)
		b2.submit("/admin/login/", "/admin/login/",
			url.Values{"email": {"owner@example.com"}, "password": {"owner-password"}, "next": {"//evil.example/"}}).redirectsTo(t, "/admin/")
		if loc := b2.cookies; loc == nil {
			t.Fatal("no cookies")
		}
	})
	t.Run("ErrNoCSRF", func(t *testing.T) {
		b := newBrowser(t, e)
		b.get("/admin/login/")
		b.do("POST", "/admin/login/", url.Values{"email": {"owner@example.com"}, "password": {"owner-password"}}).expect(t, 403)
		b.do("POST", "/admin/login/", url.Values{"csrf": {strings.Repeat("ab", 32)}, "email": {"owner@example.com"}, "password": {"owner-password"}}).expect(t, 403)
		if _, found := b.cookies["sf_admin"]; found {
			t.Fatalf("logged in without a valid login token")
		}
	})
	t.Run("ErrTooManyFailures", func(t *testing.T) {
		e := testenv.New(t)
		b := newBrowser(t, e)
		for i := 0; i < 5; i++ {
			b.login("owner@example.com", "wrong-password").expect(t, 401)
		}
		b.login("owner@example.com", "owner-password").expect(t, 429, "Too many failed logins")
		e.Advance(16 * time.Minute)
		b.login("owner@example.com", "owner-password").redirectsTo(t, "/admin/")
	})
	t.Run("ErrTooManyFailuresFromOneIP", func(t *testing.T) {
		e := testenv.New(t)
		b := newBrowser(t, e)
		for i := 0; i < 20; i++ {
			b.login(fmt.Sprintf("guess%d@example.com", i), "wrong-password").expect(t, 401)
		}
		b.login("owner@example.com", "owner-password").expect(t, 429, "Too many failed logins")
	})
}

func TestPanelRequiresLogin(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	b := newBrowser(t, e)
	for _, path := range []string{"/admin/", "/admin", fmt.Sprintf("/admin/stores/%d/", sid), fmt.Sprintf("/admin/stores/%d/products/", sid), "/admin/users/"} {
		b.get(path).redirectsTo(t, "/admin/login/")
	}
	// a POST without a session changes nothing
	b.do("POST", fmt.Sprintf("/admin/stores/%d/categories/", sid), url.Values{"name": {"Shoes"}}).redirectsTo(t, "/admin/login/")
	b.cookies["sf_admin"] = strings.Repeat("0", 64)
	b.get("/admin/").redirectsTo(t, "/admin/login/")
	if cats, _ := e.Svc.Catalog.Categories(sid); len(cats) != 0 {
		t.Fatalf("got %d categories, want 0", len(cats))
	}
}

func TestPanelSecurityHeaders(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	b := owner(t, e)
	for _, path := range []string{"/admin/login/", "/admin/", "/admin/no-such-page/"} {
		p := b.get(path)
		if csp := p.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Fatalf("%s: CSP %q", path, csp)
		}
		if got := p.Header.Get("X-Frame-Options"); got != "DENY" {
			t.Fatalf("%s: X-Frame-Options %q", path, got)
		}
		if got := p.Header.Get("Referrer-Policy"); got != "same-origin" {
			t.Fatalf("%s: Referrer-Policy %q", path, got)
		}
	}
	p := b.get("/admin/no-such-page/").expect(t, 404, "Not found")
	if !strings.HasPrefix(p.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("404 is %s, want the HTML page", p.Header.Get("Content-Type"))
	}
	css := b.get(b.asset("panel.css")).expect(t, 200, "font-family")
	if !strings.HasPrefix(css.Header.Get("Content-Type"), "text/css") {
		t.Fatalf("css served as %q", css.Header.Get("Content-Type"))
	}
	if !regexp.MustCompile(`href="/admin/static/panel\.[0-9a-f]{8}\.css"`).MatchString(b.get("/admin/").Body) {
		t.Fatalf("layout does not link the stylesheet")
	}
	b.get("/admin/static/nope.js").expect(t, 404)
	b.get("/admin/static/panel.css").expect(t, 404) // only by its fingerprinted name, which is immutable
}

func TestPanelCSRF(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	b := owner(t, e)
	path := fmt.Sprintf("/admin/stores/%d/categories/", sid)
	b.get(path).expect(t, 200)
	for name, form := range map[string]url.Values{
		"ErrMissing":   {"name": {"Shoes"}},
		"ErrWrong":     {"name": {"Shoes"}, "csrf": {strings.Repeat("ab", 32)}},
		"ErrEmpty":     {"name": {"Shoes"}, "csrf": {""}},
		"ErrOtherForm": {"name": {"Shoes"}, "csrf": {owner(t, e).csrf("/admin/")}}, // another session's token
	} {
		t.Run(name, func(t *testing.T) {
			b.do("POST", path, form).expect(t, 403, "Forbidden")
		})
	}
	b.do("POST", "/admin/logout/", url.Values{}).expect(t, 403)
	b.get("/admin/").expect(t, 200) // still logged in
	if cats, _ := e.Svc.Catalog.Categories(sid); len(cats) != 0 {
		t.Fatalf("got %d categories, want 0", len(cats))
	}
}

func TestPanelCategories(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/categories/", sid)

	b.submit(base, base, url.Values{"name": {"Running Shoes"}, "description": {"Fast ones"}}).redirectsTo(t, base)
	cats, err := e.Svc.Catalog.Categories(sid)
	if err != nil || len(cats) != 1 || cats[0].Name != "Running Shoes" || cats[0].Slug != "running-shoes" || cats[0].Description != "Fast ones" {
		t.Fatalf("got %+v, %v; want one category Running Shoes", cats, err)
	}
	b.get(base).expect(t, 200, "Category “Running Shoes” created.", "running-shoes")
	if strings.Contains(b.get(base).Body, "created.") {
		t.Fatalf("the flash was shown twice")
	}

	t.Run("ErrValidation", func(t *testing.T) {
		p := b.submit(base, base, url.Values{"name": {""}, "slug": {"Not A Slug"}}).expect(t, 400, "validation failed", "must be lower-case letters")
		if !strings.Contains(p.Body, `value="Not A Slug"`) {
			t.Fatalf("the form lost what was typed")
		}
	})
	t.Run("Edit", func(t *testing.T) {
		edit := fmt.Sprintf("%s%d/", base, cats[0].ID)
		b.get(edit).expect(t, 200, `value="Running Shoes"`)
		b.submit(edit, edit, url.Values{"name": {"Trail Shoes"}, "slug": {"trail"}}).redirectsTo(t, base)
		c, _ := e.Svc.Catalog.Category(sid, cats[0].ID)
		if c.Name != "Trail Shoes" || c.Slug != "trail" {
			t.Fatalf("got %q %q, want Trail Shoes trail", c.Name, c.Slug)
		}
		b.get(base+"999/").expect(t, 404)
	})
	t.Run("DeleteRefusedWithProducts", func(t *testing.T) {
		e.Product(sid, cats[0].ID, "Shoe", 1000, 1)
		del := fmt.Sprintf("%s%d/delete/", base, cats[0].ID)
		// the list links to a confirm page; a post without confirming lands on it
		b.get(base).expect(t, 200, `href="`+del+`"`)
		b.submit(base, del, url.Values{}).redirectsTo(t, del)
		b.get(del).expect(t, 200, "Delete the category", `name="confirm" value="yes"`)
		b.submit(del, del, url.Values{"confirm": {"yes"}}).expect(t, 409)
		empty := e.Category(sid, "Empty")
		delEmpty := fmt.Sprintf("%s%d/delete/", base, empty.ID)
		b.submit(delEmpty, delEmpty, url.Values{"confirm": {"yes"}}).redirectsTo(t, base)
		if _, err := e.Svc.Catalog.Category(sid, empty.ID); !app.IsNotFound(err) {
			t.Fatalf("got %v, want the category gone", err)
		}
	})
}

func TestPanelProducts(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	cat := e.Category(sid, "Shirts")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/products/", sid)
	newPage := base + "new/"

	form := url.Values{
		"name": {"Linen Shirt"}, "description": {"Cool & <light>"}, "price": {"49.9"}, "compare_at_price": {"59.00"},
		"category_id": {fmt.Sprint(cat.ID)}, "images": {"https://img.example/a.jpg\n\n  https://img.example/b.jpg  "},
		"stock": {"7"}, "is_active": {"on"}, "variant_rows": {"4"},
		"v0_name": {"Small"}, "v0_sku": {"LS-S"}, "v0_price": {"49.90"}, "v0_stock": {"3"}, "v0_attrs": {"size=S"},
		"v1_name": {"Large"}, "v1_sku": {"LS-L"}, "v1_price": {"52"}, "v1_stock": {"4"},
	}
	p := b.submit(newPage, base, form)
	if p.Status != 303 {
		t.Fatalf("create: got %d: %s", p.Status, p.Body)
	}
	page1, err := e.Svc.Catalog.AllProducts(sid, app.ListParams{Sort: app.SortNewest, Limit: 10})
	if err != nil || len(page1.Items) != 1 {
		t.Fatalf("got %d products, %v; want 1", len(page1.Items), err)
	}
	pr := page1.Items[0]
	if pr.Name != "Linen Shirt" || pr.Slug != "linen-shirt" || pr.Price != 4990 || pr.CompareAtPrice != 5900 ||
		pr.CategoryID != cat.ID || len(pr.Images) != 2 || pr.Images[1] != "https://img.example/b.jpg" ||
		pr.Stock != 7 || !pr.IsActive || pr.Description != "Cool & <light>" || len(pr.Variants) != 2 ||
		pr.Variants[1].Price != 5200 || pr.Variants[0].Attributes["size"] != "S" {
		t.Fatalf("got %+v", pr)
	}
	edit := fmt.Sprintf("%s%d/", base, pr.ID)
	p.redirectsTo(t, edit)
	b.get(edit).expect(t, 200, "Product “Linen Shirt” created.", `value="49.90"`, "Cool &amp; &lt;light&gt;")
	b.get(base).expect(t, 200, "Linen Shirt", "49.90 USD", "Shirts")

	t.Run("Edit", func(t *testing.T) {
		f := url.Values{"name": {"Linen Shirt"}, "slug": {"linen"}, "price": {"45.00"}, "compare_at_price": {""},
			"category_id": {"0"}, "images": {""}, "stock": {"2"}, "variant_rows": {"2"},
			"v0_id": {fmt.Sprint(pr.Variants[0].ID)}, "v0_name": {"Small"}, "v0_price": {"45.00"}, "v0_stock": {"1"},
			"v1_id": {fmt.Sprint(pr.Variants[1].ID)}, "v1_name": {"Large"}, "v1_delete": {"1"}}
		b.submit(edit, edit, f).redirectsTo(t, edit)
		got, _ := e.Svc.Catalog.Product(sid, pr.ID)
		if got.Slug != "linen" || got.Price != 4500 || got.CompareAtPrice != 0 || got.CategoryID != 0 || len(got.Images) != 0 ||
			got.IsActive || len(got.Variants) != 1 || got.Variants[0].ID != pr.Variants[0].ID {
			t.Fatalf("got %+v", got)
		}
		// hidden from the storefront now
		e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/products/linen/", Key: key}).Expect(t, 404, "not_found")
	})
	t.Run("ErrValidationKeepsInput", func(t *testing.T) {
		f := url.Values{"name": {"Broken"}, "price": {"12.345"}, "stock": {"x"}, "images": {"not a url"},
			"variant_rows": {"2"}, "v0_name": {"Kept"}, "v0_attrs": {"size"}, "v1_name": {""}, "v1_price": {"abc"}}
		p := b.submit(newPage, base, f).expect(t, 400, "must be an amount like 12.50", "must be a whole number", "key=value", "or empty for the product")
		if !strings.Contains(p.Body, `value="Kept"`) || !strings.Contains(p.Body, `value="abc"`) {
			t.Fatalf("the variant rows lost what was typed: %s", p.Body)
		}
		if !strings.Contains(p.Body, `value="12.345"`) || !strings.Contains(p.Body, "not a url") {
			t.Fatalf("the form lost what was typed: %s", p.Body)
		}
		p = b.submit(newPage, base, url.Values{"name": {"Broken"}, "price": {"1.00"}, "images": {"not a url"}}).expect(t, 400)
		if !strings.Contains(p.Body, "images") {
			t.Fatalf("no images error: %s", p.Body)
		}
		p = b.submit(newPage, base, url.Values{"name": {"Linen Shirt"}, "slug": {"linen"}, "price": {"1.00"}}).expect(t, 409)
		page, _ := e.Svc.Catalog.AllProducts(sid, app.ListParams{Sort: app.SortNewest, Limit: 10})
		if len(page.Items) != 1 {
			t.Fatalf("got %d products, want 1", len(page.Items))
		}
	})
	t.Run("Paging", func(t *testing.T) {
		for i := 0; i < 30; i++ {
			e.Product(sid, 0, fmt.Sprintf("Bulk %02d", i), 100, 1)
		}
		p := b.get(base).expect(t, 200, "Bulk 29", "Next »", "Page 1 of 2")
		m := regexp.MustCompile(`href="([^"]*\?page=2)"`).FindStringSubmatch(p.Body)
		if m == nil {
			t.Fatalf("no next link")
		}
		p2 := b.get(m[1]).expect(t, 200, "Bulk 00", "Linen Shirt", "« Previous", "Page 2 of 2")
		if strings.Contains(p2.Body, "Bulk 29") || strings.Contains(p2.Body, "Next »") {
			t.Fatalf("second page repeats the first or has a third")
		}
		b.get(base+"?page=0").expect(t, 400)
		b.get(base+"?sort=bogus").expect(t, 400)
		b.get(base+"?q=bulk+07").expect(t, 200, "Bulk 07", "1 product")
		b.get(base+"?sort=name&status=active").expect(t, 200, "Bulk 00")
	})
	t.Run("Delete", func(t *testing.T) {
		b.submit(edit, edit+"delete/", url.Values{}).expect(t, 400, "confirm")
		b.submit(edit, edit+"delete/", url.Values{"confirm": {"yes"}}).redirectsTo(t, base)
		if _, err := e.Svc.Catalog.Product(sid, pr.ID); !app.IsNotFound(err) {
			t.Fatalf("got %v, want not found", err)
		}
		b.get(edit).expect(t, 404)
	})
}

func TestPanelStore(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, oldKey := e.Store("Shop A")
	b := owner(t, e)
	home := fmt.Sprintf("/admin/stores/%d/", sid)
	b.get(home).expect(t, 200, "Shop A", "delivery_options", "Standard", "0.00 USD")

	t.Run("RotateKeyShownOnce", func(t *testing.T) {
		b.get(home).expect(t, 200, `href="`+home+`rotate-key/"`)
		b.submit(home, home+"rotate-key/", url.Values{}).redirectsTo(t, home+"rotate-key/")
		if st, _ := e.Svc.Stores.Get(sid); !bytes.Equal(st.APIKeyHash, app.HashAPIKey(oldKey)) {
			t.Fatal("the key rotated without confirming")
		}
		b.get(home+"rotate-key/").expect(t, 200, "Rotate the key", "stops working at once")
		b.submit(home+"rotate-key/", home+"rotate-key/", url.Values{"confirm": {"yes"}}).redirectsTo(t, home)
		p := b.get(home).expect(t, 200, "not shown again")
		m := regexp.MustCompile(`<code class="secret">(sk_[0-9a-f]+)</code>`).FindStringSubmatch(p.Body)
		if m == nil {
			t.Fatalf("no key on the page")
		}
		if strings.Contains(b.get(home).Body, m[1]) {
			t.Fatalf("the key is shown a second time")
		}
		e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/config/", Key: m[1]}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/config/", Key: oldKey}).Expect(t, 401, "invalid_api_key")
	})
	t.Run("ActiveToggle", func(t *testing.T) {
		b.submit(home, home+"active/", url.Values{"active": {"false"}}).redirectsTo(t, home+"active/?active=false")
		if st, _ := e.Svc.Stores.Get(sid); !st.IsActive {
			t.Fatal("deactivated without confirming")
		}
		b.get(home+"active/?active=false").expect(t, 200, "Deactivate the store", `name="active" value="false"`)
		b.submit(home+"active/?active=false", home+"active/", url.Values{"active": {"false"}, "confirm": {"yes"}}).redirectsTo(t, home)
		if st, _ := e.Svc.Stores.Get(sid); st.IsActive {
			t.Fatal("store still active")
		}
		b.get(home).expect(t, 200, "inactive", "Activate")
		b.submit(home, home+"active/", url.Values{"active": {"true"}}).redirectsTo(t, home)
		if st, _ := e.Svc.Stores.Get(sid); !st.IsActive {
			t.Fatal("store still inactive")
		}
	})
	t.Run("Rename", func(t *testing.T) {
		b.submit(home, home+"name/", url.Values{"name": {"Shop Alpha"}}).redirectsTo(t, home)
		b.get(home).expect(t, 200, "Shop Alpha")
		b.submit(home, home+"name/", url.Values{"name": {""}}).expect(t, 400, "is required")
	})
	t.Run("Config", func(t *testing.T) {
		cfg := `{
  "template": "modern",
  "theme_color": "#000000",
  "store": {"name": "Shop Alpha", "email": "hi@shop.test"},
  "payment_methods": [{"code": "WALLET_A", "name": "Wallet A"}],
  "delivery_options": [{"id": "standard", "name": "Standard", "fee": "0.00"}, {"id": "express", "name": "Express", "fee": 9.5}]
}`
		// it removes keys: refused until confirmed, the removed keys named
		b.submit(home, home+"config/", url.Values{"config": {cfg}}).expect(t, 400, "This save removes", "banners", "Remove these keys")
		if st, _ := e.Svc.Stores.Get(sid); !strings.Contains(string(st.Config), `"banners"`) {
			t.Fatalf("an unconfirmed save changed %s", st.Config)
		}
		b.submit(home, home+"config/", url.Values{"config": {cfg}, "confirm_removal": {"yes"}}).redirectsTo(t, home)
		st, _ := e.Svc.Stores.Get(sid)
		set := st.Settings()
		if len(set.DeliveryOptions) != 2 || set.DeliveryOptions[1].Fee != 950 || len(set.PaymentMethods) != 1 {
			t.Fatalf("got %+v", set)
		}
		for _, gone := range []string{`"seo"`, `"banners"`, `"logo"`} {
			if strings.Contains(string(st.Config), gone) {
				t.Fatalf("removed key %s is still in %s", gone, st.Config)
			}
		}
		if !strings.Contains(string(st.Config), `"modern"`) || !strings.Contains(string(st.Config), `"hi@shop.test"`) {
			t.Fatalf("got %s", st.Config)
		}
		b.get(home).expect(t, 200, "Express", "9.50 USD", "Configuration saved.")
		// the same text once more, as stored (the fee as the server writes it): nothing to patch
		b.submit(home, home+"config/", url.Values{"config": {strings.Replace(cfg, "9.5", `"9.50"`, 1)}}).redirectsTo(t, home)
		b.get(home).expect(t, 200, "Nothing changed")

		p := b.submit(home, home+"config/", url.Values{"config": {`{"template": 5, "subdomain": "x"}`}}).expect(t, 400, "template", "must be a string", "subdomain")
		if !strings.Contains(p.Body, `&#34;template&#34;: 5`) && !strings.Contains(p.Body, `&quot;template&quot;: 5`) {
			t.Fatalf("the editor lost what was typed: %s", p.Body)
		}
		b.submit(home, home+"config/", url.Values{"config": {`{"template": `}}).expect(t, 400, "must be one JSON object")
		b.submit(home, home+"config/", url.Values{"config": {`[1]`}}).expect(t, 400, "must be one JSON object")
		b.submit(home, home+"config/", url.Values{"config": {`{"delivery_options": [{"id": "", "fee": "-1"}]}`}}).expect(t, 400, "delivery_options")
		if st2, _ := e.Svc.Stores.Get(sid); string(st2.Config) != string(st.Config) {
			t.Fatalf("a refused config changed the store")
		}
	})
	t.Run("CreateStore", func(t *testing.T) {
		p := b.submit("/admin/", "/admin/stores/", url.Values{"name": {"Shop B"}, "subdomain": {"shop-b"}, "currency": {"eur"}})
		if p.Status != 303 {
			t.Fatalf("got %d: %s", p.Status, p.Body)
		}
		body := b.get(p.Header.Get("Location")).expect(t, 200, "Shop B", "EUR").Body
		if m := regexp.MustCompile(`<code class="secret">(sk_[0-9a-f]+)</code>`).FindStringSubmatch(body); m == nil {
			t.Fatalf("the new store's key is not shown")
		} else {
			e.Do(testenv.Req{Method: "GET", Path: "/api/v1/business/website/config/", Key: m[1]}).Expect(t, 200, "")
		}
		b.submit("/admin/", "/admin/stores/", url.Values{"name": {"Shop C"}, "subdomain": {"shop-b"}, "currency": {"EUR"}}).expect(t, 409)
		b.submit("/admin/", "/admin/stores/", url.Values{"name": {"Shop C"}, "subdomain": {"Bad Sub"}, "currency": {"EURO"}}).expect(t, 400, "subdomain", "currency")
	})
}

func TestPanelStaffScope(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sidA, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	catB := e.Category(sidB, "B things")
	prB := e.Product(sidB, catB.ID, "B product", 100, 1)
	o := owner(t, e)
	o.submit("/admin/users/", "/admin/users/", url.Values{"email": {"staff@example.com"}, "password": {"staff-password"},
		"role": {"staff"}, "store_id": {fmt.Sprint(sidA)}}).redirectsTo(t, "/admin/users/")
	o.get("/admin/users/").expect(t, 200, "staff@example.com", "Shop A")
	o.submit("/admin/users/", "/admin/users/", url.Values{"email": {"x@example.com"}, "password": {"short"}, "role": {"staff"}}).
		expect(t, 400, "at least 8 characters", "is required for a manager or staff")

	s := newBrowser(t, e)
	s.login("staff@example.com", "staff-password").redirectsTo(t, "/admin/")
	dash := s.get("/admin/").expect(t, 200, "Shop A").Body
	if strings.Contains(dash, "Shop B") || strings.Contains(dash, "New store") || strings.Contains(dash, "Admin users") {
		t.Fatalf("staff dashboard shows more than its store: %s", dash)
	}
	s.get(fmt.Sprintf("/admin/stores/%d/products/", sidA)).expect(t, 200)
	token := s.csrf("/admin/")
	for _, path := range []string{
		fmt.Sprintf("/admin/stores/%d/", sidB),
		fmt.Sprintf("/admin/stores/%d/categories/", sidB),
		fmt.Sprintf("/admin/stores/%d/products/", sidB),
		fmt.Sprintf("/admin/stores/%d/products/%d/", sidB, prB.ID),
		fmt.Sprintf("/admin/stores/%d/outbox/", sidB),
		"/admin/stores/999/",
	} {
		s.get(path).expect(t, 404, "Not found")
	}
	for _, path := range []string{
		fmt.Sprintf("/admin/stores/%d/categories/", sidB),
		fmt.Sprintf("/admin/stores/%d/products/%d/delete/", sidB, prB.ID),
		fmt.Sprintf("/admin/stores/%d/rotate-key/", sidB),
		fmt.Sprintf("/admin/stores/%d/active/", sidB),
	} {
		s.do("POST", path, url.Values{"csrf": {token}, "name": {"X"}, "confirm": {"yes"}, "active": {"false"}}).expect(t, 404)
	}
	if _, err := e.Svc.Catalog.Product(sidB, prB.ID); err != nil {
		t.Fatalf("staff of A deleted B's product: %v", err)
	}
	if st, _ := e.Svc.Stores.Get(sidB); !st.IsActive {
		t.Fatal("staff of A deactivated B")
	}
	// a product id of store B under store A is simply not found
	s.get(fmt.Sprintf("/admin/stores/%d/products/%d/", sidA, prB.ID)).expect(t, 404)
	s.get("/admin/users/").expect(t, 403)
	s.do("POST", "/admin/users/", url.Values{"csrf": {token}, "email": {"evil@example.com"}, "password": {"password123"}, "role": {"owner"}}).expect(t, 403)
	s.do("POST", "/admin/stores/", url.Values{"csrf": {token}, "name": {"Mine"}, "subdomain": {"mine"}, "currency": {"USD"}}).expect(t, 403)

	t.Run("DeletedUserLosesSession", func(t *testing.T) {
		users, _ := e.Svc.Admins.List()
		var staffID uint64
		for _, u := range users {
			if u.Email == "staff@example.com" {
				staffID = u.ID
			}
		}
		o.submit("/admin/users/", fmt.Sprintf("/admin/users/%d/delete/", staffID), url.Values{"confirm": {"yes"}}).redirectsTo(t, "/admin/users/")
		s.get("/admin/").redirectsTo(t, "/admin/login/")
		var me uint64
		for _, u := range users {
			if u.Email == "owner@example.com" {
				me = u.ID
			}
		}
		o.submit("/admin/users/", fmt.Sprintf("/admin/users/%d/delete/", me), url.Values{"confirm": {"yes"}}).expect(t, 409, "your own account")
	})
}

func TestPanelLogout(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	b := owner(t, e)
	stolen := b.cookies["sf_admin"]
	b.submit("/admin/", "/admin/logout/", url.Values{}).redirectsTo(t, "/admin/login/")
	if _, found := b.cookies["sf_admin"]; found {
		t.Fatalf("logout did not clear the cookie")
	}
	b.get("/admin/login/?out=1").expect(t, 200, "You are logged out.")
	// the old session id is dead on the server, not only in the browser
	b.cookies["sf_admin"] = stolen
	b.get("/admin/").redirectsTo(t, "/admin/login/")
}

func TestPanelSessionExpires(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	b := owner(t, e)
	e.Advance(11 * time.Hour)
	b.get("/admin/").expect(t, 200)
	e.Advance(2 * time.Hour)
	b.get("/admin/").redirectsTo(t, "/admin/login/")
}

func TestPanelOutbox(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	st, _ := e.Svc.Stores.Get(sid)
	e.Svc.SendMail(app.NewMail(st, "ann@example.com", "Your order", "Thanks for <your> order."))
	b := owner(t, e)
	b.get(fmt.Sprintf("/admin/stores/%d/outbox/", sid)).expect(t, 200, "ann@example.com", "[Shop A] Your order", "Thanks for &lt;your&gt; order.")
}

func TestPanelTemplatesFailAtStartup(t *testing.T) {
	t.Parallel()
	copyFS := func(t *testing.T) fstest.MapFS {
		out := fstest.MapFS{}
		err := fs.WalkDir(panel.PanelFS, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(panel.PanelFS, p)
			out[p] = &fstest.MapFile{Data: b}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if err := panel.ParsePanel(panel.PanelFS); err != nil {
		t.Fatalf("embedded templates: %v", err)
	}
	for name, mutate := range map[string]func(fstest.MapFS){
		"ErrSyntax": func(m fstest.MapFS) { m["templates/products.html"].Data = []byte(`{{define "content"}}{{.Data.Rows`) },
		"ErrUnknownFunc": func(m fstest.MapFS) {
			m["templates/store.html"].Data = []byte(`{{define "content"}}{{nosuch .}}{{end}}`)
		},
		"ErrNoContent":    func(m fstest.MapFS) { m["templates/users.html"].Data = []byte(`<p>hi</p>`) },
		"ErrMissingPage":  func(m fstest.MapFS) { delete(m, "templates/login.html") },
		"ErrBrokenLayout": func(m fstest.MapFS) { m["templates/layout.html"].Data = []byte(`{{define "layout"}}{{if}}{{end}}`) },
		"ErrBrokenPartial": func(m fstest.MapFS) {
			m["templates/_category_fields.html"].Data = []byte(`{{define "categoryfields"}}{{end`)
		},
	} {
		t.Run(name, func(t *testing.T) {
			m := copyFS(t)
			mutate(m)
			if err := panel.ParsePanel(m); err == nil {
				t.Fatalf("got no error, want the broken templates refused")
			}
		})
	}
}

func TestPanelSecureCookieBehindHTTPS(t *testing.T) {
	t.Parallel()
	e := testenv.NewWith(t, testenv.Options{Web: web.Config{TrustedProxies: []string{"0.0.0.0"}}})
	b := newBrowser(t, e)
	token := b.csrf("/admin/login/")
	req := httptest.NewRequest("POST", "/admin/login/", strings.NewReader(url.Values{"csrf": {token},
		"email": {"owner@example.com"}, "password": {"owner-password"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-Proto", "https")
	req.AddCookie(&http.Cookie{Name: "sf_admin_login", Value: b.cookies["sf_admin_login"]})
	resp, err := e.App.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, c := range resp.Cookies() {
		if c.Name == "sf_admin" {
			if !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
				t.Fatalf("got Secure %v HttpOnly %v SameSite %v, want all set", c.Secure, c.HttpOnly, c.SameSite)
			}
			return
		}
	}
	t.Fatalf("no session cookie (status %d)", resp.StatusCode)
}
