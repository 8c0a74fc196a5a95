package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Payment providers a method can be served by (config payments.<method>.provider).
const (
	ProviderSandbox = "sandbox"
	ProviderStripe  = "stripe"
)

// Providers lists the accepted providers.
var Providers = []string{ProviderSandbox, ProviderStripe}

// GatewayAccount is the account a gateway acts for: a store's own
// credentials, or the server-wide default of its method. Never logged,
// never in a response.
type GatewayAccount struct {
	// Provider is the provider the store chose for the method ("" = the
	// server's default); kept here, beside the keys, so it never enters the
	// store's config (or its settings versions).
	Provider      string `json:"provider,omitempty"`
	SecretKey     string `json:"secret_key,omitempty"`
	WebhookSecret string `json:"webhook_secret,omitempty"`
}

// PaymentStart is what a gateway needs to open the provider's side of a
// payment session.
type PaymentStart struct {
	Session    *PaymentSession
	OrderID    uint64 // 0 when the order is not written yet (remote gateways open first)
	StoreName  string
	Email      string
	SuccessURL string // callback_url with payment_session_id and outcome=success
	CancelURL  string // callback_url with payment_session_id and outcome=cancel
	ExpiresAt  time.Time
}

// Started is the provider's side of a new session.
type Started struct {
	RedirectURL string // where the shopper pays
	Ref         string // the provider's id of the session
}

// ProviderSession is what a provider says of a payment session; gateways
// fill it and JudgeSession compares it with ours.
type ProviderSession struct {
	Ref        string // the provider's session id
	Reference  string // our payment session id, as the provider keeps it (client_reference_id)
	Amount     Money  // in our minor units
	Currency   string // upper case
	Paid       bool
	Expired    bool
	PaymentRef string // the provider's payment (intent) id once paid
}

// JudgeSession checks the provider's view of a session against ours: the
// link to our session, the amount and the currency must match, then the
// provider's status decides. Used by every remote gateway, for verification
// and webhooks alike.
func JudgeSession(ps *PaymentSession, p ProviderSession) GatewayResult {
	switch {
	case p.Reference != ps.ID || (ps.ProviderRef != "" && p.Ref != ps.ProviderRef):
		return GatewayResult{Message: "the payment could not be verified: another session"}
	case p.Amount != ps.Amount:
		return GatewayResult{Message: "the payment could not be verified: the amount differs"}
	case !strings.EqualFold(p.Currency, ps.Currency):
		return GatewayResult{Message: "the payment could not be verified: the currency differs"}
	case p.Paid && p.PaymentRef != "":
		return GatewayResult{Valid: true, Paid: true, TransactionID: p.PaymentRef, Message: "payment received"}
	case p.Expired:
		return GatewayResult{Expired: true, Message: "the payment session expired"}
	}
	return GatewayResult{Message: "the payment was not completed; you may try again"}
}

// RefundCall is one refund at the provider. IdempotencyKey makes a retried
// call (after a crash or a time-out) create no second refund.
type RefundCall struct {
	Session        *PaymentSession
	Amount         Money
	IdempotencyKey string
	Reason         string
}

// Gateway event kinds (GatewayEvent.Kind).
const (
	EventSessionCompleted = "session_completed"
	EventSessionExpired   = "session_expired"
	EventPaymentRefunded  = "payment_refunded"
)

// GatewayEvent is a provider's signed notification, decoded.
type GatewayEvent struct {
	ID      string
	Type    string // the provider's type ("checkout.session.completed")
	Kind    string // one of the Event* kinds, "" for an event we ignore
	Session ProviderSession
	// For EventPaymentRefunded: the payment and everything refunded on it so far.
	PaymentRef     string
	AmountRefunded Money
	Currency       string
}

// Gateway is one payment provider behind a payment method (decisions.md
// §6). The sandbox and Stripe Checkout implement it. A Remote gateway talks
// to its provider over the network: services call it outside any database
// transaction, and its errors are payment_provider_unavailable (could not
// reach or use the provider) or payment_provider_declined (the provider
// refused the call).
type Gateway interface {
	// Method is the payment method code it serves (WALLET_A, WALLET_B).
	Method() string
	// Provider is its provider name (sandbox, stripe).
	Provider() string
	// Test reports whether payments through it are test payments (no money moves).
	Test() bool
	// Remote reports whether it calls a provider over the network.
	Remote() bool
	// Start opens the provider's side of a payment session.
	Start(ctx context.Context, acct GatewayAccount, in PaymentStart) (Started, error)
	// Check verifies a payment session: the sandbox from the signed return
	// parameters, a remote gateway by asking its provider (params unused).
	Check(ctx context.Context, acct GatewayAccount, ps *PaymentSession, params map[string]string) (GatewayResult, error)
	// Refund refunds part or all of a paid session; it returns the provider's refund id.
	Refund(ctx context.Context, acct GatewayAccount, in RefundCall) (string, error)
	// ParseEvent verifies a webhook payload's signature with one of the
	// secrets and decodes it. A bad signature is validation_failed.
	ParseEvent(payload []byte, header string, secrets []string) (*GatewayEvent, error)
	// SessionOfPayment returns our payment session id the provider keeps on a payment.
	SessionOfPayment(ctx context.Context, acct GatewayAccount, paymentRef string) (string, error)
}

// KeyChecker is a remote gateway that can check an account's key with one
// call to its provider. A key the provider refuses is validation_failed on
// field; an unreachable provider is payment_provider_unavailable.
type KeyChecker interface {
	CheckKey(ctx context.Context, acct GatewayAccount, field string) error
}

// ProviderUnavailable is the error of a provider that cannot be reached or
// used (network, 5xx, refused credentials, none configured): 502.
func ProviderUnavailable(format string, args ...any) *Error {
	return Errorf(EProviderUnavailable, format, args...)
}

// ProviderDeclined is the error of a provider that refused a call: 409.
func ProviderDeclined(format string, args ...any) *Error {
	return Errorf(EProviderDeclined, format, args...)
}

// Sandbox outcomes, posted by the sandbox page's buttons.
const (
	OutcomeSuccess = "success"
	OutcomeFailure = "failure"
)

// SandboxGateway is the built-in test gateway: a page on this server
// ({public_url}/sandbox/pay/{session}/) that pays or fails a session and
// returns the shopper to callback_url with signed parameters. No money moves.
type SandboxGateway struct {
	Code      string
	Secret    []byte
	PublicURL string
}

var _ Gateway = (*SandboxGateway)(nil)

// Method implements Gateway.
func (g *SandboxGateway) Method() string { return g.Code }

// Provider implements Gateway.
func (g *SandboxGateway) Provider() string { return ProviderSandbox }

// Test implements Gateway: the sandbox is test mode.
func (g *SandboxGateway) Test() bool { return true }

// Remote implements Gateway.
func (g *SandboxGateway) Remote() bool { return false }

// RedirectURL is where the shopper is sent to pay for ps.
func (g *SandboxGateway) RedirectURL(ps *PaymentSession) string {
	return g.PublicURL + "/sandbox/pay/" + url.PathEscape(ps.ID) + "/"
}

// Start implements Gateway: the sandbox page of the session.
func (g *SandboxGateway) Start(_ context.Context, _ GatewayAccount, in PaymentStart) (Started, error) {
	return Started{RedirectURL: g.RedirectURL(in.Session), Ref: in.Session.ID}, nil
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
func (g *SandboxGateway) Check(_ context.Context, _ GatewayAccount, ps *PaymentSession, p map[string]string) (GatewayResult, error) {
	sig, err := hex.DecodeString(p["signature"])
	want, _ := hex.DecodeString(g.Sign(p["payment_session_id"], p["outcome"], p["transaction_id"], p["amount"]))
	switch {
	case err != nil || !hmac.Equal(sig, want):
		return GatewayResult{Message: "the payment could not be verified: bad signature"}, nil
	case p["payment_session_id"] != ps.ID:
		return GatewayResult{Message: "the payment could not be verified: another session"}, nil
	case p["amount"] != ps.Amount.String():
		return GatewayResult{Message: "the payment could not be verified: the amount differs"}, nil
	case p["transaction_id"] == "" || len(p["transaction_id"]) > 100:
		return GatewayResult{Message: "the payment could not be verified: no transaction"}, nil
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
	return r, nil
}

// Refund implements Gateway: sandbox payments moved no money, so a refund
// is only recorded ("sbx_refund_" and the idempotency key).
func (g *SandboxGateway) Refund(_ context.Context, _ GatewayAccount, in RefundCall) (string, error) {
	return "sbx_refund_" + in.IdempotencyKey, nil
}

// ParseEvent implements Gateway: the sandbox sends no webhooks.
func (g *SandboxGateway) ParseEvent([]byte, string, []string) (*GatewayEvent, error) {
	return nil, Invalid("Stripe-Signature", "this payment method takes no webhooks")
}

// SessionOfPayment implements Gateway: the sandbox's payments are its sessions.
func (g *SandboxGateway) SessionOfPayment(_ context.Context, _ GatewayAccount, ref string) (string, error) {
	return "", NotFound("payment session")
}

// returnURL is callback_url with our session id and an outcome added, the
// page a remote provider sends the shopper back to.
func returnURL(callback, sessionID, outcome string) string {
	u, err := url.Parse(callback)
	if err != nil {
		return callback
	}
	q := u.Query()
	q.Set("payment_session_id", sessionID)
	q.Set("outcome", outcome)
	u.RawQuery = q.Encode()
	return u.String()
}

// refundKey is the provider idempotency key of a request's refund: unique
// across stores that share one provider account.
func refundKey(storeID uint64, kind string, requestID uint64) string {
	return "storefront-" + strconv.FormatUint(storeID, 10) + "-" + kind + "-" + strconv.FormatUint(requestID, 10)
}
