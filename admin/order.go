package admin

import (
	"bufio"
	"encoding/csv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerOrderRoutes(r fiber.Router) {
	r.Get("/orders", h.listOrders)
	r.Get("/orders/export", h.exportOrders)
	r.Post("/orders/bulk-ship", h.bulkShip)
	r.Get("/orders/:oid", h.getOrder)
	r.Patch("/orders/:oid", h.patchOrder)
	r.Put("/orders/:oid/tracking", h.putTracking)
	r.Post("/orders/:oid/ship", h.shipOrder)
	r.Post("/orders/:oid/undo-delivered", h.undoDelivered)
	r.Post("/orders/:oid/notes", h.addOrderNote)
	r.Post("/orders/:oid/cancel", h.cancelOrder)
	r.Post("/orders/:oid/refund", h.refundOrder)
}

func viewAdminOrder(o *app.Order) any { return o.AdminView() }

// listOrders serves GET stores/{id}/orders/ (?status=, newest first).
func (h *Handler) listOrders(c *fiber.Ctx) error {
	status := c.Query("status")
	scope := "orders:" + status
	lp, err := h.listParams(c, scope)
	if err != nil {
		return err
	}
	page, err := h.svc.Orders.Orders(storeOf(c).ID, status, lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, scope, page, viewAdminOrder)
}

// readOrderQuery reads the order search of the panel list and the export:
// ?q=&status=&payment_status=&from=&to=&sort= ("all" or empty: no filter).
func readOrderQuery(c *fiber.Ctx) app.OrderQuery {
	q := app.OrderQuery{Text: strings.Clone(c.Query("q")), Status: strings.Clone(c.Query("status")),
		PaymentStatus: strings.Clone(c.Query("payment_status")), Sort: strings.Clone(c.Query("sort"))}
	if q.Status == statusAll {
		q.Status = ""
	}
	if q.PaymentStatus == statusAll {
		q.PaymentStatus = ""
	}
	return q
}

// readOrderDays reads ?from= and ?to= (YYYY-MM-DD) into q.
func readOrderDays(c *fiber.Ctx, q *app.OrderQuery) error {
	var v app.Validation
	q.From = readDay(&v, c, "from")
	q.To = readDay(&v, c, "to")
	return v.Err()
}

// csvHeader is the first line of an order export.
var csvHeader = []string{"id", "created_at", "status", "payment_status", "payment_method", "customer_id", "email",
	"receiver_name", "phone", "address", "items", "item_count", "subtotal", "discount", "delivery_fee", "total",
	"refunded_amount", "currency", "coupon_code", "tracking_number", "carrier", "test",
	"tax_total", "tax_lines", "invoice_number", "country"}

// csvLineHeader are the columns ?lines=true adds: one row per line item.
var csvLineHeader = []string{"line_product_id", "line_variant_id", "line_name", "line_quantity", "line_unit_price", "line_total", "line_tax_rate", "line_tax"}

// csvOptions are an export's layout choices: Lines, one row per line item
// (the order's columns repeated); BOM, a UTF-8 byte order mark first, so
// that Excel reads the file as UTF-8.
type csvOptions struct{ Lines, BOM bool }

// readCSVOptions reads ?lines= and ?bom= (true/false, 1/0; absent: false).
func readCSVOptions(c *fiber.Ctx) (csvOptions, error) {
	var o csvOptions
	var v app.Validation
	for _, f := range []struct {
		name string
		to   *bool
	}{{"lines", &o.Lines}, {"bom", &o.BOM}} {
		if s := c.Query(f.name); s != "" {
			b, err := strconv.ParseBool(s)
			v.Check(err == nil, f.name, "must be true or false")
			*f.to = b
		}
	}
	return o, v.Err()
}

// orderCSVRows are o's export rows: one, or with opt.Lines one per line
// item (an order without items still gets its row).
func orderCSVRows(o *app.Order, opt csvOptions) [][]string {
	row := orderCSV(o)
	if !opt.Lines {
		return [][]string{row}
	}
	if len(o.Items) == 0 {
		return [][]string{append(row, make([]string, len(csvLineHeader))...)}
	}
	out := make([][]string, len(o.Items))
	for i, it := range o.Items {
		variant := ""
		if it.VariantID != 0 {
			variant = strconv.FormatUint(it.VariantID, 10)
		}
		out[i] = append(slices.Clip(row), strconv.FormatUint(it.ProductID, 10), variant, csvText(it.Name),
			strconv.FormatInt(it.Quantity, 10), it.UnitPrice.String(), it.LineTotal.String(), it.TaxRate, it.Tax.String())
	}
	return out
}

// csvText defuses a cell a spreadsheet would run as a formula (OWASP CSV
// injection): text starting with = + - @ tab or CR gets a leading quote.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// orderCSV is one export line of o.
func orderCSV(o *app.Order) []string {
	items := make([]string, len(o.Items))
	n := int64(0)
	for i, it := range o.Items {
		items[i] = strconv.FormatInt(it.Quantity, 10) + " x " + it.Name
		n += it.Quantity
	}
	cust := ""
	if o.CustomerID != 0 {
		cust = strconv.FormatUint(o.CustomerID, 10)
	}
	return []string{strconv.FormatUint(o.ID, 10), app.UTC(o.CreatedAt).Format(time.RFC3339), o.Status, o.PaymentStatus,
		o.PaymentMethod, cust, csvText(o.Email), csvText(o.ReceiverName), csvText(o.Phone), csvText(o.Address),
		csvText(strings.Join(items, "; ")), strconv.FormatInt(n, 10), o.Subtotal.String(), o.Discount.String(),
		o.DeliveryFee.String(), o.Total.String(), o.RefundedAmount.String(), o.Currency, csvText(o.CouponCode),
		csvText(o.TrackingNumber), csvText(o.Carrier), strconv.FormatBool(o.Test),
		o.TaxTotal.String(), csvText(taxLinesText(o.TaxLines)), csvText(o.InvoiceNumber), o.Country}
}

// taxLinesText is an order's tax per rate in one cell: "VAT 20%: 2.00; ...".
func taxLinesText(lines []app.TaxLine) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = l.Name + " " + l.Rate + "%: " + l.Amount.String()
	}
	return strings.Join(parts, "; ")
}

// streamOrdersCSV validates q and the layout options, then answers text/csv streamed from
// ExportOrders: the query is checked before the first byte, so a bad filter
// is still a 400; a failure mid-stream is logged and ends the file early.
func (h *Handler) streamOrdersCSV(c *fiber.Ctx, st *app.Store, q app.OrderQuery) error {
	if err := q.Validate(); err != nil {
		return err
	}
	opt, err := readCSVOptions(c)
	if err != nil {
		return err
	}
	name := "orders-" + st.Subdomain + "-" + h.svc.Now().UTC().Format("20060102-150405") + ".csv"
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	orders, log, sid := h.svc.Orders, h.log, st.ID
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		if opt.BOM {
			_, _ = w.WriteString("\uFEFF")
		}
		cw := csv.NewWriter(w)
		if opt.Lines {
			_ = cw.Write(append(slices.Clip(csvHeader), csvLineHeader...))
		} else {
			_ = cw.Write(csvHeader)
		}
		n := 0
		err := orders.ExportOrders(sid, q, func(o *app.Order) error {
			for _, row := range orderCSVRows(o, opt) {
				if err := cw.Write(row); err != nil {
					return err
				}
			}
			if n++; n%500 == 0 {
				cw.Flush()
				if err := cw.Error(); err != nil {
					return err
				}
				return w.Flush()
			}
			return nil
		})
		cw.Flush()
		if err == nil {
			err = cw.Error()
		}
		if err != nil {
			log.Error("order export", "store_id", sid, "rows", n, "err", err)
		}
	})
	return nil
}

// exportOrders serves GET stores/{id}/orders/export/: the orders matching
// ?q=&status=&payment_status=&from=&to=&sort= as CSV, streamed.
func (h *Handler) exportOrders(c *fiber.Ctx) error {
	q := readOrderQuery(c)
	if err := readOrderDays(c, &q); err != nil {
		return err
	}
	if err := readOrderIDs(c, &q); err != nil {
		return err
	}
	return h.streamOrdersCSV(c, storeOf(c), q)
}

// readOrderIDs reads ?ids=12,13 (a selection: the export hands on exactly
// these orders) into q.
func readOrderIDs(c *fiber.Ctx, q *app.OrderQuery) error {
	s := c.Query("ids")
	if s == "" {
		return nil
	}
	ids, err := app.ParseOrderIDs([]string{s})
	if err != nil {
		return err
	}
	q.IDs = ids
	return nil
}

// getOrder serves GET stores/{id}/orders/{oid}/ (guest orders included).
func (h *Handler) getOrder(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	o, err := h.svc.Orders.Order(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, o.AdminView())
}

type orderStatusInput struct {
	Status string `json:"status"`
}

// patchOrder serves PATCH stores/{id}/orders/{oid}/ {status}: only the moves
// of decisions.md §5 (CONFIRMED -> DELIVERED -> COMPLETED).
func (h *Handler) patchOrder(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	var in orderStatusInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	o, err := h.svc.Orders.Move(storeOf(c).ID, id, in.Status, adminOf(c))
	if err != nil {
		return err
	}
	return httpkit.OK(c, o.AdminView())
}

// putTracking serves PUT stores/{id}/orders/{oid}/tracking/ {tracking_number, carrier}.
func (h *Handler) putTracking(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	var in app.TrackingInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	o, err := h.svc.Orders.SetTracking(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, o.AdminView())
}

// shipOrder serves POST stores/{id}/orders/{oid}/ship/ {carrier,
// tracking_number, tracking_url?}: the order is shipped, the shopper mailed.
func (h *Handler) shipOrder(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	var in app.ShipInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	o, err := h.svc.Orders.Ship(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, o.AdminView())
}

// undoDelivered serves POST stores/{id}/orders/{oid}/undo-delivered/: a
// move to DELIVERED taken back within app.DeliveryUndoWindow.
func (h *Handler) undoDelivered(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	o, err := h.svc.Orders.UndoDelivered(storeOf(c).ID, id, adminOf(c))
	if err != nil {
		return err
	}
	return httpkit.OK(c, o.AdminView())
}

// addOrderNote serves POST stores/{id}/orders/{oid}/notes/ {note}: an
// internal note, never shown to the shopper.
func (h *Handler) addOrderNote(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	var in struct {
		Note string `json:"note"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	o, err := h.svc.Orders.AddNote(storeOf(c).ID, id, adminOf(c), in.Note)
	if err != nil {
		return err
	}
	return httpkit.Created(c, o.AdminView())
}

// cancelOrder serves POST stores/{id}/orders/{oid}/cancel/ {reason?, admin_note?}:
// the store cancels by the path of an approved cancellation request.
func (h *Handler) cancelOrder(c *fiber.Ctx) error {
	return h.storeAction(c, h.svc.Requests.StoreCancel)
}

// refundOrder serves POST stores/{id}/orders/{oid}/refund/ {amount?, reason?,
// admin_note?, refund_method?}: the path of an approved refund request; a
// Stripe-paid order is refunded at Stripe, and a provider failure (502/409)
// leaves the store's request PENDING to approve again.
func (h *Handler) refundOrder(c *fiber.Ctx) error {
	return h.storeAction(c, h.svc.Requests.StoreRefund)
}

type storeActionResult struct {
	Order   app.AdminOrderView `json:"order"`
	Request any                `json:"request"`
}

func (h *Handler) storeAction(c *fiber.Ctx, act func(uint64, uint64, *app.AdminUser, app.StoreActionInput) (*app.Request, error)) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	var in app.StoreActionInput
	if len(strings.TrimSpace(string(c.Body()))) > 0 {
		if err := httpkit.Decode(c, &in); err != nil {
			return err
		}
	}
	r, err := act(storeOf(c).ID, id, adminOf(c), in)
	if err != nil {
		return err
	}
	o, err := h.svc.Orders.Order(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, storeActionResult{Order: o.AdminView(), Request: viewRequest(r)})
}
