package browser_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
	"storefront/testenv"
)

// startStripeMock starts stripe-mock ($STRIPE_MOCK_BIN, else the one
// scripts/stripe-mock.sh installs) on a free port and returns its URL. It
// skips the test when stripe-mock is not installed, outside CI.
func startStripeMock(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("STRIPE_MOCK_BIN")
	if bin == "" {
		bin, _ = filepath.Abs("../../.tools/bin/stripe-mock")
	}
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("stripe-mock is not installed (scripts/stripe-mock.sh): %v", err)
		}
		t.Skip("stripe-mock not installed (scripts/stripe-mock.sh)")
	}
	url, stop, err := testenv.StartStripeMock(bin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return url
}

// sessionRecorder stands between the server and stripe-mock and keeps the
// id of each Checkout Session stripe-mock creates (a random one each time):
// Stripe's event names it.
type sessionRecorder struct {
	mu  sync.Mutex
	ids []string
}

func recordSessions(t *testing.T, mock string) (string, *sessionRecorder) {
	t.Helper()
	u, err := url.Parse(mock)
	if err != nil {
		t.Fatal(err)
	}
	rec := &sessionRecorder{}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(r *http.Response) error {
		if r.Request.Method != "POST" || r.Request.URL.Path != "/v1/checkout/sessions" {
			return nil
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var cs struct{ ID string }
		if json.Unmarshal(body, &cs) == nil {
			rec.mu.Lock()
			rec.ids = append(rec.ids, cs.ID)
			rec.mu.Unlock()
		}
		return nil
	}
	ts := httptest.NewServer(rp)
	t.Cleanup(ts.Close)
	return ts.URL, rec
}

func (r *sessionRecorder) last(t *testing.T) string {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.ids) == 0 {
		t.Fatal("no Checkout Session was created")
	}
	return r.ids[len(r.ids)-1]
}

// stubStripeCheckout answers the tab's requests to Stripe Checkout (the
// machine has no outside network) with a small page, as Stripe's would be.
func stubStripeCheckout(t *testing.T, p *browser.Page) {
	t.Helper()
	ctx := p.Context()
	paused := make(chan fetch.RequestID, 8)
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			paused <- e.RequestID
		}
	}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for id := range paused {
			_, _ = chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: id, ResponseCode: 200,
				ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/html"}},
				Body:            []byte(`<!doctype html><html lang="en"><title>Stripe Checkout</title><main><h1>Stripe Checkout</h1></main></html>`)})
		}
	}()
	t.Cleanup(func() { close(paused) })
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "https://checkout.stripe.com/*"}}}); err != nil {
		t.Fatal(err)
	}
}

const (
	stripeKey     = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
	stripeWebhook = "whsec_test_4eC39HqLyjWDarjtT1zdp7dc"
)

// TestShopStripeBuy: in a store whose WALLET_A is Stripe (stripe-mock, the
// store's own test key set through the admin API), a shopper registers,
// verifies by the mailed code, picks the Stripe method (marked test mode)
// and is sent to Stripe Checkout; Stripe's signed checkout.session.completed
// event pays the order, and the shopper's return shows the confirmation.
func TestShopStripeBuy(t *testing.T) {
	t.Parallel()
	mock, rec := recordSessions(t, startStripeMock(t))
	smtp := testenv.NewSMTPServer(t)
	srv := browser.StartServer(t, browser.ServerOptions{Env: append(smtpEnv(smtp), "STOREFRONT_SHOP__DEFAULT_STORE=1",
		"STOREFRONT_PAYMENTS__WALLET_A__PROVIDER=stripe", "STOREFRONT_PAYMENTS__WALLET_A__STRIPE__API_URL="+mock)})
	st := srv.CreateStore(t, "Corner Shop", "corner")
	tok := srv.OwnerToken(t)
	srv.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/payments/", st.ID), tok,
		map[string]any{"payments_live": false, "methods": map[string]any{"WALLET_A": map[string]any{"secret_key": stripeKey, "webhook_secret": stripeWebhook}}}, 200, nil)
	srv.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/config/", st.ID), tok, map[string]any{"email_otp_enabled": true}, 200, nil)
	srv.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), tok,
		map[string]any{"name": "Trail Jacket", "price": "49.00", "stock": 5}, 201, nil)

	p := browser.NewPage(t, srv)
	stubStripeCheckout(t, p)
	p.Go("/account/register/")
	p.Fill("#f-first_name", "Sam")
	p.Fill("#f-last_name", "Stripe")
	p.Fill("#f-email", "sam@example.com")
	p.Fill("#f-password", "password123")
	p.Fill("#f-password_confirm", "password123")
	p.Submit(`form[action="/account/register/"] button[type=submit]`)
	p.Fill("#f-code", mailedCode(t, smtp, "sam@example.com"))
	p.Submit(`form[action="/account/verify/"] button[type=submit]`)

	p.Go("/search/?q=trail")
	p.Submit(`main li.card a`)
	p.Submit(`form.add button[type=submit]`)
	p.Submit(`.summary a.button`)
	if got := p.Text(".checkout-form"); !strings.Contains(got, "test mode") {
		t.Fatalf("the Stripe method is not marked test mode: %q", got)
	}
	p.SetChecked(`input[name=payment_method][value=WALLET_A]`, true)
	p.Fill(`#receiver_name`, "Sam Stripe")
	p.Fill(`#phone`, "+1 555 0160")
	p.Fill(`#address`, "5 Card Road, Springfield")
	p.Submit(`.checkout-form button[type=submit]`)
	if !strings.HasPrefix(p.URL(), "https://checkout.stripe.com/") {
		t.Fatalf("after placing the order: %s", p.URL())
	}

	// Stripe's event: the order's session, paid (stripe-mock never pays one)
	var orders struct {
		Items []struct {
			ID               uint64 `json:"id"`
			PaymentSessionID string `json:"payment_session_id"`
		} `json:"items"`
	}
	srv.API(t, "GET", fmt.Sprintf("/api/v1/admin/stores/%d/orders/", st.ID), tok, nil, 200, &orders)
	if len(orders.Items) != 1 || orders.Items[0].PaymentSessionID == "" {
		t.Fatalf("orders: %+v", orders.Items)
	}
	psID := orders.Items[0].PaymentSessionID
	completed(t, srv, rec.last(t), st.ID, psID)

	p.Go("/checkout/return/?payment_session_id=" + psID)
	if got := p.Text("h1"); got != "Thank you for your order" {
		t.Fatalf("return: %q: %s", got, p.Text("main"))
	}
	p.CheckAxe()
	p.CheckNoOverflow()
	p.Go("/account/orders/")
	if got := p.Text("main"); !strings.Contains(got, fmt.Sprint(orders.Items[0].ID)) {
		t.Fatalf("orders page: %q", got)
	}
}

// completed posts Stripe's signed checkout.session.completed event for the
// payment session psID, whose Checkout Session is csID, to the store's
// webhook.
func completed(t *testing.T, srv *browser.Server, csID string, storeID uint64, psID string) {
	t.Helper()
	obj := map[string]any{"id": csID, "object": "checkout.session", "client_reference_id": psID, "amount_total": 4900,
		"currency": "usd", "payment_status": "paid", "status": "complete", "payment_intent": "pi_test_1"}
	payload, _ := json.Marshal(map[string]any{"id": "evt_test_1", "object": "event", "type": "checkout.session.completed",
		"api_version": "2025-01-27.acacia", "created": time.Now().Unix(), "data": map[string]any{"object": obj}})
	ts := fmt.Sprint(time.Now().Unix())
	mac := hmac.New(sha256.New, []byte(stripeWebhook))
	mac.Write([]byte(ts + "." + string(payload)))
	req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/v1/payments/stripe/webhook/%d/", srv.URL, storeID), bytes.NewReader(payload))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", "t="+ts+",v1="+hex.EncodeToString(mac.Sum(nil)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("webhook: %d", resp.StatusCode)
	}
}
