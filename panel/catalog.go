package panel

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// categoryID reads the path's category id.
var categoryID = pathID("cid", "category")

type categoriesData struct {
	Categories []*app.Category
	Names      map[uint64]string
	// Form is the create form, or the edit form on the category page, as
	// typed (a category's own fields).
	Form app.Category
}

func readCategoryForm(c *fiber.Ctx) (app.Category, app.CategoryInput) {
	fv := readForm(c, nil, "name", "slug", "description", "image", "parent_id")
	f := app.Category{Name: fv["name"], Slug: fv["slug"], Description: strings.TrimSpace(fv["description"]), Image: fv["image"]}
	f.ParentID, _ = strconv.ParseUint(fv["parent_id"], 10, 64)
	in := app.CategoryInput{Name: &f.Name, Slug: &f.Slug, Description: &f.Description, Image: &f.Image, ParentID: &f.ParentID}
	return f, in
}

func (p *panel) categoriesData(storeID uint64, form app.Category) (categoriesData, error) {
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
	return p.showCategories(c, v, fiber.StatusOK, "categories", app.Category{})
}

// showCategories renders page "categories" (the list and the create form)
// or "category" (a category's edit form) with form.
func (p *panel) showCategories(c *fiber.Ctx, v *view, status int, page string, form app.Category) error {
	d, err := p.categoriesData(v.Store.ID, form)
	if err != nil {
		return err
	}
	v.Title, v.Tab, v.Data = "Categories", "categories", d
	if page == "category" {
		v.Title = "Edit category"
	}
	return p.render(c, status, page, v)
}

// createCategory serves POST /admin/stores/{id}/categories/.
func (p *panel) createCategory(c *fiber.Ctx, v *view) error {
	form, in := readCategoryForm(c)
	cat, err := p.h.svc.Catalog.SaveCategory(v.Store.ID, 0, in)
	if err != nil {
		return p.showCategories(c, v, p.formError(c, v, err), "categories", form)
	}
	return p.redirect(c, v, storePath(v.Store, "categories/"), ok1("Category “"+cat.Name+"” created."))
}

// categoryPage serves GET /admin/stores/{id}/categories/{cid}/: the edit form.
func (p *panel) categoryPage(c *fiber.Ctx, v *view, cat *app.Category) error {
	return p.showCategories(c, v, fiber.StatusOK, "category", *cat)
}

// updateCategory serves POST /admin/stores/{id}/categories/{cid}/.
func (p *panel) updateCategory(c *fiber.Ctx, v *view, id uint64) error {
	form, in := readCategoryForm(c)
	form.ID = id
	cat, err := p.h.svc.Catalog.SaveCategory(v.Store.ID, id, in)
	if err != nil {
		return p.showAgain(c, v, err, func(status int) error { return p.showCategories(c, v, status, "category", form) })
	}
	return p.redirect(c, v, storePath(v.Store, "categories/"), ok1("Category “"+cat.Name+"” saved."))
}

// deleteCategory serves POST /admin/stores/{id}/categories/{cid}/delete/.
func (p *panel) deleteCategory(c *fiber.Ctx, v *view, id uint64) error {
	if err := p.h.svc.Catalog.DeleteCategory(v.Store.ID, id); err != nil {
		return p.showAgain(c, v, err, func(status int) error { return p.showCategories(c, v, status, "categories", app.Category{}) })
	}
	return p.redirect(c, v, storePath(v.Store, "categories/"), ok1("Category deleted."))
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
	LowStock       string // the low-stock threshold
	TaxClass       string // tax_class: "" the standard class
	Variants       []variantRow
	Options        string // the option builder's text: "Size: S, M, L" a line

	variantIndex []int // service variant index -> row, after reading the form
}

// variantRow is one variant row of the product form, as typed. Err holds the
// row's errors after a failed save.
type variantRow struct {
	ID     uint64
	Name   string
	SKU    string
	Price  string // empty: the product's price
	Stock  string
	Attrs  string // "size=L; colour=red"
	Image  string // the variant's own picture, an http(s) URL (empty: none)
	Delete bool
	Err    string
}

// blankVariantRows is how many empty rows the form offers for new variants
// (the form works without JavaScript: save to get more).
const blankVariantRows = 3

type productData struct {
	Form       productForm
	Categories []*app.Category
	Product    *app.Product // nil when creating
	Images     []imageRow
}

func formOfProduct(pr *app.Product) productForm {
	f := productForm{ID: pr.ID, Name: pr.Name, Slug: pr.Slug, Description: pr.Description,
		Price: pr.Price.String(), CategoryID: pr.CategoryID, Images: strings.Join(pr.Images, "\n"),
		Stock: strconv.FormatInt(pr.Stock, 10), IsActive: pr.IsActive, LowStock: strconv.FormatInt(pr.LowStockThreshold, 10),
		TaxClass: pr.TaxClass}
	if pr.CompareAtPrice > 0 {
		f.CompareAtPrice = pr.CompareAtPrice.String()
	}
	for _, x := range pr.Variants {
		f.Variants = append(f.Variants, variantRow{ID: x.ID, Name: x.Name, SKU: x.SKU, Price: x.Price.String(),
			Stock: strconv.FormatInt(x.Stock, 10), Attrs: formatAttrs(x.Attributes), Image: x.Image})
	}
	return f.withBlankRows()
}

func (f productForm) withBlankRows() productForm {
	blank := 0
	for i := len(f.Variants) - 1; i >= 0 && f.Variants[i] == (variantRow{}); i-- {
		blank++
	}
	for range blankVariantRows - blank {
		f.Variants = append(f.Variants, variantRow{})
	}
	return f
}

// formatAttrs writes attributes as "key=value; key=value", keys sorted.
func formatAttrs(m map[string]string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, "; ")
}

// parseAttrs reads "key=value; key=value" (empty: none).
func parseAttrs(s string) (map[string]string, bool) {
	out := map[string]string{}
	for _, part := range strings.Split(s, ";") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		k, v, found := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !found || k == "" {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}

// readVariantRows reads the variant rows of the form. A row with no id and
// no name is an unused blank row; a ticked Delete drops the variant. index
// maps the index of each variant sent to the service to its form row, so
// that the service's "variants[i].x" errors land on the right row. in is
// never nil: no variant sent is every variant removed.
func readVariantRows(c *fiber.Ctx, v *app.Validation) (rows []variantRow, in []app.VariantInput, index []int) {
	in = []app.VariantInput{}
	n, _ := strconv.Atoi(readForm(c, nil, "variant_rows")["variant_rows"])
	n = min(max(n, 0), app.MaxVariants+blankVariantRows)
	var names []string
	for i := range n {
		for _, k := range []string{"name", "sku", "price", "stock", "attrs", "image", "delete", "id"} {
			names = append(names, "v"+strconv.Itoa(i)+"_"+k)
		}
	}
	fv := readForm(c, v, names...)
	for i := range n {
		pre := "v" + strconv.Itoa(i) + "_"
		r := variantRow{Name: fv[pre+"name"], SKU: fv[pre+"sku"], Price: fv[pre+"price"],
			Stock: fv[pre+"stock"], Attrs: fv[pre+"attrs"], Image: fv[pre+"image"], Delete: fv[pre+"delete"] != ""}
		r.ID, _ = strconv.ParseUint(fv[pre+"id"], 10, 64)
		if r.ID == 0 && r.Name == "" && r.SKU == "" && r.Price == "" && r.Stock == "" && r.Attrs == "" && r.Image == "" {
			continue
		}
		rows = append(rows, r)
		if r.Delete {
			continue
		}
		row := len(rows) - 1
		f := "variants[" + strconv.Itoa(row) + "]"
		vi := app.VariantInput{ID: r.ID, Name: r.Name, SKU: r.SKU, Image: &r.Image}
		if r.Price != "" {
			price, err := app.ParseMoney(r.Price)
			v.Check(err == nil, f+".price", "must be an amount like 12.50, or empty for the product's price")
			vi.Price = &price
		}
		if r.Stock != "" {
			stock, err := strconv.ParseInt(r.Stock, 10, 64)
			v.Check(err == nil, f+".stock", "must be a whole number")
			vi.Stock = stock
		}
		attrs, ok := parseAttrs(r.Attrs)
		v.Check(ok, f+".attributes", "write them as key=value; key=value")
		vi.Attributes = attrs
		in = append(in, vi)
		index = append(index, row)
	}
	return rows, in, index
}

// rowErrors moves "variants[i].x" errors onto the form rows (i is the index
// in what the service got) and returns the other errors.
func rowErrors(f *productForm, index []int, fields map[string]string) {
	for k, msg := range fields {
		rest, ok := strings.CutPrefix(k, "variants[")
		if !ok {
			continue
		}
		num, field, ok := strings.Cut(rest, "]")
		i, err := strconv.Atoi(num)
		if !ok || err != nil {
			continue
		}
		row := i
		if index != nil && i < len(index) {
			row = index[i]
		}
		if row < len(f.Variants) {
			e := strings.TrimPrefix(field, ".") + " " + msg
			if f.Variants[row].Err != "" {
				e = f.Variants[row].Err + "; " + e
			}
			f.Variants[row].Err = e
		}
	}
}

// readProductForm reads the form into the service's input. Values that do
// not parse are validation errors named like the API's fields.
func readProductForm(c *fiber.Ctx, id uint64) (productForm, app.ProductInput, error) {
	var v app.Validation
	fv := readForm(c, &v, "name", "slug", "description", "price", "compare_at_price", "images", "stock", "is_active",
		"low_stock_threshold", "options", "category_id", "tax_class")
	f := productForm{ID: id, Name: fv["name"], Slug: fv["slug"], Description: fv["description"], Price: fv["price"],
		CompareAtPrice: fv["compare_at_price"], Images: fv["images"], Stock: fv["stock"], IsActive: fv["is_active"] != "",
		LowStock: fv["low_stock_threshold"], Options: fv["options"], TaxClass: fv["tax_class"]}
	f.CategoryID, _ = strconv.ParseUint(fv["category_id"], 10, 64)
	in := app.ProductInput{Name: &f.Name, Slug: &f.Slug, Description: &f.Description, CategoryID: &f.CategoryID, IsActive: &f.IsActive,
		TaxClass: &f.TaxClass}
	price := fv.Money(&v, "price", false, "must be an amount like 12.50")
	in.Price = &price
	compare := fv.Money(&v, "compare_at_price", true, "must be an amount like 12.50, or empty")
	in.CompareAtPrice = &compare
	stock := fv.Int(&v, "stock", 0, math.MinInt64, math.MaxInt64, "must be a whole number")
	in.Stock = &stock
	images := splitTrim(f.Images, "\n")
	in.Images = &images
	low := fv.Int(&v, "low_stock_threshold", 0, math.MinInt64, math.MaxInt64, "must be a whole number (0: no alert)")
	in.LowStockThreshold = &low
	var variants []app.VariantInput
	f.Variants, variants, f.variantIndex = readVariantRows(c, &v)
	in.Variants = &variants
	return f, in, v.Err()
}

// showProduct renders the product form (pr nil: a new product's).
func (p *panel) showProduct(c *fiber.Ctx, v *view, status int, form productForm, pr *app.Product) error {
	return p.productEditor().show(p, c, v, status, form, pr)
}

// productData is the product form's page: a refused form's messages on its
// variant rows, the categories and the images.
func (p *panel) productData(v *view, status int, form productForm, pr *app.Product) (any, error) {
	if status != fiber.StatusOK {
		rowErrors(&form, form.variantIndex, v.Fields)
		form = form.withBlankRows()
	}
	cats, err := p.h.svc.Catalog.Categories(v.Store.ID)
	return productData{Form: form, Categories: cats, Product: pr, Images: p.imageRows(pr)}, err
}

// productEditor edits the products; the form's "make variants" button
// fills the variant rows instead of saving.
func (p *panel) productEditor() editor[app.Product, productForm, app.ProductInput] {
	cs := p.h.svc.Catalog
	return editor[app.Product, productForm, app.ProductInput]{path: "products", param: "pid", noun: "product",
		tab: "products", page: "product", title: "New product",
		get: cs.Product, save: cs.SaveProduct, del: cs.DeleteProduct, read: readProductForm, formOf: formOfProduct,
		data: p.productData, key: func(pr *app.Product) (uint64, string) { return pr.ID, pr.Name }, said: quotedSaid("Product"),
		blank: func(*fiber.Ctx) productForm {
			return productForm{IsActive: true, Price: "0.00", Stock: "0", LowStock: "0"}.withBlankRows()
		},
		// a missing variant or category is shown on the form
		gone: func(err error) bool { return app.IsNotFound(err) && app.ErrorMessage(err) == "product not found" },
		before: func(c *fiber.Ctx, v *view, form productForm, pr *app.Product) (bool, error) {
			if !wantsVariants(c) {
				return false, nil
			}
			return true, p.makeVariants(c, v, form, pr)
		}}
}
