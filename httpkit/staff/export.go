package staff

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// ReadOrderQuery reads the order search of the panel list and the export:
// ?q=&status=&payment_status=&sort= ("all" or empty: no filter), and
// ?from=&to= (YYYY-MM-DD; another form is validation_failed).
func ReadOrderQuery(c *fiber.Ctx) (app.OrderQuery, error) {
	q := app.OrderQuery{Text: strings.Clone(c.Query("q")), Status: strings.Clone(c.Query("status")),
		PaymentStatus: strings.Clone(c.Query("payment_status")), Sort: strings.Clone(c.Query("sort"))}
	if q.Status == StatusAll {
		q.Status = ""
	}
	if q.PaymentStatus == StatusAll {
		q.PaymentStatus = ""
	}
	var v app.Validation
	q.From = readDay(&v, c, "from")
	q.To = readDay(&v, c, "to")
	return q, v.Err()
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

// StreamOrdersCSV validates q and the layout options, then answers text/csv streamed from
// ExportOrders: the query is checked before the first byte, so a bad filter
// is still a 400; a failure mid-stream is logged and ends the file early.
func (s Staff) StreamOrdersCSV(c *fiber.Ctx, st *app.Store, q app.OrderQuery) error {
	if err := q.Validate(); err != nil {
		return err
	}
	opt, err := readCSVOptions(c)
	if err != nil {
		return err
	}
	name := "orders-" + st.Subdomain + "-" + s.Now().UTC().Format("20060102-150405") + ".csv"
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	orders, log, sid := s.Orders, s.Log, st.ID
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

// StreamProductsCSV answers with the store's products as a CSV attachment.
// The body is written as it is read: an error half-way ends the body early
// (logged); the status is already sent.
func (s Staff) StreamProductsCSV(c *fiber.Ctx, st *app.Store) error {
	id := st.ID
	name := "products-" + strconv.FormatUint(id, 10) + "-" + s.Now().UTC().Format("20060102") + ".csv"
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	reqID := string(c.Response().Header.Peek("X-Request-ID"))
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		if err := s.Catalog.ExportProductsCSV(id, w); err != nil {
			s.Log.Error("product export", "request_id", reqID, "store_id", id, "err", err.Error())
		}
		_ = w.Flush()
	})
	return nil
}

// ReadCSVUpload opens the multipart part file of an import.
// Errors: validation_failed, payload_too_large.
func ReadCSVUpload(c *fiber.Ctx) (io.ReadCloser, error) {
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
