package admin

import (
	"bytes"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
	"storefront/httpkit/staff"
)

// bulkShip serves POST stores/{id}/orders/bulk-ship/: a text/csv body of
// order_number,carrier,tracking_number[,tracking_url] rows, or JSON
// {rows: [{order_number, carrier, tracking_number, tracking_url?}]}. Each
// row is shipped on its own and reported (shipped, or error with why).
func (h *Handler) bulkShip(c *fiber.Ctx) error {
	var rows []app.ShipRow
	if strings.HasPrefix(strings.ToLower(c.Get(fiber.HeaderContentType)), "text/csv") {
		if len(c.Body()) > staff.MaxShipCSV {
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
	return httpkit.OK(c, staff.NewBulkShipResult(h.svc.Orders.ShipMany(storeOf(c).ID, rows)))
}
