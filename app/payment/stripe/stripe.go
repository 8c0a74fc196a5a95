// Package stripe is the Stripe Checkout provider of app.Gateway: a Checkout
// Session in payment mode is the shopper's redirect, verification retrieves
// it server-side, refunds are Stripe refunds under our idempotency key, and
// signed webhooks (checkout.session.completed, checkout.session.expired,
// charge.refunded) are checked with stripe-go's webhook code.
//
// It imports app and stripe-go only; it never logs a key and never puts one
// in an error.
package stripe

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	sg "github.com/stripe/stripe-go/v85"

	"storefront/app"
)

// DefaultAPIURL is Stripe's own API.
const DefaultAPIURL = "https://api.stripe.com"

// Gateway serves one payment method through Stripe Checkout.
type Gateway struct {
	code     string
	backends *sg.Backends
	log      *slog.Logger // where failed calls are logged (WithLog; nil: nowhere)
}

var _ app.Gateway = (*Gateway)(nil)

// New returns the Stripe gateway of a payment method, talking to apiURL
// ("" = DefaultAPIURL; tests point it at stripe-mock or a fake).
func New(method, apiURL string) *Gateway {
	if apiURL == "" {
		apiURL = DefaultAPIURL
	}
	cfg := &sg.BackendConfig{
		URL:               sg.String(strings.TrimRight(apiURL, "/")),
		HTTPClient:        &http.Client{Timeout: 30 * time.Second},
		MaxNetworkRetries: sg.Int64(0), // we retry ourselves, under the same idempotency keys
		LeveledLogger:     &sg.LeveledLogger{Level: sg.LevelNull},
		EnableTelemetry:   sg.Bool(false),
	}
	return &Gateway{code: method, backends: sg.NewBackendsWithConfig(cfg)}
}

// WithLog makes g log each failed call to Stripe on log (a WARN with what it
// was doing, Stripe's HTTP status, error type, code, message and request id;
// never the key) and returns g.
func (g *Gateway) WithLog(log *slog.Logger) *Gateway {
	g.log = log
	return g
}

// Method implements app.Gateway.
func (g *Gateway) Method() string { return g.code }

// Provider implements app.Gateway.
func (g *Gateway) Provider() string { return app.ProviderStripe }

// Test implements app.Gateway: Stripe test keys (sk_test_) move no money
// either, but the order's test flag is about our sandbox only.
func (g *Gateway) Test() bool { return false }

// Remote implements app.Gateway.
func (g *Gateway) Remote() bool { return true }

func (g *Gateway) client(acct app.GatewayAccount) (*sg.Client, error) {
	if acct.SecretKey == "" {
		return nil, app.ProviderUnavailable("%s has no Stripe secret key for this store", g.code)
	}
	return sg.NewClient(acct.SecretKey, sg.WithBackends(g.backends)), nil
}

// Start implements app.Gateway: a Checkout Session in payment mode with one
// line for the whole order, our session id as client_reference_id and in
// the metadata (of the session and of its PaymentIntent).
func (g *Gateway) Start(ctx context.Context, acct app.GatewayAccount, in app.PaymentStart) (app.Started, error) {
	sc, err := g.client(acct)
	if err != nil {
		return app.Started{}, err
	}
	ps := in.Session
	amount, err := toStripe(ps.Amount, ps.Currency)
	if err != nil {
		return app.Started{}, err
	}
	meta := map[string]string{"payment_session_id": ps.ID, "store_id": strconv.FormatUint(ps.StoreID, 10)}
	if in.OrderID != 0 {
		meta["order_id"] = strconv.FormatUint(in.OrderID, 10)
	}
	name := "Order at " + in.StoreName
	if strings.TrimSpace(in.StoreName) == "" {
		name = "Order"
	}
	p := &sg.CheckoutSessionCreateParams{
		Mode:              sg.String(string(sg.CheckoutSessionModePayment)),
		SuccessURL:        sg.String(in.SuccessURL),
		CancelURL:         sg.String(in.CancelURL),
		ClientReferenceID: sg.String(ps.ID),
		Metadata:          meta,
		PaymentIntentData: &sg.CheckoutSessionCreatePaymentIntentDataParams{Metadata: meta},
		LineItems: []*sg.CheckoutSessionCreateLineItemParams{{
			Quantity: sg.Int64(1),
			PriceData: &sg.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    sg.String(strings.ToLower(ps.Currency)),
				UnitAmount:  sg.Int64(amount),
				ProductData: &sg.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: sg.String(name)},
			},
		}},
	}
	if !in.ExpiresAt.IsZero() {
		p.ExpiresAt = sg.Int64(in.ExpiresAt.Unix())
	}
	if in.Email != "" {
		p.CustomerEmail = sg.String(in.Email)
	}
	p.SetIdempotencyKey("storefront-checkout-" + ps.ID)
	cs, err := sc.V1CheckoutSessions.Create(ctx, p)
	if err != nil {
		return app.Started{}, g.providerError("opening the Stripe Checkout Session", err)
	}
	if cs.ID == "" || cs.URL == "" {
		return app.Started{}, app.ProviderUnavailable("Stripe answered without a Checkout Session URL")
	}
	return app.Started{RedirectURL: cs.URL, Ref: cs.ID}, nil
}

// Check implements app.Gateway: the Checkout Session is retrieved from
// Stripe (the return's query parameters are not trusted) and judged.
func (g *Gateway) Check(ctx context.Context, acct app.GatewayAccount, ps *app.PaymentSession, _ map[string]string) (app.GatewayResult, error) {
	if ps.ProviderRef == "" {
		return app.GatewayResult{Message: "the payment was not started"}, nil
	}
	sc, err := g.client(acct)
	if err != nil {
		return app.GatewayResult{}, err
	}
	cs, err := sc.V1CheckoutSessions.Retrieve(ctx, ps.ProviderRef, nil)
	if err != nil {
		var se *sg.Error
		if errors.As(err, &se) && se.HTTPStatusCode == http.StatusNotFound {
			return app.GatewayResult{Message: "the payment could not be verified: Stripe does not know the session"}, nil
		}
		return app.GatewayResult{}, g.providerError("retrieving the Stripe Checkout Session", err)
	}
	return app.JudgeSession(ps, fromSession(cs)), nil
}

// fromSession is our view of a Checkout Session.
func fromSession(cs *sg.CheckoutSession) app.ProviderSession {
	p := app.ProviderSession{Ref: cs.ID, Reference: cs.ClientReferenceID, Currency: strings.ToUpper(string(cs.Currency)),
		Paid:    cs.PaymentStatus == sg.CheckoutSessionPaymentStatusPaid,
		Expired: cs.Status == sg.CheckoutSessionStatusExpired}
	p.Amount = fromStripe(cs.AmountTotal, p.Currency)
	if cs.PaymentIntent != nil {
		p.PaymentRef = cs.PaymentIntent.ID
	}
	return p
}

// Refund implements app.Gateway: a refund of the session's PaymentIntent.
func (g *Gateway) Refund(ctx context.Context, acct app.GatewayAccount, in app.RefundCall) (string, error) {
	sc, err := g.client(acct)
	if err != nil {
		return "", err
	}
	amount, err := toStripe(in.Amount, in.Session.Currency)
	if err != nil {
		return "", err
	}
	p := &sg.RefundCreateParams{
		PaymentIntent: sg.String(in.Session.PaidTxID),
		Amount:        sg.Int64(amount),
		Metadata:      map[string]string{"payment_session_id": in.Session.ID, "refund_key": in.IdempotencyKey},
	}
	if in.Reason != "" {
		p.Reason = sg.String(in.Reason)
	}
	p.SetIdempotencyKey(in.IdempotencyKey)
	r, err := sc.V1Refunds.Create(ctx, p)
	if err != nil {
		return "", g.providerError("creating the Stripe refund", err)
	}
	if r.Status == sg.RefundStatusFailed || r.Status == sg.RefundStatusCanceled {
		return "", app.ProviderDeclined("Stripe did not make the refund (%s)", r.Status)
	}
	return r.ID, nil
}

// ParseEvent implements app.Gateway: the Stripe-Signature header is checked
// with each secret in turn (stripe-go's webhook code, default 5-minute
// tolerance); events of another API version are accepted, for a store's
// account may be pinned to one.
func (g *Gateway) ParseEvent(payload []byte, header string, secrets []string) (*app.GatewayEvent, error) {
	var ev sg.Event
	err := errors.New("no secret")
	for _, s := range secrets {
		if ev, err = sg.ConstructEvent(payload, header, s, sg.WithIgnoreAPIVersionMismatch()); err == nil {
			break
		}
	}
	if err != nil {
		return nil, app.Invalid("Stripe-Signature", "the signature does not verify")
	}
	out := &app.GatewayEvent{ID: ev.ID, Type: string(ev.Type)}
	if ev.Data == nil {
		return out, nil
	}
	switch ev.Type {
	case "checkout.session.completed", "checkout.session.async_payment_succeeded", "checkout.session.expired":
		var cs sg.CheckoutSession
		if err := json.Unmarshal(ev.Data.Raw, &cs); err != nil {
			return nil, app.Invalid("body", "the event's checkout session does not decode")
		}
		out.Session = fromSession(&cs)
		out.Kind = app.EventSessionCompleted
		if ev.Type == "checkout.session.expired" {
			out.Kind = app.EventSessionExpired
		}
	case "charge.refunded":
		var ch sg.Charge
		if err := json.Unmarshal(ev.Data.Raw, &ch); err != nil {
			return nil, app.Invalid("body", "the event's charge does not decode")
		}
		out.Kind = app.EventPaymentRefunded
		out.Currency = strings.ToUpper(string(ch.Currency))
		out.AmountRefunded = fromStripe(ch.AmountRefunded, out.Currency)
		if ch.PaymentIntent != nil {
			out.PaymentRef = ch.PaymentIntent.ID
		}
	}
	return out, nil
}

// SessionOfPayment implements app.Gateway: our session id is in the
// PaymentIntent's metadata (set through payment_intent_data).
func (g *Gateway) SessionOfPayment(ctx context.Context, acct app.GatewayAccount, paymentRef string) (string, error) {
	if paymentRef == "" {
		return "", app.NotFound("payment")
	}
	sc, err := g.client(acct)
	if err != nil {
		return "", err
	}
	pi, err := sc.V1PaymentIntents.Retrieve(ctx, paymentRef, nil)
	if err != nil {
		var se *sg.Error
		if errors.As(err, &se) && se.HTTPStatusCode == http.StatusNotFound {
			return "", app.NotFound("payment")
		}
		return "", g.providerError("retrieving the Stripe PaymentIntent", err)
	}
	if id := pi.Metadata["payment_session_id"]; id != "" {
		return id, nil
	}
	return "", app.NotFound("payment")
}

// providerError logs a failed call (WithLog) and maps the stripe-go error
// to ours: Stripe's refusal of the request itself (4xx other than auth and
// rate limits) is declined with Stripe's message; anything else (network,
// 5xx, 429, bad key) is unavailable. The key never appears: what Stripe
// says of one (a masked key) is redacted too.
func (g *Gateway) providerError(doing string, err error) error {
	g.logFailure(doing, err)
	var se *sg.Error
	if errors.As(err, &se) {
		switch {
		case se.HTTPStatusCode == http.StatusUnauthorized || se.HTTPStatusCode == http.StatusForbidden:
			return app.ProviderUnavailable("Stripe refused the store's credentials while %s", doing)
		case se.HTTPStatusCode >= 400 && se.HTTPStatusCode < 500 && se.HTTPStatusCode != http.StatusTooManyRequests &&
			se.HTTPStatusCode != http.StatusConflict:
			msg := redactKeys(se.Msg)
			if msg == "" {
				msg = string(se.Code)
			}
			return app.ProviderDeclined("Stripe declined %s: %s", doing, msg)
		}
		return app.ProviderUnavailable("Stripe is unavailable (HTTP %d) while %s; try again", se.HTTPStatusCode, doing)
	}
	return app.ProviderUnavailable("Stripe could not be reached while %s; try again", doing)
}

// logFailure writes one WARN for a failed call: Stripe's own account of it
// when it answered (status, type, code, message, request id), else the
// transport's error.
func (g *Gateway) logFailure(doing string, err error) {
	if g.log == nil {
		return
	}
	var se *sg.Error
	if errors.As(err, &se) {
		g.log.Warn("stripe: call failed", "method", g.code, "doing", doing, "http_status", se.HTTPStatusCode,
			"stripe_type", string(se.Type), "stripe_code", string(se.Code), "stripe_message", redactKeys(se.Msg),
			"stripe_request_id", se.RequestID)
		return
	}
	g.log.Warn("stripe: call failed", "method", g.code, "doing", doing, "error", redactKeys(err.Error()))
}

// stripeKey is a Stripe API key, whole or masked as Stripe prints it.
var stripeKey = regexp.MustCompile(`\b(sk|rk|pk)_(test|live)_[A-Za-z0-9*]+`)

// redactKeys replaces every Stripe key in s by its prefix.
func redactKeys(s string) string { return stripeKey.ReplaceAllString(s, "${1}_${2}_…") }

// zeroDecimal are the currencies Stripe counts in whole units.
var zeroDecimal = map[string]bool{"BIF": true, "CLP": true, "DJF": true, "GNF": true, "JPY": true, "KMF": true,
	"KRW": true, "MGA": true, "PYG": true, "RWF": true, "UGX": true, "VND": true, "VUV": true, "XAF": true,
	"XOF": true, "XPF": true}

// toStripe converts our minor units (always hundredths) to Stripe's.
func toStripe(m app.Money, currency string) (int64, error) {
	if zeroDecimal[strings.ToUpper(currency)] {
		if m%100 != 0 {
			return 0, app.Invalid("amount", currency+" has no minor units at Stripe: the amount must be whole")
		}
		return int64(m / 100), nil
	}
	return int64(m), nil
}

// fromStripe converts Stripe's amount to our minor units.
func fromStripe(n int64, currency string) app.Money {
	if zeroDecimal[strings.ToUpper(currency)] {
		return app.Money(n * 100)
	}
	return app.Money(n)
}

// CheckKey implements app.KeyChecker: it retrieves the account's balance,
// the one call every secret or restricted key with read access may make.
func (g *Gateway) CheckKey(ctx context.Context, acct app.GatewayAccount, field string) error {
	sc, err := g.client(acct)
	if err != nil {
		return err
	}
	_, err = sc.V1Balance.Retrieve(ctx, nil)
	var se *sg.Error
	if errors.As(err, &se) && se.HTTPStatusCode >= 400 && se.HTTPStatusCode < 500 && se.HTTPStatusCode != http.StatusTooManyRequests {
		msg := se.Msg
		if msg == "" {
			msg = string(se.Code)
		}
		return app.Invalid(field, "Stripe refused this key (HTTP "+strconv.Itoa(se.HTTPStatusCode)+": "+msg+")")
	}
	if err != nil {
		return g.providerError("checking the key", err)
	}
	return nil
}
