package storage

import (
	"encoding/binary"
	"errors"
	"fmt"

	"storefront/app"
)

// Orders are stored in one form, a compact binary one (compact.go): a
// verification reads and writes one, and encoding/json was the largest cost
// of it left in storage. Export hands orders on as JSON.
//
// The form (orderCompact first):
//
//	flags byte (orderTest, orderGuestCart)
//	uvarint id, store_id, customer_id
//	strings (uvarint len, bytes): status, payment_status, payment_method,
//	  payment_session_id, receiver_name, phone, address, email
//	items: uvarint 0 (null) or 1+count, then per line uvarint product_id,
//	  variant_id, string name, varint unit_price, quantity, line_total
//	varint subtotal, discount, delivery_fee, total
//	strings currency, coupon_code; uvarint coupon_id; varint refunded_amount
//	strings callback_url, tracking_number, carrier
//	notes: uvarint 0 (null) or 1+count, then per note time at, uvarint
//	  admin_id, strings author, text
//	provider_refunds: uvarint 0 (null) or 1+count, then per refund string id,
//	  varint amount, string request_kind, uvarint request_id, time at
//	times created_at, updated_at
//	with orderGuestCart: uvarint guest_cart_id (orders before it have none)
//	with orderShipped: string tracking_url, time shipped_at
//	with orderDelivered: time delivered_at, string delivered_by
//	with orderTaxed: the tax part (order_codec_tax.go)
//
// A time is uvarint 0 for the zero time, else 1 + its Unix nanoseconds
// zigzag-encoded (as binary.AppendVarint), read back in UTC; an order with a
// time outside them is refused (errTimeRange). Every field of app.Order has
// its place: a field added to it must be added here (the round-trip test
// fills every field by reflection and fails otherwise).
const orderCompact = 0x03

const (
	orderTest      = 1 << 0
	orderGuestCart = 1 << 1
	orderShipped   = 1 << 2
	orderDelivered = 1 << 3
)

// encodeOrder is the stored form of o.
func encodeOrder(o *app.Order) ([]byte, error) {
	if err := orderFits(o); err != nil {
		return nil, fmt.Errorf("storage: encode order %d: %w", o.ID, err)
	}
	return appendOrder(make([]byte, 0, orderSize(o)), o), nil
}

// orderSize is about the compact size of o (a capacity, not a bound).
func orderSize(o *app.Order) int {
	n := 96 + len(o.Status) + len(o.PaymentStatus) + len(o.PaymentMethod) + len(o.PaymentSessionID) + len(o.ReceiverName) +
		len(o.Phone) + len(o.Address) + len(o.Email) + len(o.Currency) + len(o.CouponCode) + len(o.CallbackURL) +
		len(o.TrackingNumber) + len(o.Carrier) + len(o.TrackingURL) + len(o.DeliveredBy)
	for _, it := range o.Items {
		n += 32 + len(it.Name)
	}
	for _, nt := range o.Notes {
		n += 24 + len(nt.Author) + len(nt.Text)
	}
	for _, r := range o.ProviderRefunds {
		n += 32 + len(r.ID) + len(r.RequestKind)
	}
	return n + orderTaxSize(o)
}

// orderFits is nil when the form holds o's times.
func orderFits(o *app.Order) error {
	for _, nt := range o.Notes {
		if err := timesFit(nt.At); err != nil {
			return err
		}
	}
	for _, r := range o.ProviderRefunds {
		if err := timesFit(r.At); err != nil {
			return err
		}
	}
	for _, c := range o.CreditNotes {
		if err := timesFit(c.At); err != nil {
			return err
		}
	}
	return timesFit(o.CreatedAt, o.UpdatedAt, o.ShippedAt, o.DeliveredAt, o.InvoicedAt)
}

// appendOrder appends the compact form of o (orderFits).
func appendOrder(b []byte, o *app.Order) []byte {
	flags := byte(0)
	if o.Test {
		flags |= orderTest
	}
	if o.GuestCartID != 0 {
		flags |= orderGuestCart
	}
	if o.TrackingURL != "" || !o.ShippedAt.IsZero() {
		flags |= orderShipped
	}
	if o.DeliveredBy != "" || !o.DeliveredAt.IsZero() {
		flags |= orderDelivered
	}
	if taxed(o) {
		flags |= orderTaxed
	}
	b = append(b, orderCompact, flags)
	b = binary.AppendUvarint(b, o.ID)
	b = binary.AppendUvarint(b, o.StoreID)
	b = binary.AppendUvarint(b, o.CustomerID)
	for _, s := range []string{o.Status, o.PaymentStatus, o.PaymentMethod, o.PaymentSessionID, o.ReceiverName, o.Phone, o.Address, o.Email} {
		b = appendString(b, s)
	}
	b = appendOrderItems(b, o.Items)
	for _, m := range []app.Money{o.Subtotal, o.Discount, o.DeliveryFee, o.Total} {
		b = binary.AppendVarint(b, int64(m))
	}
	b = appendString(b, o.Currency)
	b = appendString(b, o.CouponCode)
	b = binary.AppendUvarint(b, o.CouponID)
	b = binary.AppendVarint(b, int64(o.RefundedAmount))
	b = appendString(b, o.CallbackURL)
	b = appendString(b, o.TrackingNumber)
	b = appendString(b, o.Carrier)
	b = appendOrderHistory(b, o)
	b = appendTime(b, o.CreatedAt)
	b = appendTime(b, o.UpdatedAt)
	if o.GuestCartID != 0 {
		b = binary.AppendUvarint(b, o.GuestCartID)
	}
	if flags&orderShipped != 0 {
		b = appendString(b, o.TrackingURL)
		b = appendTime(b, o.ShippedAt)
	}
	if flags&orderDelivered != 0 {
		b = appendTime(b, o.DeliveredAt)
		b = appendString(b, o.DeliveredBy)
	}
	if flags&orderTaxed != 0 {
		b = appendOrderTax(b, o)
	}
	return b
}

// appendOrderItems appends an order's lines.
func appendOrderItems(b []byte, items []app.OrderItem) []byte {
	b = appendCount(b, items == nil, len(items))
	for _, it := range items {
		b = binary.AppendUvarint(b, it.ProductID)
		b = binary.AppendUvarint(b, it.VariantID)
		b = appendString(b, it.Name)
		b = binary.AppendVarint(b, int64(it.UnitPrice))
		b = binary.AppendVarint(b, it.Quantity)
		b = binary.AppendVarint(b, int64(it.LineTotal))
	}
	return b
}

// appendOrderHistory appends an order's notes and provider refunds.
func appendOrderHistory(b []byte, o *app.Order) []byte {
	b = appendCount(b, o.Notes == nil, len(o.Notes))
	for _, nt := range o.Notes {
		b = appendTime(b, nt.At)
		b = binary.AppendUvarint(b, nt.AdminID)
		b = appendString(b, nt.Author)
		b = appendString(b, nt.Text)
	}
	b = appendCount(b, o.ProviderRefunds == nil, len(o.ProviderRefunds))
	for _, r := range o.ProviderRefunds {
		b = appendString(b, r.ID)
		b = binary.AppendVarint(b, int64(r.Amount))
		b = appendString(b, r.RequestKind)
		b = binary.AppendUvarint(b, r.RequestID)
		b = appendTime(b, r.At)
	}
	return b
}

var errOrderCorrupt = errors.New("storage: a corrupt order record")

// decodeOrder reads a stored order.
func decodeOrder(v []byte) (*app.Order, error) {
	if len(v) < 2 || v[0] != orderCompact {
		return nil, errOrderCorrupt
	}
	d := compactReader{s: string(v[2:])}
	o := &app.Order{Test: v[1]&orderTest != 0}
	o.ID, o.StoreID, o.CustomerID = d.uvarint(), d.uvarint(), d.uvarint()
	for _, s := range []*string{&o.Status, &o.PaymentStatus, &o.PaymentMethod, &o.PaymentSessionID, &o.ReceiverName, &o.Phone, &o.Address, &o.Email} {
		*s = d.str()
	}
	if n, ok := d.count(6); ok {
		o.Items = make([]app.OrderItem, n)
		for i := range o.Items {
			it := &o.Items[i]
			it.ProductID, it.VariantID, it.Name = d.uvarint(), d.uvarint(), d.str()
			it.UnitPrice, it.Quantity, it.LineTotal = app.Money(d.varint()), d.varint(), app.Money(d.varint())
		}
	}
	o.Subtotal, o.Discount, o.DeliveryFee, o.Total = app.Money(d.varint()), app.Money(d.varint()), app.Money(d.varint()), app.Money(d.varint())
	o.Currency, o.CouponCode, o.CouponID, o.RefundedAmount = d.str(), d.str(), d.uvarint(), app.Money(d.varint())
	o.CallbackURL, o.TrackingNumber, o.Carrier = d.str(), d.str(), d.str()
	if n, ok := d.count(4); ok {
		o.Notes = make([]app.OrderNote, n)
		for i := range o.Notes {
			nt := &o.Notes[i]
			nt.At, nt.AdminID, nt.Author, nt.Text = d.time(), d.uvarint(), d.str(), d.str()
		}
	}
	if n, ok := d.count(5); ok {
		o.ProviderRefunds = make([]app.ProviderRefundRecord, n)
		for i := range o.ProviderRefunds {
			r := &o.ProviderRefunds[i]
			r.ID, r.Amount, r.RequestKind, r.RequestID, r.At = d.str(), app.Money(d.varint()), d.str(), d.uvarint(), d.time()
		}
	}
	o.CreatedAt, o.UpdatedAt = d.time(), d.time()
	if v[1]&orderGuestCart != 0 {
		o.GuestCartID = d.uvarint()
	}
	if v[1]&orderShipped != 0 {
		o.TrackingURL, o.ShippedAt = d.str(), d.time()
	}
	if v[1]&orderDelivered != 0 {
		o.DeliveredAt, o.DeliveredBy = d.time(), d.str()
	}
	if v[1]&orderTaxed != 0 {
		readOrderTax(&d, o)
	}
	if !d.done() {
		return nil, errOrderCorrupt
	}
	return o, nil
}

// storedOrder decodes the order stored under k, naming the record when it
// cannot (errOrderCorrupt).
func storedOrder(k, v []byte) (*app.Order, error) {
	o, err := decodeOrder(v)
	if err != nil {
		return nil, fmt.Errorf("%w under key %x", err, k)
	}
	return o, nil
}

// orderJSON is a stored order as JSON (what Export hands on).
func orderJSON(k, v []byte) ([]byte, error) { return storedJSON(k, v, storedOrder) }
