package app

import (
	"strings"
	"time"
)

// Cart limits.
const (
	MaxCartLines    = 100
	MaxLineQuantity = 1000
)

// CartItem is one line of a shopper's cart. Prices are not kept: the cart
// always shows the catalog's current price.
type CartItem struct {
	ID         uint64    `json:"id"`
	StoreID    uint64    `json:"store_id"`
	CustomerID uint64    `json:"customer_id"`
	ProductID  uint64    `json:"product_id"`
	VariantID  uint64    `json:"variant_id"`
	Quantity   int64     `json:"quantity"`
	AddedVia   string    `json:"added_via"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// CartItemView is a cart line on the wire (decisions.md §4).
type CartItemView struct {
	ID        uint64  `json:"id"`
	ProductID uint64  `json:"product_id"`
	VariantID *uint64 `json:"variant_id"`
	Name      string  `json:"name"`
	Image     string  `json:"image"`
	UnitPrice Money   `json:"unit_price"`
	Quantity  int64   `json:"quantity"`
	LineTotal Money   `json:"line_total"`
	AddedVia  string  `json:"added_via"`
}

// CartView is the whole cart on the wire.
type CartView struct {
	Items     []CartItemView `json:"items"`
	ItemCount int64          `json:"item_count"`
	Subtotal  Money          `json:"subtotal"`
	Currency  string         `json:"currency"`
}

// view shows a cart line of product p at unit price (from UnitPriceAt).
func (it *CartItem) view(p *Product, price Money) CartItemView {
	v := CartItemView{ID: it.ID, ProductID: it.ProductID, Name: p.Name, UnitPrice: price,
		Quantity: it.Quantity, AddedVia: it.AddedVia}
	if len(p.Images) > 0 {
		v.Image = p.Images[0]
	}
	if it.VariantID != 0 {
		id := it.VariantID
		v.VariantID = &id
		if vr := p.Variant(it.VariantID); vr != nil {
			v.Name = p.Name + " - " + vr.Name
		}
	}
	v.LineTotal = v.UnitPrice * Money(v.Quantity)
	return v
}

// CartTx is the storage of cart lines and guest carts. Lines are keyed by
// store, owner and id, so another shopper's line id is simply not found. The
// owner is a customer id, or a guest cart's GuestCart.Owner.
type CartTx interface {
	// CartItems lists an owner's lines, oldest first.
	CartItems(storeID, customerID uint64) ([]*CartItem, error)
	// CartItem returns one line of the owner (not_found otherwise).
	CartItem(storeID, customerID, id uint64) (*CartItem, error)
	// PutCartItem creates (ID 0, a new per-store id) or updates a line.
	PutCartItem(it *CartItem) error
	// DeleteCartItem removes a line (not_found when absent).
	DeleteCartItem(storeID, customerID, id uint64) error
	GuestCartTx
}

// CartService is the shopper's cart and the guest cart.
type CartService struct {
	db    Scope[cartData]
	opt   Options
	limit Limiter
}

func newCartService(db DB, opt Options, limits Limiter) *CartService {
	return &CartService{db: scopeOf(db, func(tx Tx) cartData { return tx }), opt: opt, limit: limits}
}

// CartInput adds a line (endpoint 7).
type CartInput struct {
	ProductID uint64 `json:"product_id"`
	VariantID uint64 `json:"variant_id"`
	Quantity  *int64 `json:"quantity"`
	AddedVia  string `json:"added_via"`
}

// sellable checks that the product and variant exist, are active and belong
// together. Errors are validation_failed naming field+"product_id" or
// field+"variant_id".
func sellable(tx CatalogTx, storeID, productID, variantID uint64, field string) (*Product, error) {
	p, err := loadSellable(tx, storeID, productID, field)
	if err != nil {
		return nil, err
	}
	return p, checkVariant(p, variantID, field)
}

// loadSellable reads an active product; anything else is a validation error.
func loadSellable(tx CatalogTx, storeID, productID uint64, field string) (*Product, error) {
	if productID == 0 {
		return nil, Invalid(field+"product_id", "is required")
	}
	p, err := tx.Product(storeID, productID)
	if IsNotFound(err) || (err == nil && !p.IsActive) {
		return nil, Invalid(field+"product_id", "unknown product")
	}
	return p, err
}

// checkVariant checks that variantID names a variant of p, and that a
// product with variants is bought by variant.
func checkVariant(p *Product, variantID uint64, field string) error {
	if variantID != 0 && p.Variant(variantID) == nil {
		return Invalid(field+"variant_id", "is not a variant of this product")
	}
	if variantID == 0 && len(p.Variants) > 0 {
		return Invalid(field+"variant_id", "is required: this product has variants")
	}
	return nil
}

func checkQuantity(field string, q int64) error {
	if q < 1 || q > MaxLineQuantity {
		return Invalid(field, "must be between 1 and 1000")
	}
	return nil
}

// Add puts a product (or variant) into the owner's cart; the same
// product/variant again increments the quantity of its line.
// Errors: validation_failed, not_found (an unknown or expired guest cart).
func (cs *CartService) Add(o CartOwner, in CartInput) (CartItemView, error) {
	var out CartItemView
	qty := int64(1)
	if in.Quantity != nil {
		qty = *in.Quantity
	}
	in.AddedVia = strings.TrimSpace(in.AddedVia)
	var v Validation
	v.Text("added_via", in.AddedVia, false, 50)
	if err := v.Err(); err != nil {
		return out, err
	}
	if err := checkQuantity("quantity", qty); err != nil {
		return out, err
	}
	err := cs.db.Update(func(tx cartData) error {
		owner, err := cs.owner(tx, o)
		if err != nil {
			return err
		}
		p, err := sellable(tx, o.StoreID, in.ProductID, in.VariantID, "")
		if err != nil {
			return err
		}
		items, err := tx.CartItems(o.StoreID, owner)
		if err != nil {
			return err
		}
		now := UTC(tx.Now())
		var line *CartItem
		for _, it := range items {
			if it.ProductID == in.ProductID && it.VariantID == in.VariantID {
				line = it
			}
		}
		if line == nil {
			if len(items) >= MaxCartLines {
				return Invalid("product_id", "the cart holds at most 100 lines")
			}
			line = &CartItem{StoreID: o.StoreID, CustomerID: owner, ProductID: in.ProductID,
				VariantID: in.VariantID, AddedVia: in.AddedVia, CreatedAt: now}
		}
		if line.Quantity+qty > MaxLineQuantity {
			return Invalid("quantity", "a line holds at most 1000 units")
		}
		line.Quantity += qty
		line.UpdatedAt = now
		if err := tx.PutCartItem(line); err != nil {
			return err
		}
		price, err := UnitPriceAt(tx, p, line.VariantID)
		out = line.view(p, price)
		return err
	})
	return out, err
}

// Cart returns the owner's cart at current prices. Lines whose product was
// deleted or deactivated since are left out of the view and the subtotal.
// Errors: not_found (an unknown or expired guest cart).
func (cs *CartService) Cart(o CartOwner) (CartView, error) {
	var out CartView
	touch := false
	err := cs.db.View(func(tx cartData) error {
		owner, g, err := resolve(tx, o)
		if err != nil {
			return err
		}
		touch = touchDue(tx, g)
		out, err = cartView(tx, o.StoreID, owner)
		return err
	})
	if err == nil && touch {
		err = cs.db.Update(func(tx cartData) error { _, err := cs.owner(tx, o); return err })
	}
	return out, err
}

// cartView reads the lines of owner at current prices (Cart).
func cartView(tx cartData, storeID, owner uint64) (CartView, error) {
	out := CartView{Items: []CartItemView{}}
	st, err := tx.Store(storeID)
	if err != nil {
		return out, err
	}
	out.Currency = st.Currency
	items, err := tx.CartItems(storeID, owner)
	if err != nil {
		return out, err
	}
	for _, it := range items {
		p, err := tx.Product(storeID, it.ProductID)
		if IsNotFound(err) {
			continue
		}
		if err != nil {
			return out, err
		}
		if !p.IsActive || checkVariant(p, it.VariantID, "") != nil {
			continue // no longer sellable as it is: checkout would refuse it
		}
		price, err := UnitPriceAt(tx, p, it.VariantID)
		if err != nil {
			return out, err
		}
		v := it.view(p, price)
		out.Items = append(out.Items, v)
		out.ItemCount += v.Quantity
		out.Subtotal += v.LineTotal
	}
	return out, nil
}

// SetQuantity changes the quantity of one line (PATCH).
// Errors: validation_failed, not_found (the line, or an unknown or expired
// guest cart).
func (cs *CartService) SetQuantity(o CartOwner, id uint64, qty int64) (CartItemView, error) {
	var out CartItemView
	if err := checkQuantity("quantity", qty); err != nil {
		return out, err
	}
	err := cs.db.Update(func(tx cartData) error {
		owner, err := cs.owner(tx, o)
		if err != nil {
			return err
		}
		it, err := tx.CartItem(o.StoreID, owner, id)
		if err != nil {
			return err
		}
		p, err := tx.Product(o.StoreID, it.ProductID)
		if IsNotFound(err) {
			return NotFound("cart item")
		}
		if err != nil {
			return err
		}
		it.Quantity = qty
		it.UpdatedAt = UTC(tx.Now())
		if err := tx.PutCartItem(it); err != nil {
			return err
		}
		price, err := UnitPriceAt(tx, p, it.VariantID)
		out = it.view(p, price)
		return err
	})
	return out, err
}

// Remove deletes one line. Errors: not_found (the line, or an unknown or
// expired guest cart).
func (cs *CartService) Remove(o CartOwner, id uint64) error {
	return cs.db.Update(func(tx cartData) error {
		owner, err := cs.owner(tx, o)
		if err != nil {
			return err
		}
		return tx.DeleteCartItem(o.StoreID, owner, id)
	})
}

// removeOrdered drops the cart lines of the products and variants an order
// bought from the shopper's cart and from the guest cart it was placed from
// (called in the transaction that marks it paid).
func removeOrdered(tx CartTx, o *Order) error {
	for _, owner := range []uint64{o.CustomerID, guestOwner(o.GuestCartID)} {
		if owner == 0 {
			continue
		}
		items, err := tx.CartItems(o.StoreID, owner)
		if err != nil {
			return err
		}
		for _, it := range items {
			for _, ol := range o.Items {
				if ol.ProductID == it.ProductID && ol.VariantID == it.VariantID {
					if err := tx.DeleteCartItem(o.StoreID, owner, it.ID); err != nil {
						return err
					}
					break
				}
			}
		}
	}
	return nil
}
