package panel

import (
	"mime/multipart"
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/staff"
)

// imageRow is one image of the product page: its URL and its thumbnail
// (the 160 px rendition of an upload of this store, or the http(s) URL
// itself, loaded by the owner's browser: the server never fetches it).
type imageRow struct {
	Index int
	URL   string
	Thumb string
	Alt   string // the owner's alt text, "" when none
	// External: the thumbnail is the URL itself, loaded lazily (an upload's
	// small rendition loads with the page).
	External bool
}

func (p *panel) imageRows(pr *app.Product) []imageRow {
	if pr == nil {
		return nil
	}
	rows := make([]imageRow, len(pr.Images))
	for i, u := range pr.Images {
		thumb := thumbOf(pr.StoreID, u)
		rows[i] = imageRow{Index: i, URL: u, Thumb: thumb, Alt: pr.ImageAlts[u], External: thumb == u}
	}
	return rows
}

// thumbOf is the thumbnail of an image: the same-origin path of the 160 px
// rendition of an uploaded image of the store, else the URL itself when it
// is an absolute http(s) URL, else "" (no javascript: or data: sources).
func thumbOf(storeID uint64, u string) string {
	if r, ok := app.ParseMediaURL(u); ok && r.StoreID == storeID {
		return app.MediaPath(storeID, r.Hash, app.MediaWidths[0], r.Ext)
	}
	if app.ValidHTTPURL(u) {
		return u
	}
	return ""
}

func productPath(st *app.Store, id uint64) string {
	return storePath(st, "products/"+strconv.FormatUint(id, 10)+"/")
}

// uploadImages serves POST /admin/stores/{id}/products/{pid}/images/
// (multipart, files in the field file).
func (p *panel) uploadImages(c *fiber.Ctx, v *view, pr *app.Product) error {
	media, err := staff.ReadUploads(c)
	if err == nil {
		if _, err = p.h.svc.Catalog.AddProductImages(v.Store.ID, pr.ID, media); err == nil {
			n := strconv.Itoa(len(media)) + " images"
			if len(media) == 1 {
				n = "1 image"
			}
			return p.redirect(c, v, productPath(v.Store, pr.ID), ok1(n+" uploaded."))
		}
	}
	return p.showProduct(c, v, p.formError(c, v, err), formOfProduct(pr), pr)
}

// moveImage serves POST /admin/stores/{id}/products/{pid}/images/{index}/{up|first|delete}/.
func (p *panel) moveImage(op string) pageFunc {
	return with(p.productEditor().record, func(c *fiber.Ctx, v *view, pr *app.Product) error {
		i, err := strconv.Atoi(c.Params("index"))
		if err != nil || i < 0 || i >= len(pr.Images) {
			return app.NotFound("image")
		}
		images := slices.Clone(pr.Images)
		msg := "Image moved."
		switch op {
		case "up":
			if i > 0 {
				images[i-1], images[i] = images[i], images[i-1]
			}
		case "first":
			// The image first, read before Delete clears the tail (the order of
			// an index expression and a call in one expression is unspecified).
			main := images[i]
			images = append([]string{main}, slices.Delete(images, i, i+1)...)
			msg = "Main image set."
		default:
			images = slices.Delete(images, i, i+1)
			msg = "Image removed."
		}
		if _, err := p.h.svc.Catalog.SetProductImages(v.Store.ID, pr.ID, images); err != nil {
			return p.showProduct(c, v, p.formError(c, v, err), formOfProduct(pr), pr)
		}
		return p.redirect(c, v, productPath(v.Store, pr.ID)+"#images", ok1(msg))
	})
}

// createProductWithImages serves POST /admin/stores/{id}/products/new/images/
// (multipart): the new-product form with its photos (field file, none is
// fine). The photos are decoded first; the product and its photos are then
// made in one transaction (both or neither).
func (p *panel) createProductWithImages(c *fiber.Ctx, v *view) error {
	form, in, err := readProductForm(c, 0)
	if wantsVariants(c) {
		return p.makeVariants(c, v, form, nil)
	}
	var media []app.Media
	if err == nil && hasUploads(c) {
		media, err = staff.ReadUploads(c)
	}
	if err != nil {
		return p.showProduct(c, v, p.formError(c, v, err), form, nil)
	}
	pr, err := p.h.svc.Catalog.SaveProductWithImages(v.Store.ID, 0, in, media) // one transaction
	if err != nil {
		return p.showProduct(c, v, p.formError(c, v, err), form, nil)
	}
	msg := "Product “" + pr.Name + "” created."
	if len(media) == 1 {
		msg += " 1 photo added."
	} else if len(media) > 1 {
		msg += " " + strconv.Itoa(len(media)) + " photos added."
	}
	return p.redirect(c, v, productPath(v.Store, pr.ID), ok1(msg))
}

// hasUploads reports whether the multipart form carries a non-empty file.
func hasUploads(c *fiber.Ctx) bool {
	form, err := c.MultipartForm()
	return err == nil && slices.ContainsFunc(form.File["file"], func(fh *multipart.FileHeader) bool { return fh.Size > 0 })
}

// setImageAlt serves POST /admin/stores/{id}/products/{pid}/images/{index}/alt/ {alt}.
func (p *panel) setImageAlt(c *fiber.Ctx, v *view, pr *app.Product) error {
	i, err := strconv.Atoi(c.Params("index"))
	if err != nil {
		return app.NotFound("image")
	}
	if _, err := p.h.svc.Catalog.SetProductImageAlt(v.Store.ID, pr.ID, i, readForm(c, nil, "alt")["alt"]); err != nil {
		return p.showAgain(c, v, err, func(status int) error { return p.showProduct(c, v, status, formOfProduct(pr), pr) })
	}
	return p.redirect(c, v, productPath(v.Store, pr.ID)+"#images", ok1("Alt text of image "+strconv.Itoa(i+1)+" saved."))
}
