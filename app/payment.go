package app

import (
	"context"
	"crypto/subtle"
	"net/url"
	"slices"
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
	Provider    string           `json:"provider,omitempty"`     // "" is the sandbox (sessions made before providers)
	Test        bool             `json:"test,omitempty"`         // a test payment (the sandbox)
	ProviderRef string           `json:"provider_ref,omitempty"` // the provider's session id
	RedirectURL string           `json:"redirect_url,omitempty"` // where the shopper pays (remote providers)
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
func loadSession(tx PaymentTx, id string) (*PaymentSession, error) {
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

// GatewayResult is what a gateway makes of a payment. Valid false means
// the gateway could not confirm an outcome (forged parameters, another
// amount or session, a payment not completed yet): nothing is recorded
// under a transaction id. Expired means the provider closed the session
// unpaid: the order is cancelled and its stock released.
type GatewayResult struct {
	Valid         bool
	Paid          bool
	Expired       bool
	TransactionID string
	Message       string
}

// PaymentService owns the gateways, the sandbox, verification, the
// providers' webhooks and refunds at the provider.
type PaymentService struct {
	s paymentDeps

	mu        sync.Mutex
	remotes   map[string]map[string]Gateway // method → provider → a remote gateway
	sandboxes map[string]Gateway            // method → the sandbox
	allowed   map[string][]string           // method → the providers stores may choose (nil: all registered)
	defaults  map[string]string             // method → the provider of stores that chose none
	accounts  map[string]GatewayAccount     // server-wide default account per method
}

func newPaymentService(d paymentDeps) *PaymentService {
	return &PaymentService{s: d, remotes: map[string]map[string]Gateway{}, sandboxes: map[string]Gateway{},
		allowed: map[string][]string{}, defaults: map[string]string{}, accounts: map[string]GatewayAccount{}}
}

// SetGateway makes g the only provider of its payment method (as a
// configured `provider:` without `providers:` does), with acct as the
// default account of stores that set none.
func (ps *PaymentService) SetGateway(g Gateway, acct GatewayAccount) {
	ps.RegisterGateway(g, acct)
	ps.AllowProviders(g.Method(), []string{g.Provider()}, g.Provider())
}

// RegisterGateway makes a remote gateway available to its method (a store
// may choose it when its provider is allowed), with acct as the default
// account of stores that set none.
func (ps *PaymentService) RegisterGateway(g Gateway, acct GatewayAccount) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if g.Provider() == ProviderSandbox {
		ps.sandboxes[g.Method()] = g
		return
	}
	if ps.remotes[g.Method()] == nil {
		ps.remotes[g.Method()] = map[string]Gateway{}
	}
	ps.remotes[g.Method()][g.Provider()] = g
	ps.accounts[g.Method()] = acct
}

// AllowProviders sets the providers stores may choose for a method and the
// one of stores that chose none (def; "" = the first allowed).
func (ps *PaymentService) AllowProviders(method string, allowed []string, def string) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.allowed[method] = append([]string(nil), allowed...)
	if def == "" && len(allowed) > 0 {
		def = allowed[0]
	}
	ps.defaults[method] = def
}

// Gateway returns the gateway of a payment method for stores that chose
// no provider: the server's default (the sandbox unless configured).
func (ps *PaymentService) Gateway(method string) (Gateway, error) {
	if method != WalletA && method != WalletB {
		return nil, Invalid("payment_method", "must be one of WALLET_A, WALLET_B")
	}
	ps.mu.Lock()
	def := ps.defaults[method]
	ps.mu.Unlock()
	return ps.gatewayOf(method, def)
}

// gatewayOf returns the gateway of a method's provider ("" and sandbox: the
// sandbox with Opt.GatewaySecrets[method], a database secret when unset).
func (ps *PaymentService) gatewayOf(method, provider string) (Gateway, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if provider != "" && provider != ProviderSandbox {
		if g, ok := ps.remotes[method][provider]; ok {
			return g, nil
		}
		return nil, ProviderUnavailable("%s is not served by %s on this server", method, provider)
	}
	if g, ok := ps.sandboxes[method]; ok {
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
	ps.sandboxes[method] = g
	return g, nil
}

// Account returns the account a store's method acts for: the store's own
// credentials when it set a secret key, else the server-wide default.
func (ps *PaymentService) Account(st *Store, method string) GatewayAccount {
	if c, ok := st.Gateways[method]; ok && c.SecretKey != "" {
		return c
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.accounts[method]
}

// IsTestKey reports a Stripe test-mode key (sk_test_..., rk_test_...).
func IsTestKey(key string) bool {
	return strings.HasPrefix(key, "sk_test_") || strings.HasPrefix(key, "rk_test_")
}

// MethodTest reports whether a store's payments through g are test
// payments: g is the sandbox, or the account it acts for has a test key.
func (ps *PaymentService) MethodTest(st *Store, g Gateway) bool {
	return g.Test() || (g.Remote() && IsTestKey(ps.Account(st, g.Method()).SecretKey))
}

// TestMethods returns the payment methods of a store that take test
// payments (the sandbox or a test key), in order; empty when the store is live.
func (ps *PaymentService) TestMethods(st *Store) []string {
	set := st.Settings()
	out := []string{}
	if set.PaymentsLive {
		return out
	}
	for _, m := range []string{WalletA, WalletB} {
		if !set.MethodEnabled(m) {
			continue
		}
		if g, err := ps.GatewayFor(st, m); err == nil && ps.MethodTest(st, g) {
			out = append(out, m)
		}
	}
	return out
}

// OfferedMethod is a payment method a store's checkout accepts, as
// GET payment-methods/ lists it.
type OfferedMethod struct {
	Code string `json:"code"`
	Name string `json:"name"`
	// Test: payments through it are test payments (no money moves).
	Test bool `json:"test"`
}

// OfferedMethods returns the methods a store's checkout accepts: offered
// in its config, with a gateway that can serve it (a remote provider needs
// credentials), and in test mode only while the store is not live.
func (ps *PaymentService) OfferedMethods(st *Store) []OfferedMethod {
	set := st.Settings()
	out := []OfferedMethod{}
	for _, m := range set.PaymentMethods {
		g, err := ps.GatewayFor(st, m["code"])
		if err != nil || (g.Remote() && ps.Account(st, g.Method()).SecretKey == "") {
			continue
		}
		test := ps.MethodTest(st, g)
		if test && set.PaymentsLive {
			continue
		}
		out = append(out, OfferedMethod{Code: m["code"], Name: m["name"], Test: test})
	}
	return out
}

// Accepts reports whether a store's checkout accepts any payment method
// (OfferedMethods is not empty); an unknown store accepts none.
func (ps *PaymentService) Accepts(storeID uint64) bool {
	st, err := ps.s.Stores.Cached(storeID)
	return err == nil && len(ps.OfferedMethods(st)) > 0
}

// TakesTestPayments reports whether a store's checkout takes test payments
// (a method it offers is served by the sandbox and payments_live is off):
// the panel dashboard shows a banner then.
func (ps *PaymentService) TakesTestPayments(st *Store) bool { return len(ps.TestMethods(st)) > 0 }

// sandbox returns the sandbox gateway of a method, or not_found when the
// server does not allow the sandbox for it (the sandbox pages are closed).
func (ps *PaymentService) sandbox(method string) (*SandboxGateway, error) {
	if !slices.Contains(ps.AllowedProviders(method), ProviderSandbox) {
		return nil, NotFound("payment session")
	}
	g, err := ps.gatewayOf(method, ProviderSandbox)
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

// Verify checks a return from the gateway and settles the order (endpoint
// 9). The gateway decides outside any transaction (a remote one asks its
// provider: query parameters are never trusted), then settle applies the
// outcome in one write transaction, so repeated and concurrent
// verifications and webhooks agree: one transition, once.
// Errors: validation_failed, not_found (unknown session),
// payment_provider_unavailable.
func (ps *PaymentService) Verify(storeID uint64, sessionID string, params map[string]string) (VerifyResult, error) {
	var res VerifyResult
	if sessionID == "" {
		return res, Invalid("payment_session_id", "is required")
	}
	sess, err := ps.session(storeID, sessionID)
	if err != nil {
		return res, err
	}
	gw, err := ps.sessionGateway(sess)
	if err != nil {
		return res, err
	}
	if params == nil {
		params = map[string]string{}
	}
	if _, ok := params["payment_session_id"]; !ok {
		params["payment_session_id"] = sessionID
	}
	var gr GatewayResult
	if sess.Status != SessionPaid {
		if sess.Provider != "" && sess.Provider != gw.Provider() {
			return res, ProviderUnavailable("this payment was made with %s, which no longer serves %s", sess.Provider, sess.Method)
		}
		acct := GatewayAccount{}
		if gw.Remote() {
			st, err := ps.s.Stores.Get(sess.StoreID)
			if err != nil {
				return res, err
			}
			acct = ps.Account(st, sess.Method)
		}
		ctx, cancel := context.WithTimeout(context.Background(), providerTimeout)
		gr, err = gw.Check(ctx, acct, sess, params)
		cancel()
		if err != nil {
			return res, err
		}
	}
	return ps.settle(sessionID, gr)
}

// providerTimeout bounds one call to a payment provider.
const providerTimeout = 30 * time.Second

// settle applies a gateway's outcome to a session and its order, in one
// write transaction that decides from what it reads: a paid session stays
// paid (duplicates and late events change nothing); a paid outcome moves
// PENDING to CONFIRMED (PAID) and removes the ordered lines from the
// shopper's cart; a failed one marks the payment FAILED and leaves the order
// PENDING to be paid again; an expired one cancels a PENDING unpaid order
// and releases its stock.
func (ps *PaymentService) settle(sessionID string, gr GatewayResult) (VerifyResult, error) {
	var res VerifyResult
	// Batched with concurrent checkouts; the function decides everything from
	// what it reads, so a second run reaches the same result.
	err := ps.s.DB.Batch(func(tx Tx) error {
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
		now := UTC(tx.Now())
		if !gr.Valid {
			// A wrong signature or amount is a failed payment (decisions §6):
			// the order shows FAILED and can be paid again. Nothing is recorded
			// under the forged transaction id, so it cannot shadow a real one.
			res.Message = gr.Message
			return ps.settleInvalid(tx, o, gr, now, &res)
		}
		if a := sess.attempt(gr.TransactionID); a != nil {
			res.Success, res.Message = a.Success, a.Message
			return nil
		}
		if o.Status != OrderPending {
			return ps.settleLate(tx, sess, o, gr, now, &res)
		}
		if err := ps.settleAttempt(tx, sess, o, gr, now); err != nil {
			return err
		}
		res = VerifyResult{Success: gr.Paid, OrderID: o.ID, Status: o.Status, Message: gr.Message}
		return nil
	})
	ps.s.Kick()
	return res, err
}

// settleInvalid applies an invalid outcome to a pending order: an expired
// session cancels it, anything else marks its payment FAILED.
func (ps *PaymentService) settleInvalid(tx settleInvalidTx, o *Order, gr GatewayResult, now time.Time, res *VerifyResult) error {
	if o.Status != OrderPending || o.PaymentStatus == PaymentPaid {
		return nil
	}
	if gr.Expired {
		// The provider closed the session unpaid: the order can no
		// longer be paid, so it is cancelled as the expiry job would.
		o.PaymentStatus = PaymentFailed
		if err := CancelOrder(tx, o, now); err != nil {
			return err
		}
		res.Status = o.Status
		return ps.s.OrderCancelled(tx, o, "expired")
	}
	if o.PaymentStatus == PaymentFailed {
		return nil
	}
	o.PaymentStatus, o.UpdatedAt = PaymentFailed, now
	return tx.PutOrder(o)
}

// settleLate applies an outcome to an order no longer pending: money taken
// meanwhile is recorded (the order PAID, for the store to refund).
func (ps *PaymentService) settleLate(tx settleLateTx, sess *PaymentSession, o *Order, gr GatewayResult, now time.Time, res *VerifyResult) error {
	res.Message = "the order is no longer awaiting payment (" + strings.ToLower(o.Status) + ")"
	if !gr.Paid || o.PaymentStatus == PaymentPaid {
		return nil
	}
	// The gateway took money for an order cancelled meanwhile (expired,
	// or a cancellation approved while the shopper paid): keep the
	// attempt and mark the order PAID, so the store sees it must refund.
	sess.Attempts = append(sess.Attempts, PaymentAttempt{TransactionID: gr.TransactionID, Success: false, Message: res.Message, At: now})
	sess.UpdatedAt = now
	sess.PaidTxID = gr.TransactionID
	o.PaymentStatus, o.UpdatedAt = PaymentPaid, now
	if err := assignInvoice(tx, o, now); err != nil {
		return err
	}
	res.Message += "; the payment is recorded and the store will refund it"
	ps.s.Log.Warn("payment received for an order no longer pending: refund due",
		"store_id", o.StoreID, "order_id", o.ID, "status", o.Status)
	if err := tx.PutPaymentSession(sess); err != nil {
		return err
	}
	return tx.PutOrder(o)
}

// settleAttempt records a new attempt on a pending order: paid confirms
// it (events, cart lines removed), failed marks its payment FAILED.
func (ps *PaymentService) settleAttempt(tx settleTx, sess *PaymentSession, o *Order, gr GatewayResult, now time.Time) error {
	sess.Attempts = append(sess.Attempts, PaymentAttempt{TransactionID: gr.TransactionID, Success: gr.Paid, Message: gr.Message, At: now})
	sess.UpdatedAt = now
	o.UpdatedAt = now
	if gr.Paid {
		sess.Status, sess.PaidTxID = SessionPaid, gr.TransactionID
		o.Status, o.PaymentStatus = OrderConfirmed, PaymentPaid
		if err := assignInvoice(tx, o, now); err != nil {
			return err
		}
		if err := removeOrdered(tx, o); err != nil {
			return err
		}
		if err := ps.s.Happened(tx, Change{Type: EvOrderPaid, StoreID: o.StoreID, Order: o}); err != nil {
			return err
		}
		if err := ps.s.Happened(tx, Change{Type: EvOrderStatusChanged, StoreID: o.StoreID, Order: o}); err != nil {
			return err
		}
	} else {
		o.PaymentStatus = PaymentFailed
	}
	if err := tx.PutPaymentSession(sess); err != nil {
		return err
	}
	return tx.PutOrder(o)
}

// Webhook handles a provider's signed event for a store (POST
// /api/v1/payments/{provider}/webhook/{store_id}/). The signature is checked
// with the webhook secret of each of the store's methods the provider
// serves; a bad one is validation_failed and changes nothing. Paid, expired
// and refunded events settle through the same transactions as verification
// and refunds, so duplicates and any order of arrival are harmless. It
// returns a short note of what it did. Errors: validation_failed,
// not_found (store), payment_provider_unavailable.
func (ps *PaymentService) Webhook(provider string, storeID uint64, payload []byte, header string) (string, error) {
	st, err := ps.s.Stores.Get(storeID)
	if err != nil {
		return "", err
	}
	gw, secrets, accts := ps.webhookGateway(st, provider)
	if gw == nil || len(secrets) == 0 {
		return "", Invalid("Stripe-Signature", "this store has no webhook secret for "+provider)
	}
	ev, err := gw.ParseEvent(payload, header, secrets)
	if err != nil {
		return "", err
	}
	switch ev.Kind {
	case EventSessionCompleted, EventSessionExpired:
		sess, err := ps.session(storeID, ev.Session.Reference)
		if err != nil {
			return "ignored: not a payment session of this store", nil
		}
		if sess.Provider != provider {
			return "ignored: not a " + provider + " session", nil
		}
		r, err := ps.settle(sess.ID, JudgeSession(sess, ev.Session))
		if err != nil {
			return "", err
		}
		return "order " + strconv.FormatUint(r.OrderID, 10) + " is " + r.Status, nil
	case EventPaymentRefunded:
		return ps.webhookRefunded(gw, accts, provider, storeID, ev)
	}
	return "ignored: " + ev.Type, nil
}

// webhookGateway is the gateway of provider for a store's webhook, with the
// webhook secrets (and their accounts) of the store's methods it serves.
func (ps *PaymentService) webhookGateway(st *Store, provider string) (gw Gateway, secrets []string, accts []GatewayAccount) {
	for _, m := range []string{WalletA, WalletB} {
		// The provider's own gateway, whatever the store chose now: events of
		// sessions opened before a change of provider still settle.
		g, err := ps.gatewayOf(m, provider)
		if err != nil || g.Provider() != provider {
			continue
		}
		gw = g
		if a := ps.Account(st, m); a.WebhookSecret != "" {
			secrets = append(secrets, a.WebhookSecret)
			accts = append(accts, a)
		}
	}
	return gw, secrets, accts
}

// webhookRefunded records a refund made at the provider (a refunded
// payment event) on the order of its session.
func (ps *PaymentService) webhookRefunded(gw Gateway, accts []GatewayAccount, provider string, storeID uint64, ev *GatewayEvent) (string, error) {
	var sessionID string
	var err error
	for _, a := range accts {
		ctx, cancel := context.WithTimeout(context.Background(), providerTimeout)
		sessionID, err = gw.SessionOfPayment(ctx, a, ev.PaymentRef)
		cancel()
		if err == nil {
			break
		}
	}
	if err != nil {
		if ErrorCode(err) == EProviderUnavailable {
			return "", err // the provider retries the event
		}
		return "ignored: unknown payment", nil
	}
	sess, err := ps.session(storeID, sessionID)
	if err != nil || sess.Provider != provider || sess.PaidTxID != ev.PaymentRef {
		return "ignored: not a payment of this store", nil
	}
	if !strings.EqualFold(ev.Currency, sess.Currency) {
		return "ignored: another currency", nil
	}
	o, err := recordRefunded(ps.s.DB, sess, ev.AmountRefunded)
	if err != nil {
		return "", err
	}
	return "order " + strconv.FormatUint(o.ID, 10) + " is " + o.PaymentStatus, nil
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
	Live      bool // the store went live: sandbox payments are refused
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
		if sess.Provider != "" && sess.Provider != ProviderSandbox {
			return NotFound("payment session") // another gateway's (Stripe): never signed here
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
		live := st.Settings().PaymentsLive
		v.Payable = v.Payable && !live
		v.Live = live
		switch {
		case sess.Status == SessionPaid:
			v.Note = "This payment has already been made."
		case live:
			v.Note = "This store takes live payments only: the test sandbox is closed."
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
	if view.Live && sess.Status != SessionPaid {
		return "", &Error{Code: ETestPaymentsRefused, Message: view.Note,
			Fields: map[string]string{"payment_method": "is the test sandbox; this store takes live payments only"}}
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
