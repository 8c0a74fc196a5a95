package web_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sg "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"storefront/app"
	"storefront/app/payment/stripe"
	"storefront/testenv"
)

// fakeStripe is a Stripe API stand-in for flow tests: Checkout Sessions
// (create, retrieve), refunds (idempotent by Idempotency-Key, counted) and
// PaymentIntents (retrieve), with a switch that makes it answer 503.
type fakeStripe struct {
	t   testing.TB
	srv *httptest.Server

	down          atomic.Bool
	refundsMade   atomic.Int32 // refunds created (not replays of an idempotency key)
	refundCalls   atomic.Int32 // POST /v1/refunds received
	sessionCreate atomic.Int32

	mu       sync.Mutex
	n        int
	sessions map[string]*fakeSession
	refunds  map[string]string // idempotency key -> refund JSON
	lastAuth string
	lastForm map[string]string
	// onRefund, when set, runs while a refund is being created (the
	// refund's payment intent), before Stripe answers.
	onRefund func(pi string)
}

type fakeSession struct {
	ID, Reference, Currency, Status, PaymentStatus, PI string
	Amount                                             int64
	Meta                                               map[string]string
}

func newFakeStripe(t testing.TB) *fakeStripe {
	f := &fakeStripe{t: t, sessions: map[string]*fakeSession{}, refunds: map[string]string{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeStripe) fail(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":{"type":%q,"message":%q}}`, typ, msg)
}

func (f *fakeStripe) serve(w http.ResponseWriter, r *http.Request) {
	if f.down.Load() {
		f.fail(w, http.StatusServiceUnavailable, "api_error", "Stripe is down (test)")
		return
	}
	_ = r.ParseForm()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lastAuth = r.Header.Get("Authorization")
	if !strings.HasPrefix(f.lastAuth, "Bearer sk_") {
		f.fail(w, http.StatusUnauthorized, "invalid_request_error", "bad key")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == "GET" && r.URL.Path == "/v1/balance":
		fmt.Fprint(w, `{"object":"balance","available":[],"pending":[],"livemode":false}`)
	case r.Method == "POST" && r.URL.Path == "/v1/checkout/sessions":
		f.sessionCreate.Add(1)
		f.lastForm = map[string]string{}
		for k, v := range r.PostForm {
			f.lastForm[k] = v[0]
		}
		f.n++
		amount, _ := strconv.ParseInt(r.PostForm.Get("line_items[0][price_data][unit_amount]"), 10, 64)
		s := &fakeSession{ID: "cs_test_" + strconv.Itoa(f.n), Reference: r.PostForm.Get("client_reference_id"),
			Currency: r.PostForm.Get("line_items[0][price_data][currency]"), Status: "open", PaymentStatus: "unpaid",
			Amount: amount, Meta: map[string]string{"payment_session_id": r.PostForm.Get("metadata[payment_session_id]")}}
		f.sessions[s.ID] = s
		w.Write(f.sessionJSON(s))
	case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/v1/checkout/sessions/"):
		s := f.sessions[strings.TrimPrefix(r.URL.Path, "/v1/checkout/sessions/")]
		if s == nil {
			f.fail(w, 404, "invalid_request_error", "No such checkout.session")
			return
		}
		w.Write(f.sessionJSON(s))
	case r.Method == "POST" && r.URL.Path == "/v1/refunds":
		f.refundCalls.Add(1)
		key := r.Header.Get("Idempotency-Key")
		if key == "" {
			f.fail(w, 400, "invalid_request_error", "test: refunds need an Idempotency-Key")
			return
		}
		if out, ok := f.refunds[key]; ok {
			w.Write([]byte(out))
			return
		}
		f.refundsMade.Add(1)
		f.n++
		out := fmt.Sprintf(`{"id":"re_%d","object":"refund","amount":%s,"payment_intent":%q,"status":"succeeded"}`,
			f.n, r.PostForm.Get("amount"), r.PostForm.Get("payment_intent"))
		f.refunds[key] = out
		if hook := f.onRefund; hook != nil {
			f.mu.Unlock()
			hook(r.PostForm.Get("payment_intent"))
			f.mu.Lock()
		}
		w.Write([]byte(out))
	case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/v1/payment_intents/"):
		id := strings.TrimPrefix(r.URL.Path, "/v1/payment_intents/")
		for _, s := range f.sessions {
			if s.PI == id {
				meta, _ := json.Marshal(s.Meta)
				fmt.Fprintf(w, `{"id":%q,"object":"payment_intent","metadata":%s}`, id, meta)
				return
			}
		}
		f.fail(w, 404, "invalid_request_error", "No such payment_intent")
	default:
		f.fail(w, 404, "invalid_request_error", "unknown route "+r.Method+" "+r.URL.Path)
	}
}

func (f *fakeStripe) sessionJSON(s *fakeSession) []byte {
	m := map[string]any{"id": s.ID, "object": "checkout.session", "mode": "payment", "amount_total": s.Amount,
		"currency": s.Currency, "client_reference_id": s.Reference, "metadata": s.Meta, "status": s.Status,
		"payment_status": s.PaymentStatus, "url": "https://checkout.stripe.test/c/pay/" + s.ID, "payment_intent": nil}
	if s.PI != "" {
		m["payment_intent"] = s.PI
	}
	b, _ := json.Marshal(m)
	return b
}

// pay marks a session paid, as Stripe does when the shopper pays.
func (f *fakeStripe) pay(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sessions[id]
	s.Status, s.PaymentStatus, s.PI = "complete", "paid", "pi_"+strings.TrimPrefix(id, "cs_test_")
}

// expire marks a session expired.
func (f *fakeStripe) expire(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions[id].Status = "expired"
}

// only returns the single session created so far with that reference.
func (f *fakeStripe) sessionOf(ref string) *fakeSession {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.sessions {
		if s.Reference == ref {
			c := *s
			return &c
		}
	}
	f.t.Fatalf("no Stripe session for %s", ref)
	return nil
}

var evtSeq atomic.Int64

// event builds a Stripe event of typ around obj, signed as Stripe signs:
// Stripe-Signature "t=<unix>,v1=<hex HMAC-SHA256(secret, t.payload)>".
// The header is checked with stripe-go's webhook helpers before use.
func signedEvent(t testing.TB, secret, typ string, obj []byte) ([]byte, string) {
	t.Helper()
	payload := fmt.Sprintf(`{"id":"evt_%d","object":"event","api_version":%q,"created":%d,"type":%q,"data":{"object":%s}}`,
		evtSeq.Add(1), sg.APIVersion, time.Now().Unix(), typ, obj)
	ts := time.Now()
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strconv.FormatInt(ts.Unix(), 10) + "." + payload))
	header := "t=" + strconv.FormatInt(ts.Unix(), 10) + ",v1=" + hex.EncodeToString(m.Sum(nil))
	if want := hex.EncodeToString(webhook.ComputeSignature(ts, []byte(payload), secret)); !strings.HasSuffix(header, want) {
		t.Fatalf("test signature differs from stripe-go's: %s vs %s", header, want)
	}
	if err := webhook.ValidatePayload([]byte(payload), header, secret); err != nil {
		t.Fatalf("stripe-go rejects the test signature: %v", err)
	}
	return []byte(payload), header
}

const (
	testSecretKey     = "sk_test_serverdefault0000"
	testWebhookSecret = "whsec_serverdefault0000"
)

// stripeEnv is an env whose WALLET_A is served by Stripe Checkout at a fake.
func stripeEnv(t *testing.T) (*testenv.Env, *fakeStripe) { return stripeEnvWith(t, testenv.Options{}) }

// stripeEnvWith is stripeEnv with options.
func stripeEnvWith(t *testing.T, opt testenv.Options) (*testenv.Env, *fakeStripe) {
	e := testenv.NewWith(t, opt)
	f := newFakeStripe(t)
	e.Svc.Payments.SetGateway(stripe.New(app.WalletA, f.srv.URL),
		app.GatewayAccount{SecretKey: testSecretKey, WebhookSecret: testWebhookSecret})
	return e, f
}

func postWebhook(e *testenv.Env, storeID uint64, payload []byte, header string) *testenv.Response {
	h := map[string]string{"Content-Type": "application/json"}
	if header != "" {
		h["Stripe-Signature"] = header
	}
	return e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/payments/stripe/webhook/%d/", storeID), Body: payload, Header: h})
}
