package panel_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

// TestPanelProductPictureByURL: a picture URL typed in the panel's product
// form is fetched into the media store like one sent to the admin API; one
// that cannot be fetched shows the form again with the reason.
func TestPanelProductPictureByURL(t *testing.T) {
	e := testenv.New(t)
	e.FetchImages(time.Second, true) // the picture host is on 127.0.0.1
	jpg := testenv.JPEG(t, 600, 400)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/lamp.jpg" {
			http.NotFound(w, r)
			return
		}
		w.Write(bytes.Clone(jpg))
	}))
	t.Cleanup(host.Close)
	sid, _ := e.Store("Shop A")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/products/", sid)
	form := url.Values{"name": {"Lamp"}, "price": {"9.00"}, "stock": {"1"}, "is_active": {"on"}, "variant_rows": {"0"},
		"images": {host.URL + "/lamp.jpg"}}
	if p := b.submit(base+"new/", base, form); p.Status != 303 {
		t.Fatalf("create: %d: %s", p.Status, p.Body)
	}
	page, err := e.Svc.Catalog.AllProducts(sid, app.ListParams{Sort: app.SortNewest, Limit: 10})
	if err != nil || len(page.Items) != 1 || len(page.Items[0].Images) != 1 || !strings.HasPrefix(page.Items[0].Images[0], fmt.Sprintf("http://shop.test/media/%d/", sid)) {
		t.Fatalf("products %v, %v: want the picture stored", page.Items, err)
	}
	form.Set("name", "Shade")
	form.Set("images", host.URL+"/gone.jpg")
	p := b.submit(base+"new/", base, form)
	if p.Status != 400 || !strings.Contains(p.Body, "/gone.jpg: cannot be fetched: the server answered 404 Not Found") {
		t.Fatalf("a picture that cannot be fetched: %d\n%s", p.Status, p.Body)
	}
}
