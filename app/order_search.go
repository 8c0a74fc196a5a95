package app

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// Sorts of the admin order search.
const (
	OrderSortNewest    = "newest"
	OrderSortOldest    = "oldest"
	OrderSortTotalDesc = "total_desc"
	OrderSortTotalAsc  = "total_asc"
)

// OrderSorts lists the admin order sorts; the first is the default.
var OrderSorts = []string{OrderSortNewest, OrderSortOldest, OrderSortTotalDesc, OrderSortTotalAsc}

// PaymentStatuses lists every payment status.
var PaymentStatuses = []string{PaymentUnpaid, PaymentPaid, PaymentFailed, PaymentRefunded, PaymentPartiallyRefunded}

// MaxOrderSearchLen caps the search text.
const MaxOrderSearchLen = 200

// OrderQuery is the admin's search of a store's orders. Text matches the
// order number (a whole number, "#" allowed), or a part of the email, the
// receiver's name or the phone digits, case-insensitively. From and To are
// UTC days, both included (zero: open). Email, when set, keeps only orders
// of exactly that (normalised) email.
type OrderQuery struct {
	Text          string
	Status        string
	PaymentStatus string
	From, To      time.Time
	Email         string
	CustomerID    uint64
	Sort          string
	Offset, Limit int // Limit 0: every match
	// IDs, when set, is a selection: ExportOrders hands on exactly these
	// orders of the store, in this order, and the other fields are ignored.
	IDs []uint64
}

// Validate checks and normalises q. Errors: validation_failed.
func (q *OrderQuery) Validate() error {
	var v Validation
	q.Text = strings.TrimSpace(q.Text)
	v.MaxLen("q", q.Text, MaxOrderSearchLen)
	if q.Status != "" {
		v.OneOf("status", q.Status, OrderStatuses...)
	}
	if q.PaymentStatus != "" {
		v.OneOf("payment_status", q.PaymentStatus, PaymentStatuses...)
	}
	if q.Sort == "" {
		q.Sort = OrderSortNewest
	}
	v.OneOf("sort", q.Sort, OrderSorts...)
	if !q.From.IsZero() && !q.To.IsZero() && q.To.Before(q.From) {
		v.Add("to", "must not be before from")
	}
	v.Check(q.Offset >= 0, "page", "must be at least 1")
	q.Email = NormalizeEmail(q.Email)
	return v.Err()
}

// Match reports whether the row r passes q's filters and search.
func (q *OrderQuery) Match(r *OrderRow) bool {
	if q.Status != "" && r.Status != q.Status {
		return false
	}
	if q.PaymentStatus != "" && r.PaymentStatus != q.PaymentStatus {
		return false
	}
	if !q.From.IsZero() && r.CreatedAt.Before(StatsDay(q.From)) {
		return false
	}
	if !q.To.IsZero() && !r.CreatedAt.Before(StatsDay(q.To).AddDate(0, 0, 1)) {
		return false
	}
	if q.CustomerID != 0 && r.CustomerID != q.CustomerID {
		return false
	}
	if q.Email != "" && !strings.EqualFold(r.Email, q.Email) {
		return false
	}
	m := q.TextMatch()
	return m == nil || m(r.ID, []byte(OrderSearchKey(r.Email, r.ReceiverName, r.Phone)))
}

// OrderSearchKey is the text an order is found by: its email and receiver
// name in lower case and its phone's digits, one per line.
func OrderSearchKey(email, name, phone string) string {
	return strings.ToLower(email) + "\n" + strings.ToLower(name) + "\n" + digitsOf(phone)
}

// TextMatch returns q's text search as a predicate over an order's id and
// search key (OrderSearchKey), or nil when q has no text. A whole number
// matches that order number ("#12" only that); any text matches a part of
// the email or name; text that is mostly digits (3 or more) also matches a
// part of the phone's digits.
func (q *OrderQuery) TextMatch() func(id uint64, key []byte) bool {
	if q.Text == "" {
		return nil
	}
	num, numErr := strconv.ParseUint(strings.TrimPrefix(q.Text, "#"), 10, 64)
	if strings.HasPrefix(q.Text, "#") && numErr == nil {
		return func(id uint64, _ []byte) bool { return id == num }
	}
	low := []byte(strings.ToLower(q.Text))
	digits := digitsOf(q.Text)
	phone := len(digits) >= 3 && len(digits)*2 >= len(q.Text)
	pd := []byte(digits)
	return func(id uint64, key []byte) bool {
		if numErr == nil && num == id {
			return true
		}
		nl := bytes.LastIndexByte(key, '\n')
		if nl < 0 {
			return false
		}
		if bytes.Contains(key[:nl], low) {
			return true
		}
		return phone && bytes.Contains(key[nl+1:], pd)
	}
}

func digitsOf(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// OrderRow is the summary of an order that lists and searches read; storage
// keeps it next to the order, written in the same transaction.
type OrderRow struct {
	ID            uint64
	CustomerID    uint64
	CreatedAt     time.Time
	Status        string
	PaymentStatus string
	PaymentMethod string
	Total         Money
	Currency      string
	Email         string
	ReceiverName  string
	Phone         string
	Items         int
	Test          bool // a sandbox (test) payment
}

// RowOf returns the summary of o.
func RowOf(o *Order) OrderRow {
	n := 0
	for _, it := range o.Items {
		n += int(it.Quantity)
	}
	return OrderRow{ID: o.ID, CustomerID: o.CustomerID, CreatedAt: UTC(o.CreatedAt), Status: o.Status,
		PaymentStatus: o.PaymentStatus, PaymentMethod: o.PaymentMethod, Total: o.Total, Currency: o.Currency,
		Email: o.Email, ReceiverName: o.ReceiverName, Phone: o.Phone, Items: n, Test: o.Test}
}

// OrderSearch is one page of a search and the number of all matches.
type OrderSearch struct {
	Rows  []OrderRow
	Total int
}

// OrderSearchTx is the storage of the admin order search.
type OrderSearchTx interface {
	// SearchOrders returns the rows matching q (validated) in q.Sort order,
	// from q.Offset, at most q.Limit (0: all), and the number of matches.
	SearchOrders(storeID uint64, q OrderQuery) (OrderSearch, error)
}

// SearchOrders runs an admin order search. Errors: validation_failed.
func (os *OrderService) SearchOrders(storeID uint64, q OrderQuery) (OrderSearch, error) {
	if err := q.Validate(); err != nil {
		return OrderSearch{}, err
	}
	return view(os.s.DB, func(tx Tx) (OrderSearch, error) { return tx.SearchOrders(storeID, q) })
}

// exportBatch is how many orders one read transaction of an export loads.
const exportBatch = 500

// ExportOrders calls fn with every order matching q, in q's order. The
// matches are found in one read transaction, then read in batches, each in
// its own short one, so a slow reader holds no transaction open for long;
// an order changed meanwhile is exported as it is when its batch is read.
// Errors: validation_failed, or fn's.
func (os *OrderService) ExportOrders(storeID uint64, q OrderQuery, fn func(*Order) error) error {
	all := q.IDs
	if all == nil {
		q.Offset, q.Limit = 0, 0
		res, err := os.SearchOrders(storeID, q)
		if err != nil {
			return err
		}
		for _, r := range res.Rows {
			all = append(all, r.ID)
		}
	}
	for start := 0; start < len(all); start += exportBatch {
		ids := all[start:min(start+exportBatch, len(all))]
		batch, err := view(os.s.DB, func(tx Tx) ([]*Order, error) { return tx.OrdersByID(storeID, ids) })
		if err != nil {
			return err
		}
		for _, o := range batch {
			if err := fn(o); err != nil {
				return err
			}
		}
	}
	return nil
}

// Limits of the store's own order data.
const (
	MaxOrderNoteLen    = 2000
	MaxOrderNotes      = 200
	MaxTrackingLen     = 100
	MaxCarrierLen      = 100
	MaxShopperOrders   = 20
	storeRequestReason = "By the store"
)

// OrderNote is an internal note of the store on an order; the shopper never sees it.
type OrderNote struct {
	At      time.Time `json:"at"`
	AdminID uint64    `json:"admin_id"`
	Author  string    `json:"author"`
	Text    string    `json:"text"`
}

// TrackingInput sets an order's tracking number and carrier ("" clears).
type TrackingInput struct {
	TrackingNumber string `json:"tracking_number"`
	Carrier        string `json:"carrier"`
}

// SetTracking sets the tracking number and carrier the shopper sees.
// Errors: validation_failed, not_found.
func (os *OrderService) SetTracking(storeID, id uint64, in TrackingInput) (*Order, error) {
	var v Validation
	in.TrackingNumber, in.Carrier = strings.TrimSpace(in.TrackingNumber), strings.TrimSpace(in.Carrier)
	v.Text("tracking_number", in.TrackingNumber, false, MaxTrackingLen)
	v.Text("carrier", in.Carrier, false, MaxCarrierLen)
	if in.Carrier != "" && in.TrackingNumber == "" {
		v.Add("tracking_number", "is required with a carrier")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return os.updateOrder(storeID, id, func(tx Tx, o *Order) error {
		o.TrackingNumber, o.Carrier = in.TrackingNumber, in.Carrier
		return nil
	})
}

// AddNote adds an internal note to an order. Errors: validation_failed,
// not_found, conflict (too many notes).
func (os *OrderService) AddNote(storeID, id uint64, by *AdminUser, text string) (*Order, error) {
	var v Validation
	text = strings.TrimSpace(text)
	v.Text("note", text, true, MaxOrderNoteLen)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return os.updateOrder(storeID, id, func(tx Tx, o *Order) error {
		if len(o.Notes) >= MaxOrderNotes {
			return Errorf(EConflict, "an order keeps at most %d notes", MaxOrderNotes)
		}
		o.Notes = append(o.Notes, OrderNote{At: UTC(tx.Now()), AdminID: by.ID, Author: by.Email, Text: text})
		return nil
	})
}

func (os *OrderService) updateOrder(storeID, id uint64, fn func(Tx, *Order) error) (*Order, error) {
	var o *Order
	err := os.s.DB.Update(func(tx Tx) error {
		var err error
		if o, err = tx.Order(storeID, id); err != nil {
			return err
		}
		if err := fn(tx, o); err != nil {
			return err
		}
		o.UpdatedAt = UTC(tx.Now())
		return tx.PutOrder(o)
	})
	return o, err
}

// ShopperOrders lists the other orders of an order's shopper (same account,
// or for a guest the same email), newest first, at most MaxShopperOrders,
// and how many there are.
func (os *OrderService) ShopperOrders(o *Order) (OrderSearch, error) {
	q := OrderQuery{Sort: OrderSortNewest, CustomerID: o.CustomerID, Limit: MaxShopperOrders + 1}
	if o.CustomerID == 0 {
		if o.Email == "" {
			return OrderSearch{Rows: []OrderRow{}}, nil
		}
		q.Email = o.Email
	}
	res, err := os.SearchOrders(o.StoreID, q)
	if err != nil {
		return res, err
	}
	rows := res.Rows[:0]
	for _, r := range res.Rows {
		if r.ID != o.ID && (o.CustomerID != 0 || r.CustomerID == 0) {
			rows = append(rows, r)
		}
	}
	res.Rows = rows[:min(len(rows), MaxShopperOrders)]
	res.Total--
	return res, nil
}

// StoreActionInput is the store's own cancellation or refund of an order.
// Amount nil refunds everything not yet refunded; RefundMethod "" is
// ORIGINAL_METHOD (the provider, for an order paid through Stripe).
type StoreActionInput struct {
	Reason       string `json:"reason"`
	AdminNote    string `json:"admin_note"`
	Amount       *Money `json:"amount"`
	RefundMethod string `json:"refund_method"`
	// Restock: the stock a refund gives back, per order line (none: none).
	Restock []RestockLine `json:"restock"`
}

// StoreCancel cancels an order on the store's own decision, by the path an
// approved cancellation request takes (Decide): a PENDING cancellation
// request of the shopper is approved; otherwise the store files one in its
// own name (by_store) and approves it. Stock and coupon come back, a paid
// order is refunded (at the provider for a Stripe payment). Errors:
// validation_failed, not_found, invalid_order_state, conflict,
// payment_provider_unavailable, payment_provider_declined.
func (rs *RequestService) StoreCancel(storeID, orderID uint64, by *AdminUser, in StoreActionInput) (*Request, error) {
	return rs.storeAction(storeID, orderID, KindCancellation, by, in)
}

// StoreRefund refunds (part of) a paid order on the store's decision, by
// the path of an approved refund request (see StoreCancel). The order may be
// CONFIRMED, DELIVERED or COMPLETED, or CANCELLED but still PAID (the money
// arrived after it expired), with something left to refund. Errors: those
// of StoreCancel.
func (rs *RequestService) StoreRefund(storeID, orderID uint64, by *AdminUser, in StoreActionInput) (*Request, error) {
	return rs.storeAction(storeID, orderID, KindRefund, by, in)
}

func (in *StoreActionInput) validate() error {
	var v Validation
	in.Reason = strings.TrimSpace(in.Reason)
	if in.Reason == "" {
		in.Reason = storeRequestReason
	}
	v.Text("reason", in.Reason, false, MaxRequestReasonLen)
	if in.Amount != nil {
		v.Check(*in.Amount > 0, "amount", "must be greater than 0")
	}
	in.AdminNote = strings.TrimSpace(in.AdminNote)
	v.Text("admin_note", in.AdminNote, false, MaxAdminNoteLen)
	in.RefundMethod = strings.ToUpper(strings.TrimSpace(in.RefundMethod))
	if in.RefundMethod == "" {
		in.RefundMethod = RefundOriginalMethod
	}
	v.OneOf("refund_method", in.RefundMethod, RefundMethods...)
	return v.Err()
}

// storeActionable checks that the store may cancel or refund o itself.
func storeActionable(o *Order, kind string) error {
	if kind == KindCancellation {
		if o.Status != OrderPending && o.Status != OrderConfirmed {
			return Errorf(EInvalidOrderState, "a %s order cannot be cancelled", o.Status)
		}
		return nil
	}
	if !oneOf(o.Status, storeRefundable) {
		return Errorf(EInvalidOrderState, "a %s order cannot be refunded", o.Status)
	}
	if o.PaymentStatus != PaymentPaid && o.PaymentStatus != PaymentPartiallyRefunded {
		return Errorf(EInvalidOrderState, "the order is %s: nothing to refund", o.PaymentStatus)
	}
	return nil
}

func (rs *RequestService) storeAction(storeID, orderID uint64, kind string, by *AdminUser, in StoreActionInput) (*Request, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	if err := rs.permitRefund(storeID, orderID, kind, by); err != nil {
		return nil, err
	}
	var (
		r     *Request
		filed bool
	)
	err := rs.s.DB.Update(func(tx Tx) error {
		var err error
		r, filed, err = fileStoreRequest(tx, storeID, orderID, kind, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	out, err := rs.Decide(storeID, kind, r.ID, by.ID, true, DecisionInput{AdminNote: in.AdminNote, RefundMethod: in.RefundMethod})
	if err != nil && filed {
		switch ErrorCode(err) {
		case EProviderUnavailable, EProviderDeclined:
			// The request waits PENDING with the provider's message: approving
			// it retries under the same idempotency key (no second refund).
		default:
			// The order changed between filing and deciding: the store's own
			// request does not stay pending for someone to approve later.
			if _, rerr := rs.Decide(storeID, kind, r.ID, by.ID, false, DecisionInput{AdminNote: "Not applied: " + ErrorMessage(err)}); rerr != nil {
				rs.s.Log.Error("reject the store's own request", "store_id", storeID, "request_id", r.ID, "err", rerr)
			}
		}
	}
	return out, err
}

// fileStoreRequest files the store's own request of kind on an order, or
// returns the pending shopper's request it approves instead (filed false).
func fileStoreRequest(tx storeRequestTx, storeID, orderID uint64, kind string, in StoreActionInput) (r *Request, filed bool, err error) {
	o, err := tx.Order(storeID, orderID)
	if err != nil {
		return nil, false, err
	}
	if err := storeActionable(o, kind); err != nil {
		return nil, false, err
	}
	if err := checkRestock(tx, o, kind, in.Restock); err != nil {
		return nil, false, err
	}
	if r, err = pendingRequestOf(tx, storeID, kind, o.ID); err != nil || r != nil {
		if r != nil && len(in.Restock) > 0 && !r.ByStore {
			return nil, false, Errorf(EConflict, "the order has a pending refund request (#%d); decide it first, then refund with stock", r.ID)
		}
		if r != nil && r.ByStore {
			// Another store action on this order is between filing and
			// deciding (or waits on the payment provider): approving its
			// request here would answer for a decision this call did not make.
			return nil, false, &Error{Code: EConflict, Message: "another " + kind + " of this order by the store is pending (request #" + itoa(int(r.ID)) + "); approve or reject it first",
				Fields: map[string]string{"request_id": itoa(int(r.ID))}}
		}
		if r != nil && kind == KindRefund && in.Amount != nil && *in.Amount != r.Amount {
			return nil, false, Errorf(EConflict, "the order has a pending refund request (#%d) of %s; decide it first", r.ID, r.Amount)
		}
		return r, false, err
	}
	r = &Request{StoreID: storeID, Kind: kind, OrderID: o.ID, CustomerID: o.CustomerID, Status: RequestPending,
		Reason: in.Reason, ProofFiles: []string{}, ByStore: true, CreatedAt: UTC(tx.Now()), Restock: in.Restock}
	if kind == KindRefund {
		left := o.Refundable()
		r.Amount = left
		if in.Amount != nil {
			r.Amount = *in.Amount
		}
		if left <= 0 {
			return nil, false, Invalid("amount", "nothing is left to refund on this order")
		}
		if r.Amount > left {
			return nil, false, Invalid("amount", "must be at most "+left.String()+", the amount not yet refunded")
		}
	}
	if err := tx.CreateRequest(r); err != nil {
		return nil, false, err
	}
	return r, true, nil
}
