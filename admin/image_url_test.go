package admin_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"storefront/app"
	"storefront/app/imaging"
	"storefront/testenv"
)

// pictureServer is another host's pictures, on 127.0.0.1: a JPEG, a page,
// a file over 10 MB, a redirect, and one that never answers (it waits for
// the fetch to give up).
func pictureServer(t *testing.T) *httptest.Server {
	t.Helper()
	jpg := testJPEG(t, 1280, 720)
	mux := http.NewServeMux()
	mux.HandleFunc("/a.jpg", func(w http.ResponseWriter, r *http.Request) { w.Write(jpg) })
	mux.HandleFunc("/b.png", func(w http.ResponseWriter, r *http.Request) { w.Write(testPNG(t, 300, 300)) })
	mux.HandleFunc("/page.jpg", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>not a picture</html>")) })
	mux.HandleFunc("/huge.jpg", func(w http.ResponseWriter, r *http.Request) {
		w.Write(jpg)
		w.Write(make([]byte, imaging.MaxBytes))
	})
	mux.HandleFunc("/deep.png", func(w http.ResponseWriter, r *http.Request) { w.Write(pngHeader(7000, 7000, 16, 6)) })
	mux.HandleFunc("/moved.jpg", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/a.jpg", http.StatusFound) })
	mux.HandleFunc("/slow.jpg", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestProductImageByURL: a picture given by URL in the admin API's product
// create and update is fetched once into the media store and served like an
// upload, with its renditions; the product keeps the stored picture's URL.
// Each failure is a 400 naming the image and saying why, and nothing is
// written: an address the webhooks' rules refuse, 404, not an image, over
// 10 MB, too many pixels for the memory budget, no answer in time.
func TestProductImageByURL(t *testing.T) {
	e := testenv.New(t)
	e.FetchImages(time.Second, true) // the test server is on 127.0.0.1
	srv := pictureServer(t)
	sid, _ := e.Store("Pictures")
	path := fmt.Sprintf("/api/v1/admin/stores/%d/products/", sid)

	var p productImages
	e.Do(testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken,
		Body: map[string]any{"name": "Lamp", "price": "9.00", "images": []string{srv.URL + "/a.jpg", srv.URL + "/moved.jpg"}}}).Expect(t, 201, "").Decode(t, &p)
	prefix := fmt.Sprintf("http://shop.test/media/%d/", sid)
	if len(p.Images) != 1 || !strings.HasPrefix(p.Images[0], prefix) || !strings.HasSuffix(p.Images[0], "-1200.jpg") {
		t.Fatalf("images %v: want the one stored picture (the redirect is the same bytes) under %s", p.Images, prefix)
	}
	for _, w := range app.MediaWidths {
		r := getMedia(t, e, strings.Replace(p.Images[0], "-1200.", fmt.Sprintf("-%d.", w), 1), nil).Expect(t, 200, "")
		if r.Header.Get("Content-Type") != "image/jpeg" {
			t.Fatalf("rendition %d: %s", w, r.Header.Get("Content-Type"))
		}
	}
	// an update adds one; the stored one is kept as it is, not fetched again
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s%d/", path, p.ID), Token: e.OwnerToken,
		Body: map[string]any{"images": []string{p.Images[0], srv.URL + "/b.png"}}}).Expect(t, 200, "").Decode(t, &p)
	if len(p.Images) != 2 || !strings.HasPrefix(p.Images[1], prefix) || !strings.HasSuffix(p.Images[1], "-1200.png") {
		t.Fatalf("images after the update: %v", p.Images)
	}

	// a variant's own picture is fetched the same way
	var pv struct {
		Variants []struct {
			Image string `json:"image"`
		} `json:"variants"`
	}
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s%d/", path, p.ID), Token: e.OwnerToken,
		Body: map[string]any{"variants": []map[string]any{{"name": "Brass", "image": srv.URL + "/b.png"}, {"name": "Steel", "image": p.Images[0]}}}}).Expect(t, 200, "").Decode(t, &pv)
	if len(pv.Variants) != 2 || pv.Variants[0].Image != p.Images[1] || pv.Variants[1].Image != p.Images[0] {
		t.Fatalf("variants' pictures %+v, want the stored %v", pv.Variants, p.Images)
	}
	r := e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s%d/", path, p.ID), Token: e.OwnerToken,
		Body: map[string]any{"variants": []map[string]any{{"name": "Brass", "image": srv.URL + "/none.jpg"}}}}).Expect(t, 400, "validation_failed")
	if msg := r.Body.Errors["variants[0].image"]; !strings.Contains(msg, "404") {
		t.Fatalf("variants[0].image: %s", r.Raw)
	}

	for _, c := range []struct{ name, url, want string }{
		{"NotFound", srv.URL + "/none.jpg", "404 Not Found"},
		{"NotAnImage", srv.URL + "/page.jpg", "must be a JPEG, PNG, WebP or GIF image"},
		{"TooLarge", srv.URL + "/huge.jpg", "larger than 10 MB"},
		{"TooMuchMemory", srv.URL + "/deep.png", "is 7000x7000 pixels of 8 bytes each"},
		{"Slow", srv.URL + "/slow.jpg", "did not answer in time"},
		{"Unreachable", "http://127.0.0.1:1/x.jpg", "could not be reached"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s%d/", path, p.ID), Token: e.OwnerToken,
				Body: map[string]any{"images": []string{p.Images[0], c.url}}}).Expect(t, 400, "validation_failed")
			if msg := r.Body.Errors["images[1]"]; !strings.Contains(msg, c.url) || !strings.Contains(msg, c.want) {
				t.Fatalf("images[1]: %q, want %q about %s", msg, c.want, c.url)
			}
		})
	}
	t.Run("PrivateAddress", func(t *testing.T) {
		e.FetchImages(time.Second, false) // the server's default: webhooks.allow_private_targets off
		defer e.FetchImages(time.Second, true)
		for _, u := range []string{srv.URL + "/a.jpg", "http://localhost:" + srv.URL[strings.LastIndex(srv.URL, ":")+1:] + "/a.jpg"} {
			r := e.Do(testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken,
				Body: map[string]any{"name": "Private", "price": "1.00", "images": []string{u}}}).Expect(t, 400, "validation_failed")
			if msg := r.Body.Errors["images[0]"]; !strings.Contains(msg, "special-purpose address") {
				t.Fatalf("%s: %q", u, msg)
			}
		}
	})
	var got productImages
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s%d/", path, p.ID), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &got)
	if len(got.Images) != 2 || got.Images[1] != p.Images[1] {
		t.Fatalf("a refused update changed the images: %v", got.Images)
	}
}

// TestProductImportImagesByURL: a CSV import's image URLs are fetched once
// each (a URL on several rows too) into the media store, and the products
// keep the stored pictures' URLs; a picture that cannot be fetched is an
// error of its row and column, and nothing is imported.
func TestProductImportImagesByURL(t *testing.T) {
	e := testenv.New(t)
	e.FetchImages(time.Second, true)
	srv := pictureServer(t)
	sid, _ := e.Store("Pictures")
	a, b := srv.URL+"/a.jpg", srv.URL+"/b.png"
	csv := "name,price,images\nLamp,9.00,\"" + a + " " + b + "\"\nShade,4.00," + a + "\n"
	var res importData
	importCSV(e, e.OwnerToken, sid, csv).Expect(t, 200, "").Decode(t, &res)
	if res.Created != 2 {
		t.Fatalf("import: %+v", res)
	}
	prefix := fmt.Sprintf("http://shop.test/media/%d/", sid)
	var images []string
	for _, name := range []string{"Lamp", "Shade"} {
		page, _ := e.Svc.Catalog.AdminProducts(sid, app.AdminProductQuery{Q: name})
		if len(page.Items) != 1 {
			t.Fatalf("%s: %d products", name, len(page.Items))
		}
		p, _ := e.Svc.Catalog.Product(sid, page.Items[0].ID)
		for _, u := range p.Images {
			if !strings.HasPrefix(u, prefix) {
				t.Fatalf("%s keeps %s, not a stored picture", name, u)
			}
			getMedia(t, e, u, nil).Expect(t, 200, "")
		}
		images = append(images, p.Images...)
	}
	if len(images) != 3 || images[0] != images[2] {
		t.Fatalf("images %v: want Lamp's two, and Shade's the same stored picture as Lamp's first", images)
	}

	// a variant's own picture in the variants column is fetched too
	vcsv := "name,price,variants\nTee,5.00,\"[{\"\"name\"\":\"\"Blue\"\",\"\"stock\"\":2,\"\"image\"\":\"\"" + b + "\"\"}]\"\n"
	importCSV(e, e.OwnerToken, sid, vcsv).Expect(t, 200, "")
	page, _ := e.Svc.Catalog.AdminProducts(sid, app.AdminProductQuery{Q: "Tee"})
	if tee, _ := e.Svc.Catalog.Product(sid, page.Items[0].ID); len(tee.Variants) != 1 || tee.Variants[0].Image != images[1] || tee.Variants[0].Stock != 2 {
		t.Fatalf("the variant's picture: %+v, want %s", tee.Variants, images[1])
	}
	r := importCSV(e, e.OwnerToken, sid, strings.ReplaceAll(vcsv, "/b.png", "/none.png")).Expect(t, 400, "validation_failed")
	if msg := r.Body.Errors["row 2: variants"]; !strings.Contains(msg, "404") {
		t.Fatalf("row 2: variants: %s", r.Raw)
	}

	bad := "name,price,images\nOK,1.00," + a + "\nGone,1.00,\"" + b + " " + srv.URL + "/none.jpg\"\nPage,1.00," + srv.URL + "/page.jpg\n"
	r = importCSV(e, e.OwnerToken, sid, bad).Expect(t, 400, "validation_failed")
	if msg := r.Body.Errors["row 3: images"]; !strings.Contains(msg, "/none.jpg") || !strings.Contains(msg, "404") {
		t.Fatalf("row 3: %q (%s)", msg, r.Raw)
	}
	if msg := r.Body.Errors["row 4: images"]; !strings.Contains(msg, "must be a JPEG") {
		t.Fatalf("row 4: %q (%s)", msg, r.Raw)
	}
	if len(r.Body.Errors) != 2 || productCount(t, e, sid) != 3 {
		t.Fatalf("a refused import: errors %v, %d products", r.Body.Errors, productCount(t, e, sid))
	}

	var many strings.Builder
	many.WriteString("name,price,images\n")
	for i := range app.MaxImportImages + 1 {
		fmt.Fprintf(&many, "P%d,1.00,%s/p%d.jpg\n", i, srv.URL, i)
	}
	r = importCSV(e, e.OwnerToken, sid, many.String()).Expect(t, 400, "validation_failed")
	if msg := r.Body.Errors["file"]; !strings.Contains(msg, "at most 200 per import") {
		t.Fatalf("too many pictures: %s", r.Raw)
	}
}

// TestOtherPicturesByURL: every other picture the admin API takes as a URL
// is fetched into the media store the same way: a category's image, a
// post's cover, a bundle's images, the store's logo, hero image and banner
// images; a picture that cannot be fetched is a 400 naming its field.
func TestOtherPicturesByURL(t *testing.T) {
	e := testenv.New(t)
	e.FetchImages(time.Second, true)
	srv := pictureServer(t)
	sid, _ := e.Store("Pictures")
	base := fmt.Sprintf("/api/v1/admin/stores/%d/", sid)
	stored := func(t *testing.T, what, u string) {
		t.Helper()
		if !strings.HasPrefix(u, fmt.Sprintf("http://shop.test/media/%d/", sid)) {
			t.Fatalf("%s: %q, want a stored picture", what, u)
		}
		getMedia(t, e, u, nil).Expect(t, 200, "")
	}
	pic, gone := srv.URL+"/a.jpg", srv.URL+"/none.jpg"
	cup := e.Product(sid, 0, "Cup", 1000, 10)
	for _, c := range []struct {
		name, method, path string
		body               map[string]any
		read               func(map[string]any) string
		field              string
	}{
		{"Category", "POST", "categories/", map[string]any{"name": "Lamps", "image": pic},
			func(m map[string]any) string { return fmt.Sprint(m["image"]) }, "image"},
		{"Post", "POST", "blog-posts/", map[string]any{"title": "News", "cover_image": pic},
			func(m map[string]any) string { return fmt.Sprint(m["cover_image"]) }, "cover_image"},
		{"Bundle", "POST", "bundles/", map[string]any{"name": "Set", "price": "12.00", "images": []string{pic},
			"items": []map[string]any{{"product_id": cup.ID, "quantity": 2}}},
			func(m map[string]any) string { return fmt.Sprint(m["images"].([]any)[0]) }, "images[0]"},
		{"Logo", "PATCH", "config/", map[string]any{"store": map[string]any{"logo": pic}},
			func(m map[string]any) string { return fmt.Sprint(m["store"].(map[string]any)["logo"]) }, "store.logo"},
		{"Hero", "PATCH", "config/", map[string]any{"hero": map[string]any{"image": pic}},
			func(m map[string]any) string { return fmt.Sprint(m["hero"].(map[string]any)["image"]) }, "hero.image"},
		{"Banner", "PATCH", "config/", map[string]any{"banners": []any{map[string]any{"title": "Sale", "image": pic}}},
			func(m map[string]any) string {
				return fmt.Sprint(m["banners"].([]any)[0].(map[string]any)["image"])
			}, "banners[0].image"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got map[string]any
			r := e.Do(testenv.Req{Method: c.method, Path: base + c.path, Token: e.OwnerToken, Body: c.body})
			if r.Status != 200 && r.Status != 201 {
				t.Fatalf("%d: %s", r.Status, r.Raw)
			}
			r.Decode(t, &got)
			stored(t, c.name, c.read(got))
			bad := strings.ReplaceAll(string(mustJSON(t, c.body)), pic, gone)
			r = e.Do(testenv.Req{Method: c.method, Path: base + c.path, Token: e.OwnerToken, Body: bad}).Expect(t, 400, "validation_failed")
			if msg := r.Body.Errors[c.field]; !strings.Contains(msg, "404") {
				t.Fatalf("%s: %q, want the 404 (%s)", c.field, msg, r.Raw)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFetchStoredPictures: pictures stored as other hosts' URLs before they
// were fetched on save are fetched by the pictures.fetch job: products (the
// alt text follows its picture; a variant's own picture too), categories, posts, bundles and the
// config's logo, hero and banners then name stored pictures; a picture
// that cannot be fetched stays as it was, and a second run changes nothing.
func TestFetchStoredPictures(t *testing.T) {
	e := testenv.New(t) // no fetcher yet: URLs are stored as given, as before
	srv := pictureServer(t)
	sid, _ := e.Store("Pictures")
	pic, gone := srv.URL+"/a.jpg", srv.URL+"/none.jpg"
	p := e.Product(sid, 0, "Lamp", 900, 1)
	if _, err := e.Svc.Catalog.SaveProduct(sid, p.ID, app.ProductInput{Images: &[]string{pic, srv.URL + "/b.png"},
		Variants: &[]app.VariantInput{{Name: "Brass", Stock: 1, Image: ptr(srv.URL + "/b.png")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Catalog.SetProductImageAlt(sid, p.ID, 0, "A brass lamp"); err != nil {
		t.Fatal(err)
	}
	dead := e.Product(sid, 0, "Dead", 900, 1)
	if _, err := e.Svc.Catalog.SaveProduct(sid, dead.ID, app.ProductInput{Images: &[]string{gone}}); err != nil {
		t.Fatal(err)
	}
	cat, err := e.Svc.Catalog.SaveCategory(sid, 0, app.CategoryInput{Name: ptr("Lamps"), Image: &pic})
	if err != nil {
		t.Fatal(err)
	}
	post, err := e.Svc.Content.SavePost(sid, 0, app.BlogPostInput{Title: ptr("News"), CoverImage: &pic})
	if err != nil {
		t.Fatal(err)
	}
	price := app.Money(1200)
	bundle, err := e.Svc.Content.SaveBundle(sid, 0, app.BundleInput{Name: ptr("Set"), Price: &price, Images: &[]string{pic},
		Items: &[]app.BundleItem{{ProductID: p.ID, Quantity: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`{"store":{"logo":%q},"hero":{"image":%q},"banners":[{"title":"Sale","image":%q}]}`, pic, pic, pic)
	if _, err := e.Svc.Stores.PatchConfig(sid, []byte(cfg)); err != nil {
		t.Fatal(err)
	}

	e.FetchImages(time.Second, true)
	n, err := e.Svc.FetchStoredPictures()
	if err != nil || n != 5 { // the product, the category, the post, the bundle, the config
		t.Fatalf("first run: %d changed, %v", n, err)
	}
	prefix := fmt.Sprintf("http://shop.test/media/%d/", sid)
	got, _ := e.Svc.Catalog.Product(sid, p.ID)
	if len(got.Images) != 2 || !strings.HasPrefix(got.Images[0], prefix) || !strings.HasPrefix(got.Images[1], prefix) || got.ImageAlts[got.Images[0]] != "A brass lamp" ||
		got.Variants[0].Image != got.Images[1] {
		t.Fatalf("product: %v %v, variant's picture %q", got.Images, got.ImageAlts, got.Variants[0].Image)
	}
	if got, _ := e.Svc.Catalog.Product(sid, dead.ID); len(got.Images) != 1 || got.Images[0] != gone {
		t.Fatalf("a picture that cannot be fetched: %v", got.Images)
	}
	if c, _ := e.Svc.Catalog.Category(sid, cat.ID); !strings.HasPrefix(c.Image, prefix) {
		t.Fatalf("category: %q", c.Image)
	}
	if bp, _ := e.Svc.Content.Post(sid, post.ID); !strings.HasPrefix(bp.CoverImage, prefix) {
		t.Fatalf("post: %q", bp.CoverImage)
	}
	if bv, _ := e.Svc.Content.BundleByID(sid, bundle.ID); len(bv.Images) != 1 || !strings.HasPrefix(bv.Images[0], prefix) {
		t.Fatalf("bundle: %v", bv.Images)
	}
	var conf map[string]any
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/config/", sid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &conf)
	if s := fmt.Sprint(conf["store"], conf["hero"], conf["banners"]); strings.Count(s, prefix) != 3 || strings.Contains(s, srv.URL) {
		t.Fatalf("config: %s", s)
	}
	if n, err := e.Svc.FetchStoredPictures(); err != nil || n != 0 {
		t.Fatalf("second run: %d changed, %v", n, err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestConfigPictureNotFetchedWhenRefused: a configuration change the admin
// may not make whole (a manager changing the payment methods beside the
// logo) is refused before the logo is fetched; the same change by the
// owner fetches it once.
func TestConfigPictureNotFetchedWhenRefused(t *testing.T) {
	e := testenv.New(t)
	e.FetchImages(time.Second, true)
	jpg := testJPEG(t, 400, 300)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write(jpg)
	}))
	t.Cleanup(srv.Close)
	sid, _ := e.Store("Refused")
	manager := e.Admin(sid, "manager@refused.test", app.RoleManager)
	patch := map[string]any{"store": map[string]any{"logo": srv.URL + "/logo.jpg"},
		"payment_methods": []map[string]string{{"code": app.WalletA, "name": "Only A"}}}
	path := fmt.Sprintf("/api/v1/admin/stores/%d/config/", sid)
	e.Do(testenv.Req{Method: "PATCH", Path: path, Token: manager, Body: patch}).Expect(t, 403, "forbidden")
	if n := hits.Load(); n != 0 {
		t.Fatalf("a refused change fetched the logo %d times", n)
	}
	e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: patch}).Expect(t, 200, "")
	if n := hits.Load(); n != 1 {
		t.Fatalf("the owner's change fetched the logo %d times, want 1", n)
	}
}
