package app_test

import (
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestStoreCached: Cached serves a store from memory and reads it again
// after any change of the store (a checkout's provider follows the store's
// payment settings at once).
func TestStoreCached(t *testing.T) {
	e := testenv.New(t)
	id, _ := e.Store("Acme")
	first, err := e.Svc.Stores.Cached(id)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := e.Svc.Stores.Cached(id)
	if first != again {
		t.Fatal("a second read was not served from memory")
	}
	provider := app.ProviderSandbox
	if _, err := e.Svc.Payments.SetPaymentSettings(id, app.PaymentSettingsInput{Methods: map[string]app.CredentialsInput{
		app.WalletA: {Provider: &provider}}}); err != nil {
		t.Fatal(err)
	}
	after, err := e.Svc.Stores.Cached(id)
	if err != nil {
		t.Fatal(err)
	}
	if after == first || after.Gateways[app.WalletA].Provider != app.ProviderSandbox {
		t.Fatalf("after a change: same pointer %v, provider %q", after == first, after.Gateways[app.WalletA].Provider)
	}
	if _, err := e.Svc.Stores.Cached(id + 100); app.ErrorCode(err) != app.ENotFound {
		t.Fatalf("unknown store: %v", err)
	}
}
