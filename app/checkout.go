package app

import (
	"cmp"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Checkout limits.
const (
	MaxOrderLines     = 100
	MaxIdempotencyKey = 200
)

// IdempotencyRecord remembers the order a checkout request with an
// Idempotency-Key made, with a hash of its body.
type IdempotencyRecord struct {
	StoreID     uint64    `json:"store_id"`
	CustomerID  uint64    `json:"customer_id"`
	Key         string    `json:"key"`
	BodyHash    string    `json:"body_hash"` // SHA-256 of the request in lowercase hex (bbolt keeps the 32 bytes)
	OrderID     uint64    `json:"order_id"`
	SessionID   string    `json:"session_id"`
	RedirectURL string    `json:"redirect_url"`
	CreatedAt   time.Time `json:"created_at"`
}

// PaymentTx is the storage of payment sessions and checkout idempotency keys.
// Sessions are keyed by store and a per-store sequence number (Seq), so they
// are appended like orders; the wire id carries both (see SessionID).
type PaymentTx interface {
	// PutPaymentSession creates or updates a session at (StoreID, Seq).
	PutPaymentSession(ps *PaymentSession) error
	// PaymentSession returns not_found for an unknown (store, seq).
	PaymentSession(storeID, seq uint64) (*PaymentSession, error)
	// IdempotencyRecord returns the record of (store, customer, key), or not_found.
	IdempotencyRecord(storeID, customerID uint64, key string) (*IdempotencyRecord, error)
	PutIdempotencyRecord(r *IdempotencyRecord) error
	// IdempotencyRecordsBefore returns up to limit of a store's records made
	// before t, in no particular order (sweepIdempotency).
	IdempotencyRecordsBefore(storeID uint64, t time.Time, limit int) ([]*IdempotencyRecord, error)
	// DeleteIdempotencyRecords deletes the records of recs (by customer and
	// key) still made before t, and returns how many.
	DeleteIdempotencyRecords(storeID uint64, recs []*IdempotencyRecord, t time.Time) (int, error)
	SharedStoreTx
	// PutProductStock writes a product whose stock alone changed since it was
	// read in this transaction (its doc and index entry values follow; slug and
	// index keys are left as they are).
	PutProductStock(p *Product) error
}

// CheckoutItem is one line of a checkout request. UnitPrice, when sent, must
// equal the catalog's price.
type CheckoutItem struct {
	ProductID uint64 `json:"product_id"`
	VariantID uint64 `json:"variant_id"`
	Quantity  int64  `json:"quantity"`
	UnitPrice *Money `json:"unit_price"`
}

// CheckoutInput is the body of payment initiation (endpoint 8). DeliveryFee
// and Currency, when sent, must equal the server's; an omitted delivery_fee
// means the store's first delivery option.
type CheckoutInput struct {
	ReceiverName string `json:"receiver_name"`
	Phone        string `json:"phone"`
	Address      string `json:"address"`
	Email        string `json:"email"`
	DeliveryFee  *Money `json:"delivery_fee"`
	// DeliveryOption names the delivery option (its id): its rule sets the
	// fee, and an option that needs no address (a pickup) takes none.
	DeliveryOption string         `json:"delivery_option"`
	Currency       string         `json:"currency"`
	CouponCode     string         `json:"coupon_code"`
	Items          []CheckoutItem `json:"items"`
	PaymentMethod  string         `json:"payment_method"`
	CallbackURL    string         `json:"callback_url"`
	// CartToken, instead of Items, checks out a guest cart: its lines at
	// the server's prices; the cart empties when the order is paid.
	CartToken string `json:"cart_token,omitempty"`
	// FromCart, instead of Items, checks out the signed-in shopper's cart
	// in the same way.
	FromCart bool `json:"from_cart,omitempty"`
	// panelReturn: the server itself chose CallbackURL (the panel's test
	// order returns to the panel), so no list need allow it.
	panelReturn bool
	// Country and Region are where the order goes (ISO 3166-1 alpha-2, and
	// the part of ISO 3166-2 after it), for its tax and the delivery
	// options offered there (optional; default: the store's store.country
	// and store.region).
	Country string `json:"country"`
	Region  string `json:"region"`
	// redirectOrigin, when set (the panel's test order), is the origin a
	// remote provider's page must be at: the browser can follow no other
	// (the panel's CSP), so another is refused before the order is written.
	redirectOrigin string
}

// CheckoutResult is the data of payment initiation.
type CheckoutResult struct {
	RedirectURL      string `json:"redirect_url"`
	OrderID          uint64 `json:"order_id"`
	PaymentSessionID string `json:"payment_session_id"`
}

// IdempotencyKeep is how long an idempotency key is remembered; the
// pending-order job deletes older records.
const IdempotencyKeep = 7 * 24 * time.Hour

// Idempotency is the idempotency key a checkout came with (the HTTP layer
// reads it from its header); the service compares the body by its hash.
type Idempotency struct {
	Key string
	// Name is what the caller calls the key in error messages and fields
	// (the HTTP layer: its header name); empty: "idempotency_key".
	Name string
}

func (i Idempotency) name() string {
	if i.Name == "" {
		return "idempotency_key"
	}
	return i.Name
}

// validate checks what a checkout says of itself; the address may be
// empty only when noAddress (the option named is a pickup).
func (in *CheckoutInput) validate(guest, noAddress bool) error {
	var v Validation
	in.ReceiverName = strings.TrimSpace(in.ReceiverName)
	in.Phone = strings.TrimSpace(in.Phone)
	in.Address = strings.TrimSpace(in.Address)
	in.Email = strings.TrimSpace(in.Email)
	in.CouponCode = NormalizeCouponCode(in.CouponCode)
	in.Currency = strings.ToUpper(strings.TrimSpace(in.Currency))
	in.Country, in.Region = NormalizeCountry(in.Country), NormalizeCountry(in.Region)
	v.Text("receiver_name", in.ReceiverName, true, 200)
	v.Text("phone", in.Phone, true, 40)
	v.Text("address", in.Address, !noAddress, 500)
	if guest || in.Email != "" {
		v.Email("email", in.Email)
	}
	v.MaxLen("coupon_code", in.CouponCode, 50)
	v.OneOf("payment_method", in.PaymentMethod, WalletA, WalletB)
	v.Check(ValidHTTPURL(in.CallbackURL), "callback_url", "must be an absolute http(s) URL")
	checkDestination(&v, in.Country, in.Region)
	switch {
	case len(in.Items) == 0:
		v.Add("items", "must have at least one line")
	case len(in.Items) > MaxOrderLines:
		v.Add("items", "must have at most 100 lines")
	}
	for i, it := range in.Items {
		f := "items[" + itoa(i) + "]."
		v.Check(it.ProductID != 0, f+"product_id", "is required")
		v.Check(it.Quantity >= 1 && it.Quantity <= MaxLineQuantity, f+"quantity", "must be between 1 and 1000")
	}
	return v.Err()
}

// OrderService places orders (payment initiation), lists them for shoppers
// and the store, moves them for the store, and expires unpaid ones.
type OrderService struct {
	s        orderDeps
	settings sync.Map // store id -> storeSettings
	shop     atomic.Pointer[ShopHost]
	linkKey  atomic.Pointer[[]byte] // the "order_links" secret once read (order_link.go)
}

type storeSettings struct {
	st  *Store
	set Settings
}

// settingsOf decodes a shared store's settings once per store version. It
// leans on SharedStore's contract: an unchanged store comes back as the same
// pointer (bbolt memoizes the decoded record by its bytes), a changed one as
// a new pointer. A backend returning a new pointer every time only makes this
// decode every time (slower, still right); one reusing a pointer for a
// changed store would serve stale settings (TestSettingsOfFollowsStore).
func (os *OrderService) settingsOf(st *Store) Settings {
	if v, ok := os.settings.Load(st.ID); ok && v.(storeSettings).st == st {
		return v.(storeSettings).set
	}
	set := st.Settings()
	os.settings.Store(st.ID, storeSettings{st: st, set: set})
	return set
}

func newOrderService(d orderDeps) *OrderService {
	return &OrderService{s: d}
}

// Initiate places an order and opens its payment session (endpoint 8), in one
// transaction: every line is checked and priced from the catalog, the coupon
// and the delivery fee are applied, stock is reserved, and the order
// (PENDING, UNPAID) and its session are written. customerID 0 is a guest.
// With an Idempotency-Key, the same key and body return the first order.
// Errors: validation_failed, email_not_verified, price_changed, out_of_stock,
// conflict (key reused with another body).
func (os *OrderService) Initiate(storeID, customerID uint64, in CheckoutInput, idem Idempotency) (CheckoutResult, error) {
	return os.InitiateFrom(storeID, customerID, "", in, idem)
}

// OrdersWindow is the period ratelimit.unpaid_orders_per_hour counts over.
const OrdersWindow = time.Hour

// orderLimits are the budgets one new order takes (Options.UnpaidOrdersPerHour):
// per guest email or shopper, and per client address when ip is known.
func (os *OrderService) orderLimits(storeID, customerID uint64, ip, email string) []Limit {
	n := os.s.Opt.UnpaidOrdersPerHour
	if n <= 0 {
		return nil
	}
	sid := strconv.FormatUint(storeID, 10)
	who := "email:" + NormalizeEmail(email)
	if customerID != 0 {
		who = "customer:" + strconv.FormatUint(customerID, 10)
	}
	lims := []Limit{{Key: "orders|" + sid + "|" + who, Max: n, Window: OrdersWindow}}
	if ip != "" {
		lims = append(lims, Limit{Key: "orders-ip|" + sid + "|" + AddrKey(ip), Max: n, Window: OrdersWindow})
	}
	return lims
}

// InitiateFrom is Initiate for a client at address ip ("" for calls from
// inside the process): a new order first takes its slots of
// ratelimit.unpaid_orders_per_hour (429 rate_limited past it, before any
// work); a refused checkout or an idempotent replay gives them back.
func (os *OrderService) InitiateFrom(storeID, customerID uint64, ip string, in CheckoutInput, idem Idempotency) (CheckoutResult, error) {
	res, err := os.initiateFrom(storeID, customerID, ip, in, idem)
	// a store that accepts no payment method refuses every checkout, whatever
	// else is wrong with it; looked at on refusals only (a checkout that
	// goes through had a method)
	if err != nil && ErrorCode(err) != EInternal && ErrorCode(err) != ERateLimited && !os.s.Payments.Accepts(storeID) {
		return res, &Error{Code: ENoPaymentMethod, Message: "this store cannot take payments yet: it accepts no payment method"}
	}
	return res, err
}

func (os *OrderService) initiateFrom(storeID, customerID uint64, ip string, in CheckoutInput, idem Idempotency) (CheckoutResult, error) {
	var res CheckoutResult
	guestCartID, err := os.cartLines(storeID, customerID, &in)
	if err != nil {
		return res, err
	}
	if err := in.validate(customerID == 0, os.pickup(storeID, in.DeliveryOption)); err != nil {
		return res, err
	}
	if len(idem.Key) > MaxIdempotencyKey {
		return res, Invalid(idem.name(), "must be at most 200 characters")
	}
	gw, err := os.s.Payments.gatewayForStore(storeID, in.PaymentMethod)
	if err != nil {
		return res, err
	}
	lims := os.orderLimits(storeID, customerID, ip, in.Email)
	if err := TakeAll(os.s.Limits, "too many orders placed; pay for the open ones or retry later", lims...); err != nil {
		return res, err
	}
	counted := false
	defer func() {
		if !counted {
			RefundAll(os.s.Limits, lims...)
		}
	}()
	c, err := newCheckoutCall(storeID, customerID, in, gw, idem)
	if err != nil {
		return res, err
	}
	c.guestCartID = guestCartID
	// A remote provider's session is opened before anything is written: a
	// provider that is down leaves nothing behind, and a retry with the same
	// Idempotency-Key starts afresh.
	if gw.Remote() {
		pre, early, err := os.openRemote(c)
		if err != nil || pre == nil {
			return early, err
		}
		if o := in.redirectOrigin; o != "" && !strings.HasPrefix(pre.RedirectURL, o+"/") {
			return CheckoutResult{}, ProviderUnavailable("%s's payment page is not at %s, where the browser may go: no order placed", in.PaymentMethod, o)
		}
		c.pre = pre
	}
	res, fresh, err := os.commitCheckout(c)
	if err != nil {
		return CheckoutResult{}, err
	}
	counted = fresh
	if fresh { // a replay queued nothing
		os.s.Kick()
	}
	return res, nil
}

// pickup reports whether the store's delivery option id needs no address
// (price checks it again in the checkout's transaction). It decodes the
// settings of the cached store (not settingsOf's, which follows the
// transaction's store record): only checkouts naming an option pay for it.
func (os *OrderService) pickup(storeID uint64, id string) bool {
	if id == "" {
		return false
	}
	st, err := os.s.Stores.Cached(storeID)
	if err != nil {
		return false
	}
	for _, o := range st.Settings().DeliveryOptions {
		if o.ID == id {
			return !o.NeedsAddress
		}
	}
	return false
}

// cartLines fills in.Items from the cart the server holds: the guest cart
// of in.CartToken, or the shopper's with in.FromCart. It returns the guest
// cart's id (0 without one); paying empties the ordered lines either way.
// Errors: validation_failed (items too, both carts, from_cart without a
// shopper, an empty cart), not_found (the guest cart).
func (os *OrderService) cartLines(storeID, customerID uint64, in *CheckoutInput) (uint64, error) {
	if in.CartToken == "" && !in.FromCart {
		return 0, nil
	}
	switch {
	case in.CartToken != "" && in.FromCart:
		return 0, Invalid("from_cart", "send cart_token or from_cart, not both")
	case len(in.Items) > 0 && in.FromCart:
		return 0, Invalid("items", "send items or from_cart, not both")
	case len(in.Items) > 0:
		return 0, Invalid("items", "send items or cart_token, not both")
	case in.FromCart && customerID == 0:
		return 0, Invalid("from_cart", "needs a shopper's token; a guest sends cart_token")
	}
	var id uint64
	err := os.s.DB.View(func(tx Tx) (err error) {
		if in.FromCart {
			in.Items, err = checkoutItems(tx, storeID, customerID, "from_cart")
			return err
		}
		in.Items, id, err = guestCheckoutItems(tx, storeID, in.CartToken)
		return err
	})
	return id, err
}

// checkoutCall is one checkout request on its way through InitiateFrom.
type checkoutCall struct {
	storeID, customerID uint64
	in                  CheckoutInput
	gw                  Gateway
	idem                Idempotency
	scoped              string // the Idempotency-Key as stored ("" without one)
	bodyHash            string // the hash of the decoded request ("" without a key)
	secret              string // the random part of the payment session's id
	pre                 *remoteStart
	guestCartID         uint64 // the guest cart checked out (cart_token), or 0
}

// newCheckoutCall hashes the request for its Idempotency-Key. The request is
// compared by a hash of its decoded form, so a retry that re-serialized the
// same JSON (other key order, spacing) still matches. Guests share one
// namespace per store, so their keys are scoped by the hash too: one guest
// cannot claim (and block) another guest's key.
func newCheckoutCall(storeID, customerID uint64, in CheckoutInput, gw Gateway, idem Idempotency) (*checkoutCall, error) {
	c := &checkoutCall{storeID: storeID, customerID: customerID, in: in, gw: gw, idem: idem, scoped: idem.Key}
	if idem.Key != "" {
		canon, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		h := sha256.Sum256(canon)
		c.bodyHash = hex.EncodeToString(h[:])
		if customerID == 0 {
			c.scoped = idem.Key + "\x00" + c.bodyHash
		}
	}
	c.secret = RandomHex(12)
	return c, nil
}

// known returns the record of an earlier request with the call's
// Idempotency-Key, nil when there is no key or no such request.
func (c *checkoutCall) known(tx Tx) (*IdempotencyRecord, error) {
	if c.idem.Key == "" {
		return nil, nil
	}
	rec, err := tx.IdempotencyRecord(c.storeID, c.customerID, c.scoped)
	if IsNotFound(err) {
		return nil, nil
	}
	return rec, err
}

// replay is the answer to a retry of the request that made rec: its first
// answer, or conflict when the key came with another body.
func (c *checkoutCall) replay(rec *IdempotencyRecord) (CheckoutResult, error) {
	if subtle.ConstantTimeCompare([]byte(rec.BodyHash), []byte(c.bodyHash)) != 1 {
		name := c.idem.name()
		return CheckoutResult{}, &Error{Code: EConflict, Message: "this " + name + " was used with another request body",
			Fields: map[string]string{name: "was used with another request body"}}
	}
	return CheckoutResult{RedirectURL: rec.RedirectURL, OrderID: rec.OrderID, PaymentSessionID: rec.SessionID}, nil
}

// commitCheckout prices and writes the order in one group-committed
// transaction. fresh reports a new order (not an idempotent replay): it keeps
// its limit slots. A domain outcome commits nothing and is returned as err.
func (os *OrderService) commitCheckout(c *checkoutCall) (res CheckoutResult, fresh bool, err error) {
	var derr error
	err = os.s.DB.Batch(func(tx Tx) error {
		// Batch may run this twice: rebuild every result from what tx reads.
		res, derr, fresh = CheckoutResult{}, nil, false
		rec, err := c.known(tx)
		if err != nil {
			return err
		}
		if rec != nil {
			res, derr = c.replay(rec)
			return nil
		}
		o, products, coupon, err := os.price(tx, c.storeID, c.customerID, c.in, c.gw)
		if err != nil {
			if ErrorCode(err) != EInternal {
				derr = err
				return nil
			}
			return err
		}
		if c.pre != nil && (o.Total != c.pre.amount || o.Currency != c.pre.currency) {
			derr = Errorf(EPriceChanged, "prices changed while the payment was opened; review the order")
			return nil
		}
		if res, err = os.placeOrder(tx, c, o, products, coupon); err != nil {
			return err
		}
		fresh = true
		return nil
	})
	if err != nil {
		return CheckoutResult{}, false, err
	}
	if derr != nil {
		return CheckoutResult{}, false, derr
	}
	return res, fresh, nil
}

// placeOrder writes a priced order: every check has passed, from here on
// only writes (stock, coupon use, order, payment session, events, the
// idempotency record).
func (os *OrderService) placeOrder(tx Tx, c *checkoutCall, o *Order, products []*Product, coupon *Coupon) (CheckoutResult, error) {
	o.GuestCartID = c.guestCartID
	now := UTC(tx.Now())
	for _, p := range products {
		if err := tx.PutProductStock(p); err != nil {
			return CheckoutResult{}, err
		}
	}
	if coupon != nil {
		coupon.Uses++
		if err := tx.PutCoupon(coupon); err != nil {
			return CheckoutResult{}, err
		}
		o.CouponID = coupon.ID
	}
	sess, err := os.createOrderSession(tx, c, o, now)
	if err != nil {
		return CheckoutResult{}, err
	}
	res := CheckoutResult{RedirectURL: sess.RedirectURL, OrderID: o.ID, PaymentSessionID: sess.ID}
	if err := os.s.Happened(tx, Change{Type: EvOrderCreated, StoreID: c.storeID, Order: o}); err != nil {
		return CheckoutResult{}, err
	}
	for _, p := range products {
		if err := os.s.lowStockAfterTake(tx, p, o); err != nil {
			return CheckoutResult{}, err
		}
	}
	if c.idem.Key != "" {
		rec := &IdempotencyRecord{StoreID: c.storeID, CustomerID: c.customerID, Key: c.scoped, BodyHash: c.bodyHash,
			OrderID: o.ID, SessionID: sess.ID, RedirectURL: res.RedirectURL, CreatedAt: now}
		if err := tx.PutIdempotencyRecord(rec); err != nil {
			return CheckoutResult{}, err
		}
	}
	return res, nil
}

// createOrderSession writes the order and its payment session: the one a
// remote provider already opened (c.pre), or a new one the local gateway
// starts now.
func (os *OrderService) createOrderSession(tx Tx, c *checkoutCall, o *Order, now time.Time) (*PaymentSession, error) {
	var seq uint64
	var err error
	if c.pre != nil {
		seq = c.pre.seq
	} else if seq, err = tx.NextID(c.storeID, "payment_session"); err != nil {
		return nil, err
	}
	sessionID := SessionID(c.storeID, seq, c.secret)
	o.PaymentSessionID = sessionID
	o.CreatedAt, o.UpdatedAt = now, now
	if err := tx.CreateOrder(o); err != nil {
		return nil, err
	}
	sess := &PaymentSession{ID: sessionID, StoreID: c.storeID, Seq: seq, OrderID: o.ID, Method: o.PaymentMethod,
		Amount: o.Total, Currency: o.Currency, CallbackURL: o.CallbackURL, Status: SessionOpen,
		Attempts: []PaymentAttempt{}, CreatedAt: now, UpdatedAt: now, Provider: c.gw.Provider(), Test: o.Test}
	if c.pre != nil {
		sess.ProviderRef, sess.RedirectURL = c.pre.Ref, c.pre.RedirectURL
	} else {
		started, err := c.gw.Start(context.Background(), GatewayAccount{}, PaymentStart{Session: sess, OrderID: o.ID})
		if err != nil {
			return nil, err
		}
		sess.ProviderRef = started.Ref
		if started.RedirectURL != "" && started.RedirectURL != sess.RedirectURL {
			sess.RedirectURL = started.RedirectURL
		}
	}
	if err := tx.PutPaymentSession(sess); err != nil {
		return nil, err
	}
	return sess, nil
}

// remoteStart is a remote provider's session opened before the order is written.
type remoteStart struct {
	Started
	seq      uint64
	amount   Money
	currency string
}

// openRemote prices a checkout without writing (a domain error, or the
// answer of a known Idempotency-Key, returns before the provider is called),
// takes the session's number and opens the provider's session for it.
// It returns nil and the early answer when there is nothing to open.
// Errors: those of Initiate, payment_provider_unavailable.
func (os *OrderService) openRemote(c *checkoutCall) (*remoteStart, CheckoutResult, error) {
	st, err := os.s.Stores.Get(c.storeID)
	if err != nil {
		return nil, CheckoutResult{}, err
	}
	acct := os.s.Payments.Account(st, c.in.PaymentMethod)
	o, res, err := os.priceRemote(c)
	if err != nil || res.OrderID != 0 {
		return nil, res, err
	}
	if acct.SecretKey == "" {
		return nil, res, ProviderUnavailable("%s (%s) has no credentials for this store; set them in the admin", c.in.PaymentMethod, c.gw.Provider())
	}
	var seq uint64
	if err := os.s.DB.Update(func(tx Tx) error {
		var err error
		seq, err = tx.NextID(c.storeID, "payment_session")
		return err
	}); err != nil {
		return nil, res, err
	}
	id := SessionID(c.storeID, seq, c.secret)
	sess := &PaymentSession{ID: id, StoreID: c.storeID, Seq: seq, Method: c.in.PaymentMethod, Amount: o.Total,
		Currency: o.Currency, CallbackURL: c.in.CallbackURL, Status: SessionOpen, Provider: c.gw.Provider()}
	// The provider keeps the session open a little longer than our pending
	// TTL (at least the 30 minutes Stripe asks for); the expiry job or the
	// provider's expired event cancels the order, whichever comes first.
	ttl := min(max(os.s.Opt.PendingTTL+time.Minute, 31*time.Minute), 23*time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), providerTimeout)
	defer cancel()
	started, err := c.gw.Start(ctx, acct, PaymentStart{Session: sess, StoreName: st.Name, Email: o.Email,
		SuccessURL: returnURL(c.in.CallbackURL, id, OutcomeSuccess), CancelURL: returnURL(c.in.CallbackURL, id, "cancel"),
		ExpiresAt: time.Now().Add(ttl)})
	if err != nil {
		if ErrorCode(err) == EInternal {
			os.s.Log.Error("payment provider: opening a session", "store_id", c.storeID, "provider", c.gw.Provider(), "err", err)
			err = ProviderUnavailable("the payment provider could not be reached; try again")
		}
		return nil, res, err
	}
	return &remoteStart{Started: started, seq: seq, amount: o.Total, currency: o.Currency}, res, nil
}

// priceRemote prices a checkout in a read-only transaction: the order, or
// the answer of a known Idempotency-Key (res.OrderID set), or the domain
// error that refuses it.
func (os *OrderService) priceRemote(c *checkoutCall) (*Order, CheckoutResult, error) {
	var o *Order
	var res CheckoutResult
	var derr error
	err := os.s.DB.View(func(tx Tx) error {
		rec, err := c.known(tx)
		if err != nil {
			return err
		}
		if rec != nil {
			res, derr = c.replay(rec)
			return nil
		}
		if o, _, _, err = os.price(tx, c.storeID, c.customerID, c.in, c.gw); err != nil && ErrorCode(err) != EInternal {
			derr, err = err, nil
		}
		return err
	})
	if derr != nil {
		err = derr
	}
	return o, res, err
}

// price builds the order of a checkout from the catalog without writing:
// the products with their stock taken, and the coupon to count a use of.
// It reads what the rules look at; the rules are the pure functions of
// pricing.go (PriceOrder, ReserveStock). A payment through gw in test mode
// (the sandbox, a test key) is refused unless the store is in test mode.
func (os *OrderService) price(tx Tx, storeID, customerID uint64, in CheckoutInput, gw Gateway) (*Order, []*Product, *Coupon, error) {
	st, err := tx.SharedStore(storeID)
	if err != nil {
		return nil, nil, nil, err
	}
	set := os.settingsOf(st)
	if !set.MethodEnabled(in.PaymentMethod) {
		return nil, nil, nil, Invalid("payment_method", "is not offered by this store")
	}
	if !in.panelReturn && !set.CallbackAllowed(in.CallbackURL) && !demoLocal(os.s.Opt.DemoSubdomain, st, in.CallbackURL) && !os.shopCallback(st, in.CallbackURL) {
		return nil, nil, nil, Invalid("callback_url", "its origin "+NormalizeOrigin(in.CallbackURL)+
			" is not allowed: a checkout returns to the store's own shop or to an origin in its callback_origins (a configuration key) or allowed_origins (a store setting)")
	}
	test := os.s.Payments.MethodTest(st, gw)
	if test && set.PaymentsLive {
		return nil, nil, nil, &Error{Code: ETestPaymentsRefused,
			Message: "this store takes live payments only; " + in.PaymentMethod + " takes test payments (no money moves)",
			Fields:  map[string]string{"payment_method": "takes test payments; this store's test mode is off"}}
	}
	email, err := checkoutEmail(tx, set, storeID, customerID, in.Email)
	if err != nil {
		return nil, nil, nil, err
	}
	lines, products, err := checkoutLines(tx, storeID, in.Items)
	if err != nil {
		return nil, nil, nil, err
	}
	q := Quote{Lines: lines, CouponCode: in.CouponCode, Now: tx.Now(), Delivery: set.DeliveryOptions,
		SentFee: in.DeliveryFee, Option: in.DeliveryOption, Currency: st.Currency, SentCurrency: in.Currency}
	set.taxQuote(&q, in.Country, in.Region)
	if in.CouponCode != "" {
		c, err := tx.CouponByCode(storeID, in.CouponCode)
		if err != nil && !IsNotFound(err) {
			return nil, nil, nil, err
		}
		if err == nil {
			q.Coupon = c
		}
	}
	pr, err := PriceOrder(q)
	if err != nil {
		return nil, nil, nil, err
	}
	pickup := pr.Delivery != nil && in.DeliveryOption != "" && !pr.Delivery.NeedsAddress
	if in.Address == "" && !pickup {
		return nil, nil, nil, Invalid("address", "is required (for "+pr.Delivery.Name+")")
	}
	if err := ReserveStock(lines); err != nil {
		return nil, nil, nil, err
	}
	o := &Order{StoreID: storeID, CustomerID: customerID, Status: OrderPending, PaymentStatus: PaymentUnpaid,
		PaymentMethod: in.PaymentMethod, ReceiverName: in.ReceiverName, Phone: in.Phone, Address: in.Address,
		Email: email, Currency: st.Currency, CallbackURL: in.CallbackURL, Items: pr.Items,
		Subtotal: pr.Subtotal, Discount: pr.Discount, DeliveryFee: pr.DeliveryFee, Total: pr.Total, Test: test,
		OrderTax: pr.orderTax(q), DeliveryOption: in.DeliveryOption, Pickup: pickup}
	if q.Coupon != nil {
		o.CouponCode = q.Coupon.Code
	}
	return o, products, q.Coupon, nil
}

// checkoutEmail is the email of a checkout: the one sent, else the
// shopper's. A shopper must have verified it when the store asks for that.
func checkoutEmail(tx Tx, set Settings, storeID, customerID uint64, email string) (string, error) {
	if customerID == 0 {
		return email, nil
	}
	if set.EmailOTPEnabled { // RequireVerified reads the store again: only when it matters
		if err := RequireVerified(tx, storeID, customerID); err != nil {
			return "", err
		}
	}
	if email != "" {
		return email, nil
	}
	c, err := tx.Customer(storeID, customerID)
	if err != nil {
		return "", err
	}
	return c.Email, nil
}

// checkoutLines loads the products of a checkout's lines (once each, in
// the order first named) and prices their units; every unknown product or
// variant is named in one validation error.
func checkoutLines(tx Tx, storeID uint64, items []CheckoutItem) ([]PricedLine, []*Product, error) {
	byID := map[uint64]*Product{}
	var products []*Product
	lines := make([]PricedLine, 0, len(items))
	var bad Validation
	for i, it := range items {
		f := "items[" + itoa(i) + "]."
		p := byID[it.ProductID]
		if p == nil {
			var err error
			if p, err = loadSellable(tx, storeID, it.ProductID, f); err != nil {
				if ErrorCode(err) != EValidation {
					return nil, nil, err
				}
				addFields(&bad, err)
				continue
			}
			byID[p.ID] = p
			products = append(products, p)
		}
		if err := checkVariant(p, it.VariantID, f); err != nil {
			addFields(&bad, err)
			continue
		}
		price, err := UnitPriceAt(tx, p, it.VariantID)
		if err != nil {
			return nil, nil, err
		}
		lines = append(lines, PricedLine{Product: p, VariantID: it.VariantID, Quantity: it.Quantity, UnitPrice: price, Sent: it.UnitPrice})
	}
	return lines, products, bad.Err()
}

// CustomerOrders pages a shopper's orders, newest first.
func (os *OrderService) CustomerOrders(sh Shopper, lp ListParams) (Page[*Order], error) {
	return view(os.s.DB, func(tx Tx) (Page[*Order], error) { return tx.CustomerOrders(sh.StoreID, sh.CustomerID, lp) })
}

// CustomerOrder returns one order of the shopper; another shopper's order
// and guest orders are not_found.
func (os *OrderService) CustomerOrder(sh Shopper, id uint64) (*Order, error) {
	o, err := os.Order(sh.StoreID, id)
	if err == nil && (o.CustomerID == 0 || o.CustomerID != sh.CustomerID) {
		err = NotFound("order")
	}
	return o, err
}

// Order returns one order of the store (admin view). Errors: not_found.
func (os *OrderService) Order(storeID, id uint64) (*Order, error) {
	return view(os.s.DB, func(tx Tx) (*Order, error) { return tx.Order(storeID, id) })
}

// Orders pages a store's orders, newest first; status "" means all.
// Errors: validation_failed (unknown status).
// OrderDetail is what the store's order page shows beside the order: its
// customer (nil for a guest or a deleted account) and its requests.
type OrderDetail struct {
	Customer         *Customer
	Cancels, Refunds []*Request
}

// Detail reads the customer and the requests of a store's order.
func (os *OrderService) Detail(storeID uint64, o *Order) (OrderDetail, error) {
	return view(os.s.DB, func(tx Tx) (OrderDetail, error) {
		var d OrderDetail
		var err error
		if o.CustomerID != 0 {
			if d.Customer, err = tx.Customer(storeID, o.CustomerID); IsNotFound(err) {
				d.Customer, err = nil, nil
			}
			if err != nil {
				return d, err
			}
		}
		if d.Cancels, err = tx.OrderRequests(storeID, KindCancellation, o.ID); err != nil {
			return d, err
		}
		d.Refunds, err = tx.OrderRequests(storeID, KindRefund, o.ID)
		return d, err
	})
}

func (os *OrderService) Orders(storeID uint64, status string, lp ListParams) (Page[*Order], error) {
	if status != "" && !oneOf(status, OrderStatuses) {
		return Page[*Order]{}, Invalid("status", "must be one of "+strings.Join(OrderStatuses, ", "))
	}
	return view(os.s.DB, func(tx Tx) (Page[*Order], error) { return tx.Orders(storeID, status, lp) })
}

// Move changes an order's status by hand: only the moves of decisions.md §5.
// A move to DELIVERED records when and by whom (by, nil for none) for the
// undo window (UndoDelivered). Errors: validation_failed, not_found,
// invalid_order_state.
func (os *OrderService) Move(storeID, id uint64, status string, by *AdminUser) (*Order, error) {
	if !oneOf(status, OrderStatuses) {
		return nil, Invalid("status", "must be one of "+strings.Join(OrderStatuses, ", "))
	}
	var o *Order
	err := os.s.DB.Update(func(tx Tx) error {
		var err error
		if o, err = tx.Order(storeID, id); err != nil {
			return err
		}
		if !CanAdminMove(o.Status, status) {
			return Errorf(EInvalidOrderState, "an order cannot move from %s to %s", o.Status, status)
		}
		// A shopper's pending cancellation is decided first: once delivered it
		// could only be rejected, without the store having looked at it.
		if p, err := pendingRequestOf(tx, storeID, KindCancellation, o.ID); err != nil {
			return err
		} else if p != nil {
			return Errorf(EConflict, "the order has a pending cancellation request (#%d); approve or reject it first", p.ID)
		}
		o.Status = status
		o.UpdatedAt = UTC(tx.Now())
		o.DeliveredAt, o.DeliveredBy = time.Time{}, ""
		if status == OrderDelivered {
			o.DeliveredAt, o.DeliveredBy = o.UpdatedAt, adminEmail(by)
		}
		if err := tx.PutOrder(o); err != nil {
			return err
		}
		return os.s.Happened(tx, Change{Type: EvOrderStatusChanged, StoreID: storeID, Order: o})
	})
	if err == nil {
		os.s.Kick()
	}
	return o, err
}

// ExpirePending cancels PENDING orders unpaid for longer than Opt.PendingTTL
// and releases their stock and coupon use; a cron job calls it. The status is
// checked in the transaction that cancels, so an order is released once.
// It returns how many it cancelled.
func (os *OrderService) ExpirePending() (int, error) {
	stores, err := os.s.Stores.List()
	if err != nil {
		return 0, err
	}
	total := 0
	var firstErr error
	// One transaction per store: a store whose expiry fails (logged) does not
	// hold back the others.
	for _, st := range stores {
		n := 0
		err := os.s.DB.Update(func(tx Tx) error {
			n = 0
			now := tx.Now()
			list, err := tx.PendingOrdersBefore(st.ID, now.Add(-os.s.Opt.PendingTTL))
			if err != nil {
				return err
			}
			for _, o := range list {
				if o.Status != OrderPending || o.PaymentStatus == PaymentPaid {
					continue
				}
				if err := CancelOrder(tx, o, now); err != nil {
					return err
				}
				if err := os.s.OrderCancelled(tx, o, "expired"); err != nil {
					return err
				}
				n++
			}
			return nil
		})
		if err != nil {
			os.s.Log.Error("expire pending orders", "store_id", st.ID, "err", err)
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if n > 0 {
			os.s.Kick()
		}
		total += n
	}
	return total, firstErr
}

// SweepIdempotency deletes the idempotency records older than
// IdempotencyKeep in every store; an hourly job calls it (a record kept an
// hour longer than a week is harmless, and on bbolt the search reads every
// record). It returns how many.
func (os *OrderService) SweepIdempotency() (int, error) {
	stores, err := os.s.Stores.List()
	if err != nil {
		return 0, err
	}
	before := os.s.Now().Add(-IdempotencyKeep)
	total := 0
	var firstErr error
	for _, st := range stores {
		n, err := os.sweepIdempotency(st.ID, before)
		total += n
		if err != nil {
			os.s.Log.Error("delete old idempotency keys", "store_id", st.ID, "err", err)
			firstErr = cmp.Or(firstErr, err)
		}
	}
	return total, firstErr
}

// idemSweepBatch is how many old idempotency records one write transaction
// of sweepIdempotency deletes.
const idemSweepBatch = 1000

// sweepIdempotency deletes a store's idempotency records made before before
// and returns how many. They are found in read transactions
// and deleted idemSweepBatch at a time in short write ones: a store keeps
// one per checkout for a week, and on bbolt finding the old ones reads them
// all (200,000 took 100 ms), which inside the write transaction stalled every
// checkout of the server once a minute.
func (os *OrderService) sweepIdempotency(storeID uint64, before time.Time) (int, error) {
	total := 0
	for {
		old, err := view(os.s.DB, func(tx Tx) ([]*IdempotencyRecord, error) {
			return tx.IdempotencyRecordsBefore(storeID, before, idemSweepBatch)
		})
		if err != nil || len(old) == 0 {
			return total, err
		}
		n := 0
		err = os.s.DB.Update(func(tx Tx) (err error) {
			n, err = tx.DeleteIdempotencyRecords(storeID, old, before)
			return err
		})
		total += n
		if err != nil || n == 0 || len(old) < idemSweepBatch {
			return total, err // n == 0: nothing more it can delete (never loops)
		}
	}
}

// releaseCoupon gives back the coupon use of a cancelled order.
func releaseCoupon(tx CouponTx, o *Order) error {
	if o.CouponID == 0 {
		return nil
	}
	c, err := tx.Coupon(o.StoreID, o.CouponID)
	if IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if c.Uses > 0 {
		c.Uses--
	}
	return tx.PutCoupon(c)
}

// addFields copies the per-field messages of a validation error into v.
func addFields(v *Validation, err error) {
	if e, ok := err.(*Error); ok {
		for k, m := range e.Fields {
			v.Add(k, m)
		}
	}
}

func oneOf(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}
