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
	r.Put("/products/:pid/images", withBody(productID, fiber.StatusOK, h.setProductImages, viewProduct))
	r.Delete("/products/:pid/images/:index", onOne(productID, h.deleteProductImage, viewProduct))
}

// uploadProductImages serves POST stores/{id}/products/{pid}/images/
// (multipart, one or several parts named file): the product with the new
// images' URLs appended.
func (h *Handler) uploadProductImages(c *fiber.Ctx) error {
	id, err := productID(c)
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

// productID reads the path's product id.
var productID = pathID("pid", "product")

// imagesInput is the body of a PUT of a product's images.
type imagesInput struct {
	Images *[]string `json:"images"`
}

// setProductImages serves PUT stores/{id}/products/{pid}/images/ {images}:
// reorder or drop images (each must be one of the product's).
func (h *Handler) setProductImages(c *fiber.Ctx, id uint64, in imagesInput) (*app.Product, error) {
	if in.Images == nil {
		return nil, app.Invalid("images", "is required: the product's image URLs in the new order")
	}
	return h.svc.Catalog.SetProductImages(storeOf(c).ID, id, *in.Images)
}

// deleteProductImage serves DELETE stores/{id}/products/{pid}/images/{index}/
// (0-based position in images): the product without it.
func (h *Handler) deleteProductImage(c *fiber.Ctx, id uint64) (*app.Product, error) {
	idx, err := strconv.Atoi(c.Params("index"))
	if err != nil || idx < 0 {
		return nil, app.NotFound("image")
	}
	return h.svc.Catalog.DeleteProductImage(storeOf(c).ID, id, idx)
}
