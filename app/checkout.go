package app

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
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
	BodyHash    string    `json:"body_hash"`
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
	// DeleteIdempotencyRecordsBefore deletes a store's records made before t
	// and returns how many.
	DeleteIdempotencyRecordsBefore(storeID uint64, t time.Time) (int, error)
	// SharedStore is Store for read-only use: the result may be shared
	// between transactions and must not be modified.
	SharedStore(id uint64) (*Store, error)
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
	ReceiverName  string         `json:"receiver_name"`
	Phone         string         `json:"phone"`
	Address       string         `json:"address"`
	Email         string         `json:"email"`
	DeliveryFee   *Money         `json:"delivery_fee"`
	Currency      string         `json:"currency"`
	CouponCode    string         `json:"coupon_code"`
	Items         []CheckoutItem `json:"items"`
	PaymentMethod string         `json:"payment_method"`
	CallbackURL   string         `json:"callback_url"`
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

func (in *CheckoutInput) validate(guest bool) error {
	var v Validation
	in.ReceiverName = strings.TrimSpace(in.ReceiverName)
	in.Phone = strings.TrimSpace(in.Phone)
	in.Address = strings.TrimSpace(in.Address)
	in.Email = strings.TrimSpace(in.Email)
	in.CouponCode = NormalizeCouponCode(in.CouponCode)
	in.Currency = strings.ToUpper(strings.TrimSpace(in.Currency))
	v.Text("receiver_name", in.ReceiverName, true, 200)
	v.Text("phone", in.Phone, true, 40)
	v.Text("address", in.Address, true, 500)
	if guest || in.Email != "" {
		v.Email("email", in.Email)
	}
	v.MaxLen("coupon_code", in.CouponCode, 50)
	v.OneOf("payment_method", in.PaymentMethod, WalletA, WalletB)
	v.Check(ValidHTTPURL(in.CallbackURL), "callback_url", "must be an absolute http(s) URL")
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
	commit   *groupCommit // shared with PaymentService
	settings sync.Map     // store id -> storeSettings
}

type storeSettings struct {
	st  *Store
	set Settings
}

// settingsOf decodes a shared store's settings once per store version.
func (os *OrderService) settingsOf(st *Store) Settings {
	if v, ok := os.settings.Load(st.ID); ok && v.(storeSettings).st == st {
		return v.(storeSettings).set
	}
	set := st.Settings()
	os.settings.Store(st.ID, storeSettings{st: st, set: set})
	return set
}

func newOrderService(d orderDeps, commit *groupCommit) *OrderService {
	return &OrderService{s: d, commit: commit}
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
		lims = append(lims, Limit{Key: "orders-ip|" + sid + "|" + ip, Max: n, Window: OrdersWindow})
	}
	return lims
}

// InitiateFrom is Initiate for a client at address ip ("" for calls from
// inside the process): a new order first takes its slots of
// ratelimit.unpaid_orders_per_hour (429 rate_limited past it, before any
// work); a refused checkout or an idempotent replay gives them back.
func (os *OrderService) InitiateFrom(storeID, customerID uint64, ip string, in CheckoutInput, idem Idempotency) (CheckoutResult, error) {
	var res CheckoutResult
	if err := in.validate(customerID == 0); err != nil {
		return res, err
	}
	if len(idem.Key) > MaxIdempotencyKey {
		return res, Invalid(idem.name(), "must be at most 200 characters")
	}
	gw, err := os.s.Payments.Gateway(in.PaymentMethod)
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
	// The request is compared by a hash of its decoded form, so a retry that
	// re-serialized the same JSON (other key order, spacing) still matches.
	// Guests share one namespace per store, so their keys are scoped by the
	// hash too: one guest cannot claim (and block) another guest's key.
	var bodyHash string
	scoped := idem.Key
	if idem.Key != "" {
		canon, err := json.Marshal(in)
		if err != nil {
			return res, err
		}
		h := sha256.Sum256(canon)
		bodyHash = hex.EncodeToString(h[:])
		if customerID == 0 {
			scoped = idem.Key + "\x00" + bodyHash
		}
	}
	sessionSecret := RandomHex(12)
	var derr error // a domain outcome: the batch commits nothing and reports it
	var fresh bool // a new order was made (not an idempotent replay): it keeps its limit slots
	err = os.commit.run(os.s.DB, func(tx Tx) error {
		// Batch may run this twice: rebuild every result from what tx reads.
		res, derr, fresh = CheckoutResult{}, nil, false
		if idem.Key != "" {
			rec, err := tx.IdempotencyRecord(storeID, customerID, scoped)
			if err == nil {
				if subtle.ConstantTimeCompare([]byte(rec.BodyHash), []byte(bodyHash)) != 1 {
					derr = &Error{Code: EConflict, Message: "this " + idem.name() + " was used with another request body",
						Fields: map[string]string{idem.name(): "was used with another request body"}}
					return nil
				}
				res = CheckoutResult{RedirectURL: rec.RedirectURL, OrderID: rec.OrderID, PaymentSessionID: rec.SessionID}
				return nil
			}
			if !IsNotFound(err) {
				return err
			}
		}
		o, products, coupon, err := os.price(tx, storeID, customerID, in)
		if err != nil {
			if ErrorCode(err) != EInternal {
				derr = err
				return nil
			}
			return err
		}
		// Every check passed: from here on, only writes.
		now := UTC(tx.Now())
		for _, p := range products {
			if err := tx.PutProductStock(p); err != nil {
				return err
			}
		}
		if coupon != nil {
			coupon.Uses++
			if err := tx.PutCoupon(coupon); err != nil {
				return err
			}
			o.CouponID = coupon.ID
		}
		seq, err := tx.NextID(storeID, "payment_session")
		if err != nil {
			return err
		}
		sessionID := SessionID(storeID, seq, sessionSecret)
		o.PaymentSessionID = sessionID
		o.CreatedAt, o.UpdatedAt = now, now
		if err := tx.CreateOrder(o); err != nil {
			return err
		}
		sess := &PaymentSession{ID: sessionID, StoreID: storeID, Seq: seq, OrderID: o.ID, Method: o.PaymentMethod,
			Amount: o.Total, Currency: o.Currency, CallbackURL: o.CallbackURL, Status: SessionOpen,
			Attempts: []PaymentAttempt{}, CreatedAt: now, UpdatedAt: now}
		if err := tx.PutPaymentSession(sess); err != nil {
			return err
		}
		res = CheckoutResult{RedirectURL: gw.RedirectURL(sess), OrderID: o.ID, PaymentSessionID: sessionID}
		if idem.Key != "" {
			rec := &IdempotencyRecord{StoreID: storeID, CustomerID: customerID, Key: scoped, BodyHash: bodyHash,
				OrderID: o.ID, SessionID: sessionID, RedirectURL: res.RedirectURL, CreatedAt: now}
			if err := tx.PutIdempotencyRecord(rec); err != nil {
				return err
			}
		}
		fresh = true
		return nil
	})
	if err != nil {
		return CheckoutResult{}, err
	}
	if derr != nil {
		return CheckoutResult{}, derr
	}
	counted = fresh
	return res, nil
}

// price builds the order of a checkout from the catalog without writing:
// the products with their stock taken, and the coupon to count a use of.
func (os *OrderService) price(tx Tx, storeID, customerID uint64, in CheckoutInput) (*Order, []*Product, *Coupon, error) {
	st, err := tx.SharedStore(storeID)
	if err != nil {
		return nil, nil, nil, err
	}
	set := os.settingsOf(st)
	if !set.MethodEnabled(in.PaymentMethod) {
		return nil, nil, nil, Invalid("payment_method", "is not offered by this store")
	}
	if !set.CallbackAllowed(in.CallbackURL) {
		return nil, nil, nil, Invalid("callback_url", "its origin is not among the store's callback_origins")
	}
	email := in.Email
	if customerID != 0 {
		if set.EmailOTPEnabled { // RequireVerified reads the store again: only when it matters
			if err := RequireVerified(tx, storeID, customerID); err != nil {
				return nil, nil, nil, err
			}
		}
		if email == "" {
			c, err := tx.Customer(storeID, customerID)
			if err != nil {
				return nil, nil, nil, err
			}
			email = c.Email
		}
	}
	o := &Order{StoreID: storeID, CustomerID: customerID, Status: OrderPending, PaymentStatus: PaymentUnpaid,
		PaymentMethod: in.PaymentMethod, ReceiverName: in.ReceiverName, Phone: in.Phone, Address: in.Address,
		Email: email, Currency: st.Currency, CallbackURL: in.CallbackURL, Items: make([]OrderItem, 0, len(in.Items))}
	byID := map[uint64]*Product{}
	var order []*Product
	var bad Validation
	changed := map[string]string{}
	for i, it := range in.Items {
		f := "items[" + itoa(i) + "]."
		p := byID[it.ProductID]
		if p == nil {
			if p, err = loadSellable(tx, storeID, it.ProductID, f); err != nil {
				if ErrorCode(err) != EValidation {
					return nil, nil, nil, err
				}
				addFields(&bad, err)
				continue
			}
			byID[p.ID] = p
			order = append(order, p)
		}
		if err := checkVariant(p, it.VariantID, f); err != nil {
			addFields(&bad, err)
			continue
		}
		price, err := UnitPriceAt(tx, p, it.VariantID)
		if err != nil {
			return nil, nil, nil, err
		}
		if it.UnitPrice != nil && *it.UnitPrice != price {
			changed[f+"unit_price"] = price.String()
		}
		name := p.Name
		if v := p.Variant(it.VariantID); v != nil {
			name += " - " + v.Name
		}
		line := OrderItem{ProductID: p.ID, VariantID: it.VariantID, Name: name, UnitPrice: price, Quantity: it.Quantity,
			LineTotal: price * Money(it.Quantity)}
		o.Items = append(o.Items, line)
		o.Subtotal += line.LineTotal
	}
	if err := bad.Err(); err != nil {
		return nil, nil, nil, err
	}
	// Amounts above MaxMoney cannot be stored (Money refuses to decode them).
	if o.Subtotal > MaxMoney {
		return nil, nil, nil, Invalid("items", "the order is over the largest total accepted ("+MaxMoney.String()+")")
	}
	var coupon *Coupon
	if in.CouponCode != "" {
		c, err := tx.CouponByCode(storeID, in.CouponCode)
		if IsNotFound(err) {
			return nil, nil, nil, Invalid("coupon_code", "unknown coupon")
		}
		if err != nil {
			return nil, nil, nil, err
		}
		d, err := c.Discount(o.Subtotal, tx.Now())
		if err != nil {
			return nil, nil, nil, err
		}
		o.Discount, o.CouponCode, coupon = d, c.Code, c
	}
	fees := make([]string, 0, len(set.DeliveryOptions))
	allowed := len(set.DeliveryOptions) == 0 && (in.DeliveryFee == nil || *in.DeliveryFee == 0)
	for _, d := range set.DeliveryOptions {
		fees = append(fees, d.Fee.String())
		if in.DeliveryFee != nil && *in.DeliveryFee == d.Fee {
			allowed = true
		}
	}
	switch {
	case in.DeliveryFee != nil:
		o.DeliveryFee = *in.DeliveryFee
	case len(set.DeliveryOptions) > 0:
		o.DeliveryFee, allowed = set.DeliveryOptions[0].Fee, true
	}
	if !allowed {
		if len(fees) == 0 {
			fees = append(fees, Money(0).String())
		}
		changed["delivery_fee"] = strings.Join(fees, ", ")
	}
	if in.Currency != "" && in.Currency != st.Currency {
		changed["currency"] = st.Currency
	}
	if len(changed) > 0 {
		return nil, nil, nil, &Error{Code: EPriceChanged, Message: "prices changed; review the order", Fields: changed}
	}
	o.Total = o.Subtotal - o.Discount + o.DeliveryFee
	if o.Total > MaxMoney {
		return nil, nil, nil, Invalid("items", "the order is over the largest total accepted ("+MaxMoney.String()+")")
	}
	// Reserve stock on the loaded products (lines of one product share it).
	short := map[string]string{}
	for i, line := range o.Items {
		p := byID[line.ProductID]
		if !p.TakeStock(line.VariantID, line.Quantity) {
			left := p.Stock
			if v := p.Variant(line.VariantID); v != nil {
				left = v.Stock
			}
			short["items["+itoa(i)+"].quantity"] = "only " + itoa(int(max(left, 0))) + " left"
		}
	}
	if len(short) > 0 {
		return nil, nil, nil, &Error{Code: EOutOfStock, Message: "not enough stock", Fields: short}
	}
	return o, order, coupon, nil
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
// Errors: validation_failed, not_found, invalid_order_state.
func (os *OrderService) Move(storeID, id uint64, status string) (*Order, error) {
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
		return tx.PutOrder(o)
	})
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
			if _, err := tx.DeleteIdempotencyRecordsBefore(st.ID, now.Add(-IdempotencyKeep)); err != nil {
				return err
			}
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
		total += n
	}
	return total, firstErr
}

// releaseCoupon gives back the coupon use of a cancelled order.
func releaseCoupon(tx Tx, o *Order) error {
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
