package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/httpkit"
	"storefront/httpkit/staff"
)

// registerProductCSVRoutes mounts the CSV export and import; before the
// product routes, so that "export" and "import" are not read as ids.
func (h *Handler) registerProductCSVRoutes(r fiber.Router) {
	r.Get("/products/export", h.exportProducts)
	r.Post("/products/import", h.importProducts)
}

// exportProducts serves GET stores/{id}/products/export/: every product as
// CSV (app.ProductCSVColumns), streamed.
func (h *Handler) exportProducts(c *fiber.Ctx) error {
	return h.svc.StreamProductsCSV(c, storeOf(c))
}

// importProducts serves POST stores/{id}/products/import/ (multipart, the
// CSV in the field file): every row is created or updated in one
// transaction, or none is and the answer lists every problem by row and
// column (400 validation_failed, errors keyed "row 3: price").
func (h *Handler) importProducts(c *fiber.Ctx) error {
	f, err := staff.ReadCSVUpload(c)
	if err != nil {
		return err
	}
	defer f.Close()
	res, _, err := h.svc.Catalog.ImportProductsCSV(storeOf(c).ID, f)
	if err != nil {
		return err
	}
	return httpkit.OK(c, res)
}
