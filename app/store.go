package app

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
	"time"
)

// Store is a tenant: one shop with its API key and configuration.
type Store struct {
	ID         uint64          `json:"id"`
	Name       string          `json:"name"`
	Subdomain  string          `json:"subdomain"`
	Currency   string          `json:"currency"`
	IsActive   bool            `json:"is_active"`
	APIKeyHash []byte          `json:"api_key_hash"`
	Config     json.RawMessage `json:"config"`
	// Gateways are the store's own provider credentials per payment method
	// (write-only on the admin API, never shown, never logged).
	Gateways map[string]GatewayAccount `json:"gateways,omitempty"`
	// AllowedOrigins are the exact browser origins (scheme://host[:port])
	// allowed to call the storefront API of this store (CORS).
	AllowedOrigins []string `json:"allowed_origins,omitempty"`
	// Domains are the custom host names the store's shop answers on
	// (lower case, no port; unique across stores).
	Domains []string `json:"domains,omitempty"`
	// NotificationEmails receive the owner notifications of this store.
	NotificationEmails []string `json:"notification_emails,omitempty"`
	// NotificationsOff lists the notification kinds turned off.
	NotificationsOff []string `json:"notifications_off,omitempty"`
	// MailTemplates are the store's overrides of the built-in mail
	// templates, by kind (validated on save).
	MailTemplates map[string]MailTemplate `json:"mail_templates,omitempty"`
	// RequireStaffTOTP: the store's managers and staff must enrol a second
	// factor before they may do anything else on the admin side.
	RequireStaffTOTP bool      `json:"require_staff_totp,omitempty"`
	CreatedAt        time.Time `json:"created_at"`
	UpdatedAt        time.Time `json:"updated_at"`
}

// SharedStoreTx reads stores on hot paths (checkout, notifications).
type SharedStoreTx interface {
	// SharedStore is Store for read-only use: the result may be shared
	// between transactions and must not be modified.
	SharedStore(id uint64) (*Store, error)
}

// StoreTx is the storage of stores.
type StoreTx interface {
	// CreateStore assigns s.ID and stores s; a taken subdomain is conflict.
	CreateStore(s *Store) error
	// Store returns not_found for an unknown id.
	Store(id uint64) (*Store, error)
	// StoreByKeyHash returns not_found for an unknown key hash.
	StoreByKeyHash(hash []byte) (*Store, error)
	// PutStore updates s and its key index.
	PutStore(s *Store) error
	// Stores lists every store by id.
	Stores() ([]*Store, error)
	// AddSettingsVersion assigns v.ID (per store, growing) and stores v,
	// then drops the store's oldest versions beyond keep.
	AddSettingsVersion(v *SettingsVersion, keep int) error
	// SettingsVersions pages a store's settings versions, newest first.
	SettingsVersions(storeID uint64, lp ListParams) (Page[*SettingsVersion], error)
	// SettingsVersion returns one version (not_found).
	SettingsVersion(storeID, id uint64) (*SettingsVersion, error)
}

// PaymentMethod codes (storefront-api.md: neutral stand-ins for two gateways).
const (
	WalletA = "WALLET_A"
	WalletB = "WALLET_B"
)

// Settings are the parts of a store's configuration the server acts on.
type Settings struct {
	EmailOTPEnabled bool                `json:"email_otp_enabled"`
	DeliveryOptions []DeliveryOption    `json:"delivery_options"`
	PaymentMethods  []map[string]string `json:"payment_methods"`
	// PaymentsLive: the store takes real payments only; checkouts through
	// the test sandbox are refused (test_payments_refused).
	PaymentsLive bool `json:"payments_live"`
	// CallbackOrigins (the callback allow list, a config key) and
	// AllowedOrigins (the CORS list: the store's own field, Store.AllowedOrigins,
	// set with PATCH stores/{id}/) together are the origins a checkout's
	// callback_url may have besides the store's own shop hosts
	// (docs/decisions.md, "CORS and callback origins").
	CallbackOrigins []string `json:"callback_origins"`
	AllowedOrigins  []string `json:"-"`
	// Taxes is the config key "taxes"; Home the store's country and region
	// (store.country, store.region): tax.go.
	Taxes TaxSettings `json:"taxes"`
	Home  StoreHome   `json:"store"`
	// Locale is the config key "locale": the language of the shop, the
	// shopper mails and the invoice, one of Locales ("" reads as "en").
	Locale string `json:"locale"`
}

// Locales are the languages a store may choose (config key "locale"), as
// BCP 47 tags; "uz" is Uzbek in the Latin script.
var Locales = []string{"en", "de", "fr", "es", "ru", "uz"}

// Lang is the store's language: its locale, or "en" when none is set.
func (st Settings) Lang() string {
	if st.Locale == "" {
		return "en"
	}
	return st.Locale
}

// MaxCallbackOrigins is the most origins callback_origins may list.
const MaxCallbackOrigins = 20

// NormalizeOrigin returns the origin of an absolute http(s) URL, lower case
// and without the scheme's default port ("https://shop.example:8443"), or ""
// when raw is not one.
func NormalizeOrigin(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return ""
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host
}

// isOrigin reports whether s is an origin: an http(s) URL with no path
// (beyond "/"), query or fragment.
func isOrigin(s string) bool {
	u, err := url.Parse(strings.TrimSpace(s))
	return err == nil && NormalizeOrigin(s) != "" && (u.Path == "" || u.Path == "/") && u.RawQuery == "" && u.Fragment == "" && !u.ForceQuery
}

// CallbackAllowed reports whether a checkout may send the shopper back to
// callbackURL by the store's lists: its origin is in callback_origins or
// allowed_origins. With both lists empty nothing is (the store's own shop
// hosts still are: OrderService.callbackAllowed); there is no "any URL".
func (st Settings) CallbackAllowed(callbackURL string) bool {
	o := NormalizeOrigin(callbackURL)
	for _, list := range [][]string{st.CallbackOrigins, st.AllowedOrigins} {
		for _, a := range list {
			if o != "" && NormalizeOrigin(a) == o {
				return true
			}
		}
	}
	return false
}

// Settings decodes the server-relevant parts of s.Config.
func (s *Store) Settings() Settings {
	var st Settings
	_ = json.Unmarshal(s.Config, &st)
	st.AllowedOrigins = s.AllowedOrigins
	return st
}

// MethodEnabled reports whether the store offers payment method code.
func (st Settings) MethodEnabled(code string) bool {
	for _, m := range st.PaymentMethods {
		if m["code"] == code {
			return true
		}
	}
	return false
}

// HashAPIKey is how keys are stored and looked up: SHA-256 of the key.
// Keys are 32 random bytes, so a fast hash is enough.
func HashAPIKey(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

// NewAPIKey returns a fresh random API key ("sk_" + 48 hex digits).
func NewAPIKey() string {
	return "sk_" + RandomHex(24)
}

// RandomHex returns n random bytes in hex.
func RandomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

// DefaultConfig is the configuration of a new store in test mode
// (payments_live off); NewStoreConfig chooses.
func DefaultConfig(name string) json.RawMessage { return NewStoreConfig(name, false) }

// NewStoreConfig is the configuration of a new store, live or in test mode.
func NewStoreConfig(name string, live bool) json.RawMessage {
	cfg := map[string]any{
		"template":              "default",
		"theme_color":           "#1f6feb",
		"business_type":         "retail",
		"email_otp_enabled":     false,
		"header_layout":         "default",
		"footer_layout":         "default",
		"product_card_layout":   "default",
		"product_grid_layout":   "grid",
		"product_detail_layout": "default",
		"store": map[string]string{
			"name": name, "description": "", "logo": "", "email": "", "phone": "",
			"address": "", "logo_display": "logo_and_name", "logo_size": "medium", "currency_symbol": "",
		},
		"hero":             map[string]string{},
		"footer":           map[string]string{},
		"chat_widget":      map[string]string{},
		"bottom_nav":       map[string]string{},
		"newsletter":       map[string]any{"enabled": false, "title": "", "subtitle": ""},
		"seo":              map[string]string{"title": name, "description": "", "keywords": ""},
		"banners":          []any{},
		"navigation":       []any{},
		"payment_methods":  []map[string]string{{"code": WalletA, "name": "Wallet A"}, {"code": WalletB, "name": "Wallet B"}},
		"announcement_bar": []any{},
		"delivery_options": []DeliveryOption{{ID: "standard", Name: "Standard", Fee: 0, NeedsAddress: true}},
		"payments_live":    live,
		"locale":           "en",
	}
	b, _ := json.Marshal(cfg)
	return b
}

// configShape maps known top-level config keys to their JSON kind.
var configShape = map[string]string{
	"template": "string", "theme_color": "string", "business_type": "string",
	"email_otp_enabled": "bool", "header_layout": "string", "footer_layout": "string",
	"product_card_layout": "string", "product_grid_layout": "string", "product_detail_layout": "string",
	"store": "strmap", "hero": "strmap", "footer": "strmap", "chat_widget": "strmap", "bottom_nav": "strmap",
	"newsletter": "object", "seo": "strmap", "banners": "array", "navigation": "strmaps",
	"payment_methods": "strmaps", "announcement_bar": "strmaps", "delivery_options": "array",
	"payments_live":    "bool",
	"callback_origins": "origins",
	"home":             "strmap", "pages": "strmap",
	// tracking_urls: a carrier's tracking link, {"Carrier": "https://...{tracking_number}"}
	"tracking_urls": "strmap",
	// taxes: TaxSettings, checked by checkTaxes
	"taxes": "object",
	// locale: one of Locales
	"locale": "string",
}

// MergeConfig applies patch (a JSON merge patch, RFC 7386) to cfg and checks
// the result: known keys keep their types, unknown top-level keys are strings.
// subdomain and is_active are not part of the config (they belong to the store).
func MergeConfig(cfg json.RawMessage, patch []byte) (json.RawMessage, error) {
	var base map[string]any
	if err := json.Unmarshal(cfg, &base); err != nil || base == nil {
		base = map[string]any{}
	}
	var p map[string]any
	if err := json.Unmarshal(patch, &p); err != nil || p == nil {
		return nil, Invalid("body", "must be a JSON object")
	}
	var v Validation
	for k, val := range p {
		if k == "subdomain" || k == "is_active" || k == "id" || k == "allowed_origins" || k == "notification_emails" || k == "notifications" {
			v.Add(k, "is not part of the config; use the store endpoints")
			continue
		}
		if val == nil {
			delete(base, k)
			continue
		}
		if sub, ok := val.(map[string]any); ok {
			if old, ok := base[k].(map[string]any); ok {
				for sk, sv := range sub {
					if sv == nil {
						delete(old, sk)
					} else {
						old[sk] = sv
					}
				}
				continue
			}
		}
		base[k] = val
	}
	for k, val := range base {
		checkConfigValue(&v, k, configShape[k], val)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	checkConfigRules(&v, p, base)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := normalizeConfig(p, base); err != nil {
		return nil, err
	}
	return json.Marshal(base)
}

// normalizeConfig stores the typed keys patch p set in base in their one
// form: delivery_options as DeliveryOptions, taxes whole (normalTaxes).
func normalizeConfig(p, base map[string]any) error {
	if raw, ok := p["taxes"]; ok && raw != nil {
		base["taxes"] = normalTaxes(base["taxes"])
	}
	if raw, ok := p["delivery_options"]; ok && raw != nil {
		b, _ := json.Marshal(raw)
		var opts []DeliveryOption
		if err := json.Unmarshal(b, &opts); err != nil {
			return Invalid("delivery_options", "must be an array of {id, name, fee, free_over, countries, needs_address}")
		}
		if err := checkDeliveryOptions(opts); err != nil {
			return err
		}
		base["delivery_options"] = opts
	}
	return nil
}

func checkConfigValue(v *Validation, k, kind string, val any) {
	ok := true
	switch kind {
	case "string", "":
		_, ok = val.(string)
	case "bool":
		_, ok = val.(bool)
	case "object":
		_, ok = val.(map[string]any)
	case "strmap":
		m, isMap := val.(map[string]any)
		ok = isMap
		for _, x := range m {
			if _, s := x.(string); !s {
				ok = false
			}
		}
	case "array":
		_, ok = val.([]any)
		if _, typed := val.([]DeliveryOption); typed {
			ok = true
		}
	case "strmaps":
		arr, isArr := val.([]any)
		ok = isArr
		for _, e := range arr {
			m, isMap := e.(map[string]any)
			if !isMap {
				ok = false
				continue
			}
			for _, x := range m {
				if _, s := x.(string); !s {
					ok = false
				}
			}
		}
	case "origins":
		arr, isArr := val.([]any)
		ok = isArr && len(arr) <= MaxCallbackOrigins
		for _, e := range arr {
			if s, isStr := e.(string); !isStr || !isOrigin(s) {
				ok = false
			}
		}
	}
	if !ok {
		want := map[string]string{"string": "a string", "": "a string", "bool": "a boolean", "object": "an object",
			"strmap": "an object of strings", "array": "an array", "strmaps": "an array of objects of strings",
			"origins": "an array of at most 20 origins (scheme://host[:port], no path)"}[kind]
		v.Add(k, "must be "+want)
	}
}
