package admin

import (
	"bytes"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// maxShipCSV bounds a bulk shipping file (500 rows of long tracking links fit).
const maxShipCSV = 1 << 20

// bulkShipResult is the answer of a bulk shipment: counts and each row.
type bulkShipResult struct {
	Shipped int              `json:"shipped"`
	Errors  int              `json:"errors"`
	Results []app.ShipResult `json:"results"`
}

func newBulkShipResult(res []app.ShipResult) bulkShipResult {
	out := bulkShipResult{Results: res}
	for _, r := range res {
		if r.Status == "shipped" {
			out.Shipped++
		} else {
			out.Errors++
		}
	}
	return out
}

// bulkShip serves POST stores/{id}/orders/bulk-ship/: a text/csv body of
// order_number,carrier,tracking_number[,tracking_url] rows, or JSON
// {rows: [{order_number, carrier, tracking_number, tracking_url?}]}. Each
// row is shipped on its own and reported (shipped, or error with why).
func (h *Handler) bulkShip(c *fiber.Ctx) error {
	var rows []app.ShipRow
	if strings.HasPrefix(strings.ToLower(c.Get(fiber.HeaderContentType)), "text/csv") {
		if len(c.Body()) > maxShipCSV {
			return app.Errorf(app.EPayloadTooLarge, "the file is larger than 1 MiB")
		}
		var err error
		if rows, err = app.ParseShipCSV(bytes.NewReader(c.Body())); err != nil {
			return err
		}
	} else {
		var in struct {
			Rows []app.ShipRow `json:"rows"`
		}
		if err := httpkit.Decode(c, &in); err != nil {
			return err
		}
		if len(in.Rows) == 0 || len(in.Rows) > app.MaxBulkOrders {
			return app.Invalid("rows", "must hold 1 to 500 rows")
		}
		rows = in.Rows
	}
	return httpkit.OK(c, newBulkShipResult(h.svc.Orders.ShipMany(storeOf(c).ID, rows)))
}
