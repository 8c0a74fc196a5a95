package panel_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestPanelProductList: the product list's sorts, status and category
// filters, search (name, slug, SKU) and paging, through HTTP on the
// configured backend; the rows come in the sort's order and the total counts
// every match.
func TestPanelProductList(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	shoes, bags := e.Category(sid, "Shoes"), e.Category(sid, "Bags")
	mk := func(cat uint64, name string, price app.Money, stock, threshold int64, active bool, skus ...string) *app.Product {
		t.Helper()
		var vs []app.VariantInput
		for _, s := range skus {
			vs = append(vs, app.VariantInput{Name: s, SKU: s, Price: &price, Stock: stock})
		}
		in := app.ProductInput{Name: &name, Price: &price, Stock: &stock, LowStockThreshold: &threshold, IsActive: &active, CategoryID: &cat}
		if vs != nil {
			in.Variants = &vs
		}
		p, err := e.Svc.Catalog.SaveProduct(sid, 0, in)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk(shoes.ID, "Alpha Boot", 300, 9, 0, true)
	mk(bags.ID, "Beta Bag", 100, 1, 2, true)
	mk(shoes.ID, "Gamma Boot", 200, 5, 0, false)
	mk(bags.ID, "Delta Bag", 400, 0, 1, false)
	mk(0, "Epsilon Sock", 250, 3, 0, true, "SOCK-RED-XL")
	e.Product(sidB, 0, "Omega Boot", 100, 1) // another store's
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/products/", sid)
	rowRE := regexp.MustCompile(`aria-label="Select ([^"]+)"`)
	rows := func(path string) (string, string) {
		t.Helper()
		p := b.get(path).expect(t, 200)
		var names []string
		for _, m := range rowRE.FindAllStringSubmatch(p.Body, -1) {
			names = append(names, strings.Fields(m[1])[0])
		}
		total := regexp.MustCompile(`<p class="muted">([0-9]+) product`).FindStringSubmatch(p.Body)
		if total == nil {
			t.Fatalf("%s: no total", path)
		}
		return strings.Join(names, " "), total[1]
	}
	for _, tc := range []struct{ query, want string }{
		{"", "Epsilon Delta Gamma Beta Alpha"},
		{"?sort=name", "Alpha Beta Delta Epsilon Gamma"},
		{"?sort=price", "Beta Gamma Epsilon Alpha Delta"},
		{"?sort=stock", "Delta Beta Epsilon Gamma Alpha"},
		{"?status=active", "Epsilon Beta Alpha"},
		{"?status=inactive&sort=name", "Delta Gamma"},
		{"?status=low&sort=price", "Beta Delta"},
		{fmt.Sprintf("?category=%d", shoes.ID), "Gamma Alpha"},
		{fmt.Sprintf("?category=%d&status=active", shoes.ID), "Alpha"},
		{fmt.Sprintf("?category=%d&status=low&sort=stock", bags.ID), "Delta Beta"},
		{"?q=boot", "Gamma Alpha"},
		{"?q=BOOT&status=inactive", "Gamma"},
		{"?q=sock-red", "Epsilon"},
		{"?q=xl", "Epsilon"},
		{"?q=beta-bag", "Beta"}, // the slug
		{"?q=omega", ""},        // another store's
		{fmt.Sprintf("?q=bag&category=%d&sort=price", bags.ID), "Beta Delta"},
	} {
		got, total := rows(base + tc.query)
		if got != tc.want || total != fmt.Sprint(len(strings.Fields(tc.want))) {
			t.Errorf("%s: got %q (%s), want %q", tc.query, got, total, tc.want)
		}
	}
	// The category select shows, with the filter's category selected.
	b.get(base+fmt.Sprintf("?category=%d", bags.ID)).expect(t, 200, `name="category"`, fmt.Sprintf(`<option value="%d" selected>Bags</option>`, bags.ID))
	b.get(base+"?category=abc").expect(t, 400, "category")
	b.get(base+"?status=bogus").expect(t, 400, "status")
	b.get(base+"?q="+strings.Repeat("x", 201)).expect(t, 400)
	b.get(base+"?category=99999").expect(t, 200, "0 products")

	t.Run("PagingKeepsFilters", func(t *testing.T) {
		for i := 0; i < 30; i++ {
			mk(shoes.ID, fmt.Sprintf("Runner %02d", i), app.Money(1000+i), 10, 0, i%2 == 0)
		}
		first := b.get(base+fmt.Sprintf("?category=%d&sort=price", shoes.ID)).expect(t, 200, "Page 1 of 2", "32 products")
		m := regexp.MustCompile(`href="([^"]*page=2[^"]*)"`).FindStringSubmatch(first.Body)
		if m == nil || !strings.Contains(m[1], fmt.Sprintf("category=%d", shoes.ID)) || !strings.Contains(m[1], "sort=price") {
			t.Fatalf("next link: %v", m)
		}
		got, total := rows(strings.ReplaceAll(m[1], "&amp;", "&"))
		if got != "Runner Runner Runner Runner Runner Runner Runner" || total != "32" {
			t.Fatalf("page 2: got %q (%s)", got, total)
		}
		if got, _ := rows(base + "?q=runner&status=inactive&sort=name&page=1"); !strings.HasPrefix(got, "Runner") || len(strings.Fields(got)) != 15 {
			t.Fatalf("inactive runners: %q", got)
		}
		b.get(base+"?page=9").expect(t, 200, "Page 9 of 2") // past the end: empty, still counted
	})
	t.Run("Scope", func(t *testing.T) {
		newBrowser(t, e).get(base).redirectsTo(t, "/admin/login/")
		staff := newBrowser(t, e)
		e.Svc.Admins.Create(app.NewAdmin{Email: "b@example.com", Password: "staff-password", Role: app.RoleStaff, StoreID: sidB})
		staff.login("b@example.com", "staff-password")
		staff.get(base).expect(t, 404)
		staff.get(fmt.Sprintf("/admin/stores/%d/products/?q=boot", sidB)).expect(t, 200, "Omega Boot", "1 product")
	})
}
