package browser_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"storefront/e2e/browser"
)

// long is an unbroken string of n characters: it must wrap, never widen a page.
// catalogPage is a tab on the catalog fixture's server.
func catalogPage(t *testing.T, srv *browser.Server) *browser.Page {
	t.Helper()
	return browser.NewPage(t, srv)
}

func long(prefix string, n int) string { return prefix + strings.Repeat("w", n-len(prefix)) }

type product struct {
	ID       uint64 `json:"id"`
	Name     string `json:"name"`
	IsActive bool   `json:"is_active"`
	Stock    int64  `json:"stock"`
	Images   []string
	Variants []struct {
		ID    uint64 `json:"id"`
		Name  string `json:"name"`
		SKU   string `json:"sku"`
		Price string `json:"price"`
		Stock int64  `json:"stock"`
	} `json:"variants"`
	CategoryID uint64 `json:"category_id"`
}

// catalogFixture starts a server with one store whose data has 300-character
// unbroken strings where the validation allows them (names stop at 200).
func catalogFixture(t *testing.T) (*browser.Server, browser.Store, []product) {
	srv := browser.StartServer(t, browser.ServerOptions{Env: []string{allowPrivate}}) // it fetches the fixture's pictures from picturesHost
	pics := picturesHost(t)
	st := srv.CreateStore(t, "Catalog "+long("S", 90), "catalog")
	tok := srv.OwnerToken(t)
	var cat struct {
		ID uint64 `json:"id"`
	}
	srv.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/categories/", st.ID), tok, map[string]any{"name": long("C", 100)}, 201, &cat)
	var out []product
	for i := range 4 {
		var p product
		body := map[string]any{"name": long(fmt.Sprintf("P%d", i), 200), "price": "9.50", "stock": 3 + i, "category_id": cat.ID,
			"description": long("D", 300), "low_stock_threshold": 4,
			"images": []string{pics + "/" + long("i", 300) + ".jpg"}}
		if i == 0 {
			body["variants"] = []map[string]any{{"name": long("V", 200), "sku": long("K", 100), "price": "9.50", "stock": 2, "attributes": map[string]string{"note": long("A", 300)}}}
		}
		srv.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), tok, body, 201, &p)
		out = append(out, p)
	}
	return srv, st, out
}

func writeJPEG(t *testing.T, w, h int) string {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "photo.jpg")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCatalogPagesFit(t *testing.T) {
	t.Parallel()
	srv, st, prods := catalogFixture(t)
	p := catalogPage(t, srv)
	p.LoginOwner()
	base := fmt.Sprintf("/admin/stores/%d/products/", st.ID)
	for _, path := range []string{base, base + "?status=low", base + "?q=p1&sort=name", base + "new/", fmt.Sprintf("%s%d/", base, prods[0].ID)} {
		p.Go(path)
		p.CheckNoOverflow()
	}
	// The low-stock view lists the products at or below their threshold of 4:
	// product 0 (its variants hold 2) and product 1 (4); 2 and 3 hold 5 and 6.
	p.Go(base + "?status=low")
	if got := p.Count(`table.products tbody tr`); got != 2 {
		t.Fatalf("low stock: got %d rows, want 2", got)
	}
}

func TestCatalogImageUpload(t *testing.T) {
	t.Parallel()
	srv, st, prods := catalogFixture(t)
	p := catalogPage(t, srv)
	p.LoginOwner()
	page := fmt.Sprintf("/admin/stores/%d/products/%d/", st.ID, prods[1].ID)
	p.Go(page)
	p.Upload(`#images input[type=file]`, writeJPEG(t, 1600, 800))
	p.Submit(`#images form.upload button[type=submit]`)
	p.WaitVisible(`#images img.thumb[src^="/media/"]`)
	// The thumbnail is loaded from the server (same origin, CSP allows it).
	if w := browser.Eval[int](p, `document.querySelector('#images img.thumb[src^="/media/"]').naturalWidth`); w != 160 {
		t.Fatalf("thumbnail natural width: got %d, want 160", w)
	}
	p.CheckNoOverflow()
	var got product
	srv.API(t, "GET", fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", st.ID, prods[1].ID), srv.OwnerToken(t), nil, 200, &got)
	if len(got.Images) != 2 || !strings.HasPrefix(got.Images[1], srv.URL+"/media/") {
		t.Fatalf("images: got %v, want the upload as an absolute URL second", got.Images)
	}
	for _, w := range []int{160, 480, 1200} {
		u := strings.Replace(got.Images[1], "-1200.jpg", fmt.Sprintf("-%d.jpg", w), 1)
		status, body, hdr := srv.Request(t, "GET", strings.TrimPrefix(u, srv.URL), "", "", nil)
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(body))
		if status != 200 || err != nil || cfg.Width != w || hdr.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Fatalf("width %d: got %d %+v %v %q", w, status, cfg, err, hdr.Get("Cache-Control"))
		}
	}
	// Make the upload the main image, then remove the URL image.
	p.Submit(`#images li:nth-child(2) form[action$="/first/"] button`)
	p.Submit(`#images li:nth-child(2) form[action$="/delete/"] button`)
	srv.API(t, "GET", fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", st.ID, prods[1].ID), srv.OwnerToken(t), nil, 200, &got)
	if len(got.Images) != 1 || !strings.Contains(got.Images[0], "/media/") {
		t.Fatalf("after make-main and remove: got %v", got.Images)
	}
}

func TestCatalogVariantsForm(t *testing.T) {
	t.Parallel()
	srv, st, prods := catalogFixture(t)
	p := catalogPage(t, srv)
	p.LoginOwner()
	page := fmt.Sprintf("/admin/stores/%d/products/%d/", st.ID, prods[0].ID)
	p.Go(page)
	// Row 0 is the existing variant; rows 1-3 are blank.
	p.Fill(`input[name=v0_stock]`, "7")
	p.Fill(`input[name=v1_name]`, "Large")
	p.Fill(`input[name=v1_sku]`, "BIG-1")
	p.Fill(`input[name=v1_price]`, "12.00")
	p.Fill(`input[name=v1_stock]`, "5")
	p.Fill(`input[name=v1_attrs]`, "size=L; colour=blue")
	p.Submit(`form.grid button.primary`)
	var got product
	srv.API(t, "GET", fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", st.ID, prods[0].ID), srv.OwnerToken(t), nil, 200, &got)
	if len(got.Variants) != 2 || got.Variants[0].Stock != 7 || got.Variants[1].Name != "Large" || got.Variants[1].Price != "12.00" || got.Variants[1].Stock != 5 {
		t.Fatalf("variants: got %+v", got.Variants)
	}
	// A bad row is shown on its row, and nothing is saved.
	p.Fill(`input[name=v1_price]`, "twelve")
	p.Submit(`form.grid button.primary`, 400)
	if msg := p.Text(`tr.row-err .ferr`); !strings.Contains(msg, "price") {
		t.Fatalf("row error: got %q", msg)
	}
	p.CheckNoOverflow()
	// Delete the first variant.
	p.Go(page)
	p.SetChecked(`input[name=v0_delete]`, true)
	p.Submit(`form.grid button.primary`)
	srv.API(t, "GET", fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", st.ID, prods[0].ID), srv.OwnerToken(t), nil, 200, &got)
	if len(got.Variants) != 1 || got.Variants[0].Name != "Large" {
		t.Fatalf("after delete: got %+v", got.Variants)
	}
}

func TestCatalogBulkAction(t *testing.T) {
	t.Parallel()
	srv, st, prods := catalogFixture(t)
	p := catalogPage(t, srv)
	p.LoginOwner()
	p.Go(fmt.Sprintf("/admin/stores/%d/products/", st.ID))
	p.SetChecked(fmt.Sprintf(`input[name=ids][value="%d"]`, prods[1].ID), true)
	p.SetChecked(fmt.Sprintf(`input[name=ids][value="%d"]`, prods[2].ID), true)
	p.Fill(`select[name=action]`, "deactivate")
	p.Submit(`#bulk fieldset button[type=submit]`)
	if msg := p.Text(`.flash`); !strings.Contains(msg, "2 products updated") {
		t.Fatalf("flash: got %q", msg)
	}
	p.CheckNoOverflow()
	for i, want := range []bool{true, false, false, true} {
		var got product
		srv.API(t, "GET", fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", st.ID, prods[i].ID), srv.OwnerToken(t), nil, 200, &got)
		if got.IsActive != want {
			t.Fatalf("product %d active: got %t, want %t", i, got.IsActive, want)
		}
	}
	// Adjust stock: all or nothing (product 0 has variants, so the batch is refused).
	p.SetChecked(fmt.Sprintf(`input[name=ids][value="%d"]`, prods[0].ID), true)
	p.SetChecked(fmt.Sprintf(`input[name=ids][value="%d"]`, prods[3].ID), true)
	p.Fill(`select[name=action]`, "stock")
	p.Fill(`input[name=stock_delta]`, "10")
	p.Submit(`#bulk fieldset button[type=submit]`)
	if msg := p.Text(`.flash`); !strings.Contains(msg, "has variants") {
		t.Fatalf("flash: got %q", msg)
	}
	var got product
	srv.API(t, "GET", fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", st.ID, prods[3].ID), srv.OwnerToken(t), nil, 200, &got)
	if got.Stock != 6 {
		t.Fatalf("stock after a refused batch: got %d, want 6 (unchanged)", got.Stock)
	}
}
