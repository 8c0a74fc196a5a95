package app

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Payment session statuses.
const (
	SessionOpen = "OPEN"
	SessionPaid = "PAID"
)

// PaymentSession is one payment of an order at a gateway. A session may be
// attempted again after a failure until it is paid; every verified attempt
// is recorded by its transaction id so a repeated verification of the same
// attempt returns the same outcome and changes nothing.
type PaymentSession struct {
	ID          string           `json:"id"`
	StoreID     uint64           `json:"store_id"`
	Seq         uint64           `json:"seq"`
	OrderID     uint64           `json:"order_id"`
	Method      string           `json:"method"`
	Amount      Money            `json:"amount"`
	Currency    string           `json:"currency"`
	CallbackURL string           `json:"callback_url"`
	Status      string           `json:"status"`
	PaidTxID    string           `json:"paid_transaction_id,omitempty"`
	Attempts    []PaymentAttempt `json:"attempts"`
	CreatedAt   time.Time        `json:"created_at"`
	UpdatedAt   time.Time        `json:"updated_at"`
}

// PaymentAttempt is one verified gateway outcome of a session.
type PaymentAttempt struct {
	TransactionID string    `json:"transaction_id"`
	Success       bool      `json:"success"`
	Message       string    `json:"message"`
	At            time.Time `json:"at"`
}

// SessionID is the wire id of a session: "ps_", the store id and the
// session's per-store sequence number in hex, and a random part that makes it
// unguessable ("ps_1_2a_9f86d081884c7d659a2feaa0").
func SessionID(storeID, seq uint64, secret string) string {
	return "ps_" + strconv.FormatUint(storeID, 16) + "_" + strconv.FormatUint(seq, 16) + "_" + secret
}

// parseSessionID returns the store and sequence number a session id names.
func parseSessionID(id string) (storeID, seq uint64, ok bool) {
	rest, found := strings.CutPrefix(id, "ps_")
	parts := strings.Split(rest, "_")
	if !found || len(id) > 100 || len(parts) != 3 || parts[2] == "" {
		return 0, 0, false
	}
	sid, err1 := strconv.ParseUint(parts[0], 16, 64)
	n, err2 := strconv.ParseUint(parts[1], 16, 64)
	return sid, n, err1 == nil && err2 == nil && sid != 0 && n != 0
}

// loadSession reads the session a wire id names; a wrong random part is
// not_found like an unknown id.
func loadSession(tx Tx, id string) (*PaymentSession, error) {
	sid, n, ok := parseSessionID(id)
	if !ok {
		return nil, NotFound("payment session")
	}
	ps, err := tx.PaymentSession(sid, n)
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(ps.ID), []byte(id)) != 1 {
		return nil, NotFound("payment session")
	}
	return ps, nil
}

// attempt returns the recorded attempt with the transaction id, or nil.
func (ps *PaymentSession) attempt(txID string) *PaymentAttempt {
	for i := range ps.Attempts {
		if ps.Attempts[i].TransactionID == txID {
			return &ps.Attempts[i]
		}
	}
	return nil
}

// GatewayResult is what a gateway makes of the parameters the shopper came
// back with. Valid false means the parameters are not the gateway's (forged,
// another amount, another session): nothing is recorded.
type GatewayResult struct {
	Valid         bool
	Paid          bool
	TransactionID string
	Message       string
}

// Gateway is one payment provider behind a payment method (decisions.md §6).
type Gateway interface {
	// Method is the payment method code it serves (WALLET_A, WALLET_B).
	Method() string
	// RedirectURL is where the shopper is sent to pay for ps.
	RedirectURL(ps *PaymentSession) string
	// Check verifies the provider parameters of a return to callback_url.
	Check(ps *PaymentSession, params map[string]string) GatewayResult
}

// Sandbox outcomes, posted by the sandbox page's buttons.
const (
	OutcomeSuccess = "success"
	OutcomeFailure = "failure"
)

// SandboxGateway is the built-in gateway: a page on this server
// ({public_url}/sandbox/pay/{session}/) that pays or fails a session and
// returns the shopper to callback_url with signed parameters.
type SandboxGateway struct {
	Code      string
	Secret    []byte
	PublicURL string
}

// Method implements Gateway.
func (g *SandboxGateway) Method() string { return g.Code }

// RedirectURL implements Gateway.
func (g *SandboxGateway) RedirectURL(ps *PaymentSession) string {
	return g.PublicURL + "/sandbox/pay/" + url.PathEscape(ps.ID) + "/"
}

// Sign is the signature of the sandbox's return parameters: hex HMAC-SHA256
// with the gateway's secret over payment_session_id, outcome, transaction_id
// and amount, in that order, joined by "\n".
func (g *SandboxGateway) Sign(sessionID, outcome, txID, amount string) string {
	m := hmac.New(sha256.New, g.Secret)
	m.Write([]byte(sessionID + "\n" + outcome + "\n" + txID + "\n" + amount))
	return hex.EncodeToString(m.Sum(nil))
}

// Params are the query parameters the sandbox returns to callback_url with.
func (g *SandboxGateway) Params(ps *PaymentSession, outcome, txID string) url.Values {
	amount := ps.Amount.String()
	return url.Values{
		"payment_session_id": {ps.ID},
		"outcome":            {outcome},
		"transaction_id":     {txID},
		"amount":             {amount},
		"signature":          {g.Sign(ps.ID, outcome, txID, amount)},
	}
}

// Check implements Gateway: the signature, the session and the amount must
// match; then the outcome decides.
func (g *SandboxGateway) Check(ps *PaymentSession, p map[string]string) GatewayResult {
	sig, err := hex.DecodeString(p["signature"])
	want, _ := hex.DecodeString(g.Sign(p["payment_session_id"], p["outcome"], p["transaction_id"], p["amount"]))
	switch {
	case err != nil || !hmac.Equal(sig, want):
		return GatewayResult{Message: "the payment could not be verified: bad signature"}
	case p["payment_session_id"] != ps.ID:
		return GatewayResult{Message: "the payment could not be verified: another session"}
	case p["amount"] != ps.Amount.String():
		return GatewayResult{Message: "the payment could not be verified: the amount differs"}
	case p["transaction_id"] == "" || len(p["transaction_id"]) > 100:
		return GatewayResult{Message: "the payment could not be verified: no transaction"}
	}
	r := GatewayResult{Valid: true, TransactionID: p["transaction_id"]}
	switch p["outcome"] {
	case OutcomeSuccess:
		r.Paid, r.Message = true, "payment received"
	case OutcomeFailure:
		r.Message = "the payment failed; you may try again"
	default:
		r.Valid, r.Message = false, "the payment could not be verified: unknown outcome"
	}
	return r
}

// PaymentService owns the gateways, the sandbox and verification.
type PaymentService struct {
	s      paymentDeps
	commit *groupCommit // shared with OrderService

	mu       sync.Mutex
	gateways map[string]Gateway
}

func newPaymentService(d paymentDeps, commit *groupCommit) *PaymentService {
	return &PaymentService{s: d, commit: commit, gateways: map[string]Gateway{}}
}

// SetGateway replaces the gateway of a payment method (a configured provider).
func (ps *PaymentService) SetGateway(g Gateway) {
	ps.mu.Lock()
	ps.gateways[g.Method()] = g
	ps.mu.Unlock()
}

// Gateway returns the gateway of a payment method: the configured one, or
// the sandbox with Opt.GatewaySecrets[method] (a database secret when unset).
func (ps *PaymentService) Gateway(method string) (Gateway, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if g, ok := ps.gateways[method]; ok {
		return g, nil
	}
	if method != WalletA && method != WalletB {
		return nil, Invalid("payment_method", "must be one of WALLET_A, WALLET_B")
	}
	secret := ps.s.Opt.GatewaySecrets[method]
	if len(secret) == 0 {
		var err error
		if secret, err = ps.s.DB.Secret("gateway:" + method); err != nil {
			return nil, err
		}
	}
	g := &SandboxGateway{Code: method, Secret: secret, PublicURL: strings.TrimSuffix(ps.s.Opt.PublicURL, "/")}
	ps.gateways[method] = g
	return g, nil
}

// sandbox returns the sandbox gateway of a method, or not_found when a real
// provider serves it (the sandbox pages are then closed for it).
func (ps *PaymentService) sandbox(method string) (*SandboxGateway, error) {
	g, err := ps.Gateway(method)
	if err != nil {
		return nil, err
	}
	sb, ok := g.(*SandboxGateway)
	if !ok {
		return nil, NotFound("payment session")
	}
	return sb, nil
}

// VerifyResult is the data of payment verification (endpoint 9).
type VerifyResult struct {
	Success bool   `json:"success"`
	OrderID uint64 `json:"order_id"`
	Status  string `json:"status"`
	Message string `json:"message"`
}

// session reads a session of the store (not_found otherwise).
func (ps *PaymentService) session(storeID uint64, id string) (*PaymentSession, error) {
	var out *PaymentSession
	err := ps.s.DB.View(func(tx Tx) error {
		var err error
		out, err = loadSession(tx, id)
		if err == nil && storeID != 0 && out.StoreID != storeID {
			err = NotFound("payment session")
		}
		return err
	})
	return out, err
}

// Verify checks a return from the gateway and settles the order: a paid
// attempt moves PENDING to CONFIRMED (PAID) and removes the ordered lines
// from the shopper's cart; a failed one marks the payment FAILED and leaves
// the order PENDING to be paid again. Everything is decided inside one write
// transaction, so repeated and concurrent verifications agree.
// Errors: validation_failed, not_found (unknown session).
func (ps *PaymentService) Verify(storeID uint64, sessionID string, params map[string]string) (VerifyResult, error) {
	var res VerifyResult
	if sessionID == "" {
		return res, Invalid("payment_session_id", "is required")
	}
	sess, err := ps.session(storeID, sessionID)
	if err != nil {
		return res, err
	}
	gw, err := ps.Gateway(sess.Method)
	if err != nil {
		return res, err
	}
	if params == nil {
		params = map[string]string{}
	}
	if _, ok := params["payment_session_id"]; !ok {
		params["payment_session_id"] = sessionID
	}
	// Batched with concurrent checkouts; the function decides everything from
	// what it reads, so a second run reaches the same result.
	err = ps.commit.run(ps.s.DB, func(tx Tx) error {
		sess, err := loadSession(tx, sessionID)
		if err != nil {
			return err
		}
		o, err := tx.Order(sess.StoreID, sess.OrderID)
		if err != nil {
			return err
		}
		res = VerifyResult{OrderID: o.ID, Status: o.Status}
		if sess.Status == SessionPaid {
			res.Success, res.Message = true, "payment received"
			return nil
		}
		gr := gw.Check(sess, params)
		now := UTC(tx.Now())
		if !gr.Valid {
			// A wrong signature or amount is a failed payment (decisions §6):
			// the order shows FAILED and can be paid again. Nothing is recorded
			// under the forged transaction id, so it cannot shadow a real one.
			res.Message = gr.Message
			if o.Status != OrderPending || o.PaymentStatus == PaymentFailed {
				return nil
			}
			o.PaymentStatus, o.UpdatedAt = PaymentFailed, now
			return tx.PutOrder(o)
		}
		if a := sess.attempt(gr.TransactionID); a != nil {
			res.Success, res.Message = a.Success, a.Message
			return nil
		}
		if o.Status != OrderPending {
			res.Message = "the order is no longer awaiting payment (" + strings.ToLower(o.Status) + ")"
			if !gr.Paid || o.PaymentStatus == PaymentPaid {
				return nil
			}
			// The gateway took money for an order cancelled meanwhile (expired,
			// or a cancellation approved while the shopper paid): keep the
			// attempt and mark the order PAID, so the store sees it must refund.
			sess.Attempts = append(sess.Attempts, PaymentAttempt{TransactionID: gr.TransactionID, Success: false, Message: res.Message, At: now})
			sess.UpdatedAt = now
			o.PaymentStatus, o.UpdatedAt = PaymentPaid, now
			res.Message += "; the payment is recorded and the store will refund it"
			ps.s.Log.Warn("payment received for an order no longer pending: refund due",
				"store_id", o.StoreID, "order_id", o.ID, "status", o.Status)
			if err := tx.PutPaymentSession(sess); err != nil {
				return err
			}
			return tx.PutOrder(o)
		}
		sess.Attempts = append(sess.Attempts, PaymentAttempt{TransactionID: gr.TransactionID, Success: gr.Paid, Message: gr.Message, At: now})
		sess.UpdatedAt = now
		o.UpdatedAt = now
		if gr.Paid {
			sess.Status, sess.PaidTxID = SessionPaid, gr.TransactionID
			o.Status, o.PaymentStatus = OrderConfirmed, PaymentPaid
			if err := removeOrdered(tx, o); err != nil {
				return err
			}
		} else {
			o.PaymentStatus = PaymentFailed
		}
		if err := tx.PutPaymentSession(sess); err != nil {
			return err
		}
		if err := tx.PutOrder(o); err != nil {
			return err
		}
		res = VerifyResult{Success: gr.Paid, OrderID: o.ID, Status: o.Status, Message: gr.Message}
		return nil
	})
	return res, err
}

// SandboxView is what the sandbox page shows.
type SandboxView struct {
	SessionID string
	StoreName string
	Amount    string
	Currency  string
	Method    string
	OrderID   uint64
	Payable   bool
	Note      string
}

// SandboxPage describes a session for the sandbox page. Errors: not_found.
func (ps *PaymentService) SandboxPage(sessionID string) (SandboxView, error) {
	var v SandboxView
	err := ps.s.DB.View(func(tx Tx) error {
		sess, err := loadSession(tx, sessionID)
		if err != nil {
			return err
		}
		o, err := tx.Order(sess.StoreID, sess.OrderID)
		if err != nil {
			return err
		}
		st, err := tx.Store(sess.StoreID)
		if err != nil {
			return err
		}
		v = SandboxView{SessionID: sess.ID, StoreName: st.Name, Amount: sess.Amount.String(), Currency: sess.Currency,
			Method: sess.Method, OrderID: o.ID, Payable: o.Status == OrderPending && sess.Status != SessionPaid}
		switch {
		case sess.Status == SessionPaid:
			v.Note = "This payment has already been made."
		case o.Status != OrderPending:
			v.Note = "This order can no longer be paid (" + strings.ToLower(o.Status) + ")."
		}
		return nil
	})
	if err != nil {
		return v, err
	}
	if _, err := ps.sandbox(v.Method); err != nil {
		return v, err
	}
	return v, nil
}

// SandboxPay is the sandbox's answer to the Pay or Fail button: the URL the
// shopper is sent back to (callback_url with the signed parameters).
// Errors: not_found, validation_failed (outcome), invalid_order_state (paid or cancelled).
func (ps *PaymentService) SandboxPay(sessionID, outcome string) (string, error) {
	if outcome != OutcomeSuccess && outcome != OutcomeFailure {
		return "", Invalid("outcome", "must be success or failure")
	}
	sess, err := ps.session(0, sessionID)
	if err != nil {
		return "", err
	}
	view, err := ps.SandboxPage(sessionID)
	if err != nil {
		return "", err
	}
	if !view.Payable {
		return "", Errorf(EInvalidOrderState, "%s", view.Note)
	}
	sb, err := ps.sandbox(sess.Method)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(sess.CallbackURL)
	if err != nil {
		return "", err
	}
	q := u.Query()
	for k, vs := range sb.Params(sess, outcome, "sbx_"+RandomHex(12)) {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}
