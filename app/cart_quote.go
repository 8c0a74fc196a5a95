package app

import "strings"

// CartQuote is a cart priced as checkout prices it (the same rules,
// PriceOrder), without writing anything or taking stock: what a cart page
// shows before the order is placed.
type CartQuote struct {
	Items []QuoteLine `json:"items"`
	// Dropped counts the lines left out: product deleted or inactive since,
	// or a variant no longer sellable as it was chosen.
	Dropped     int    `json:"dropped"`
	ItemCount   int64  `json:"item_count"`
	Subtotal    Money  `json:"subtotal"`
	Discount    Money  `json:"discount"`
	DeliveryFee Money  `json:"delivery_fee"`
	Total       Money  `json:"total"`
	Currency    string `json:"currency"`
	QuoteTax
	// Delivery are the store's delivery options, the first the default.
	Delivery []DeliveryOption `json:"delivery_options"`
}

// QuoteLine is one priced line with the stock left of its product or variant.
type QuoteLine struct {
	OrderItem
	Stock int64 `json:"stock"`
}

// QuoteInput is a cart to price: its lines, the coupon applied ("" for
// none) and the delivery fee chosen (nil: the store's first option).
type QuoteInput struct {
	Items       []CheckoutItem `json:"items"`
	CouponCode  string         `json:"coupon_code"`
	DeliveryFee *Money         `json:"delivery_fee"`
	// Country and Region: the destination taxed (CheckoutInput's).
	Country string `json:"country"`
	Region  string `json:"region"`
}

// Quote prices a cart of a store (a guest's cookie cart or a shopper's API
// cart, as lines) with the catalog's current prices, the coupon and the
// delivery fee, in one read transaction. Lines that are no longer sellable
// are left out (counted in Dropped). Errors: validation_failed (coupon_code:
// unknown, expired, under its minimum...; delivery_fee not offered is
// price_changed), as checkout would answer them.
func (os *OrderService) Quote(storeID uint64, in QuoteInput) (CartQuote, error) {
	q := CartQuote{Items: []QuoteLine{}, Delivery: []DeliveryOption{}}
	if len(in.Items) > MaxOrderLines {
		return q, Invalid("items", "must have at most 100 lines")
	}
	if err := checkQuoteDestination(in); err != nil {
		return q, err
	}
	in.CouponCode = NormalizeCouponCode(in.CouponCode)
	err := os.s.DB.View(func(tx Tx) error {
		q = CartQuote{Items: []QuoteLine{}, Delivery: []DeliveryOption{}, QuoteTax: QuoteTax{TaxLines: []TaxLine{}}}
		st, err := tx.SharedStore(storeID)
		if err != nil {
			return err
		}
		set := os.settingsOf(st)
		q.Currency = st.Currency
		if set.DeliveryOptions != nil {
			q.Delivery = set.DeliveryOptions
		}
		lines, err := quoteLines(tx, storeID, in.Items, &q)
		if err != nil || len(lines) == 0 {
			return err
		}
		pq := Quote{Lines: lines, CouponCode: in.CouponCode, Now: tx.Now(), Delivery: set.DeliveryOptions,
			SentFee: in.DeliveryFee, Currency: st.Currency}
		set.taxQuote(&pq, in.Country, in.Region)
		if in.CouponCode != "" {
			c, err := tx.CouponByCode(storeID, in.CouponCode)
			if err != nil && !IsNotFound(err) {
				return err
			}
			if err == nil {
				pq.Coupon = c
			}
		}
		pr, err := PriceOrder(pq)
		if err != nil {
			return err
		}
		q.Subtotal, q.Discount, q.DeliveryFee, q.Total = pr.Subtotal, pr.Discount, pr.DeliveryFee, pr.Total
		q.QuoteTax = pr.quoteTax(pq)
		for i := range q.Items {
			q.Items[i].OrderItem = pr.Items[i]
		}
		return nil
	})
	return q, err
}

// quoteLines loads and prices the sellable lines of a cart, adding them to
// q.Items (stock only; PriceOrder fills in the rest) and counting the others.
func quoteLines(tx Tx, storeID uint64, items []CheckoutItem, q *CartQuote) ([]PricedLine, error) {
	lines := make([]PricedLine, 0, len(items))
	for _, it := range items {
		if it.Quantity < 1 || it.Quantity > MaxLineQuantity {
			q.Dropped++
			continue
		}
		p, err := sellable(tx, storeID, it.ProductID, it.VariantID, "")
		if ErrorCode(err) == EValidation {
			q.Dropped++
			continue
		}
		if err != nil {
			return nil, err
		}
		price, err := UnitPriceAt(tx, p, it.VariantID)
		if err != nil {
			return nil, err
		}
		lines = append(lines, PricedLine{Product: p, VariantID: it.VariantID, Quantity: it.Quantity, UnitPrice: price})
		q.Items = append(q.Items, QuoteLine{Stock: stockOf(p, it.VariantID)})
		q.ItemCount += it.Quantity
	}
	return lines, nil
}

// MergeLines adds a guest's cart lines to a shopper's cart (at sign-in):
// the quantity of a line already there grows, new lines are appended. Each
// line is capped at the stock left and at MaxLineQuantity, the cart at
// MaxCartLines; lines no longer sellable or out of stock are skipped. It
// returns how many lines it added or grew.
func (cs *CartService) MergeLines(sh Shopper, lines []CheckoutItem) (int, error) {
	n := 0
	err := cs.db.Update(func(tx cartData) error {
		n = 0
		items, err := tx.CartItems(sh.StoreID, sh.CustomerID)
		if err != nil {
			return err
		}
		now := UTC(tx.Now())
		for _, in := range lines {
			p, err := sellable(tx, sh.StoreID, in.ProductID, in.VariantID, "")
			if ErrorCode(err) == EValidation || in.Quantity < 1 {
				continue
			}
			if err != nil {
				return err
			}
			line := mergeTarget(items, in)
			if line == nil {
				if len(items) >= MaxCartLines {
					continue
				}
				line = &CartItem{StoreID: sh.StoreID, CustomerID: sh.CustomerID, ProductID: in.ProductID,
					VariantID: in.VariantID, AddedVia: "guest_cart", CreatedAt: now}
			}
			qty := min(line.Quantity+in.Quantity, stockOf(p, in.VariantID), MaxLineQuantity)
			if qty <= line.Quantity || qty < 1 {
				continue
			}
			if line.ID == 0 {
				items = append(items, line)
			}
			line.Quantity, line.UpdatedAt = qty, now
			if err := tx.PutCartItem(line); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// mergeTarget is the line of items with in's product and variant, or nil.
func mergeTarget(items []*CartItem, in CheckoutItem) *CartItem {
	for _, it := range items {
		if it.ProductID == in.ProductID && it.VariantID == in.VariantID {
			return it
		}
	}
	return nil
}

// RetryURL is where a shopper pays again for an order whose payment failed
// or was abandoned: the gateway page of its session, while the order is
// still PENDING and unpaid. Errors: not_found (unknown session, another
// store's), invalid_order_state (paid, or no longer pending).
func (ps *PaymentService) RetryURL(storeID uint64, sessionID string) (string, error) {
	sess, err := ps.session(storeID, sessionID)
	if err != nil {
		return "", err
	}
	o, err := view(ps.s.DB, func(tx Tx) (*Order, error) { return tx.Order(sess.StoreID, sess.OrderID) })
	if err != nil {
		return "", err
	}
	if sess.Status == SessionPaid || o.Status != OrderPending || sess.RedirectURL == "" {
		return "", Errorf(EInvalidOrderState, "this order can no longer be paid (%s)", strings.ToLower(o.Status))
	}
	return sess.RedirectURL, nil
}

// Sellable checks that a product (and variant) can go into a cart, as Add
// checks it, for carts kept outside storage (the shop's cookie cart).
// Errors: validation_failed naming product_id or variant_id.
func (cs *CartService) Sellable(storeID, productID, variantID uint64) error {
	return cs.db.View(func(tx cartData) error {
		_, err := sellable(tx, storeID, productID, variantID, "")
		return err
	})
}
