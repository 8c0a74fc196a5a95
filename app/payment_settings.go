package app

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// CredentialsInput changes a store's own provider credentials of one
// method: nil leaves a value, "" clears it.
type CredentialsInput struct {
	// Provider chooses the method's provider among those the server allows
	// ("" = the server's default).
	Provider      *string `json:"provider"`
	SecretKey     *string `json:"secret_key"`
	WebhookSecret *string `json:"webhook_secret"`
}

// PaymentSettingsInput is the body of PATCH stores/{id}/payments/.
type PaymentSettingsInput struct {
	PaymentsLive *bool                       `json:"payments_live"`
	Methods      map[string]CredentialsInput `json:"methods"`
}

// PaymentSettingsView is a store's payment setup as the admin sees it.
// Secrets are never shown: only whether they are set, masked.
type PaymentSettingsView struct {
	PaymentsLive      bool                `json:"payments_live"`
	TakesTestPayments bool                `json:"takes_test_payments"`
	StripeWebhookURL  string              `json:"stripe_webhook_url"`
	Methods           []MethodPaymentView `json:"methods"`
}

// MethodPaymentView is one payment method of a store's payment setup.
type MethodPaymentView struct {
	Method   string `json:"method"`
	Provider string `json:"provider"`
	// Providers are those the server allows this store to choose.
	Providers []string `json:"providers"`
	Test      bool     `json:"test"`
	Offered   bool     `json:"offered"`
	// Credentials: "store" (its own), "server" (the server-wide default) or "none".
	Credentials   string `json:"credentials"`
	SecretKey     string `json:"secret_key"`     // masked ("sk_live_…1234"), "" when unset
	WebhookSecret string `json:"webhook_secret"` // masked ("whsec_…abcd"), "" when unset
}

// MaskSecret shows the kind of a secret and its last four characters only.
func MaskSecret(s string) string {
	if s == "" {
		return ""
	}
	prefix := ""
	if i := strings.LastIndexByte(s, '_'); i >= 0 && i < 16 && len(s)-i > 8 {
		prefix = s[:i+1]
	}
	if len(s) < 12 {
		return prefix + "…"
	}
	return prefix + "…" + s[len(s)-4:]
}

// PaymentSettings returns a store's payment setup. Errors: not_found.
func (ps *PaymentService) PaymentSettings(storeID uint64) (PaymentSettingsView, error) {
	st, err := ps.s.Stores.Get(storeID)
	if err != nil {
		return PaymentSettingsView{}, err
	}
	return ps.settingsView(st), nil
}

func (ps *PaymentService) settingsView(st *Store) PaymentSettingsView {
	set := st.Settings()
	v := PaymentSettingsView{PaymentsLive: set.PaymentsLive, TakesTestPayments: ps.TakesTestPayments(st),
		StripeWebhookURL: strings.TrimSuffix(ps.s.Opt.PublicURL, "/") + "/api/v1/payments/stripe/webhook/" +
			strconv.FormatUint(st.ID, 10) + "/",
		Methods: []MethodPaymentView{}}
	for _, m := range []string{WalletA, WalletB} {
		mv := MethodPaymentView{Method: m, Offered: set.MethodEnabled(m), Credentials: "none"}
		mv.Providers = ps.AllowedProviders(m)
		if g, err := ps.GatewayFor(st, m); err == nil {
			mv.Provider, mv.Test = g.Provider(), ps.MethodTest(st, g)
		}
		acct := ps.Account(st, m)
		switch {
		case mv.Provider == ProviderSandbox:
			mv.Credentials = "none"
		case st.Gateways[m].SecretKey != "":
			mv.Credentials = "store"
		case acct.SecretKey != "":
			mv.Credentials = "server"
		}
		if mv.Provider != ProviderSandbox {
			mv.SecretKey, mv.WebhookSecret = MaskSecret(acct.SecretKey), MaskSecret(acct.WebhookSecret)
		}
		v.Methods = append(v.Methods, mv)
	}
	return v
}

// liveWithTestKey refuses live payments while an offered method acts for
// an account with a Stripe test key: its payments would be test payments.
func (ps *PaymentService) liveWithTestKey(st *Store) error {
	set := st.Settings()
	if !set.PaymentsLive {
		return nil
	}
	for _, m := range []string{WalletA, WalletB} {
		g, err := ps.GatewayFor(st, m)
		if err != nil || !set.MethodEnabled(m) || !g.Remote() {
			continue
		}
		if key := ps.Account(st, m).SecretKey; IsTestKey(key) {
			return Invalid("payments_live", m+" uses a Stripe test key ("+MaskSecret(key)+"): live payments need a live key (sk_live_...), or keep test mode on")
		}
	}
	return nil
}

// SetPaymentSettings changes a store's payment setup: payments_live, and
// per method its provider (among the allowed ones) and its own credentials
// (write-only; a new secret key is first checked with its provider, outside
// any transaction). Errors: validation_failed, not_found,
// payment_provider_unavailable.
func (ps *PaymentService) SetPaymentSettings(storeID uint64, in PaymentSettingsInput) (PaymentSettingsView, error) {
	return ps.SetPaymentSettingsBy(storeID, in, nil)
}

// SetPaymentSettingsBy is SetPaymentSettings by an admin (the settings
// version of payments_live names by; credentials are never versioned): by
// must hold PermPayments, asked before a key is checked with its provider.
func (ps *PaymentService) SetPaymentSettingsBy(storeID uint64, in PaymentSettingsInput, by *AdminUser) (PaymentSettingsView, error) {
	if by != nil {
		if err := PermitChanges(by, []string{"config.payments_live", SettingGateways}); err != nil {
			return PaymentSettingsView{}, err
		}
	}
	if err := ps.validatePaymentInput(in); err != nil {
		return PaymentSettingsView{}, err
	}
	if err := ps.checkKeys(in); err != nil {
		return PaymentSettingsView{}, err
	}
	st, err := ps.s.Stores.update(storeID, by, func(st *Store) error {
		if in.PaymentsLive != nil {
			patch, _ := json.Marshal(map[string]bool{"payments_live": *in.PaymentsLive})
			cfg, err := MergeConfig(st.Config, patch)
			if err != nil {
				return err
			}
			st.Config = cfg
		}
		for m, c := range in.Methods {
			if st.Gateways == nil {
				st.Gateways = map[string]GatewayAccount{}
			}
			a := st.Gateways[m]
			if c.Provider != nil {
				a.Provider = *c.Provider
			}
			if c.SecretKey != nil {
				a.SecretKey = *c.SecretKey
			}
			if c.WebhookSecret != nil {
				a.WebhookSecret = *c.WebhookSecret
			}
			if a == (GatewayAccount{}) {
				delete(st.Gateways, m)
			} else {
				st.Gateways[m] = a
			}
		}
		return ps.liveWithTestKey(st)
	})
	if err != nil {
		return PaymentSettingsView{}, err
	}
	ps.s.Log.Info("store payment settings changed", "store_id", storeID, "payments_live", st.Settings().PaymentsLive)
	return ps.settingsView(st), nil
}

// validatePaymentInput checks (and trims) the methods of a payment settings
// change: known methods, allowed providers, well-formed keys.
func (ps *PaymentService) validatePaymentInput(in PaymentSettingsInput) error {
	var v Validation
	for m, c := range in.Methods {
		if m != WalletA && m != WalletB {
			v.Add("methods."+m, "must be WALLET_A or WALLET_B")
			continue
		}
		if c.Provider != nil {
			p := strings.TrimSpace(*c.Provider)
			*c.Provider = p
			allowed := ps.AllowedProviders(m)
			v.Check(p == "" || slices.Contains(allowed, p), "methods."+m+".provider",
				"must be one of: "+strings.Join(allowed, ", ")+" (the server's payments."+strings.ToLower(m)+".providers)")
		}
		if c.SecretKey != nil {
			k := strings.TrimSpace(*c.SecretKey)
			*c.SecretKey = k
			v.Check(k == "" || ((strings.HasPrefix(k, "sk_") || strings.HasPrefix(k, "rk_")) && len(k) >= 12 && len(k) <= 255 && !strings.ContainsAny(k, " \t\r\n")),
				"methods."+m+".secret_key", "must be a Stripe secret key (sk_... or rk_...), or empty to clear")
		}
		if c.WebhookSecret != nil {
			w := strings.TrimSpace(*c.WebhookSecret)
			*c.WebhookSecret = w
			v.Check(w == "" || (strings.HasPrefix(w, "whsec_") && len(w) >= 12 && len(w) <= 255 && !strings.ContainsAny(w, " \t\r\n")),
				"methods."+m+".webhook_secret", "must be a Stripe webhook signing secret (whsec_...), or empty to clear")
		}
	}
	return v.Err()
}
