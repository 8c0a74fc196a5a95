package panel_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// Images given as URLs get a thumbnail too, in the product list and on the
// product page: the URL itself, loaded by the browser (lazy, sized, with the
// alt text); the server never fetches it. Only http(s) URLs become an <img>.
func TestPanelURLThumbnails(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	pr := e.Product(sid, 0, "Lamp", 4900, 2)
	images := []string{"https://cdn.example.com/lamp.jpg", "http://img.example.org/lamp-side.png"}
	if _, err := e.Svc.Catalog.SaveProduct(sid, pr.ID, app.ProductInput{Images: &images}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Catalog.SetProductImageAlt(sid, pr.ID, 0, "A brass lamp"); err != nil {
		t.Fatal(err)
	}
	b := owner(t, e)
	list := b.get(fmt.Sprintf("/admin/stores/%d/products/", sid)).expect(t, 200,
		`<img class="thumb" src="https://cdn.example.com/lamp.jpg" alt="A brass lamp" width="48" height="48" loading="lazy">`)
	if csp := list.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "img-src 'self' https: http:") {
		t.Fatalf("CSP %q does not let the browser load the thumbnails", csp)
	}
	b.get(fmt.Sprintf("/admin/stores/%d/products/%d/", sid, pr.ID)).expect(t, 200,
		`<img class="thumb" src="https://cdn.example.com/lamp.jpg" alt="A brass lamp" width="80" height="80" loading="lazy">`,
		`<img class="thumb" src="http://img.example.org/lamp-side.png" alt="Image 2" width="80" height="80" loading="lazy">`)
	t.Run("NotHTTP", func(t *testing.T) {
		// Stored before URLs were checked: shown as text, never as a source.
		err := e.DB.Update(func(tx app.Tx) error {
			p, err := tx.Product(sid, pr.ID)
			if err != nil {
				return err
			}
			p.Images = []string{"javascript:alert(1)", "ftp://files.example.com/lamp.jpg"}
			return tx.PutProduct(p)
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{fmt.Sprintf("/admin/stores/%d/products/", sid), fmt.Sprintf("/admin/stores/%d/products/%d/", sid, pr.ID)} {
			p := b.get(path).expect(t, 200, `<span class="thumb none"></span>`)
			if strings.Contains(p.Body, `<img class="thumb" src="javascript`) || strings.Contains(p.Body, `src="ftp:`) {
				t.Fatalf("%s: a non-http image became a source", path)
			}
		}
	})
}
