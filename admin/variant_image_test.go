package admin_test

import (
	"fmt"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestVariantImageKeepsUpload: an uploaded picture a variant shows counts as
// a reference: dropping it from the product's images leaves it served while
// the variant has it; clearing the variant's picture, or deleting the
// product, frees it. A variant may not name an upload that does not exist.
func TestVariantImageKeepsUpload(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 2000, 5)
	var got productImages
	uploadImages(e, e.OwnerToken, sid, p.ID, testenv.File{Name: "photo.jpg", Data: testJPEG(t, 800, 800)}).Expect(t, 201, "").Decode(t, &got)
	img := got.Images[0]
	ref, _ := app.ParseMediaURL(img)
	path := fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", sid, p.ID)
	setVariant := func(image string, status int, code string) {
		t.Helper()
		e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: map[string]any{"variants": []map[string]any{
			{"name": "Blue", "stock": 2, "image": image}}}}).Expect(t, status, code)
	}
	setVariant(img, 200, "")
	e.Do(testenv.Req{Method: "DELETE", Path: imagesPath(sid, p.ID) + "0/", Token: e.OwnerToken}).Expect(t, 200, "")
	getMedia(t, e, img, nil).Expect(t, 200, "")
	if n, _ := e.Svc.Catalog.MediaRefs(sid, ref.Hash); n != 1 {
		t.Fatalf("refs while the variant shows it: %d, want 1", n)
	}
	setVariant("", 200, "")
	getMedia(t, e, img, nil).Expect(t, 404, "not_found")
	// an upload that no longer exists cannot be named
	setVariant(img, 400, "validation_failed")
	// deleting the product frees its variants' pictures
	q := e.Product(sid, 0, "Cup", 1500, 5)
	uploadImages(e, e.OwnerToken, sid, q.ID, testenv.File{Name: "cup.jpg", Data: testJPEG(t, 600, 600)}).Expect(t, 201, "").Decode(t, &got)
	qpath := fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", sid, q.ID)
	e.Do(testenv.Req{Method: "PATCH", Path: qpath, Token: e.OwnerToken, Body: map[string]any{"images": []string{},
		"variants": []map[string]any{{"name": "Red", "stock": 1, "image": got.Images[0]}}}}).Expect(t, 200, "")
	getMedia(t, e, got.Images[0], nil).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "DELETE", Path: qpath, Token: e.OwnerToken}).Expect(t, 200, "")
	getMedia(t, e, got.Images[0], nil).Expect(t, 404, "not_found")
}
