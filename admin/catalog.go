package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// registerCatalogRoutes mounts the categories (a complete set; no GET of
// one) and the products (every product, newest first, a page at a time).
func (h *Handler) registerCatalogRoutes(r fiber.Router) {
	cs := h.svc.Catalog
	resource[*app.Category, app.CategoryInput]{path: "/categories", param: "cid", noun: "category",
		list: listAll(cs.Categories, viewCategory),
		save: cs.SaveCategory, del: cs.DeleteCategory, view: viewCategory}.routes(r)
	resource[*app.Product, app.ProductInput]{path: "/products", param: "pid", noun: "product",
		list: listPaged(h, "products", cs.AllProducts, viewProduct),
		get:  cs.Product, save: cs.SaveProduct, del: cs.DeleteProduct, view: viewProduct}.routes(r)
}

// categoryView is a category on the admin API: parent_id is null for a
// top-level category (the one convention for a missing id; the stored
// category omits it).
type categoryView struct {
	*app.Category
	ParentID *uint64 `json:"parent_id"`
}

func viewCategory(c *app.Category) any {
	v := categoryView{Category: c}
	if c.ParentID != 0 {
		p := c.ParentID
		v.ParentID = &p
	}
	return v
}

// productView is the admin's view of a product: everything but internals.
type productView struct {
	*app.Product
	AverageRating float64 `json:"average_rating"`
	InStock       bool    `json:"in_stock"`
}

func viewProduct(p *app.Product) any {
	return productView{Product: p, AverageRating: p.AverageRating(), InStock: p.AvailableStock() > 0}
}
