package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerCatalogRoutes(r fiber.Router) {
	r.Get("/categories", h.listCategories)
	r.Post("/categories", h.createCategory)
	r.Patch("/categories/:cid", h.patchCategory)
	r.Delete("/categories/:cid", h.deleteCategory)
	r.Get("/products", h.listProducts)
	r.Post("/products", h.createProduct)
	r.Get("/products/:pid", h.getProduct)
	r.Patch("/products/:pid", h.patchProduct)
	r.Delete("/products/:pid", h.deleteProduct)
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

// listCategories serves GET stores/{id}/categories/.
func (h *Handler) listCategories(c *fiber.Ctx) error {
	cats, err := h.svc.Catalog.Categories(storeOf(c).ID)
	if err != nil {
		return err
	}
	return httpkit.SendAll(c, cats, viewCategory)
}

// createCategory serves POST stores/{id}/categories/.
func (h *Handler) createCategory(c *fiber.Ctx) error {
	var in app.CategoryInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	cat, err := h.svc.Catalog.SaveCategory(storeOf(c).ID, 0, in)
	if err != nil {
		return err
	}
	return httpkit.Created(c, viewCategory(cat))
}

// patchCategory serves PATCH stores/{id}/categories/{cid}/.
func (h *Handler) patchCategory(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "cid", "category")
	if err != nil {
		return err
	}
	var in app.CategoryInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	cat, err := h.svc.Catalog.SaveCategory(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewCategory(cat))
}

// deleteCategory serves DELETE stores/{id}/categories/{cid}/.
func (h *Handler) deleteCategory(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "cid", "category")
	if err != nil {
		return err
	}
	if err := h.svc.Catalog.DeleteCategory(storeOf(c).ID, id); err != nil {
		return err
	}
	return httpkit.OK(c, nil)
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

// listProducts serves GET stores/{id}/products/ (every product, newest first).
func (h *Handler) listProducts(c *fiber.Ctx) error {
	lp, err := h.listParams(c, "products")
	if err != nil {
		return err
	}
	page, err := h.svc.Catalog.AllProducts(storeOf(c).ID, lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, "products", page, viewProduct)
}

// createProduct serves POST stores/{id}/products/.
func (h *Handler) createProduct(c *fiber.Ctx) error {
	var in app.ProductInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	p, err := h.svc.Catalog.SaveProduct(storeOf(c).ID, 0, in)
	if err != nil {
		return err
	}
	return httpkit.Created(c, viewProduct(p))
}

// getProduct serves GET stores/{id}/products/{pid}/.
func (h *Handler) getProduct(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "pid", "product")
	if err != nil {
		return err
	}
	p, err := h.svc.Catalog.Product(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewProduct(p))
}

// patchProduct serves PATCH stores/{id}/products/{pid}/.
func (h *Handler) patchProduct(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "pid", "product")
	if err != nil {
		return err
	}
	var in app.ProductInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	p, err := h.svc.Catalog.SaveProduct(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewProduct(p))
}

// deleteProduct serves DELETE stores/{id}/products/{pid}/.
func (h *Handler) deleteProduct(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "pid", "product")
	if err != nil {
		return err
	}
	if err := h.svc.Catalog.DeleteProduct(storeOf(c).ID, id); err != nil {
		return err
	}
	return httpkit.OK(c, nil)
}
