package stripe_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/app/payment/stripe"
	"storefront/testenv"
)

// mockURL is the base URL of the stripe-mock started by TestMain ("" when
// it is not installed outside CI: those tests skip).
var mockURL string

// TestMain starts stripe-mock (installed by scripts/stripe-mock.sh, which
// make test runs) on a free loopback port and stops it after the tests.
func TestMain(m *testing.M) {
	bin := stripeMockBin()
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") != "" {
			fmt.Fprintln(os.Stderr, "stripe-mock is not installed (make test installs it: scripts/stripe-mock.sh):", err)
			os.Exit(1)
		}
		os.Exit(m.Run())
	}
	url, stop, err := testenv.StartStripeMock(bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mockURL = url
	code := m.Run()
	stop()
	os.Exit(code)
}

// stripeMockBin is $STRIPE_MOCK_BIN, else the one scripts/stripe-mock.sh installs.
func stripeMockBin() string {
	if bin := os.Getenv("STRIPE_MOCK_BIN"); bin != "" {
		return bin
	}
	bin, _ := filepath.Abs("../../../.tools/bin/stripe-mock")
	return bin
}

func mock(t *testing.T) (*stripe.Gateway, app.GatewayAccount) {
	t.Helper()
	if mockURL == "" {
		t.Skip("stripe-mock not installed (run make test, or scripts/stripe-mock.sh)")
	}
	return stripe.New(app.WalletA, mockURL), app.GatewayAccount{SecretKey: "sk_test_123", WebhookSecret: "whsec_test_123"}
}

func session(currency string, amount app.Money) *app.PaymentSession {
	return &app.PaymentSession{ID: "ps_1_2a_9f86d081884c7d659a2feaa0", StoreID: 1, Seq: 42, Method: app.WalletA,
		Amount: amount, Currency: currency, CallbackURL: "https://shop.example/return", Status: app.SessionOpen,
		Provider: app.ProviderStripe, PaidTxID: "pi_123"}
}

// TestStripeMockAcceptsOurCalls: every call the gateway makes is accepted by
// stripe-mock, which validates requests against Stripe's OpenAPI schema.
func TestStripeMockAcceptsOurCalls(t *testing.T) {
	gw, acct := mock(t)
	ctx := context.Background()
	for _, cur := range []string{"USD", "JPY"} {
		ps := session(cur, 250000)
		started, err := gw.Start(ctx, acct, app.PaymentStart{Session: ps, OrderID: 7, StoreName: "Demo Shop", Email: "ada@example.com",
			SuccessURL: "https://shop.example/return?payment_session_id=" + ps.ID + "&outcome=success",
			CancelURL:  "https://shop.example/return?payment_session_id=" + ps.ID + "&outcome=cancel",
			ExpiresAt:  time.Now().Add(31 * time.Minute)})
		if err != nil {
			t.Fatalf("%s: create Checkout Session: %v", cur, err)
		}
		if started.Ref == "" || started.RedirectURL == "" {
			t.Fatalf("%s: started: got %+v", cur, started)
		}
		ps.ProviderRef = started.Ref
		if _, err := gw.Check(ctx, acct, ps, nil); err != nil {
			t.Fatalf("%s: retrieve Checkout Session: %v", cur, err)
		}
		id, err := gw.Refund(ctx, acct, app.RefundCall{Session: ps, Amount: 1000, IdempotencyKey: "storefront-1-refund-3", Reason: "requested_by_customer"})
		if err != nil || id == "" {
			t.Fatalf("%s: create refund: %q, %v", cur, id, err)
		}
	}
	if _, err := gw.SessionOfPayment(ctx, acct, "pi_123"); err != nil && app.ErrorCode(err) != app.ENotFound {
		t.Fatalf("retrieve PaymentIntent: %v", err)
	}
}

// TestStripeMockRefusesBadCalls shows the schema check is real: a call
// Stripe would refuse is declined, and reported without the key.
func TestStripeMockRefusesBadCalls(t *testing.T) {
	gw, acct := mock(t)
	ps := session("USD", 2500)
	ps.PaidTxID = "" // a refund needs a payment
	_, err := gw.Refund(context.Background(), acct, app.RefundCall{Session: ps, Amount: 100, IdempotencyKey: "k", Reason: "not_a_reason"})
	if app.ErrorCode(err) != app.EProviderDeclined {
		t.Fatalf("bad refund: got %v, want payment_provider_declined", err)
	}
	down := stripe.New(app.WalletA, "http://127.0.0.1:1")
	_, err = down.Start(context.Background(), acct, app.PaymentStart{Session: ps})
	if app.ErrorCode(err) != app.EProviderUnavailable {
		t.Fatalf("unreachable: got %v, want payment_provider_unavailable", err)
	}
	if _, err := gw.Start(context.Background(), app.GatewayAccount{}, app.PaymentStart{Session: ps}); app.ErrorCode(err) != app.EProviderUnavailable {
		t.Fatalf("no key: got %v", err)
	}
}

// TestStripeMockCheckKey: saving a key retrieves the balance once; an
// unreachable Stripe is unavailable, a key Stripe refuses a field error.
func TestStripeMockCheckKey(t *testing.T) {
	gw, acct := mock(t)
	if err := gw.CheckKey(context.Background(), acct, "methods.WALLET_A.secret_key"); err != nil {
		t.Fatalf("a good key: %v", err)
	}
	err := gw.CheckKey(context.Background(), app.GatewayAccount{SecretKey: "sk_test_has space"}, "methods.WALLET_A.secret_key")
	var e *app.Error
	if !errors.As(err, &e) || e.Code != app.EValidation || !strings.Contains(e.Fields["methods.WALLET_A.secret_key"], "Stripe refused this key") {
		t.Fatalf("a refused key: got %v", err)
	}
	down := stripe.New(app.WalletA, "http://127.0.0.1:1")
	if err := down.CheckKey(context.Background(), acct, "f"); app.ErrorCode(err) != app.EProviderUnavailable {
		t.Fatalf("unreachable: got %v", err)
	}
}

// TestStripeMockBusyDefaultPorts: stripe-mock starts, and answers, while
// something else holds its default ports (12111 HTTP, 12112 HTTPS): the
// suite must share the machine. A port another process holds already is
// busy all the same.
func TestStripeMockBusyDefaultPorts(t *testing.T) {
	if mockURL == "" {
		t.Skip("stripe-mock not installed (run make test, or scripts/stripe-mock.sh)")
	}
	for _, port := range []string{":12111", ":12112"} {
		if ln, err := net.Listen("tcp", port); err == nil {
			t.Cleanup(func() { ln.Close() })
		}
	}
	url, stop, err := testenv.StartStripeMock(stripeMockBin())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	acct := app.GatewayAccount{SecretKey: "sk_test_123"}
	if err := stripe.New(app.WalletA, url).CheckKey(context.Background(), acct, "f"); err != nil {
		t.Fatalf("stripe-mock on its own ports: %v", err)
	}
}

// TestStripeFailuresLogged: a failed call is logged with Stripe's status,
// code and message (or the transport's error), and never with the key, not
// even the masked one Stripe's message names.
func TestStripeFailuresLogged(t *testing.T) {
	gw, acct := mock(t)
	var buf bytes.Buffer
	gw.WithLog(slog.New(slog.NewTextHandler(&buf, nil)))
	ps := session("USD", 2500)
	ps.PaidTxID = ""
	_, _ = gw.Refund(context.Background(), acct, app.RefundCall{Session: ps, Amount: 100, IdempotencyKey: "k", Reason: "not_a_reason"})
	down := stripe.New(app.WalletA, "http://127.0.0.1:1").WithLog(slog.New(slog.NewTextHandler(&buf, nil)))
	_, _ = down.Start(context.Background(), acct, app.PaymentStart{Session: ps})
	logged := buf.String()
	for _, want := range []string{"stripe: call failed", "doing=\"creating the Stripe refund\"", "http_status=400", "stripe_type=invalid_request_error",
		"stripe_message=", "doing=\"opening the Stripe Checkout Session\"", "error=", "connection refused"} {
		if !strings.Contains(logged, want) {
			t.Errorf("log lacks %q:\n%s", want, logged)
		}
	}
	if strings.Contains(logged, acct.SecretKey) {
		t.Errorf("the key is in the log:\n%s", logged)
	}
	for _, tc := range [][2]string{
		{"Invalid API Key provided: sk_test_********************1234", "Invalid API Key provided: sk_test_…"},
		{"key rk_live_abcDEF123 expired", "key rk_live_… expired"},
	} {
		if got := stripe.RedactKeys(tc[0]); got != tc[1] {
			t.Errorf("redact %q: got %q, want %q", tc[0], got, tc[1])
		}
	}
}
