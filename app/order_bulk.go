package app

import (
	"encoding/csv"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
)

// MaxBulkOrders bounds the orders of one bulk action (a selection, or the
// rows of a shipping file).
const MaxBulkOrders = 500

// ParseOrderNumber reads an order number as a person writes it: "12" or
// "#12". Errors: validation_failed (field names it).
func ParseOrderNumber(field, s string) (uint64, error) {
	id, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(s), "#"), 10, 64)
	if err != nil || id == 0 {
		return 0, Invalid(field, "must be an order number like 12")
	}
	return id, nil
}

// ParseOrderIDs reads a selection of order numbers (duplicates dropped, in
// order); at least one and at most MaxBulkOrders.
func ParseOrderIDs(ss []string) ([]uint64, error) {
	var ids []uint64
	seen := map[uint64]bool{}
	for _, s := range ss {
		for _, part := range strings.Split(s, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			id, err := ParseOrderNumber("ids", part)
			if err != nil {
				return nil, err
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		return nil, Invalid("ids", "select at least one order")
	}
	if len(ids) > MaxBulkOrders {
		return nil, Invalid("ids", "select at most "+strconv.Itoa(MaxBulkOrders)+" orders")
	}
	return ids, nil
}

// ShipRow is one row of a bulk shipment: the order number as given, and
// the parcel. Err is why the row could not be read ("" when it could).
type ShipRow struct {
	OrderNumber    string `json:"order_number"`
	Carrier        string `json:"carrier"`
	TrackingNumber string `json:"tracking_number"`
	TrackingURL    string `json:"tracking_url"`
	Err            string `json:"-"`
}

// ShipResult is what became of one row: shipped, or error with why.
type ShipResult struct {
	Row         int     `json:"row"` // 1-based, as a person counts (a header is not counted)
	OrderNumber string  `json:"order_number"`
	OrderID     *uint64 `json:"order_id"`
	Status      string  `json:"status"` // shipped or error
	Error       string  `json:"error"`
}

// ParseShipCSV reads the rows of order_number,carrier,tracking_number[,tracking_url]
// (a first row naming order_number is a header). A row of the wrong shape
// is kept with its Err; a file that is not CSV, empty or longer than
// MaxBulkOrders rows is validation_failed.
func ParseShipCSV(r io.Reader) ([]ShipRow, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord, cr.TrimLeadingSpace, cr.ReuseRecord = -1, true, false
	var rows []ShipRow
	for first := true; ; first = false {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, Invalid("csv", "is not CSV: "+err.Error())
		}
		if first && len(rec) > 0 && strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(rec[0], "\uFEFF")), "order_number") {
			continue
		}
		if len(rows) == MaxBulkOrders {
			return nil, Invalid("csv", "has more than "+strconv.Itoa(MaxBulkOrders)+" rows")
		}
		row := ShipRow{OrderNumber: strings.TrimSpace(strings.TrimPrefix(rec[0], "\uFEFF"))}
		if len(rec) < 3 || len(rec) > 4 {
			row.Err = "needs 3 or 4 columns: order_number,carrier,tracking_number[,tracking_url]"
		} else {
			row.Carrier, row.TrackingNumber = rec[1], rec[2]
			if len(rec) == 4 {
				row.TrackingURL = rec[3]
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, Invalid("csv", "has no rows")
	}
	return rows, nil
}

// ShipMany ships each row's order on its own (Ship: its mail and event),
// and says per row what became of it; a row that fails stops nothing else.
func (os *OrderService) ShipMany(storeID uint64, rows []ShipRow) []ShipResult {
	out := make([]ShipResult, len(rows))
	for i, row := range rows {
		res := ShipResult{Row: i + 1, OrderNumber: row.OrderNumber, Status: "error", Error: row.Err}
		if res.Error == "" {
			res.Error = os.shipRow(storeID, row, &res)
		}
		if res.Error == "" {
			res.Status = "shipped"
		}
		out[i] = res
	}
	return out
}

// shipRow ships one row, setting res.OrderID; it returns why it failed, "" when shipped.
func (os *OrderService) shipRow(storeID uint64, row ShipRow, res *ShipResult) string {
	id, err := ParseOrderNumber("order_number", row.OrderNumber)
	if err != nil {
		return "order_number must be an order number like 12"
	}
	res.OrderID = &id
	if _, err := os.Ship(storeID, id, ShipInput{Carrier: row.Carrier, TrackingNumber: row.TrackingNumber, TrackingURL: row.TrackingURL}); err != nil {
		if IsNotFound(err) {
			return "no order #" + strconv.FormatUint(id, 10) + " in this store"
		}
		return rowMessage(err)
	}
	return ""
}

// rowMessage is err as one line: the message, or each field's message.
func rowMessage(err error) string {
	var e *Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return ErrorMessage(err)
	}
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + e.Fields[k]
	}
	return strings.Join(parts, "; ")
}

// OrdersByID returns the store's orders of ids in ids' order (not_found
// when one names none).
func (os *OrderService) OrdersByID(storeID uint64, ids []uint64) ([]*Order, error) {
	list, err := view(os.s.DB, func(tx Tx) ([]*Order, error) { return tx.OrdersByID(storeID, ids) })
	if err == nil && len(list) != len(ids) {
		err = Errorf(ENotFound, "%d of the selected orders are not in this store", len(ids)-len(list))
	}
	return list, err
}
