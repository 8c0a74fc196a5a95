package app

import (
	"context"
	"strings"
	"time"
)

// Kinds of post-order requests. Each kind has its own id sequence, its own
// storefront and admin routes, and at most one PENDING request per order.
const (
	KindCancellation = "cancellation"
	KindRefund       = "refund"
)

// Request statuses (decisions.md §4).
const (
	RequestPending  = "PENDING"
	RequestApproved = "APPROVED"
	RequestRejected = "REJECTED"
)

// Refund methods an admin may record when approving a refund.
const (
	RefundOriginalMethod = "ORIGINAL_METHOD"
	RefundStoreCredit    = "STORE_CREDIT"
	RefundBankTransfer   = "BANK_TRANSFER"
	RefundCash           = "CASH"
)

// RefundMethods lists the accepted refund methods; the first is the default.
var RefundMethods = []string{RefundOriginalMethod, RefundStoreCredit, RefundBankTransfer, RefundCash}

// Limits of request input.
const (
	MaxRequestReasonLen    = 1000
	MaxAdminNoteLen        = 1000
	MaxProofFiles          = 10
	maxDeliveryReceiverLen = 100
	maxDeliveryPhoneLen    = 32
	maxDeliveryAddressLen  = 500
	minDeliveryPhoneDigits = 5
	maxDeliveryPhoneDigits = 20
)

// Request is a shopper's cancellation or refund request on one of their
// orders. Amount, RefundMethod and ProofFiles are used by refunds only.
type Request struct {
	ID           uint64     `json:"id"`
	StoreID      uint64     `json:"store_id"`
	Kind         string     `json:"kind"`
	OrderID      uint64     `json:"order_id"`
	CustomerID   uint64     `json:"customer_id"`
	Status       string     `json:"status"`
	Reason       string     `json:"reason"`
	Amount       Money      `json:"amount"`
	ProofFiles   []string   `json:"proof_files"`
	RefundMethod string     `json:"refund_method"`
	AdminNote    string     `json:"admin_note"`
	ReviewedBy   uint64     `json:"reviewed_by"`
	ReviewedAt   *time.Time `json:"reviewed_at"`
	CreatedAt    time.Time  `json:"created_at"`
	// ByStore: the store filed it itself (StoreCancel, StoreRefund) and
	// approves it at once.
	ByStore bool `json:"by_store,omitempty"`
	// Restock is the stock a store refund gives back, per order line.
	Restock []RestockLine `json:"restock,omitempty"`
	// Refund at the payment provider, for approvals on orders a remote
	// gateway took the money of: RefundingSince marks a provider call under
	// way (the request stays PENDING), RefundBase is what the order had
	// refunded when it began, ProviderRefundID the provider's refund once
	// made, ProviderError the last provider failure (still PENDING).
	RefundingSince   *time.Time `json:"refunding_since,omitempty"`
	RefundBase       Money      `json:"refund_base,omitempty"`
	ProviderRefundID string     `json:"provider_refund_id,omitempty"`
	ProviderError    string     `json:"provider_error,omitempty"`
}

// CancellationView is a cancellation request on the wire (storefront-api.md,
// Cancellation request).
type CancellationView struct {
	ID         uint64     `json:"id"`
	OrderID    uint64     `json:"order_id"`
	Status     string     `json:"status"`
	Reason     string     `json:"reason"`
	AdminNote  string     `json:"admin_note"`
	ReviewedAt *time.Time `json:"reviewed_at"`
	CreatedAt  time.Time  `json:"created_at"`
}

// RefundView is a refund request on the wire; refund_method is null until
// the refund is approved.
type RefundView struct {
	ID           uint64     `json:"id"`
	OrderID      uint64     `json:"order_id"`
	Status       string     `json:"status"`
	Reason       string     `json:"reason"`
	Amount       Money      `json:"amount"`
	ProofFiles   []string   `json:"proof_files"`
	AdminNote    string     `json:"admin_note"`
	RefundMethod *string    `json:"refund_method"`
	ReviewedAt   *time.Time `json:"reviewed_at"`
	CreatedAt    time.Time  `json:"created_at"`
}

// CancellationView returns the wire form of a cancellation request.
func (r *Request) CancellationView() CancellationView {
	return CancellationView{ID: r.ID, OrderID: r.OrderID, Status: r.Status, Reason: r.Reason,
		AdminNote: r.AdminNote, ReviewedAt: requestTimePtr(r.ReviewedAt), CreatedAt: UTC(r.CreatedAt)}
}

// RefundView returns the wire form of a refund request.
func (r *Request) RefundView() RefundView {
	v := RefundView{ID: r.ID, OrderID: r.OrderID, Status: r.Status, Reason: r.Reason, Amount: r.Amount,
		ProofFiles: r.ProofFiles, AdminNote: r.AdminNote, ReviewedAt: requestTimePtr(r.ReviewedAt), CreatedAt: UTC(r.CreatedAt)}
	if v.ProofFiles == nil {
		v.ProofFiles = []string{}
	}
	if r.RefundMethod != "" {
		m := r.RefundMethod
		v.RefundMethod = &m
	}
	return v
}

// View returns the wire form of r for its kind.
func (r *Request) View() any {
	if r.Kind == KindRefund {
		return r.RefundView()
	}
	return r.CancellationView()
}

func requestTimePtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := UTC(*t)
	return &u
}

// RequestTx is the storage of cancellation and refund requests. Every write
// keeps the per-order index (sid|order|kind|id) and the per-status index
// (sid|kind|status|id) in the same transaction.
type RequestTx interface {
	// CreateRequest assigns r.ID from r.Kind's per-store sequence and stores r.
	CreateRequest(r *Request) error
	// Request returns one request of a kind (not_found).
	Request(storeID uint64, kind string, id uint64) (*Request, error)
	// PutRequest updates r and its status index (not_found).
	PutRequest(r *Request) error
	// OrderRequests lists an order's requests of a kind, newest first.
	OrderRequests(storeID uint64, kind string, orderID uint64) ([]*Request, error)
	// Requests pages a store's requests of a kind, newest first; status "" means all.
	Requests(storeID uint64, kind, status string, p ListParams) (Page[*Request], error)
}

// RequestService runs the after-order actions: delivery changes,
// cancellation and refund requests, and their review by the store.
type RequestService struct{ s requestDeps }

func newRequestService(d requestDeps) *RequestService { return &RequestService{s: d} }

// DeliveryInput is the body of a delivery update; nil fields stay unchanged.
type DeliveryInput struct {
	OrderID      uint64
	ReceiverName *string
	Phone        *string
	Address      *string
}

// CancellationInput is the body of a cancellation request.
type CancellationInput struct {
	OrderID uint64
	Reason  string
}

// RefundInput is the body of a refund request; Amount nil means everything
// not yet refunded.
type RefundInput struct {
	OrderID    uint64
	Reason     string
	Amount     *Money
	ProofFiles []string
}

// DecisionInput is the admin's body when approving or rejecting a request.
// RefundMethod is read on refund approval only ("" = ORIGINAL_METHOD).
type DecisionInput struct {
	AdminNote    string `json:"admin_note"`
	RefundMethod string `json:"refund_method"`
}

// validDeliveryPhone reports whether s looks like a phone number: digits with
// optional spaces, dots, dashes, parentheses and a leading +.
func validDeliveryPhone(s string) bool {
	digits := 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '+' && i == 0:
		case r == ' ' || r == '-' || r == '.' || r == '(' || r == ')':
		default:
			return false
		}
	}
	return digits >= minDeliveryPhoneDigits && digits <= maxDeliveryPhoneDigits
}

// requestOrderOf loads an order of the shopper, or the order whose signed
// link the shopper holds (Shopper.LinkedOrder). Another shopper's order, a
// guest order without its link and an unknown id are all not_found.
func requestOrderOf(tx OrderTx, sh Shopper, orderID uint64) (*Order, error) {
	if sh.LinkedOrder != 0 && sh.CustomerID == 0 { // the order's signed link: that order, a guest's too
		if orderID != sh.LinkedOrder {
			return nil, NotFound("order")
		}
		return tx.Order(sh.StoreID, orderID)
	}
	if sh.CustomerID == 0 {
		return nil, NotFound("order")
	}
	o, err := tx.Order(sh.StoreID, orderID)
	if err != nil {
		return nil, err
	}
	if o.CustomerID == 0 || o.CustomerID != sh.CustomerID {
		return nil, NotFound("order")
	}
	return o, nil
}

func requireRequestOrderID(v *Validation, id uint64) {
	v.Check(id > 0, "order_id", "is required")
}

// UpdateDelivery changes the receiver, phone or address of a PENDING or
// CONFIRMED order of the shopper. Errors: validation_failed, not_found,
// invalid_order_state.
func (rs *RequestService) UpdateDelivery(sh Shopper, in DeliveryInput) (*Order, error) {
	var v Validation
	requireRequestOrderID(&v, in.OrderID)
	if in.ReceiverName == nil && in.Phone == nil && in.Address == nil {
		v.Add("body", "send at least one of receiver_name, phone, address")
	}
	trim := func(p *string) {
		if p != nil {
			*p = strings.TrimSpace(*p)
		}
	}
	trim(in.ReceiverName)
	trim(in.Phone)
	trim(in.Address)
	if in.ReceiverName != nil {
		v.Text("receiver_name", *in.ReceiverName, true, maxDeliveryReceiverLen)
	}
	if in.Phone != nil {
		v.Text("phone", *in.Phone, true, maxDeliveryPhoneLen)
		if !v.Has("phone") {
			v.Check(validDeliveryPhone(*in.Phone), "phone", "must be a phone number")
		}
	}
	if in.Address != nil {
		v.Text("address", *in.Address, true, maxDeliveryAddressLen)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var out *Order
	err := rs.s.DB.Update(func(tx Tx) error {
		o, err := requestOrderOf(tx, sh, in.OrderID)
		if err != nil {
			return err
		}
		if o.Status != OrderPending && o.Status != OrderConfirmed {
			return Errorf(EInvalidOrderState, "the delivery details of a %s order cannot change", o.Status)
		}
		if in.ReceiverName != nil {
			o.ReceiverName = *in.ReceiverName
		}
		if in.Phone != nil {
			o.Phone = *in.Phone
		}
		if in.Address != nil {
			o.Address = *in.Address
		}
		o.UpdatedAt = UTC(tx.Now())
		out = o
		return tx.PutOrder(o)
	})
	return out, err
}

// pendingRequestOf returns the PENDING request of a kind on an order, or nil.
func pendingRequestOf(tx RequestTx, storeID uint64, kind string, orderID uint64) (*Request, error) {
	rs, err := tx.OrderRequests(storeID, kind, orderID)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		if r.Status == RequestPending {
			return r, nil
		}
	}
	return nil, nil
}

// RequestCancellation files a cancellation request on a PENDING or CONFIRMED
// order of the shopper. Errors: validation_failed, not_found,
// invalid_order_state, conflict (a PENDING one exists).
func (rs *RequestService) RequestCancellation(sh Shopper, in CancellationInput) (*Request, error) {
	var v Validation
	requireRequestOrderID(&v, in.OrderID)
	in.Reason = strings.TrimSpace(in.Reason)
	v.Text("reason", in.Reason, true, MaxRequestReasonLen)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return rs.file(sh, in.OrderID, KindCancellation, "cancelled", []string{OrderPending, OrderConfirmed},
		func(tx Tx, o *Order, r *Request) error {
			r.Reason = in.Reason
			return nil
		})
}

// RequestRefund files a refund request on a DELIVERED or COMPLETED order of
// the shopper. An omitted amount is everything not yet refunded; more than
// that is validation_failed. Errors: validation_failed, not_found,
// invalid_order_state, conflict (a PENDING one exists).
func (rs *RequestService) RequestRefund(sh Shopper, in RefundInput) (*Request, error) {
	var v Validation
	requireRequestOrderID(&v, in.OrderID)
	in.Reason = strings.TrimSpace(in.Reason)
	v.Text("reason", in.Reason, true, MaxRequestReasonLen)
	if in.Amount != nil {
		v.Check(*in.Amount > 0, "amount", "must be greater than 0")
	}
	v.URLs("proof_files", in.ProofFiles, MaxProofFiles)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return rs.file(sh, in.OrderID, KindRefund, "refunded", []string{OrderDelivered, OrderCompleted},
		func(tx Tx, o *Order, r *Request) error {
			left := o.Refundable()
			amount := left
			if in.Amount != nil {
				amount = *in.Amount
			}
			if left <= 0 {
				return Invalid("amount", "nothing is left to refund on this order")
			}
			if amount > left {
				return Invalid("amount", "must be at most "+left.String()+", the amount not yet refunded")
			}
			r.Reason, r.Amount, r.ProofFiles = in.Reason, amount, append([]string{}, in.ProofFiles...)
			return nil
		})
}

// file files a request of kind on one of the shopper's orders, in one
// transaction: the order must be in one of the allowed statuses (verb names
// the action in the error) and have no PENDING request of the kind; fill
// completes the request from the order.
func (rs *RequestService) file(sh Shopper, orderID uint64, kind, verb string, allowed []string, fill func(Tx, *Order, *Request) error) (*Request, error) {
	var out *Request
	err := rs.s.DB.Update(func(tx Tx) error {
		o, err := requestOrderOf(tx, sh, orderID)
		if err != nil {
			return err
		}
		if !oneOf(o.Status, allowed) {
			return Errorf(EInvalidOrderState, "a %s order cannot be %s", o.Status, verb)
		}
		if p, err := pendingRequestOf(tx, o.StoreID, kind, o.ID); err != nil {
			return err
		} else if p != nil {
			return Errorf(EConflict, "this order already has a pending %s request", strings.ToLower(kind))
		}
		r := &Request{StoreID: o.StoreID, Kind: kind, OrderID: o.ID, CustomerID: o.CustomerID,
			Status: RequestPending, CreatedAt: UTC(tx.Now())}
		if err := fill(tx, o, r); err != nil {
			return err
		}
		out = r
		if err := tx.CreateRequest(r); err != nil {
			return err
		}
		ev := EvCancellationRequested
		if kind == KindRefund {
			ev = EvRefundRequested
		}
		return rs.s.Happened(tx, Change{Type: ev, StoreID: o.StoreID, Order: o, Request: r})
	})
	if err == nil {
		rs.s.Kick()
	}
	return out, err
}

// OrderRequests returns the cancellation and refund requests of one of the
// shopper's orders, newest first. Errors: not_found.
func (rs *RequestService) OrderRequests(sh Shopper, orderID uint64) (cancels, refunds []*Request, err error) {
	err = rs.s.DB.View(func(tx Tx) error {
		o, err := requestOrderOf(tx, sh, orderID)
		if err != nil {
			return err
		}
		if cancels, err = tx.OrderRequests(o.StoreID, KindCancellation, o.ID); err != nil {
			return err
		}
		refunds, err = tx.OrderRequests(o.StoreID, KindRefund, o.ID)
		return err
	})
	return cancels, refunds, err
}

// List pages a store's requests of a kind for the admin, newest first;
// status "" means all. Errors: validation_failed (unknown status).
func (rs *RequestService) List(storeID uint64, kind, status string, lp ListParams) (Page[*Request], error) {
	if status != "" {
		var v Validation
		v.OneOf("status", status, RequestPending, RequestApproved, RequestRejected)
		if err := v.Err(); err != nil {
			return Page[*Request]{}, err
		}
	}
	return view(rs.s.DB, func(tx Tx) (Page[*Request], error) { return tx.Requests(storeID, kind, status, lp) })
}

// Get returns one request of a store for the admin. Errors: not_found.
func (rs *RequestService) Get(storeID uint64, kind string, id uint64) (*Request, error) {
	return view(rs.s.DB, func(tx Tx) (*Request, error) { return tx.Request(storeID, kind, id) })
}

// RequestDetail is what the store's request page shows beside the request:
// its order, its customer (nil when deleted) and who decided it (email, "").
type RequestDetail struct {
	Order      *Order
	Customer   *Customer
	ReviewedBy string
}

// Detail reads the order, customer and reviewer of a store's request.
func (rs *RequestService) Detail(storeID uint64, r *Request) (RequestDetail, error) {
	return view(rs.s.DB, func(tx Tx) (RequestDetail, error) {
		var d RequestDetail
		var err error
		if d.Order, err = tx.Order(storeID, r.OrderID); err != nil {
			return d, err
		}
		if d.Customer, err = tx.Customer(storeID, r.CustomerID); IsNotFound(err) {
			d.Customer, err = nil, nil
		}
		if err != nil {
			return d, err
		}
		if r.ReviewedBy != 0 {
			if u, err := tx.Admin(r.ReviewedBy); err == nil {
				d.ReviewedBy = u.Email
			} else if !IsNotFound(err) {
				return d, err
			}
		}
		return d, nil
	})
}

// Decide approves or rejects a PENDING request, in one transaction with its
// effect on the order, then mails the shopper. An approved cancellation
// re-checks that the order is still PENDING or CONFIRMED, cancels it,
// releases its stock and marks a paid order REFUNDED. An approved refund
// re-checks that the amount still fits and moves payment_status to REFUNDED
// or PARTIALLY_REFUNDED. Deciding a request again the way it was decided
// changes nothing and answers the request (a double submit is no error).
// Errors: validation_failed, not_found, conflict (decided the other way),
// invalid_order_state.
func (rs *RequestService) Decide(storeID uint64, kind string, id, adminID uint64, approve bool, in DecisionInput) (*Request, error) {
	var v Validation
	in.AdminNote = strings.TrimSpace(in.AdminNote)
	v.Text("admin_note", in.AdminNote, false, MaxAdminNoteLen)
	in.RefundMethod = strings.ToUpper(strings.TrimSpace(in.RefundMethod))
	if in.RefundMethod == "" {
		in.RefundMethod = RefundOriginalMethod
	}
	if kind == KindRefund && approve {
		v.OneOf("refund_method", in.RefundMethod, RefundMethods...)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if approve {
		call, err := rs.beginProviderRefund(storeID, kind, id, in)
		if err != nil {
			return nil, err
		}
		if call != nil {
			// The provider is called outside any transaction; the request
			// stays PENDING (marked refunding) until the outcome is recorded.
			ctx, cancel := context.WithTimeout(context.Background(), providerTimeout)
			refID, perr := call.gw.Refund(ctx, call.acct, RefundCall{Session: call.sess, Amount: call.amount,
				IdempotencyKey: call.key, Reason: "requested_by_customer"})
			cancel()
			if perr != nil {
				return nil, rs.failProviderRefund(storeID, kind, id, call, perr)
			}
			call.refundID = refID
		}
		return rs.decide(storeID, kind, id, adminID, true, in, call)
	}
	return rs.decide(storeID, kind, id, adminID, false, in, nil)
}

// refundLease is how long a provider refund call holds a request: a second
// approval meanwhile is a conflict; after it (a crashed call) an approval
// calls the provider again with the same idempotency key, which creates no
// second refund.
const refundLease = 2 * time.Minute

// providerRefund is one refund at the provider, between marking the
// request refunding and recording the outcome.
type providerRefund struct {
	gw       Gateway
	acct     GatewayAccount
	sess     *PaymentSession
	amount   Money
	key      string
	refundID string
}

// beginProviderRefund checks an approval and, when the order's money was
// taken by a remote gateway (and the refund goes back the original way),
// marks the request refunding and returns the provider call to make; nil
// when nothing is due at a provider. Errors: those of Decide.
func (rs *RequestService) beginProviderRefund(storeID uint64, kind string, id uint64, in DecisionInput) (*providerRefund, error) {
	var call *providerRefund
	err := rs.s.DB.Update(func(tx Tx) error {
		call = nil
		r, err := tx.Request(storeID, kind, id)
		if err != nil {
			return err
		}
		if r.Status == RequestApproved {
			return nil // approved already: decide answers it (a double submit)
		}
		if r.Status != RequestPending {
			return Errorf(EConflict, "this request was already %s", strings.ToLower(r.Status))
		}
		o, err := tx.Order(storeID, r.OrderID)
		if err != nil {
			return err
		}
		due, err := rs.providerRefundDue(tx, kind, r, o, in)
		if err != nil || due == nil {
			return err
		}
		now := UTC(tx.Now())
		if r.RefundingSince != nil && now.Sub(*r.RefundingSince) < refundLease {
			return Errorf(EConflict, "a refund of this request is being made at the payment provider; try again in a moment")
		}
		st, err := tx.Store(storeID)
		if err != nil {
			return err
		}
		if r.RefundingSince == nil {
			r.RefundBase = o.RefundedAmount
		}
		r.RefundingSince = &now
		if err := tx.PutRequest(r); err != nil {
			return err
		}
		due.acct, due.key = rs.s.Payments.Account(st, due.sess.Method), refundKey(storeID, kind, r.ID)
		call = due
		return nil
	})
	if err != nil {
		return nil, err
	}
	if call != nil && call.acct.SecretKey == "" {
		return nil, rs.failProviderRefund(storeID, kind, id, call,
			ProviderUnavailable("%s has no credentials for this store; set them in the admin", call.sess.Method))
	}
	return call, err
}

// providerRefundDue is the refund an approval of r owes at a remote
// provider (gateway, session and amount), nil when none: a refund paid
// another way, an unpaid order, a test payment, nothing left to give back.
func (rs *RequestService) providerRefundDue(tx PaymentTx, kind string, r *Request, o *Order, in DecisionInput) (*providerRefund, error) {
	if kind == KindRefund && in.RefundMethod != RefundOriginalMethod {
		return nil, nil
	}
	if o.PaymentStatus != PaymentPaid && o.PaymentStatus != PaymentPartiallyRefunded {
		return nil, nil
	}
	sess, err := loadSession(tx, o.PaymentSessionID)
	if IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	gw, err := rs.s.Payments.sessionGateway(sess)
	if err != nil {
		return nil, err
	}
	if sess.Provider == "" || sess.Provider == ProviderSandbox || sess.PaidTxID == "" {
		return nil, nil // a test payment: nothing moved, nothing to give back at a provider
	}
	if gw.Provider() != sess.Provider || !gw.Remote() {
		return nil, ProviderUnavailable("the order was paid with %s, which no longer serves %s: refund it there by hand", sess.Provider, sess.Method)
	}
	amount := o.Refundable()
	switch kind {
	case KindCancellation:
		if o.Status != OrderPending && o.Status != OrderConfirmed {
			return nil, Errorf(EInvalidOrderState, "the order is %s now and can no longer be cancelled", o.Status)
		}
	case KindRefund:
		if err := checkRefundable(o, r); err != nil {
			return nil, err
		}
		amount = r.Amount
	}
	if amount <= 0 {
		return nil, nil
	}
	return &providerRefund{gw: gw, sess: sess, amount: amount}, nil
}

// failProviderRefund records a provider's failure on the request, which
// stays PENDING and undecided, and returns perr in a form safe to show.
func (rs *RequestService) failProviderRefund(storeID uint64, kind string, id uint64, call *providerRefund, perr error) error {
	if ErrorCode(perr) == EInternal {
		rs.s.Log.Error("payment provider: refund", "store_id", storeID, "kind", kind, "request_id", id, "err", perr)
		perr = ProviderUnavailable("the payment provider could not be reached; nothing was refunded, try again")
	}
	msg := ErrorMessage(perr)
	err := rs.s.DB.Update(func(tx Tx) error {
		r, err := tx.Request(storeID, kind, id)
		if err != nil {
			return err
		}
		if r.Status != RequestPending {
			return nil
		}
		r.RefundingSince = nil
		r.ProviderError = msg
		return tx.PutRequest(r)
	})
	if err != nil {
		rs.s.Log.Error("recording a provider refund failure", "store_id", storeID, "request_id", id, "err", err)
	}
	return &Error{Code: ErrorCode(perr), Message: "the refund was not made, the request stays pending: " + msg}
}

// decide records a decision in one transaction with its effect on the
// order, then mails the shopper. With a provider refund (call) the refund
// is already made: it is recorded on the order, once.
func (rs *RequestService) decide(storeID uint64, kind string, id, adminID uint64, approve bool, in DecisionInput, call *providerRefund) (*Request, error) {
	var (
		out   *Request
		again bool // already decided this way: a double submit, no error
	)
	err := rs.s.DB.Update(func(tx Tx) error {
		again = false
		r, err := tx.Request(storeID, kind, id)
		if err != nil {
			return err
		}
		if r.Status != RequestPending {
			// A second click on the same button: already done, nothing to do.
			if (r.Status == RequestApproved) == approve {
				out, again = r, true
				return nil
			}
			return Errorf(EConflict, "this request was already %s", strings.ToLower(r.Status))
		}
		o, err := tx.Order(storeID, r.OrderID)
		if err != nil {
			return err
		}
		now := UTC(tx.Now())
		if call == nil && r.RefundingSince != nil && now.Sub(*r.RefundingSince) < refundLease {
			return Errorf(EConflict, "a refund of this request is being made at the payment provider; try again in a moment")
		}
		if err := applyDecision(tx, kind, r, o, adminID, approve, in, call, now); err != nil {
			return err
		}
		if approve && kind == KindCancellation {
			if err := rs.s.OrderCancelled(tx, o, "request"); err != nil {
				return err
			}
		}
		ev := EvCancellationDecided
		if kind == KindRefund {
			ev = EvRefundDecided
		}
		out = r
		return rs.s.Happened(tx, Change{Type: ev, StoreID: storeID, Order: o, Request: r})
	})
	if err != nil {
		return nil, err
	}
	if again {
		return out, nil
	}
	rs.s.Kick()
	return out, nil
}

// applyDecision applies an approval's effect to the order (a provider
// refund already made, a cancellation, a refund) and records the decision
// on the request.
func applyDecision(tx decisionTx, kind string, r *Request, o *Order, adminID uint64, approve bool, in DecisionInput, call *providerRefund, now time.Time) error {
	if approve {
		var err error
		switch {
		case call != nil:
			err = recordProviderRefund(tx, o, r, call, now)
		case kind == KindCancellation:
			err = approveCancellationRequest(tx, o, now)
		case kind == KindRefund:
			err = approveRefundRequest(tx, o, r, now)
		}
		if err == nil {
			err = putCredited(tx, o, now)
		}
		if err != nil {
			return err
		}
		if kind == KindRefund {
			r.RefundMethod = in.RefundMethod
			if err := applyRestock(tx, o, r.Restock); err != nil {
				return err
			}
		}
		r.Status = RequestApproved
	} else {
		r.Status = RequestRejected
	}
	r.RefundingSince, r.ProviderError = nil, ""
	r.AdminNote = in.AdminNote
	r.ReviewedBy = adminID
	r.ReviewedAt = &now
	return tx.PutRequest(r)
}

func approveCancellationRequest(tx cancelTx, o *Order, now time.Time) error {
	if o.Status != OrderPending && o.Status != OrderConfirmed {
		return Errorf(EInvalidOrderState, "the order is %s now and can no longer be cancelled", o.Status)
	}
	if o.PaymentStatus == PaymentPaid || o.PaymentStatus == PaymentPartiallyRefunded {
		o.PaymentStatus = PaymentRefunded
		o.RefundedAmount = o.Total
	}
	return CancelOrder(tx, o, now)
}

// storeRefundable are the order statuses the store may refund on its own
// (StoreRefund) when money was taken: CANCELLED covers a payment that
// arrived after the order had expired or been cancelled.
var storeRefundable = []string{OrderConfirmed, OrderDelivered, OrderCompleted, OrderCancelled}

// checkRefundable reports whether a refund request still fits its order.
func checkRefundable(o *Order, r *Request) error {
	if o.Status != OrderDelivered && o.Status != OrderCompleted && !(r.ByStore && oneOf(o.Status, storeRefundable)) {
		return Errorf(EInvalidOrderState, "the order is %s now and cannot be refunded", o.Status)
	}
	if r.Amount > o.Refundable() {
		return Errorf(EConflict, "the refund of %s exceeds the %s not yet refunded", r.Amount, o.Refundable())
	}
	return nil
}

// recordProviderRefund records a refund the provider made for r on o. The
// refunded amount only grows, to the most of what this refund brings
// (RefundBase + amount) and what the provider reported meanwhile
// (charge.refunded), so the webhook and this record agree in any order.
func recordProviderRefund(tx cancelTx, o *Order, r *Request, call *providerRefund, now time.Time) error {
	o.ProviderRefunds = append(o.ProviderRefunds, ProviderRefundRecord{ID: call.refundID, Amount: call.amount,
		RequestKind: r.Kind, RequestID: r.ID, At: now})
	r.ProviderRefundID = call.refundID
	raiseRefunded(o, r.RefundBase+call.amount)
	o.UpdatedAt = now
	if r.Kind == KindCancellation {
		return CancelOrder(tx, o, now)
	}
	return tx.PutOrder(o)
}

// raiseRefunded sets what an order had refunded to at least amount (at most
// its total) and its payment status to match.
func raiseRefunded(o *Order, amount Money) {
	o.RefundedAmount = max(o.RefundedAmount, min(amount, o.Total))
	switch {
	case o.RefundedAmount >= o.Total:
		o.PaymentStatus = PaymentRefunded
	case o.RefundedAmount > 0:
		o.PaymentStatus = PaymentPartiallyRefunded
	}
}

// recordRefunded records what a provider reports refunded on a session's
// payment (a refund made at the provider, ours or the store's own).
func recordRefunded(db DB, sess *PaymentSession, refunded Money) (*Order, error) {
	var o *Order
	err := db.Update(func(tx Tx) error {
		var err error
		if o, err = tx.Order(sess.StoreID, sess.OrderID); err != nil {
			return err
		}
		if refunded <= o.RefundedAmount || (o.PaymentStatus != PaymentPaid && o.PaymentStatus != PaymentPartiallyRefunded) {
			return nil
		}
		raiseRefunded(o, refunded)
		o.UpdatedAt = UTC(tx.Now())
		if _, err := creditRefunds(tx, o, o.UpdatedAt); err != nil {
			return err
		}
		return tx.PutOrder(o)
	})
	return o, err
}

func approveRefundRequest(tx OrderTx, o *Order, r *Request, now time.Time) error {
	if err := checkRefundable(o, r); err != nil {
		return err
	}
	o.RefundedAmount += r.Amount
	if o.RefundedAmount >= o.Total {
		o.PaymentStatus = PaymentRefunded
	} else {
		o.PaymentStatus = PaymentPartiallyRefunded
	}
	o.UpdatedAt = now
	return tx.PutOrder(o)
}
