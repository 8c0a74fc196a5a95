package panel_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// postMultipart sends fields and files (field file) as the panel's
// multipart form, with the page's CSRF token and the browser's cookies.
func (b *browser) postMultipart(formPage, action string, fields map[string]string, files ...testenv.File) page {
	b.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fields["csrf"] = b.csrf(formPage)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	for _, f := range files {
		w, _ := mw.CreateFormFile("file", f.Name)
		w.Write(f.Data)
	}
	mw.Close()
	req := httptest.NewRequest("POST", action, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	for k, v := range b.cookies {
		req.AddCookie(&http.Cookie{Name: k, Value: v})
	}
	resp, err := b.e.App.Test(req, -1)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return page{Status: resp.StatusCode, Header: resp.Header, Body: string(raw)}
}

// Photos chosen in the new-product form are uploaded with it.
func TestPanelNewProductWithPhotos(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	b := owner(t, e)
	newPage := fmt.Sprintf("/admin/stores/%d/products/new/", sid)
	action := fmt.Sprintf("/admin/stores/%d/products/new/images/", sid)
	b.get(newPage).expect(t, 200, `enctype="multipart/form-data"`, `type="file" name="file"`, `new/images/`)
	t.Run("WithPhotos", func(t *testing.T) {
		p := b.postMultipart(newPage, action, map[string]string{"name": "Camera", "price": "99.00", "stock": "3"},
			testenv.File{Name: "a.jpg", Data: testJPEG(t, 400, 300)}, testenv.File{Name: "b.png", Data: testPNG(t, 200, 200)})
		p.redirectsTo(t, fmt.Sprintf("/admin/stores/%d/products/", sid))
		pr := lastProduct(t, e, sid)
		if pr.Name != "Camera" || len(pr.Images) != 2 {
			t.Fatalf("product %q with %d images, want Camera with 2", pr.Name, len(pr.Images))
		}
		b.get(p.Header.Get("Location")).expect(t, 200, "2 photos added.")
	})
	t.Run("WithoutPhotos", func(t *testing.T) {
		b.postMultipart(newPage, action, map[string]string{"name": "Lens", "price": "9.00", "stock": "1"}).
			redirectsTo(t, fmt.Sprintf("/admin/stores/%d/products/", sid))
		if pr := lastProduct(t, e, sid); pr.Name != "Lens" || len(pr.Images) != 0 {
			t.Fatalf("product %q with %d images", pr.Name, len(pr.Images))
		}
	})
	t.Run("ErrNotAnImage", func(t *testing.T) {
		b.postMultipart(newPage, action, map[string]string{"name": "Tripod", "price": "9.00", "stock": "1"},
			testenv.File{Name: "x.jpg", Data: []byte("not an image at all")}).expect(t, 400, "must be a JPEG, PNG, WebP or GIF", `value="Tripod"`)
		if pr := lastProduct(t, e, sid); pr.Name == "Tripod" {
			t.Fatal("the product was made although its photo was refused")
		}
	})
	t.Run("ErrTooManyImages", func(t *testing.T) {
		// 19 linked images and 2 photos pass 20: neither the product nor its
		// photos are made (the product was made, the photos refused after)
		var urls []string
		for i := range app.MaxProductImages - 1 {
			urls = append(urls, fmt.Sprintf("https://cdn.example/%d.jpg", i))
		}
		b.postMultipart(newPage, action, map[string]string{"name": "Flash", "price": "9.00", "stock": "1", "images": strings.Join(urls, "\n")},
			testenv.File{Name: "a.jpg", Data: testJPEG(t, 40, 30)}, testenv.File{Name: "b.png", Data: testPNG(t, 20, 20)}).expect(t, 400, "at most 20 images", `value="Flash"`)
		if pr := lastProduct(t, e, sid); pr.Name == "Flash" {
			t.Fatal("the product was made although its photos were refused")
		}
	})
	t.Run("ErrBadForm", func(t *testing.T) {
		b.postMultipart(newPage, action, map[string]string{"name": "", "price": "9.00"}, testenv.File{Name: "a.jpg", Data: testJPEG(t, 40, 30)}).expect(t, 400)
	})
}

func lastProduct(t *testing.T, e *testenv.Env, sid uint64) *app.Product {
	t.Helper()
	var out *app.Product
	e.DB.View(func(tx app.Tx) error {
		for id := uint64(1); ; id++ {
			p, err := tx.Product(sid, id)
			if err != nil {
				return nil
			}
			out = p
		}
	})
	if out == nil {
		t.Fatal("no product")
	}
	return out
}

// Each image has its alt text, edited on the product page.
func TestPanelImageAlt(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	pr := e.Product(sid, 0, "Camera", 9900, 1)
	if _, err := e.Svc.Catalog.SetProductImages(sid, pr.ID, nil); err != nil {
		t.Fatal(err)
	}
	b := owner(t, e)
	page := fmt.Sprintf("/admin/stores/%d/products/%d/", sid, pr.ID)
	b.postMultipart(page, page+"images/", map[string]string{}, testenv.File{Name: "a.jpg", Data: testJPEG(t, 400, 300)}).redirectsTo(t, page)
	b.get(page).expect(t, 200, `alt="Image 1"`, `images/0/alt/`)
	b.submit(page, page+"images/0/alt/", url.Values{"alt": {"A black camera, front"}}).redirectsTo(t, page)
	b.get(page).expect(t, 200, `alt="A black camera, front"`, `value="A black camera, front"`, "Alt text of image 1 saved.")
	got, _ := e.Svc.Catalog.Product(sid, pr.ID)
	if got.ImageAlts[got.Images[0]] != "A black camera, front" {
		t.Fatalf("alts %v", got.ImageAlts)
	}
	t.Run("Clear", func(t *testing.T) {
		b.submit(page, page+"images/0/alt/", url.Values{"alt": {"  "}}).redirectsTo(t, page)
		if got, _ := e.Svc.Catalog.Product(sid, pr.ID); got.ImageAlts != nil {
			t.Fatalf("alts %v", got.ImageAlts)
		}
	})
	t.Run("ErrTooLong", func(t *testing.T) {
		b.submit(page, page+"images/0/alt/", url.Values{"alt": {strings.Repeat("x", 301)}}).expect(t, 400)
	})
	t.Run("ErrNoImage", func(t *testing.T) {
		b.submit(page, page+"images/5/alt/", url.Values{"alt": {"x"}}).expect(t, 404)
		b.submit(page, page+"images/x/alt/", url.Values{"alt": {"x"}}).expect(t, 404)
	})
	t.Run("ErrOtherStore", func(t *testing.T) {
		b.submit(page, fmt.Sprintf("/admin/stores/%d/products/%d/images/0/alt/", sidB, pr.ID), url.Values{"alt": {"x"}}).expect(t, 404)
	})
}
