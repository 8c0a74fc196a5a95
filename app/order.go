package app

import "time"

// Order statuses (decisions.md §5).
const (
	OrderPending   = "PENDING"
	OrderConfirmed = "CONFIRMED"
	OrderDelivered = "DELIVERED"
	OrderCompleted = "COMPLETED"
	OrderCancelled = "CANCELLED"
)

// Payment statuses.
const (
	PaymentUnpaid            = "UNPAID"
	PaymentPaid              = "PAID"
	PaymentFailed            = "FAILED"
	PaymentRefunded          = "REFUNDED"
	PaymentPartiallyRefunded = "PARTIALLY_REFUNDED"
)

// Order is a placed order. CustomerID 0 is a guest order.
type Order struct {
	ID               uint64      `json:"id"`
	StoreID          uint64      `json:"store_id"`
	CustomerID       uint64      `json:"customer_id"`
	Status           string      `json:"status"`
	PaymentStatus    string      `json:"payment_status"`
	PaymentMethod    string      `json:"payment_method"`
	PaymentSessionID string      `json:"payment_session_id"`
	ReceiverName     string      `json:"receiver_name"`
	Phone            string      `json:"phone"`
	Address          string      `json:"address"`
	Email            string      `json:"email"`
	Items            []OrderItem `json:"items"`
	Subtotal         Money       `json:"subtotal"`
	Discount         Money       `json:"discount"`
	DeliveryFee      Money       `json:"delivery_fee"`
	Total            Money       `json:"total"`
	Currency         string      `json:"currency"`
	CouponCode       string      `json:"coupon_code"`
	CouponID         uint64      `json:"coupon_id,omitempty"` // its use is given back when the order expires
	RefundedAmount   Money       `json:"refunded_amount"`
	CallbackURL      string      `json:"callback_url"`
	// GuestCartID is the guest cart the order was placed from (cart_token):
	// its lines go when the order is paid, as a shopper's cart lines do.
	GuestCartID uint64 `json:"guest_cart_id,omitempty"`
	// Test: placed through the test sandbox; no money moved.
	Test           bool   `json:"test,omitempty"`
	TrackingNumber string `json:"tracking_number,omitempty"`
	Carrier        string `json:"carrier,omitempty"`
	// TrackingURL and ShippedAt are set when the store ships the order
	// (OrderService.Ship); a zero ShippedAt is not shipped.
	TrackingURL string    `json:"tracking_url,omitempty"`
	ShippedAt   time.Time `json:"shipped_at,omitzero"`
	// DeliveredAt and DeliveredBy (the admin's email) are set when the store
	// marks the order DELIVERED by hand (OrderService.Move), for the undo
	// window (OrderService.UndoDelivered); zero otherwise.
	DeliveredAt time.Time   `json:"delivered_at,omitzero"`
	DeliveredBy string      `json:"delivered_by,omitempty"`
	Notes       []OrderNote `json:"notes,omitempty"` // internal: the admin side only
	// ProviderRefunds are the refunds made at the payment provider, in order.
	ProviderRefunds []ProviderRefundRecord `json:"provider_refunds,omitempty"`
	CreatedAt       time.Time              `json:"created_at"`
	UpdatedAt       time.Time              `json:"updated_at"`
	OrderTax
}

// OrderTax is the tax and the invoices of an order (tax.go, invoice.go).
// Country and Region are the destination taxed; TaxLines the tax per rate
// (none without rates), TaxTotal their sum, in Total when prices exclude
// tax; DeliveryTaxRate the rate on the delivery fee ("" when untaxed).
// InvoiceNumber is given when the order is paid (InvoicedAt), a
// CreditNote per refund.
type OrderTax struct {
	Country          string       `json:"country,omitempty"`
	Region           string       `json:"region,omitempty"`
	PricesIncludeTax bool         `json:"prices_include_tax,omitempty"`
	TaxTotal         Money        `json:"tax_total,omitempty"`
	TaxLines         []TaxLine    `json:"tax_lines,omitempty"`
	DeliveryTaxRate  string       `json:"delivery_tax_rate,omitempty"`
	InvoiceNumber    string       `json:"invoice_number,omitempty"`
	InvoicedAt       time.Time    `json:"invoiced_at,omitzero"`
	CreditNotes      []CreditNote `json:"credit_notes,omitempty"`
}

// CreditNote is one refund's document: its number, the invoice it refers
// to, the amount refunded and the tax it contains (RefundTax).
type CreditNote struct {
	Number   string    `json:"number"`
	Invoice  string    `json:"invoice"`
	Amount   Money     `json:"amount"`
	TaxLines []TaxLine `json:"tax_lines"`
	At       time.Time `json:"at"`
}

// ProviderRefundRecord is one refund made at the payment provider.
type ProviderRefundRecord struct {
	ID          string    `json:"id"`
	Amount      Money     `json:"amount"`
	RequestKind string    `json:"request_kind"`
	RequestID   uint64    `json:"request_id"`
	At          time.Time `json:"at"`
}

// OrderItem is one line of an order, a copy of the catalog at order time.
type OrderItem struct {
	ProductID uint64 `json:"product_id"`
	VariantID uint64 `json:"variant_id"`
	Name      string `json:"name"`
	UnitPrice Money  `json:"unit_price"`
	Quantity  int64  `json:"quantity"`
	LineTotal Money  `json:"line_total"`
	// TaxRate is the percentage of tax on the line ("" when none applies)
	// and Tax its amount, after the line's share of the discount (tax.go).
	TaxRate string `json:"tax_rate"`
	Tax     Money  `json:"tax"`
}

// OrderView is an order as shown to clients (decisions.md §4).
type OrderView struct {
	ID            uint64          `json:"id"`
	Status        string          `json:"status"`
	PaymentStatus string          `json:"payment_status"`
	PaymentMethod string          `json:"payment_method"`
	ReceiverName  string          `json:"receiver_name"`
	Phone         string          `json:"phone"`
	Address       string          `json:"address"`
	Email         string          `json:"email"`
	Items         []OrderItemView `json:"items"`
	Subtotal      Money           `json:"subtotal"`
	Discount      Money           `json:"discount"`
	DeliveryFee   Money           `json:"delivery_fee"`
	Total         Money           `json:"total"`
	Currency      string          `json:"currency"`
	CouponCode    string          `json:"coupon_code"`
	// Test: a test payment through the sandbox (no money moved).
	Test bool `json:"test"`
	// TrackingNumber and Carrier are set by the store once shipped ("" until then).
	TrackingNumber string          `json:"tracking_number"`
	Carrier        string          `json:"carrier"`
	Fulfillment    FulfillmentView `json:"fulfillment"`
	CreatedAt      time.Time       `json:"created_at"`
	UpdatedAt      time.Time       `json:"updated_at"`
	OrderTaxView
}

// Fulfilment statuses: beside the order's status, which keeps its meaning.
const (
	FulfillmentUnfulfilled = "unfulfilled"
	FulfillmentShipped     = "shipped"
	FulfillmentDelivered   = "delivered"
)

// FulfillmentView is where an order's parcel is: unfulfilled, shipped (with
// the carrier, the tracking number and link, and when) or delivered.
type FulfillmentView struct {
	Status         string     `json:"status"`
	Carrier        string     `json:"carrier"`
	TrackingNumber string     `json:"tracking_number"`
	TrackingURL    string     `json:"tracking_url"`
	ShippedAt      *time.Time `json:"shipped_at"`
}

// Fulfillment is o's fulfilment: delivered once the order is DELIVERED or
// COMPLETED (shipped or not), shipped once the store shipped it.
func (o *Order) Fulfillment() FulfillmentView {
	f := FulfillmentView{Status: FulfillmentUnfulfilled, Carrier: o.Carrier, TrackingNumber: o.TrackingNumber, TrackingURL: o.TrackingURL}
	if !o.ShippedAt.IsZero() {
		at := UTC(o.ShippedAt)
		f.Status, f.ShippedAt = FulfillmentShipped, &at
	}
	if o.Status == OrderDelivered || o.Status == OrderCompleted {
		f.Status = FulfillmentDelivered
	}
	return f
}

// OrderItemView is an order line on the wire; variant_id is null without a variant.
type OrderItemView struct {
	ProductID uint64  `json:"product_id"`
	VariantID *uint64 `json:"variant_id"`
	Name      string  `json:"name"`
	UnitPrice Money   `json:"unit_price"`
	Quantity  int64   `json:"quantity"`
	LineTotal Money   `json:"line_total"`
	TaxRate   string  `json:"tax_rate"`
	Tax       Money   `json:"tax"`
}

// OrderTaxView is the tax and invoices of an order on the wire (OrderTax):
// country "" for orders placed before the store had one.
type OrderTaxView struct {
	Country          string       `json:"country"`
	PricesIncludeTax bool         `json:"prices_include_tax"`
	TaxTotal         Money        `json:"tax_total"`
	TaxLines         []TaxLine    `json:"tax_lines"`
	InvoiceNumber    *string      `json:"invoice_number"`
	CreditNotes      []CreditNote `json:"credit_notes"`
}

// taxView is the wire form of t.
func (t OrderTax) taxView() OrderTaxView {
	v := OrderTaxView{Country: t.Country, PricesIncludeTax: t.PricesIncludeTax, TaxTotal: t.TaxTotal,
		TaxLines: t.TaxLines, CreditNotes: t.CreditNotes}
	if v.TaxLines == nil {
		v.TaxLines = []TaxLine{}
	}
	if v.CreditNotes == nil {
		v.CreditNotes = []CreditNote{}
	}
	if t.InvoiceNumber != "" {
		n := t.InvoiceNumber
		v.InvoiceNumber = &n
	}
	return v
}

// View returns the wire form of o.
func (o *Order) View() OrderView {
	items := make([]OrderItemView, len(o.Items))
	for i, it := range o.Items {
		items[i] = OrderItemView{ProductID: it.ProductID, Name: it.Name, UnitPrice: it.UnitPrice, Quantity: it.Quantity,
			LineTotal: it.LineTotal, TaxRate: it.TaxRate, Tax: it.Tax}
		if it.VariantID != 0 {
			v := it.VariantID
			items[i].VariantID = &v
		}
	}
	return OrderView{ID: o.ID, Status: o.Status, PaymentStatus: o.PaymentStatus, PaymentMethod: o.PaymentMethod,
		ReceiverName: o.ReceiverName, Phone: o.Phone, Address: o.Address, Email: o.Email, Items: items,
		Subtotal: o.Subtotal, Discount: o.Discount, DeliveryFee: o.DeliveryFee, Total: o.Total,
		Currency: o.Currency, CouponCode: o.CouponCode, Test: o.Test, TrackingNumber: o.TrackingNumber, Carrier: o.Carrier,
		Fulfillment: o.Fulfillment(), CreatedAt: UTC(o.CreatedAt), UpdatedAt: UTC(o.UpdatedAt), OrderTaxView: o.taxView()}
}

// AdminOrderView is an order as the store sees it: the shopper's view plus
// who placed it (customer_id null for a guest) and the payment details.
type AdminOrderView struct {
	OrderView
	CustomerID       *uint64                `json:"customer_id"`
	PaymentSessionID string                 `json:"payment_session_id"`
	RefundedAmount   Money                  `json:"refunded_amount"`
	ProviderRefunds  []ProviderRefundRecord `json:"provider_refunds"`
	Notes            []OrderNote            `json:"notes"`
	// DeliveredAt and DeliveredBy: who marked the order delivered by hand
	// and when (null, "" otherwise); UndoUntil is the end of the window in
	// which it can be undone (null when it cannot).
	DeliveredAt *time.Time `json:"delivered_at"`
	DeliveredBy string     `json:"delivered_by"`
	UndoUntil   *time.Time `json:"undo_delivered_until"`
}

// AdminView returns the admin wire form of o.
func (o *Order) AdminView() AdminOrderView {
	v := AdminOrderView{OrderView: o.View(), PaymentSessionID: o.PaymentSessionID, RefundedAmount: o.RefundedAmount,
		ProviderRefunds: o.ProviderRefunds, Notes: o.Notes}
	if v.ProviderRefunds == nil {
		v.ProviderRefunds = []ProviderRefundRecord{}
	}
	if v.Notes == nil {
		v.Notes = []OrderNote{}
	}
	if o.CustomerID != 0 {
		id := o.CustomerID
		v.CustomerID = &id
	}
	if !o.DeliveredAt.IsZero() {
		at, until := UTC(o.DeliveredAt), UTC(o.DeliveredAt.Add(DeliveryUndoWindow))
		v.DeliveredAt, v.DeliveredBy = &at, o.DeliveredBy
		if o.Status == OrderDelivered {
			v.UndoUntil = &until
		}
	}
	return v
}

// OrderStatuses lists every order status.
var OrderStatuses = []string{OrderPending, OrderConfirmed, OrderDelivered, OrderCompleted, OrderCancelled}

// Refundable is what is paid and not yet refunded.
func (o *Order) Refundable() Money { return o.Total - o.RefundedAmount }

// adminMoves are the status moves the store makes by hand (decisions.md §5).
var adminMoves = map[string]string{
	OrderConfirmed: OrderDelivered,
	OrderDelivered: OrderCompleted,
}

// CanAdminMove reports whether the store may move an order from one status to another.
func CanAdminMove(from, to string) bool { return adminMoves[from] == to }

// CancelOrder moves o to CANCELLED and gives back what it held: its reserved
// stock and its coupon use. Every cancellation (expiry, an approved request)
// goes through it, once, in the transaction that writes the order; payment
// status is the caller's.
func CancelOrder(tx cancelTx, o *Order, now time.Time) error {
	if err := ReleaseStock(tx, o); err != nil {
		return err
	}
	if err := releaseCoupon(tx, o); err != nil {
		return err
	}
	o.Status = OrderCancelled
	o.UpdatedAt = UTC(now)
	return tx.PutOrder(o)
}

// ReleaseStock puts an order's reserved units back into the catalog (see CancelOrder).
func ReleaseStock(tx stockTx, o *Order) error {
	for _, it := range o.Items {
		p, err := tx.Product(o.StoreID, it.ProductID)
		if IsNotFound(err) {
			continue // deleted since: nothing to give back to
		}
		if err != nil {
			return err
		}
		p.PutBackStock(it.VariantID, it.Quantity)
		if err := tx.PutProductStock(p); err != nil {
			return err
		}
	}
	return nil
}

// OrderTx is the storage of orders. PutOrder keeps the per-customer and
// per-status indexes.
type OrderTx interface {
	// CreateOrder assigns o.ID and stores o.
	CreateOrder(o *Order) error
	Order(storeID, id uint64) (*Order, error)
	// OrdersByID returns the store's orders of ids in ids' order, leaving
	// out the ids that name none.
	OrdersByID(storeID uint64, ids []uint64) ([]*Order, error)
	PutOrder(o *Order) error
	// CustomerOrders pages one customer's orders, newest first.
	CustomerOrders(storeID, customerID uint64, p ListParams) (Page[*Order], error)
	// Orders pages a store's orders, newest first; status "" means all.
	Orders(storeID uint64, status string, p ListParams) (Page[*Order], error)
	// PendingOrdersBefore lists a store's PENDING orders created before t.
	PendingOrdersBefore(storeID uint64, t time.Time) ([]*Order, error)
}
