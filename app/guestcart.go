package app

import (
	"crypto/sha256"
	"strconv"
	"time"
)

// Guest carts: a cart on the server without a shopper, reached with an
// opaque token the client keeps (X-Cart-Token). Its lines are the shopper
// cart's lines, stored under an owner id of their own (GuestCart.Owner), so
// every rule of the shopper's cart holds for them unchanged.
const (
	// GuestCartIdle is how long a guest cart lives unused; the sweep
	// deletes it then, and it is not_found from then on.
	GuestCartIdle = 30 * 24 * time.Hour
	// guestTouchEvery: a cart's last use is written at most this often, so
	// that reading a cart stays a read.
	guestTouchEvery = time.Hour
	// guestOwnerBit marks the owner id of a guest cart's lines: customer
	// ids are per-store counters and never reach it.
	guestOwnerBit = 1 << 63
	// maxCartToken bounds a token before it is hashed (ours are 67 bytes).
	maxCartToken = 128
	// GuestCartsWindow is the period ratelimit.guest_carts_per_hour counts over.
	GuestCartsWindow = time.Hour
	// sweepBatch is how many guest carts one sweep transaction deletes.
	sweepBatch = 200
)

// GuestCart is a guest cart's record. Only a hash of its token is stored
// (Key: SHA-256, as API keys and refresh sessions are): the token is shown
// once, when the cart is made.
type GuestCart struct {
	StoreID   uint64    `json:"store_id"`
	ID        uint64    `json:"id"`
	Key       []byte    `json:"key"`
	CreatedAt time.Time `json:"created_at"`
	UsedAt    time.Time `json:"used_at"`
}

// Owner is the owner id the cart's lines are stored under (CartItem.CustomerID).
func (g *GuestCart) Owner() uint64 { return guestOwner(g.ID) }

func guestOwner(id uint64) uint64 {
	if id == 0 {
		return 0
	}
	return guestOwnerBit | id
}

// GuestCartTx is the storage of guest cart records (their lines are cart
// lines, CartTx). Records are keyed by store and token hash, so another
// store's token is simply not found.
type GuestCartTx interface {
	// GuestCart returns the cart of (store, token hash), or not_found.
	GuestCart(storeID uint64, key []byte) (*GuestCart, error)
	// PutGuestCart creates (ID 0: a new per-store id) or updates a cart.
	PutGuestCart(g *GuestCart) error
	// DeleteGuestCart removes the record (not_found when absent), not its lines.
	DeleteGuestCart(storeID uint64, key []byte) error
	// GuestCartsUsedBefore lists up to limit of a store's carts last used
	// before t, oldest use first.
	GuestCartsUsedBefore(storeID uint64, t time.Time, limit int) ([]*GuestCart, error)
}

// HashCartToken is how a guest cart token is stored and looked up.
func HashCartToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// CartOwner names whose cart a CartService call works on: a shopper's
// (CustomerID) or a guest cart's (GuestToken, the token as the client holds
// it). Build one with ShopperCart or GuestCartOwner.
type CartOwner struct {
	StoreID    uint64
	CustomerID uint64
	GuestToken string
}

// ShopperCart is the cart of a signed-in shopper.
func ShopperCart(sh Shopper) CartOwner {
	return CartOwner{StoreID: sh.StoreID, CustomerID: sh.CustomerID}
}

// GuestCartOwner is the guest cart of token in store storeID.
func GuestCartOwner(storeID uint64, token string) CartOwner {
	return CartOwner{StoreID: storeID, GuestToken: token}
}

// NewGuestCartView is a new guest cart: its token (shown only now) and the
// cart, as Cart shows it.
type NewGuestCartView struct {
	CartToken string `json:"cart_token"`
	CartView
}

// guestCart reads the live guest cart of token: not_found when unknown, of
// another store, or idle for GuestCartIdle (before the sweep deletes it).
func guestCart(tx cartData, storeID uint64, token string) (*GuestCart, error) {
	if token == "" || len(token) > maxCartToken {
		return nil, NotFound("cart")
	}
	g, err := tx.GuestCart(storeID, HashCartToken(token))
	if IsNotFound(err) || (err == nil && !tx.Now().Before(g.UsedAt.Add(GuestCartIdle))) {
		return nil, NotFound("cart")
	}
	return g, err
}

// touchDue reports whether the guest cart's last use should be written now.
func touchDue(tx cartData, g *GuestCart) bool {
	return g != nil && tx.Now().Sub(g.UsedAt) >= guestTouchEvery
}

// resolve returns the owner id of o's lines and, for a guest cart, its record.
func resolve(tx cartData, o CartOwner) (uint64, *GuestCart, error) {
	if o.CustomerID != 0 {
		return o.CustomerID, nil, nil
	}
	g, err := guestCart(tx, o.StoreID, o.GuestToken)
	if err != nil {
		return 0, nil, err
	}
	return g.Owner(), g, nil
}

// owner is resolve for a write: a guest cart's use is recorded (touchDue).
func (cs *CartService) owner(tx cartData, o CartOwner) (uint64, error) {
	owner, g, err := resolve(tx, o)
	if err != nil || !touchDue(tx, g) {
		return owner, err
	}
	g.UsedAt = UTC(tx.Now())
	return owner, tx.PutGuestCart(g)
}

// guestLimits are the budgets one new guest cart takes: per store and
// client address (Options.GuestCartsPerHour; none when ip is "").
func (cs *CartService) guestLimits(storeID uint64, ip string) []Limit {
	if ip == "" || cs.opt.GuestCartsPerHour <= 0 {
		return nil
	}
	return []Limit{{Key: "guest-carts-ip|" + strconv.FormatUint(storeID, 10) + "|" + ip,
		Max: cs.opt.GuestCartsPerHour, Window: GuestCartsWindow}}
}

// NewGuestCart makes an empty guest cart in store storeID for a client at
// address ip ("" from inside the process: no limit) and returns its token.
// Errors: rate_limited (ratelimit.guest_carts_per_hour), not_found (store).
func (cs *CartService) NewGuestCart(storeID uint64, ip string) (NewGuestCartView, error) {
	var out NewGuestCartView
	lims := cs.guestLimits(storeID, ip)
	if err := TakeAll(cs.limit, "too many carts made from this address; retry later", lims...); err != nil {
		return out, err
	}
	token := "gc_" + RandomHex(32)
	err := cs.db.Update(func(tx cartData) error {
		now := UTC(tx.Now())
		g := &GuestCart{StoreID: storeID, Key: HashCartToken(token), CreatedAt: now, UsedAt: now}
		if err := tx.PutGuestCart(g); err != nil {
			return err
		}
		v, err := cartView(tx, storeID, g.Owner())
		out = NewGuestCartView{CartToken: token, CartView: v}
		return err
	})
	if err != nil {
		RefundAll(cs.limit, lims...)
		return NewGuestCartView{}, err
	}
	return out, nil
}

// Merge moves the guest cart of token into the shopper's cart and deletes
// it (at login and register): a line of a product/variant the shopper has
// adds its quantity to theirs, up to the stock and the line limit; other
// lines are added while the cart has room (MaxCartLines). Lines no longer
// sellable are dropped. An empty, unknown or expired token merges nothing:
// it does not fail the login it comes with.
func (cs *CartService) Merge(sh Shopper, token string) error {
	if token == "" {
		return nil
	}
	return cs.db.Update(func(tx cartData) error {
		g, err := guestCart(tx, sh.StoreID, token)
		if IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		guest, err := tx.CartItems(sh.StoreID, g.Owner())
		if err != nil {
			return err
		}
		mine, err := tx.CartItems(sh.StoreID, sh.CustomerID)
		if err != nil {
			return err
		}
		now := UTC(tx.Now())
		for _, gi := range guest {
			if mine, err = mergeLine(tx, sh, mine, gi, now); err != nil {
				return err
			}
		}
		return deleteGuestCart(tx, g, guest)
	})
}

// mergeLine adds guest line gi to the shopper's lines mine (Merge).
func mergeLine(tx cartData, sh Shopper, mine []*CartItem, gi *CartItem, now time.Time) ([]*CartItem, error) {
	p, err := tx.Product(sh.StoreID, gi.ProductID)
	if IsNotFound(err) || (err == nil && (!p.IsActive || checkVariant(p, gi.VariantID, "") != nil)) {
		return mine, nil
	}
	if err != nil {
		return mine, err
	}
	limit := min(stockOf(p, gi.VariantID), MaxLineQuantity)
	var line *CartItem
	for _, it := range mine {
		if it.ProductID == gi.ProductID && it.VariantID == gi.VariantID {
			line = it
		}
	}
	switch {
	case line == nil && (len(mine) >= MaxCartLines || min(gi.Quantity, limit) < 1):
		return mine, nil
	case line == nil:
		line = &CartItem{StoreID: sh.StoreID, CustomerID: sh.CustomerID, ProductID: gi.ProductID,
			VariantID: gi.VariantID, AddedVia: gi.AddedVia, CreatedAt: now}
		mine = append(mine, line)
		line.Quantity = min(gi.Quantity, limit)
	case line.Quantity >= limit:
		return mine, nil // already at (or past) the stock: left as it is
	default:
		line.Quantity = min(line.Quantity+gi.Quantity, limit)
	}
	line.UpdatedAt = now
	return mine, tx.PutCartItem(line)
}

// stockOf is the stock of product p or of its variant.
func stockOf(p *Product, variantID uint64) int64 {
	if v := p.Variant(variantID); variantID != 0 && v != nil {
		return v.Stock
	}
	return p.Stock
}

// deleteGuestCart removes a guest cart and its lines.
func deleteGuestCart(tx cartData, g *GuestCart, lines []*CartItem) error {
	for _, it := range lines {
		if err := tx.DeleteCartItem(g.StoreID, g.Owner(), it.ID); err != nil {
			return err
		}
	}
	return tx.DeleteGuestCart(g.StoreID, g.Key)
}

// SweepGuests deletes the guest carts unused for GuestCartIdle, with their
// lines, in every store; a cron job calls it. It returns how many.
func (cs *CartService) SweepGuests() (int, error) {
	var stores []*Store
	if err := cs.db.View(func(tx cartData) (err error) { stores, err = tx.Stores(); return err }); err != nil {
		return 0, err
	}
	total := 0
	for _, st := range stores {
		for {
			n, err := cs.sweepStore(st.ID)
			total += n
			if err != nil {
				return total, err
			}
			if n < sweepBatch {
				break
			}
		}
	}
	return total, nil
}

// sweepStore deletes up to sweepBatch idle guest carts of one store. They
// are found in a read transaction (on bbolt that reads every cart of the
// store, which in the write transaction held up every write of the server)
// and deleted in a write one, each read again there: a cart used since stays.
func (cs *CartService) sweepStore(storeID uint64) (int, error) {
	var before time.Time
	var idle []*GuestCart
	err := cs.db.View(func(tx cartData) (err error) {
		// Used at or before now-GuestCartIdle: what guestCart finds expired
		// (uses are whole seconds, UTC; PostgreSQL keeps microseconds).
		before = UTC(tx.Now()).Add(-GuestCartIdle + time.Second)
		idle, err = tx.GuestCartsUsedBefore(storeID, before, sweepBatch)
		return err
	})
	if err != nil || len(idle) == 0 {
		return 0, err
	}
	n := 0
	err = cs.db.Update(func(tx cartData) error {
		n = 0 // Batch may run this twice
		for _, old := range idle {
			g, err := tx.GuestCart(storeID, old.Key)
			if IsNotFound(err) || (err == nil && !g.UsedAt.Before(before)) {
				continue // gone, or used since it was found
			}
			if err != nil {
				return err
			}
			lines, err := tx.CartItems(storeID, g.Owner())
			if err != nil {
				return err
			}
			if err := deleteGuestCart(tx, g, lines); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// guestCheckoutItems are the lines of the guest cart of token as checkout
// items (checkoutItems) and the cart's id, for payment initiation with
// cart_token.
// Errors: not_found (an unknown or expired cart), validation_failed (empty).
func guestCheckoutItems(tx cartData, storeID uint64, token string) ([]CheckoutItem, uint64, error) {
	g, err := guestCart(tx, storeID, token)
	if err != nil {
		return nil, 0, err
	}
	items, err := checkoutItems(tx, storeID, g.Owner(), "cart_token")
	return items, g.ID, err
}

// checkoutItems are the lines of owner's cart as checkout items (the lines
// Cart shows, no prices: the server prices them). field names the request
// field that chose the cart, for the error of an empty one.
func checkoutItems(tx cartData, storeID, owner uint64, field string) ([]CheckoutItem, error) {
	v, err := cartView(tx, storeID, owner)
	if err != nil {
		return nil, err
	}
	if len(v.Items) == 0 {
		return nil, Invalid(field, "the cart is empty")
	}
	items := make([]CheckoutItem, len(v.Items))
	for i, it := range v.Items {
		items[i] = CheckoutItem{ProductID: it.ProductID, Quantity: it.Quantity}
		if it.VariantID != nil {
			items[i].VariantID = *it.VariantID
		}
	}
	return items, nil
}
