package admin

import (
	"bufio"
	"errors"
	"io"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
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
	return h.streamProductsCSV(c, storeOf(c))
}

// streamProductsCSV answers with the store's products as a CSV attachment.
// The body is written as it is read: an error half-way ends the body early
// (logged); the status is already sent.
func (h *Handler) streamProductsCSV(c *fiber.Ctx, st *app.Store) error {
	id := st.ID
	name := "products-" + strconv.FormatUint(id, 10) + "-" + h.svc.Now().UTC().Format("20060102") + ".csv"
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	reqID := string(c.Response().Header.Peek("X-Request-ID"))
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		if err := h.svc.Catalog.ExportProductsCSV(id, w); err != nil {
			h.log.Error("product export", "request_id", reqID, "store_id", id, "err", err.Error())
		}
		_ = w.Flush()
	})
	return nil
}

// importProducts serves POST stores/{id}/products/import/ (multipart, the
// CSV in the field file): every row is created or updated in one
// transaction, or none is and the answer lists every problem by row and
// column (400 validation_failed, errors keyed "row 3: price").
func (h *Handler) importProducts(c *fiber.Ctx) error {
	f, err := readCSVUpload(c)
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

// readCSVUpload opens the multipart part file of an import.
// Errors: validation_failed, payload_too_large.
func readCSVUpload(c *fiber.Ctx) (io.ReadCloser, error) {
	form, err := c.MultipartForm()
	if err != nil {
		if errors.Is(err, fiber.ErrRequestEntityTooLarge) {
			return nil, err
		}
		return nil, app.Invalid("file", "send the CSV file as multipart/form-data in the field file")
	}
	files := form.File["file"]
	switch {
	case len(files) == 0:
		return nil, app.Invalid("file", "no file: send the CSV in the multipart field file")
	case len(files) > 1:
		return nil, app.Invalid("file", "send one CSV file at a time")
	case files[0].Size > app.MaxImportBytes:
		return nil, &app.Error{Code: app.EPayloadTooLarge, Message: "the file is over " + strconv.Itoa(app.MaxImportBytes>>20) + " MB: split it"}
	}
	return files[0].Open()
}
