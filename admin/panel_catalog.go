package admin

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// categoryForm is the category form as typed.
type categoryForm struct {
	ID          uint64
	Name        string
	Slug        string
	Description string
	Image       string
	ParentID    uint64
}

type categoriesData struct {
	Categories []*app.Category
	Names      map[uint64]string
	Form       categoryForm // the create form, or the edit form on the category page
}

func readCategoryForm(c *fiber.Ctx) (categoryForm, app.CategoryInput) {
	f := categoryForm{Name: formValue(c, "name"), Slug: formValue(c, "slug"),
		Description: formValue(c, "description"), Image: formValue(c, "image")}
	f.ParentID, _ = strconv.ParseUint(c.FormValue("parent_id"), 10, 64)
	in := app.CategoryInput{Name: &f.Name, Slug: &f.Slug, Description: &f.Description, Image: &f.Image, ParentID: &f.ParentID}
	return f, in
}

func (p *panel) categoriesData(storeID uint64, form categoryForm) (categoriesData, error) {
	cats, err := p.h.svc.Catalog.Categories(storeID)
	if err != nil {
		return categoriesData{}, err
	}
	names := make(map[uint64]string, len(cats))
	for _, c := range cats {
		names[c.ID] = c.Name
	}
	return categoriesData{Categories: cats, Names: names, Form: form}, nil
}

// categoriesPage serves GET /admin/stores/{id}/categories/: the list and the create form.
func (p *panel) categoriesPage(c *fiber.Ctx, v *view) error {
	return p.showCategories(c, v, fiber.StatusOK, categoryForm{})
}

func (p *panel) showCategories(c *fiber.Ctx, v *view, status int, form categoryForm) error {
	d, err := p.categoriesData(v.Store.ID, form)
	if err != nil {
		return err
	}
	v.Title, v.Tab, v.Data = "Categories", "categories", d
	return p.render(c, status, "categories", v)
}

// createCategory serves POST /admin/stores/{id}/categories/.
func (p *panel) createCategory(c *fiber.Ctx, v *view) error {
	form, in := readCategoryForm(c)
	cat, err := p.h.svc.Catalog.SaveCategory(v.Store.ID, 0, in)
	if err != nil {
		return p.showCategories(c, v, p.formError(c, v, err), form)
	}
	return p.redirect(c, v, storePath(v.Store, "categories/"), ok1("Category “"+cat.Name+"” created."))
}

// categoryPage serves GET /admin/stores/{id}/categories/{cid}/: the edit form.
func (p *panel) categoryPage(c *fiber.Ctx, v *view) error {
	id, err := httpkit.PathID(c, "cid", "category")
	if err != nil {
		return err
	}
	cat, err := p.h.svc.Catalog.Category(v.Store.ID, id)
	if err != nil {
		return err
	}
	return p.showCategory(c, v, fiber.StatusOK, categoryForm{ID: cat.ID, Name: cat.Name, Slug: cat.Slug,
		Description: cat.Description, Image: cat.Image, ParentID: cat.ParentID})
}

func (p *panel) showCategory(c *fiber.Ctx, v *view, status int, form categoryForm) error {
	d, err := p.categoriesData(v.Store.ID, form)
	if err != nil {
		return err
	}
	v.Title, v.Tab, v.Data = "Edit category", "categories", d
	return p.render(c, status, "category", v)
}

// updateCategory serves POST /admin/stores/{id}/categories/{cid}/.
func (p *panel) updateCategory(c *fiber.Ctx, v *view) error {
	id, err := httpkit.PathID(c, "cid", "category")
	if err != nil {
		return err
	}
	form, in := readCategoryForm(c)
	form.ID = id
	cat, err := p.h.svc.Catalog.SaveCategory(v.Store.ID, id, in)
	if err != nil {
		if app.IsNotFound(err) {
			return err
		}
		return p.showCategory(c, v, p.formError(c, v, err), form)
	}
	return p.redirect(c, v, storePath(v.Store, "categories/"), ok1("Category “"+cat.Name+"” saved."))
}

// deleteCategory serves POST /admin/stores/{id}/categories/{cid}/delete/.
func (p *panel) deleteCategory(c *fiber.Ctx, v *view) error {
	id, err := httpkit.PathID(c, "cid", "category")
	if err != nil {
		return err
	}
	if err := p.h.svc.Catalog.DeleteCategory(v.Store.ID, id); err != nil {
		if app.IsNotFound(err) {
			return err
		}
		return p.showCategories(c, v, p.formError(c, v, err), categoryForm{})
	}
	return p.redirect(c, v, storePath(v.Store, "categories/"), ok1("Category deleted."))
}

type productRow struct {
	*app.Product
	Category  string
	Available int64 // stock on the wire: the variants' sum when there are variants
}

type productsData struct {
	Rows []productRow
	Pager
}

// productsPage serves GET /admin/stores/{id}/products/?cursor=: every
// product, newest first, a page at a time.
func (p *panel) productsPage(c *fiber.Ctx, v *view) error {
	st := v.Store
	lp, err := p.listParams(c, "products", st.ID)
	if err != nil {
		return err
	}
	page, err := p.h.svc.Catalog.AllProducts(st.ID, lp)
	if err != nil {
		return err
	}
	cats, err := p.categoriesData(st.ID, categoryForm{})
	if err != nil {
		return err
	}
	d := productsData{Pager: p.pager(storePath(st, "products/"), "products", st.ID, lp, page.Next)}
	for _, pr := range page.Items {
		d.Rows = append(d.Rows, productRow{Product: pr, Category: cats.Names[pr.CategoryID], Available: pr.AvailableStock()})
	}
	v.Title, v.Tab, v.Data = "Products", "products", d
	return p.render(c, fiber.StatusOK, "products", v)
}

// productForm is the product form as typed: numbers stay text so that a
// mistake is shown back exactly as entered.
type productForm struct {
	ID             uint64
	Name           string
	Slug           string
	Description    string
	Price          string
	CompareAtPrice string
	CategoryID     uint64
	Images         string // one URL per line
	Stock          string
	IsActive       bool
	Variants       string // JSON array
}

type productData struct {
	Form       productForm
	Categories []*app.Category
	Product    *app.Product // nil when creating
}

// variantJSON is a variant in the form's JSON editor.
type variantJSON struct {
	ID         uint64            `json:"id,omitempty"`
	Name       string            `json:"name"`
	SKU        string            `json:"sku"`
	Price      app.Money         `json:"price"`
	Stock      int64             `json:"stock"`
	Attributes map[string]string `json:"attributes"`
}

func formOfProduct(pr *app.Product) productForm {
	f := productForm{ID: pr.ID, Name: pr.Name, Slug: pr.Slug, Description: pr.Description,
		Price: pr.Price.String(), CategoryID: pr.CategoryID, Images: strings.Join(pr.Images, "\n"),
		Stock: strconv.FormatInt(pr.Stock, 10), IsActive: pr.IsActive}
	if pr.CompareAtPrice > 0 {
		f.CompareAtPrice = pr.CompareAtPrice.String()
	}
	if len(pr.Variants) > 0 {
		vs := make([]variantJSON, len(pr.Variants))
		for i, x := range pr.Variants {
			vs[i] = variantJSON{ID: x.ID, Name: x.Name, SKU: x.SKU, Price: x.Price, Stock: x.Stock, Attributes: x.Attributes}
		}
		b, _ := json.MarshalIndent(vs, "", "  ")
		f.Variants = string(b)
	}
	return f
}

// readProductForm reads the form into the service's input. Values that do
// not parse are validation errors named like the API's fields.
func readProductForm(c *fiber.Ctx) (productForm, app.ProductInput, error) {
	f := productForm{Name: formValue(c, "name"), Slug: formValue(c, "slug"), Description: strings.Clone(c.FormValue("description")),
		Price: formValue(c, "price"), CompareAtPrice: formValue(c, "compare_at_price"), Images: formValue(c, "images"),
		Stock: formValue(c, "stock"), IsActive: c.FormValue("is_active") != "", Variants: formValue(c, "variants")}
	f.CategoryID, _ = strconv.ParseUint(c.FormValue("category_id"), 10, 64)
	in := app.ProductInput{Name: &f.Name, Slug: &f.Slug, Description: &f.Description, CategoryID: &f.CategoryID, IsActive: &f.IsActive}
	var v app.Validation
	price, err := app.ParseMoney(f.Price)
	v.Check(err == nil, "price", "must be an amount like 12.50")
	in.Price = &price
	var compare app.Money
	if f.CompareAtPrice != "" {
		compare, err = app.ParseMoney(f.CompareAtPrice)
		v.Check(err == nil, "compare_at_price", "must be an amount like 12.50, or empty")
	}
	in.CompareAtPrice = &compare
	var stock int64
	if f.Stock != "" {
		stock, err = strconv.ParseInt(f.Stock, 10, 64)
		v.Check(err == nil, "stock", "must be a whole number")
	}
	in.Stock = &stock
	images := []string{}
	for _, line := range strings.Split(f.Images, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			images = append(images, line)
		}
	}
	in.Images = &images
	variants := []app.VariantInput{}
	if f.Variants != "" {
		if err := json.Unmarshal([]byte(f.Variants), &variants); err != nil {
			v.Add("variants", "must be a JSON array of {id?, name, sku, price, stock, attributes}")
		}
	}
	in.Variants = &variants
	return f, in, v.Err()
}

func (p *panel) showProduct(c *fiber.Ctx, v *view, status int, form productForm, pr *app.Product) error {
	cats, err := p.h.svc.Catalog.Categories(v.Store.ID)
	if err != nil {
		return err
	}
	v.Tab, v.Title = "products", "New product"
	if pr != nil {
		v.Title = pr.Name
	}
	v.Data = productData{Form: form, Categories: cats, Product: pr}
	return p.render(c, status, "product", v)
}

// newProductPage serves GET /admin/stores/{id}/products/new/.
func (p *panel) newProductPage(c *fiber.Ctx, v *view) error {
	return p.showProduct(c, v, fiber.StatusOK, productForm{IsActive: true, Price: "0.00", Stock: "0"}, nil)
}

// createProduct serves POST /admin/stores/{id}/products/.
func (p *panel) createProduct(c *fiber.Ctx, v *view) error {
	form, in, err := readProductForm(c)
	if err == nil {
		var pr *app.Product
		if pr, err = p.h.svc.Catalog.SaveProduct(v.Store.ID, 0, in); err == nil {
			return p.redirect(c, v, storePath(v.Store, "products/"+strconv.FormatUint(pr.ID, 10)+"/"), ok1("Product “"+pr.Name+"” created."))
		}
	}
	return p.showProduct(c, v, p.formError(c, v, err), form, nil)
}

// productPage serves GET /admin/stores/{id}/products/{pid}/: the edit form.
func (p *panel) productPage(c *fiber.Ctx, v *view) error {
	pr, err := p.pathProduct(c, v)
	if err != nil {
		return err
	}
	return p.showProduct(c, v, fiber.StatusOK, formOfProduct(pr), pr)
}

func (p *panel) pathProduct(c *fiber.Ctx, v *view) (*app.Product, error) {
	id, err := httpkit.PathID(c, "pid", "product")
	if err != nil {
		return nil, err
	}
	return p.h.svc.Catalog.Product(v.Store.ID, id)
}

// updateProduct serves POST /admin/stores/{id}/products/{pid}/.
func (p *panel) updateProduct(c *fiber.Ctx, v *view) error {
	pr, err := p.pathProduct(c, v)
	if err != nil {
		return err
	}
	form, in, err := readProductForm(c)
	form.ID = pr.ID
	if err == nil {
		var saved *app.Product
		if saved, err = p.h.svc.Catalog.SaveProduct(v.Store.ID, pr.ID, in); err == nil {
			return p.redirect(c, v, storePath(v.Store, "products/"+strconv.FormatUint(saved.ID, 10)+"/"), ok1("Product saved."))
		}
		if app.IsNotFound(err) && app.ErrorMessage(err) == "product not found" {
			return err
		}
	}
	return p.showProduct(c, v, p.formError(c, v, err), form, pr)
}

// deleteProduct serves POST /admin/stores/{id}/products/{pid}/delete/ {confirm=yes}.
func (p *panel) deleteProduct(c *fiber.Ctx, v *view) error {
	pr, err := p.pathProduct(c, v)
	if err != nil {
		return err
	}
	if c.FormValue("confirm") != "yes" {
		return p.showProduct(c, v, p.formError(c, v, app.Invalid("confirm", "tick the box to confirm the deletion")), formOfProduct(pr), pr)
	}
	if err := p.h.svc.Catalog.DeleteProduct(v.Store.ID, pr.ID); err != nil {
		return err
	}
	return p.redirect(c, v, storePath(v.Store, "products/"), ok1("Product “"+pr.Name+"” deleted."))
}
