package admin

import (
	"errors"
	"io"
	"mime/multipart"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/imaging"
	"storefront/httpkit"
)

// MaxUploadFiles is how many files one upload request may carry.
const MaxUploadFiles = 10

func (h *Handler) registerImageRoutes(r fiber.Router) {
	r.Post("/products/:pid/images", h.uploadProductImages)
	r.Put("/products/:pid/images", h.setProductImages)
	r.Delete("/products/:pid/images/:index", h.deleteProductImage)
}

// readUploads reads and processes the multipart `file` parts of a request.
// Errors: validation_failed (no file, not an image), payload_too_large.
func readUploads(c *fiber.Ctx) ([]app.Media, error) {
	form, err := c.MultipartForm()
	if err != nil {
		if errors.Is(err, fiber.ErrRequestEntityTooLarge) {
			return nil, err
		}
		return nil, app.Invalid("file", "send the image(s) as multipart/form-data in the field file")
	}
	files := form.File["file"]
	if len(files) == 0 {
		return nil, app.Invalid("file", "no file: send the image(s) in the multipart field file")
	}
	if len(files) > MaxUploadFiles {
		return nil, app.Invalid("file", "at most "+strconv.Itoa(MaxUploadFiles)+" files per request")
	}
	out := make([]app.Media, 0, len(files))
	for i, fh := range files {
		field := "file"
		if len(files) > 1 {
			field = "file[" + strconv.Itoa(i) + "]"
		}
		data, err := readPart(fh, field)
		if err != nil {
			return nil, err
		}
		res, err := imaging.Process(field, data)
		if err != nil {
			return nil, err
		}
		out = append(out, app.Media{Hash: res.Hash, Ext: res.Ext, Files: res.Files})
	}
	return out, nil
}

func readPart(fh *multipart.FileHeader, field string) ([]byte, error) {
	if fh.Size > imaging.MaxBytes {
		return nil, &app.Error{Code: app.EPayloadTooLarge, Message: field + ": an image may be at most 10 MB"}
	}
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, imaging.MaxBytes+1))
	if err != nil {
		return nil, err
	}
	return data, nil
}

// uploadProductImages serves POST stores/{id}/products/{pid}/images/
// (multipart, one or several parts named file): the product with the new
// images' URLs appended.
func (h *Handler) uploadProductImages(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "pid", "product")
	if err != nil {
		return err
	}
	if _, err := h.svc.Catalog.Product(storeOf(c).ID, id); err != nil {
		return err // 404 before reading the files
	}
	media, err := readUploads(c)
	if err != nil {
		return err
	}
	p, err := h.svc.Catalog.AddProductImages(storeOf(c).ID, id, media)
	if err != nil {
		return err
	}
	return httpkit.Created(c, viewProduct(p))
}

// setProductImages serves PUT stores/{id}/products/{pid}/images/ {images}:
// reorder or drop images (each must be one of the product's).
func (h *Handler) setProductImages(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "pid", "product")
	if err != nil {
		return err
	}
	var in struct {
		Images *[]string `json:"images"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	if in.Images == nil {
		return app.Invalid("images", "is required: the product's image URLs in the new order")
	}
	p, err := h.svc.Catalog.SetProductImages(storeOf(c).ID, id, *in.Images)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewProduct(p))
}

// deleteProductImage serves DELETE stores/{id}/products/{pid}/images/{index}/
// (0-based position in images): the product without it.
func (h *Handler) deleteProductImage(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "pid", "product")
	if err != nil {
		return err
	}
	idx, err := strconv.Atoi(c.Params("index"))
	if err != nil || idx < 0 {
		return app.NotFound("image")
	}
	p, err := h.svc.Catalog.DeleteProductImage(storeOf(c).ID, id, idx)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewProduct(p))
}
