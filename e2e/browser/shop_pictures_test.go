package browser_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"storefront/e2e/browser"
)

// picturesHost is another host's pictures, on 127.0.0.1: a PNG for a path
// ending in .png, a JPEG for any other. A server that fetches from it runs
// with webhooks.allow_private_targets on (allowPrivate).
func picturesHost(t *testing.T) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 900, 600))
	for x := range 900 {
		for y := range 600 {
			img.Set(x, y, color.RGBA{uint8(x / 4), uint8(y / 3), 120, 255})
		}
	}
	var jp, pn bytes.Buffer
	if err := jpeg.Encode(&jp, img, nil); err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(&pn, img.SubImage(image.Rect(0, 0, 300, 300))); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".png") {
			w.Write(pn.Bytes())
			return
		}
		w.Write(jp.Bytes())
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// allowPrivate lets the server fetch pictures from picturesHost.
const allowPrivate = "STOREFRONT_WEBHOOKS__ALLOW_PRIVATE_TARGETS=true"

// TestShopPicturesByURL: a product whose pictures were given as URLs of
// another host (http:, which the shop's policy would refuse) shows them in
// the grid and on its page from the page's own host: every picture loads,
// none comes from elsewhere, and nothing is refused by the CSP (a console
// error fails the test).
func TestShopPicturesByURL(t *testing.T) {
	t.Parallel()
	pics := picturesHost(t)
	srv := browser.StartServer(t, browser.ServerOptions{Env: []string{"STOREFRONT_SHOP__DEFAULT_STORE=1", allowPrivate}})
	st := srv.CreateStore(t, "Picture Shop", "pictures")
	var p product
	srv.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), srv.OwnerToken(t), map[string]any{
		"name": "Brass Lamp", "price": "30.00", "stock": 3, "images": []string{pics + "/lamp.jpg", pics + "/side.png"}}, 201, &p)
	if len(p.Images) != 2 || !strings.HasPrefix(p.Images[0], srv.URL+"/media/") {
		t.Fatalf("images %v: want stored pictures", p.Images)
	}
	page := browser.NewPage(t, srv)
	page.Go("/search/?q=lamp")
	picturesFromHere(t, page, 1)
	page.Submit(`main li.card a`)
	if !strings.Contains(page.Text("h1"), "Brass Lamp") {
		t.Fatalf("product page: %q", page.Text("h1"))
	}
	picturesFromHere(t, page, 2)
}

// picturesFromHere fails unless the page has at least n pictures, every one
// of them from the page's own origin, and none of its eager ones broken.
func picturesFromHere(t *testing.T, p *browser.Page, n int) {
	t.Helper()
	got := browser.Eval[int](p, `document.images.length`)
	elsewhere := browser.Eval[string](p, `[...document.images].map(i => i.currentSrc || i.src).concat(performance.getEntriesByType("resource").map(e => e.name)).filter(u => new URL(u, location.href).origin !== location.origin).join(" ")`)
	if got < n || elsewhere != "" {
		t.Fatalf("%s: %d pictures (want %d or more); from elsewhere: %q", p.URL(), got, n, elsewhere)
	}
	checkImagesLoaded(t, p)
}
