package admin

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
	"storefront/httpkit/staff"
)

func (h *Handler) registerImageRoutes(r fiber.Router) {
	r.Post("/products/:pid/images", h.uploadProductImages)
	r.Put("/products/:pid/images", h.setProductImages)
	r.Delete("/products/:pid/images/:index", h.deleteProductImage)
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
	media, err := staff.ReadUploads(c)
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
