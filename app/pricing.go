package app

import (
	"strings"
	"time"
)

// The pricing rules of checkout, as pure functions: they read no storage and
// no clock but the time they are given, so every rule is table-tested
// without a transaction (pricing_test.go). OrderService.price reads what
// they look at (the lines' products, the coupon, the store's settings) and
// calls them; the cart prices a unit with the same DealPrice.

// DealPrice is the unit price of a product or variant whose catalog price is
// price under the flash deals of the product: the lowest deal running at now
// that covers the variant (a deal of variant 0 covers them all), never more
// than the catalog price.
func DealPrice(price Money, variantID uint64, deals []*FlashDeal, now time.Time) Money {
	for _, d := range deals {
		if d.ActiveAt(now) && (d.VariantID == 0 || d.VariantID == variantID) && d.DealPrice < price {
			price = d.DealPrice
		}
	}
	return price
}

// PricedLine is one checkout line with what the catalog says of it. Lines of
// one product share its *Product, so stock is taken from one count.
type PricedLine struct {
	Product   *Product
	VariantID uint64
	Quantity  int64
	UnitPrice Money  // the catalog's price now (DealPrice)
	Sent      *Money // the unit price the client sent, if any
}

// Quote is everything the pricing rules of one checkout look at.
type Quote struct {
	Lines        []PricedLine
	CouponCode   string  // as sent (normalized); "" for none
	Coupon       *Coupon // the coupon of CouponCode; nil when there is no such coupon
	Now          time.Time
	Delivery     []DeliveryOption // the store's options, first is the default
	SentFee      *Money           // the delivery fee the client sent, if any
	Currency     string           // the store's
	SentCurrency string           // as sent; "" for none
	// Tax are the store's tax settings; Country and Region the destination
	// (tax.go).
	Tax             TaxSettings
	Country, Region string
}

// Priced is the money of an order as the rules compute it.
type Priced struct {
	Items                                  []OrderItem
	Subtotal, Discount, DeliveryFee, Total Money
	// The tax (applyTax): per rate, in all, the delivery's rate, and
	// whether it is included in the prices (false without rates).
	TaxLines         []TaxLine
	TaxTotal         Money
	DeliveryTaxRate  string
	PricesIncludeTax bool
}

// PriceOrder applies the rules in their order: line totals and the subtotal
// (at most MaxMoney), the coupon (unknown, inactive, not started, expired,
// used up, under its minimum: validation_failed on coupon_code), the
// delivery fee (one of the store's; omitted: the first; no options: only 0),
// then the client's unit prices, fee and currency against the server's
// (price_changed, naming every field that differs with the server's value),
// and the total (at most MaxMoney) with the tax (tax.go).
func PriceOrder(q Quote) (Priced, error) {
	var pr Priced
	changed := map[string]string{}
	pr.Items = make([]OrderItem, 0, len(q.Lines))
	for i, l := range q.Lines {
		if l.Sent != nil && *l.Sent != l.UnitPrice {
			changed["items["+itoa(i)+"].unit_price"] = l.UnitPrice.String()
		}
		line := LineOf(l.Product, l.VariantID, l.Quantity, l.UnitPrice)
		pr.Items = append(pr.Items, line)
		pr.Subtotal += line.LineTotal
	}
	// Amounts above MaxMoney cannot be stored (Money refuses to decode them).
	if pr.Subtotal > MaxMoney {
		return pr, overMax()
	}
	if q.CouponCode != "" {
		if q.Coupon == nil {
			return pr, Invalid("coupon_code", "unknown coupon")
		}
		d, err := q.Coupon.Discount(pr.Subtotal, q.Now)
		if err != nil {
			return pr, err
		}
		pr.Discount = d
	}
	fee, offered := DeliveryFee(q.Delivery, q.SentFee)
	pr.DeliveryFee = fee
	if offered != "" {
		changed["delivery_fee"] = offered
	}
	if q.SentCurrency != "" && q.SentCurrency != q.Currency {
		changed["currency"] = q.Currency
	}
	if len(changed) > 0 {
		return pr, &Error{Code: EPriceChanged, Message: "prices changed; review the order", Fields: changed}
	}
	pr.Total = pr.Subtotal - pr.Discount + pr.DeliveryFee
	return pr, pr.applyTax(q)
}

func overMax() error {
	return Invalid("items", "the order is over the largest total accepted ("+MaxMoney.String()+")")
}

// LineOf is the order line of qty units of a product (or its variant) at
// unit: named "product - variant", totalled.
func LineOf(p *Product, variantID uint64, qty int64, unit Money) OrderItem {
	name := p.Name
	if v := p.Variant(variantID); v != nil {
		name += " - " + v.Name
	}
	return OrderItem{ProductID: p.ID, VariantID: variantID, Name: name, UnitPrice: unit, Quantity: qty, LineTotal: unit * Money(qty)}
}

// DeliveryFee is the fee of an order: the one sent (when sent), else the
// store's first option (0 without options). When the fee sent is not one the
// store offers (with no options: anything but 0), offered lists the fees it
// does offer, for a price_changed answer; it is "" when the fee is fine.
func DeliveryFee(options []DeliveryOption, sent *Money) (fee Money, offered string) {
	allowed := len(options) == 0 && (sent == nil || *sent == 0)
	fees := make([]string, 0, len(options))
	for _, d := range options {
		fees = append(fees, d.Fee.String())
		if sent != nil && *sent == d.Fee {
			allowed = true
		}
	}
	switch {
	case sent != nil:
		fee = *sent
	case len(options) > 0:
		fee, allowed = options[0].Fee, true
	}
	if allowed {
		return fee, ""
	}
	if len(fees) == 0 {
		fees = append(fees, Money(0).String())
	}
	return fee, strings.Join(fees, ", ")
}

// ReserveStock takes every line's quantity from its product (lines of one
// product share its count). When any line cannot be served it returns
// out_of_stock naming each short line with what is left; the products are
// then partly changed and must not be written.
func ReserveStock(lines []PricedLine) error {
	short := map[string]string{}
	for i, l := range lines {
		p := l.Product
		if !p.TakeStock(l.VariantID, l.Quantity) {
			left := p.Stock
			if v := p.Variant(l.VariantID); v != nil {
				left = v.Stock
			}
			short["items["+itoa(i)+"].quantity"] = "only " + itoa(int(max(left, 0))) + " left"
		}
	}
	if len(short) > 0 {
		return &Error{Code: EOutOfStock, Message: "not enough stock", Fields: short}
	}
	return nil
}
