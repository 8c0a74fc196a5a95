package panel

import (
	"io"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/staff"
)

// printsData is the page of many invoices or packing slips.
type printsData struct {
	Kind   string // invoice or packing
	Sheets []printData
}

// bulkOrders serves POST /admin/stores/{id}/orders/bulk/ {ids (repeated),
// action}: the selection of the orders list printed as invoices or packing
// slips on one page, or exported as CSV.
func (p *panel) bulkOrders(c *fiber.Ctx, v *view) error {
	var raw []string
	for _, b := range c.Request().PostArgs().PeekMulti("ids") {
		raw = append(raw, string(b))
	}
	ids, err := app.ParseOrderIDs(raw)
	if err != nil {
		return err
	}
	switch action := formValue(c, "action"); action {
	case "export":
		q := app.OrderQuery{IDs: ids}
		return p.h.svc.StreamOrdersCSV(c, v.Store, q)
	case "invoice", "packing":
		orders, err := p.h.svc.Orders.OrdersByID(v.Store.ID, ids)
		if err != nil {
			return err
		}
		d := printsData{Kind: action}
		for _, o := range orders {
			d.Sheets = append(d.Sheets, printData{Order: o, Seller: storeSeller(v.Store), L: langOf(v.Store)})
		}
		v.Title, v.Tab, v.Data = printTitles[action][1]+" · "+strconv.Itoa(len(orders))+" orders", "orders", d
		return p.render(c, fiber.StatusOK, "prints", v)
	default:
		return app.Invalid("action", "must be invoice, packing or export")
	}
}

// shipUpload is the bulk shipping rows of the form: the pasted rows, else
// the uploaded file (field file).
func shipUpload(c *fiber.Ctx) (io.Reader, error) {
	if s := formValue(c, "rows"); s != "" {
		return strings.NewReader(s), nil
	}
	fh, err := c.FormFile("file")
	if err != nil {
		return nil, app.Invalid("file", "choose a CSV file or paste the rows")
	}
	if fh.Size > staff.MaxShipCSV {
		return nil, app.Errorf(app.EPayloadTooLarge, "the file is larger than 1 MiB")
	}
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, staff.MaxShipCSV))
	return strings.NewReader(string(b)), err
}

// bulkShipOrders serves POST /admin/stores/{id}/orders/bulk-ship/ (a CSV
// file, or rows pasted): each row shipped on its own; the page lists what
// became of each.
func (p *panel) bulkShipOrders(c *fiber.Ctx, v *view) error {
	r, err := shipUpload(c)
	if err != nil {
		return err
	}
	rows, err := app.ParseShipCSV(r)
	if err != nil {
		return err
	}
	res := staff.NewBulkShipResult(p.h.svc.Orders.ShipMany(v.Store.ID, rows))
	v.Title, v.Tab, v.Data = "Shipped "+strconv.Itoa(res.Shipped)+" of "+strconv.Itoa(len(rows))+" orders", "orders", res
	return p.render(c, fiber.StatusOK, "orders_shipped", v)
}
