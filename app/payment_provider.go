package app

import (
	"context"
	"slices"
)

// AllowedProviders returns the providers a store may choose for a method:
// the configured list, or the sandbox and every registered remote provider.
func (ps *PaymentService) AllowedProviders(method string) []string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if a, ok := ps.allowed[method]; ok {
		return append([]string(nil), a...)
	}
	out := []string{ProviderSandbox}
	for _, p := range []string{ProviderStripe} {
		if _, ok := ps.remotes[method][p]; ok {
			out = append(out, p)
		}
	}
	return out
}

// ProviderOf returns the provider serving a store's method: the store's
// choice while the server allows it, else the server's default.
func (ps *PaymentService) ProviderOf(st *Store, method string) string {
	if p := st.Gateways[method].Provider; p != "" && slices.Contains(ps.AllowedProviders(method), p) {
		return p
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if d := ps.defaults[method]; d != "" {
		return d
	}
	return ProviderSandbox
}

// GatewayFor returns the gateway serving a store's method (ProviderOf).
func (ps *PaymentService) GatewayFor(st *Store, method string) (Gateway, error) {
	if method != WalletA && method != WalletB {
		return nil, Invalid("payment_method", "must be one of WALLET_A, WALLET_B")
	}
	return ps.gatewayOf(method, ps.ProviderOf(st, method))
}

// sessionGateway returns the gateway a session was opened with.
func (ps *PaymentService) sessionGateway(sess *PaymentSession) (Gateway, error) {
	return ps.gatewayOf(sess.Method, sess.Provider)
}

// checkKeys asks Stripe about each secret key being saved (one call per
// key, outside any transaction): a refused key is validation_failed.
func (ps *PaymentService) checkKeys(in PaymentSettingsInput) error {
	var v Validation
	for m, c := range in.Methods {
		if c.SecretKey == nil || *c.SecretKey == "" {
			continue
		}
		// Keys are Stripe keys whatever the method's provider now: checked
		// by the method's Stripe gateway when the server has one.
		g, err := ps.gatewayOf(m, ProviderStripe)
		if err != nil {
			continue
		}
		kc, ok := g.(KeyChecker)
		if !ok {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), providerTimeout)
		err = kc.CheckKey(ctx, GatewayAccount{SecretKey: *c.SecretKey}, "methods."+m+".secret_key")
		cancel()
		if e, ok := err.(*Error); ok && e.Code == EValidation {
			for f, msg := range e.Fields {
				v.Add(f, msg)
			}
			continue
		}
		if err != nil {
			return err
		}
	}
	return v.Err()
}

// gatewayForStore is GatewayFor by store id. Errors: not_found, validation_failed.
func (ps *PaymentService) gatewayForStore(storeID uint64, method string) (Gateway, error) {
	st, err := ps.s.Stores.Cached(storeID) // no round trip on a checkout
	if err != nil {
		return nil, err
	}
	return ps.GatewayFor(st, method)
}
