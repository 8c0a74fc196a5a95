package admin_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"storefront/app"
	"storefront/app/payment/stripe"
	"storefront/testenv"
)

// providerEnv is a server that allows the sandbox and Stripe for WALLET_A
// (the sandbox by default) and only the sandbox for WALLET_B.
func providerEnv(t *testing.T, balanceCalls *atomic.Int64) *testenv.Env {
	e := testenv.New(t)
	e.Svc.Payments.RegisterGateway(stripe.New(app.WalletA, stripeAPI(t, balanceCalls)), app.GatewayAccount{})
	e.Svc.Payments.AllowProviders(app.WalletA, []string{app.ProviderSandbox, app.ProviderStripe}, app.ProviderSandbox)
	e.Svc.Payments.AllowProviders(app.WalletB, []string{app.ProviderSandbox}, "")
	return e
}

type paySetup struct{ Data app.PaymentSettingsView }

func patchPayments(e *testenv.Env, sid uint64, methods map[string]any) *testenv.Response {
	return e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/payments/", sid), Token: e.OwnerToken,
		Body: map[string]any{"methods": methods}})
}

func TestAdminPaymentProviderChoice(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	e := providerEnv(t, &calls)
	sid, _ := e.Store("Provider Shop")
	var got paySetup
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/payments/", sid), Token: e.OwnerToken}).
		Expect(t, 200, "").Decode(t, &got.Data)
	if m := got.Data.Methods[0]; m.Provider != "sandbox" || strings.Join(m.Providers, ",") != "sandbox,stripe" || !m.Test {
		t.Fatalf("WALLET_A before any choice: %+v", m)
	}
	if m := got.Data.Methods[1]; strings.Join(m.Providers, ",") != "sandbox" {
		t.Fatalf("WALLET_B allows: %+v", m)
	}

	// Stripe with a good test key: one call to Stripe, the method in test mode.
	patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"provider": "stripe", "secret_key": "sk_test_goodkey12345"}}).
		Expect(t, 200, "").Decode(t, &got.Data)
	if m := got.Data.Methods[0]; m.Provider != "stripe" || !m.Test || m.Credentials != "store" || m.SecretKey != "sk_test_…2345" {
		t.Fatalf("WALLET_A after choosing Stripe: %+v", m)
	}
	if calls.Load() != 1 {
		t.Fatalf("balance calls: got %d, want 1", calls.Load())
	}
	// A key Stripe refuses: 400 on the key's field, nothing saved.
	rawHas(t, patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"secret_key": "sk_live_revoked12345"}}).
		Expect(t, 400, "validation_failed").Raw, "methods.WALLET_A.secret_key", "Stripe refused this key")
	if st, _ := e.Svc.Stores.Get(sid); st.Gateways[app.WalletA].SecretKey != "sk_test_goodkey12345" {
		t.Fatalf("a refused key was saved: %+v", st.Gateways)
	}
	// Providers the server does not allow, or does not know: 400 on the provider's field.
	rawHas(t, patchPayments(e, sid, map[string]any{"WALLET_B": map[string]any{"provider": "stripe"}}).
		Expect(t, 400, "validation_failed").Raw, "methods.WALLET_B.provider", "must be one of: sandbox")
	rawHas(t, patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"provider": "paypal"}}).
		Expect(t, 400, "validation_failed").Raw, "methods.WALLET_A.provider")
	// Back to the server's default.
	patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"provider": ""}}).Expect(t, 200, "").Decode(t, &got.Data)
	if m := got.Data.Methods[0]; m.Provider != "sandbox" {
		t.Fatalf("WALLET_A back to the default: %+v", m)
	}
	// Keys are checked with Stripe whichever provider the method has now.
	rawHas(t, patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"secret_key": "sk_test_revoked00001"}}).
		Expect(t, 400, "validation_failed").Raw, "Stripe refused this key")
	// A choice the server no longer allows falls back to its default.
	patchPayments(e, sid, map[string]any{"WALLET_A": map[string]any{"provider": "stripe"}}).Expect(t, 200, "")
	e.Svc.Payments.AllowProviders(app.WalletA, []string{app.ProviderSandbox}, "")
	st, _ := e.Svc.Stores.Get(sid)
	if p := e.Svc.Payments.ProviderOf(st, app.WalletA); p != "sandbox" {
		t.Fatalf("a disallowed choice: got %q", p)
	}
}

func rawHas(t *testing.T, raw []byte, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(string(raw), w) {
			t.Fatalf("answer lacks %q: %s", w, raw)
		}
	}
}

// stripeAPI is testenv.FakeStripeAPI.
var stripeAPI = testenv.FakeStripeAPI
