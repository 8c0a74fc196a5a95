package panel

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/staff"
)

// importData is the CSV import page: the columns, and after a refused file
// every problem by row and column.
type importData struct {
	Columns []string
	MaxRows int
	MaxMB   int
	File    string // the name of the refused file
	Errors  []app.RowError
}

// exportProductsPage serves GET /admin/stores/{id}/products/export/: the
// same CSV as the admin API's export.
func (p *panel) exportProductsPage(c *fiber.Ctx, v *view) error {
	return p.h.svc.StreamProductsCSV(c, v.Store)
}

// importProductsPage serves GET /admin/stores/{id}/products/import/.
func (p *panel) importProductsPage(c *fiber.Ctx, v *view) error {
	return p.showImport(c, v, fiber.StatusOK, importData{})
}

func (p *panel) showImport(c *fiber.Ctx, v *view, status int, d importData) error {
	d.Columns, d.MaxRows, d.MaxMB = app.ProductCSVColumns, app.MaxImportRows, app.MaxImportBytes>>20
	v.Title, v.Tab, v.Data = "Import products", "products", d
	return p.render(c, status, "products_import", v)
}

// importProducts serves POST /admin/stores/{id}/products/import/ (multipart,
// the CSV in the field file): all rows or none; a refused file shows every
// problem by row and column.
func (p *panel) importProducts(c *fiber.Ctx, v *view) error {
	var d importData
	f, err := staff.ReadCSVUpload(c)
	if err == nil {
		if fh, ferr := c.FormFile("file"); ferr == nil {
			d.File = strings.Clone(fh.Filename)
		}
		var res app.ImportResult
		res, d.Errors, err = p.h.svc.Catalog.ImportProductsCSV(v.Store.ID, f)
		f.Close()
		if err == nil {
			msg := "Imported " + strconv.Itoa(res.Created) + " new and " + strconv.Itoa(res.Updated) + " updated products."
			return p.redirect(c, v, storePath(v.Store, "products/"), ok1(msg))
		}
	}
	status := p.formError(c, v, err)
	if status >= 500 {
		return err
	}
	if len(d.Errors) > 0 {
		v.Fields = nil // listed in the table instead
	}
	return p.showImport(c, v, status, d)
}
