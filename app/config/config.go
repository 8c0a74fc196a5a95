package config

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"
	"github.com/robfig/cron/v3"
)

// EnvPrefix starts every environment variable the configuration reads.
const EnvPrefix = "STOREFRONT_"

// Config is the whole configuration of a server.
type Config struct {
	HTTP      HTTP
	DataDir   string // data_dir: the database file, its socket and the backups live here
	Demo      bool   // demo: seed a demo store into an empty database
	Admin     Admin
	Auth      Auth
	Orders    Orders
	Cache     Cache
	RateLimit RateLimit
	Log       Log
	Mail      Mail
	Webhooks  Webhooks
	Payments  Payments
	Storage   Storage
	Backups   Backups
	Shop      Shop

	// Warnings are problems that do not stop the start (an unknown
	// STOREFRONT_ environment variable); main logs them.
	Warnings []string
}

// HTTP is the listener.
type HTTP struct {
	Addr           string        // http.addr: host:port to listen on
	PublicURL      string        // http.public_url: base URL clients reach the server at, no trailing slash
	TrustedProxies []string      // http.trusted_proxies: IPs or CIDRs whose X-Forwarded-For is believed
	LogRequests    bool          // http.log_requests: one log line per request
	ReadTimeout    time.Duration // http.read_timeout: a first request, and a body from its headers, must arrive within this (408 after)
	WriteTimeout   time.Duration // http.write_timeout: writing one response
	IdleTimeout    time.Duration // http.idle_timeout: a keep-alive connection's next request must arrive within this
	ShutdownDelay  time.Duration // http.shutdown_delay: on SIGTERM, keep accepting this long with Connection: close before draining
	MetricsAddr    string        // http.metrics_addr: separate listener for /metrics (empty: on http.addr)
	MetricsToken   string        // http.metrics_token: bearer token /metrics requires (empty: none)
	// PublicURLDerived is true when http.public_url was not set and was made
	// from http.addr; main replaces it with the bound address.
	PublicURLDerived bool
}

// Shop is the shop window every store gets (package shop).
type Shop struct {
	Enabled      bool   // shop.enabled: serve the shop pages on / (false: headless, API only)
	Domain       string // shop.domain: parent domain of the stores' subdomains ("shops.example.com")
	DefaultStore uint64 // shop.default_store: the store a host that names none gets (0: none; the demo's store in the demo)
	ThemeDir     string // shop.theme_dir: templates that replace the embedded ones, file by file
}

// Admin is the first owner account, made on the first start.
type Admin struct {
	Email    string // admin.email
	Password string // admin.password: empty: generated and printed once (demo: a fixed demo password)
}

// Auth is token lifetimes and password hashing.
type Auth struct {
	AccessTTL  time.Duration // auth.access_ttl
	RefreshTTL time.Duration // auth.refresh_ttl
	AdminTTL   time.Duration // auth.admin_ttl
	BcryptCost int           // auth.bcrypt_cost
}

// Orders is the unpaid-order expiry.
type Orders struct {
	PendingTTL     time.Duration // orders.pending_ttl
	ExpireSchedule string        // orders.expire_schedule (cron)
}

// Cache is the upkeep of the page and detail caches.
type Cache struct {
	EvictSchedule string // cache.evict_schedule (cron)
}

// RateLimit holds the limits of decisions.md §11.
type RateLimit struct {
	AuthPerMinute    int // ratelimit.auth_per_minute
	LoginFailures    int // ratelimit.login_failures
	ContactPerMinute int // ratelimit.contact_per_minute
	APIPerSecond     int // ratelimit.api_per_second (0: off)
	UnpaidOrders     int // ratelimit.unpaid_orders_per_hour: orders placed per client IP and per email/shopper (0: off)
	TicketsPerHour   int // ratelimit.tickets_per_hour: tickets opened per shopper (0: off)
	GuestCarts       int // ratelimit.guest_carts_per_hour: guest carts made per store and client IP (0: off)
	CodesPerDay      int // ratelimit.codes_per_day: email codes mailed per store and email in a day (0: off)
}

// Log is the process log.
type Log struct {
	Format string // log.format: text or json
	Level  string // log.level: debug, info, warn or error
}

// Mail is outgoing mail; with no SMTP host mail goes to the outbox.
type Mail struct {
	SMTP   SMTP
	MaxAge time.Duration // mail.max_age: a mail is retried this long, then failed
}

// Webhooks are the outbound signed webhooks.
type Webhooks struct {
	AllowPrivateTargets bool          // webhooks.allow_private_targets: allow loopback/private/link-local targets
	Timeout             time.Duration // webhooks.timeout: one delivery attempt
}

// SMTP is an SMTP relay.
type SMTP struct {
	Host     string // mail.smtp.host (empty: the outbox in the database)
	Port     int    // mail.smtp.port
	Username string // mail.smtp.username
	Password string // mail.smtp.password
	From     string // mail.smtp.from
	TLS      string // mail.smtp.tls: starttls, tls (implicit, port 465) or none
}

// Payments holds the per-gateway secrets of the sandbox.
type Payments struct {
	WalletA Gateway
	WalletB Gateway
}

// Gateway is one payment method's settings.
type Gateway struct {
	Secret   string // payments.wallet_x.secret: the sandbox's signing secret (empty: derived from a secret kept in the database)
	Provider string // payments.wallet_x.provider: sandbox (test mode) or stripe: the provider of stores that chose none
	// Providers (payments.wallet_x.providers) are the providers stores may
	// choose in the panel. Unset: [stripe] when Provider is stripe (an old
	// Stripe-only config stays Stripe-only), else [sandbox, stripe].
	Providers []string
	Stripe    Stripe // payments.wallet_x.stripe.*: defaults for stores that set no credentials of their own
}

// Stripe is the server-wide default Stripe account of a method.
type Stripe struct {
	SecretKey     string // payments.wallet_x.stripe.secret_key
	WebhookSecret string // payments.wallet_x.stripe.webhook_secret
	APIURL        string // payments.wallet_x.stripe.api_url (Stripe's own by default; tests use a mock)
}

// Storage is the database: the bbolt file in data_dir (one binary) or
// PostgreSQL (several binaries behind a load balancer).
type Storage struct {
	Driver   string // storage.driver: bolt or postgres
	Postgres Postgres
}

// Postgres is the PostgreSQL connection.
type Postgres struct {
	URL      string // storage.postgres.url: postgres://user:pass@host:5432/db?sslmode=... (or key=value)
	MaxConns int    // storage.postgres.max_conns: pool size per process (0: postgres.DefaultMaxConns, max(8, 2 x CPUs))
}

// Storage drivers.
const (
	DriverBolt     = "bolt"
	DriverPostgres = "postgres"
)

// Backups is the scheduled backup.
type Backups struct {
	Schedule string // backups.schedule (cron; empty: no scheduled backups)
	Keep     int    // backups.keep: how many backup files to keep
	Dir      string // backups.dir (empty: data_dir/backups)
}

// DBPath is the database file.
func (c *Config) DBPath() string { return filepath.Join(c.DataDir, "storefront.db") }

// SocketPath is the unix socket `storefront backup` uses to reach a running server.
func (c *Config) SocketPath() string { return filepath.Join(c.DataDir, "storefront.sock") }

// Defaults are the value of every key. A key not listed here is unknown.
var Defaults = map[string]any{
	"http.addr":                               "127.0.0.1:8080",
	"http.public_url":                         "",
	"http.trusted_proxies":                    []any{},
	"http.log_requests":                       true,
	"http.read_timeout":                       "30s",
	"http.write_timeout":                      "30s",
	"http.idle_timeout":                       "120s",
	"http.shutdown_delay":                     "1s",
	"http.metrics_addr":                       "",
	"http.metrics_token":                      "",
	"data_dir":                                "./data",
	"demo":                                    false,
	"admin.email":                             "admin@example.com",
	"admin.password":                          "",
	"auth.access_ttl":                         "15m",
	"auth.refresh_ttl":                        "720h",
	"auth.admin_ttl":                          "12h",
	"auth.bcrypt_cost":                        10,
	"orders.pending_ttl":                      "30m",
	"orders.expire_schedule":                  "@every 1m",
	"cache.evict_schedule":                    "@every 1m",
	"ratelimit.auth_per_minute":               20,
	"ratelimit.login_failures":                5,
	"ratelimit.contact_per_minute":            5,
	"ratelimit.api_per_second":                100,
	"ratelimit.unpaid_orders_per_hour":        10,
	"ratelimit.tickets_per_hour":              10,
	"ratelimit.guest_carts_per_hour":          30,
	"ratelimit.codes_per_day":                 10,
	"log.format":                              "text",
	"log.level":                               "info",
	"mail.smtp.host":                          "",
	"mail.smtp.port":                          587,
	"mail.smtp.username":                      "",
	"mail.smtp.password":                      "",
	"mail.smtp.from":                          "",
	"mail.smtp.tls":                           "starttls",
	"mail.max_age":                            "48h",
	"webhooks.allow_private_targets":          false,
	"webhooks.timeout":                        "10s",
	"payments.wallet_a.secret":                "",
	"payments.wallet_b.secret":                "",
	"payments.wallet_a.provider":              "sandbox",
	"payments.wallet_a.providers":             "", // unset: derived from provider (reader.gateway)
	"payments.wallet_b.providers":             "",
	"payments.wallet_b.provider":              "sandbox",
	"payments.wallet_a.stripe.secret_key":     "",
	"payments.wallet_b.stripe.secret_key":     "",
	"payments.wallet_a.stripe.webhook_secret": "",
	"payments.wallet_b.stripe.webhook_secret": "",
	"payments.wallet_a.stripe.api_url":        "https://api.stripe.com",
	"payments.wallet_b.stripe.api_url":        "https://api.stripe.com",
	"storage.driver":                          "bolt",
	"storage.postgres.url":                    "",
	"storage.postgres.max_conns":              0,
	"backups.schedule":                        "0 3 * * *",
	"backups.keep":                            7,
	"backups.dir":                             "",
	"shop.enabled":                            true,
	"shop.domain":                             "",
	"shop.default_store":                      0,
	"shop.theme_dir":                          "",
}

// Deprecated are keys that no longer do anything but are still accepted, for
// one release, so that existing files and environments load: Load ignores
// them with a warning (main logs it at start). The value says what to do.
var Deprecated = map[string]string{
	// since v0.9: bbolt writes share a commit without waiting (storage/batch.go)
	"storage.batch_delay": "unused: checkout writes share a commit without waiting; remove it (it will be an unknown key in the next release)",
}

// deprecation is the warning for a deprecated key set by where.
func deprecation(key, where string) string {
	return fmt.Sprintf("config: %s: %s is deprecated and ignored: %s", where, key, Deprecated[key])
}

// Keys returns every configuration key, sorted.
func Keys() []string {
	out := make([]string, 0, len(Defaults))
	for k := range Defaults {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// EnvKey maps an environment variable name to its key: the prefix is
// stripped, the rest lower-cased, and `__` separates levels, so
// STOREFRONT_HTTP__ADDR is http.addr and STOREFRONT_DATA_DIR is data_dir.
// It returns "" for a name without the prefix.
func EnvKey(name string) string {
	rest, ok := strings.CutPrefix(name, EnvPrefix)
	if !ok || rest == "" {
		return ""
	}
	return strings.ReplaceAll(strings.ToLower(rest), "__", ".")
}

// EnvName is the environment variable of a key (the inverse of EnvKey).
func EnvName(key string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(key, ".", "__"))
}

// Load reads the defaults, then the YAML file at path (when path is not
// empty), then the STOREFRONT_ variables of environ (os.Environ() in main),
// and checks the result. Every error names the key it is about.
func Load(path string, environ []string) (*Config, error) {
	k := koanf.New(".")
	if err := k.Load(confmap.Provider(Defaults, "."), nil); err != nil {
		return nil, fmt.Errorf("config: defaults: %w", err)
	}
	var warnings []string
	if path != "" {
		w, err := mergeFile(k, path)
		if err != nil {
			return nil, err
		}
		warnings = w
	}
	w, err := mergeEnv(k, environ)
	if err != nil {
		return nil, err
	}
	c, err := read(k)
	if err != nil {
		return nil, err
	}
	c.Warnings = append(warnings, w...)
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// mergeFile merges the YAML file at path into k: an unknown key is an
// error, a deprecated one a warning.
func mergeFile(k *koanf.Koanf, path string) (warnings []string, err error) {
	fk := koanf.New(".")
	if err := fk.Load(file.Provider(path), yaml.Parser()); err != nil {
		return nil, fmt.Errorf("config: %s: %w", path, err)
	}
	var unknown []string
	for _, key := range fk.Keys() {
		if _, ok := Deprecated[key]; ok {
			warnings = append(warnings, deprecation(key, path))
			fk.Delete(key)
			continue
		}
		if _, ok := Defaults[key]; !ok {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("config: %s: unknown key %s (see config.example.yaml)", path, strings.Join(unknown, ", "))
	}
	if err := k.Merge(fk); err != nil {
		return nil, fmt.Errorf("config: %s: %w", path, err)
	}
	return warnings, nil
}

// mergeEnv merges the STOREFRONT_ variables of environ into k: one that
// names no key, or a deprecated one, is a warning.
func mergeEnv(k *koanf.Koanf, environ []string) (warnings []string, err error) {
	envs := map[string]any{}
	for _, kv := range environ {
		name, val, _ := strings.Cut(kv, "=")
		key := EnvKey(name)
		if key == "" {
			continue
		}
		if _, ok := Deprecated[key]; ok {
			warnings = append(warnings, deprecation(key, "environment variable "+name))
			continue
		}
		if _, ok := Defaults[key]; !ok {
			warnings = append(warnings, fmt.Sprintf("config: environment variable %s names no key (%s); ignored", name, key))
			continue
		}
		envs[key] = val
	}
	if len(envs) > 0 {
		if err := k.Load(confmap.Provider(envs, "."), nil); err != nil {
			return nil, fmt.Errorf("config: environment: %w", err)
		}
	}
	return warnings, nil
}

// read converts the merged keys to a Config, collecting a type error per key.
func read(k *koanf.Koanf) (*Config, error) {
	r := &reader{k: k}
	c := &Config{
		HTTP:    r.http(),
		DataDir: r.str("data_dir"),
		Demo:    r.boolean("demo"),
		Admin:   Admin{Email: r.str("admin.email"), Password: r.str("admin.password")},
		Auth: Auth{
			AccessTTL:  r.duration("auth.access_ttl"),
			RefreshTTL: r.duration("auth.refresh_ttl"),
			AdminTTL:   r.duration("auth.admin_ttl"),
			BcryptCost: r.integer("auth.bcrypt_cost"),
		},
		Orders:    Orders{PendingTTL: r.duration("orders.pending_ttl"), ExpireSchedule: r.str("orders.expire_schedule")},
		Cache:     Cache{EvictSchedule: r.str("cache.evict_schedule")},
		RateLimit: r.rateLimit(),
		Log:       Log{Format: strings.ToLower(r.str("log.format")), Level: strings.ToLower(r.str("log.level"))},
		Mail: Mail{SMTP: SMTP{
			Host:     r.str("mail.smtp.host"),
			Port:     r.integer("mail.smtp.port"),
			Username: r.str("mail.smtp.username"),
			Password: r.str("mail.smtp.password"),
			From:     r.str("mail.smtp.from"),
			TLS:      strings.ToLower(r.str("mail.smtp.tls")),
		}, MaxAge: r.duration("mail.max_age")},
		Webhooks: Webhooks{AllowPrivateTargets: r.boolean("webhooks.allow_private_targets"), Timeout: r.duration("webhooks.timeout")},
		Payments: Payments{
			WalletA: r.gateway("wallet_a"),
			WalletB: r.gateway("wallet_b"),
		},
		Storage: Storage{
			Driver:   strings.ToLower(strings.TrimSpace(r.str("storage.driver"))),
			Postgres: Postgres{URL: strings.TrimSpace(r.str("storage.postgres.url")), MaxConns: r.integer("storage.postgres.max_conns")},
		},
		Backups: Backups{Schedule: r.str("backups.schedule"), Keep: r.integer("backups.keep"), Dir: r.str("backups.dir")},
		Shop: Shop{Enabled: r.boolean("shop.enabled"), Domain: strings.ToLower(strings.Trim(strings.TrimSpace(r.str("shop.domain")), ".")),
			DefaultStore: r.uint("shop.default_store"), ThemeDir: r.str("shop.theme_dir")},
	}
	if err := errors.Join(r.errs...); err != nil {
		return nil, err
	}
	c.derive()
	return c, nil
}

// http reads the http section.
func (r *reader) http() HTTP {
	return HTTP{
		Addr:           r.str("http.addr"),
		PublicURL:      r.str("http.public_url"),
		TrustedProxies: r.list("http.trusted_proxies"),
		LogRequests:    r.boolean("http.log_requests"),
		ReadTimeout:    r.duration("http.read_timeout"),
		WriteTimeout:   r.duration("http.write_timeout"),
		IdleTimeout:    r.duration("http.idle_timeout"),
		ShutdownDelay:  r.duration("http.shutdown_delay"),
		MetricsAddr:    r.str("http.metrics_addr"),
		MetricsToken:   r.str("http.metrics_token"),
	}
}

// rateLimit reads the ratelimit section.
func (r *reader) rateLimit() RateLimit {
	return RateLimit{
		AuthPerMinute:    r.integer("ratelimit.auth_per_minute"),
		LoginFailures:    r.integer("ratelimit.login_failures"),
		ContactPerMinute: r.integer("ratelimit.contact_per_minute"),
		APIPerSecond:     r.integer("ratelimit.api_per_second"),
		UnpaidOrders:     r.integer("ratelimit.unpaid_orders_per_hour"),
		TicketsPerHour:   r.integer("ratelimit.tickets_per_hour"),
		GuestCarts:       r.integer("ratelimit.guest_carts_per_hour"),
		CodesPerDay:      r.integer("ratelimit.codes_per_day"),
	}
}

// derive fills the values whose defaults depend on others: the public URL
// from http.addr and the backups dir from data_dir.
func (c *Config) derive() {
	c.HTTP.PublicURL = strings.TrimRight(strings.TrimSpace(c.HTTP.PublicURL), "/")
	if c.HTTP.PublicURL == "" {
		c.HTTP.PublicURL = "http://" + displayAddr(c.HTTP.Addr)
		c.HTTP.PublicURLDerived = true
	}
	if c.Backups.Dir == "" && c.DataDir != "" {
		c.Backups.Dir = filepath.Join(c.DataDir, "backups")
	}
}

// displayAddr turns a listen address into one a client can use: an empty or
// wildcard host becomes localhost.
func displayAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// URLFor returns the base URL of a bound listener address, for a public URL
// derived from http.addr (port 0 is only known after binding).
func URLFor(addr net.Addr) string { return "http://" + displayAddr(addr.String()) }

// badFunc records one problem with the value of key.
type badFunc = func(key, format string, args ...any)

// Validate checks every value; each problem names its key.
func (c *Config) Validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", key, fmt.Sprintf(format, args...)))
	}
	for _, check := range []func(badFunc){
		c.validateShopAndHTTP, c.validateAccounts, c.validateStorage,
		c.validateSchedulesAndLimits, c.validateMailAndPayments, c.validateServerLimits,
	} {
		check(bad)
	}
	return errors.Join(errs...)
}

// validateShopAndHTTP checks the shop's theme and domain, the listener and the data dir.
func (c *Config) validateShopAndHTTP(bad badFunc) {
	if c.Shop.ThemeDir != "" {
		if fi, err := os.Stat(c.Shop.ThemeDir); err != nil || !fi.IsDir() {
			bad("shop.theme_dir", "must be a directory, got %q", c.Shop.ThemeDir)
		}
	}
	if c.Shop.Domain != "" && (strings.ContainsAny(c.Shop.Domain, ":/ ") || !strings.Contains(c.Shop.Domain, ".")) {
		bad("shop.domain", "must be a domain name such as shops.example.com, got %q", c.Shop.Domain)
	}
	if _, port, err := net.SplitHostPort(c.HTTP.Addr); err != nil {
		bad("http.addr", "must be host:port, got %q", c.HTTP.Addr)
	} else if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		bad("http.addr", "port must be 0-65535, got %q", port)
	}
	if u, err := url.Parse(c.HTTP.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		bad("http.public_url", "must be an http(s) URL without query, got %q", c.HTTP.PublicURL)
	}
	for _, p := range c.HTTP.TrustedProxies {
		if net.ParseIP(p) == nil {
			if _, _, err := net.ParseCIDR(p); err != nil {
				bad("http.trusted_proxies", "%q is neither an IP address nor a CIDR range", p)
			}
		}
	}
	if strings.TrimSpace(c.DataDir) == "" {
		bad("data_dir", "must not be empty")
	}
}

// validateAccounts checks the first admin and the token lifetimes.
func (c *Config) validateAccounts(bad badFunc) {
	if a, err := mail.ParseAddress(c.Admin.Email); err != nil || a.Address != c.Admin.Email {
		bad("admin.email", "must be an email address, got %q", c.Admin.Email)
	}
	if c.Admin.Password != "" && (len(c.Admin.Password) < 8 || len(c.Admin.Password) > 72) {
		bad("admin.password", "must be 8-72 bytes long (or empty to generate one)")
	}
	for _, d := range []struct {
		key string
		v   time.Duration
		min time.Duration
	}{
		{"auth.access_ttl", c.Auth.AccessTTL, time.Minute},
		{"auth.refresh_ttl", c.Auth.RefreshTTL, time.Minute},
		{"auth.admin_ttl", c.Auth.AdminTTL, time.Minute},
		{"orders.pending_ttl", c.Orders.PendingTTL, time.Minute},
	} {
		if d.v < d.min {
			bad(d.key, "must be at least %s, got %s", d.min, d.v)
		}
	}
}

// validateStorage checks the storage driver and the password hashing cost.
func (c *Config) validateStorage(bad badFunc) {
	switch c.Storage.Driver {
	case DriverBolt:
	case DriverPostgres:
		if c.Storage.Postgres.URL == "" {
			bad("storage.postgres.url", "must be set when storage.driver is postgres (postgres://user:password@host:5432/dbname)")
		}
	default:
		bad("storage.driver", "must be bolt or postgres, got %q", c.Storage.Driver)
	}
	if c.Storage.Postgres.MaxConns < 0 || c.Storage.Postgres.MaxConns > 10000 {
		bad("storage.postgres.max_conns", "must be 0-10000, got %d", c.Storage.Postgres.MaxConns)
	}
	if c.Auth.BcryptCost < 4 || c.Auth.BcryptCost > 31 {
		bad("auth.bcrypt_cost", "must be 4-31, got %d", c.Auth.BcryptCost)
	}
}

// validateSchedulesAndLimits checks the cron schedules, the rate limits and the log.
func (c *Config) validateSchedulesAndLimits(bad badFunc) {
	for _, s := range []struct{ key, v string }{
		{"orders.expire_schedule", c.Orders.ExpireSchedule},
		{"cache.evict_schedule", c.Cache.EvictSchedule},
		{"backups.schedule", c.Backups.Schedule},
	} {
		if s.v == "" && s.key == "backups.schedule" {
			continue // no scheduled backups
		}
		if _, err := cron.ParseStandard(s.v); err != nil {
			bad(s.key, "invalid cron schedule %q: %v", s.v, err)
		}
	}
	for _, n := range []struct {
		key string
		v   int
		min int
	}{
		{"ratelimit.auth_per_minute", c.RateLimit.AuthPerMinute, 1},
		{"ratelimit.login_failures", c.RateLimit.LoginFailures, 1},
		{"ratelimit.contact_per_minute", c.RateLimit.ContactPerMinute, 1},
		{"ratelimit.api_per_second", c.RateLimit.APIPerSecond, 0},
		{"ratelimit.unpaid_orders_per_hour", c.RateLimit.UnpaidOrders, 0},
		{"ratelimit.tickets_per_hour", c.RateLimit.TicketsPerHour, 0},
		{"ratelimit.guest_carts_per_hour", c.RateLimit.GuestCarts, 0},
		{"ratelimit.codes_per_day", c.RateLimit.CodesPerDay, 0},
		{"backups.keep", c.Backups.Keep, 1},
	} {
		if n.v < n.min {
			bad(n.key, "must be at least %d, got %d", n.min, n.v)
		}
	}
	if c.Log.Format != "text" && c.Log.Format != "json" {
		bad("log.format", "must be text or json, got %q", c.Log.Format)
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", "must be debug, info, warn or error, got %q", c.Log.Level)
	}
}

// validateMailAndPayments checks the SMTP relay and the payment gateways.
func (c *Config) validateMailAndPayments(bad badFunc) {
	if c.Mail.SMTP.Port < 1 || c.Mail.SMTP.Port > 65535 {
		bad("mail.smtp.port", "must be 1-65535, got %d", c.Mail.SMTP.Port)
	}
	switch c.Mail.SMTP.TLS {
	case "starttls", "tls", "none":
	default:
		bad("mail.smtp.tls", "must be starttls, tls or none, got %q", c.Mail.SMTP.TLS)
	}
	if c.Mail.SMTP.Host != "" {
		if _, err := mail.ParseAddress(c.Mail.SMTP.From); err != nil {
			bad("mail.smtp.from", "must be an email address when mail.smtp.host is set, got %q", c.Mail.SMTP.From)
		}
	}
	for _, g := range []struct{ key, v string }{
		{"payments.wallet_a.secret", c.Payments.WalletA.Secret},
		{"payments.wallet_b.secret", c.Payments.WalletB.Secret},
	} {
		if g.v != "" && len(g.v) < 16 {
			bad(g.key, "must be at least 16 characters (or empty to derive one)")
		}
	}
	for _, g := range []struct {
		key string
		g   Gateway
	}{{"payments.wallet_a", c.Payments.WalletA}, {"payments.wallet_b", c.Payments.WalletB}} {
		switch g.g.Provider {
		case "sandbox", "stripe":
		default:
			bad(g.key+".provider", "must be sandbox or stripe, got %q", g.g.Provider)
		}
		for _, p := range g.g.Providers {
			if p != "sandbox" && p != "stripe" {
				bad(g.key+".providers", "must list sandbox and/or stripe, got %q", p)
			}
		}
		if !slices.Contains(g.g.Providers, g.g.Provider) {
			bad(g.key+".provider", "must be one of %s.providers %v, got %q", g.key, g.g.Providers, g.g.Provider)
		}
		if u, err := url.Parse(g.g.Stripe.APIURL); slices.Contains(g.g.Providers, "stripe") &&
			(err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
			bad(g.key+".stripe.api_url", "must be an http(s) URL, got %q", g.g.Stripe.APIURL)
		}
	}
}

// validateServerLimits checks the HTTP timeouts, the metrics listener, batching and backups.
func (c *Config) validateServerLimits(bad badFunc) {
	for _, d := range []struct {
		key string
		v   time.Duration
	}{{"http.read_timeout", c.HTTP.ReadTimeout}, {"http.write_timeout", c.HTTP.WriteTimeout}, {"http.idle_timeout", c.HTTP.IdleTimeout}} {
		if d.v < 10*time.Millisecond || d.v > time.Hour {
			bad(d.key, "must be between 10ms and 1h, got %s", d.v)
		}
	}
	if c.HTTP.ShutdownDelay < 0 || c.HTTP.ShutdownDelay > time.Minute {
		bad("http.shutdown_delay", "must be between 0s and 1m, got %s", c.HTTP.ShutdownDelay)
	}
	if c.HTTP.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.HTTP.MetricsAddr); err != nil {
			bad("http.metrics_addr", "must be host:port, got %q", c.HTTP.MetricsAddr)
		}
	}
	if strings.TrimSpace(c.Backups.Dir) == "" {
		bad("backups.dir", "must not be empty")
	}
}

// reader reads typed values from koanf, collecting one error per bad key.
type reader struct {
	k    *koanf.Koanf
	errs []error
}

func (r *reader) fail(key, format string, args ...any) {
	r.errs = append(r.errs, fmt.Errorf("config: %s: %s", key, fmt.Sprintf(format, args...)))
}

// gateway reads the settings of one payment method (wallet_a, wallet_b).
func (r *reader) gateway(m string) Gateway {
	k := "payments." + m + "."
	g := Gateway{Secret: r.str(k + "secret"), Provider: strings.ToLower(r.str(k + "provider")),
		Stripe: Stripe{SecretKey: r.str(k + "stripe.secret_key"), WebhookSecret: r.str(k + "stripe.webhook_secret"),
			APIURL: r.str(k + "stripe.api_url")}}
	for _, p := range r.list(k + "providers") {
		g.Providers = append(g.Providers, strings.ToLower(p))
	}
	if len(g.Providers) == 0 && g.Provider == "stripe" {
		g.Providers = []string{"stripe"}
	} else if len(g.Providers) == 0 {
		g.Providers = []string{"sandbox", "stripe"}
	}
	return g
}

func (r *reader) str(key string) string {
	switch v := r.k.Get(key).(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(v)
	case bool, int, int64, uint64, float64:
		return fmt.Sprint(v)
	default:
		r.fail(key, "must be a string, got %T", v)
		return ""
	}
}

func (r *reader) boolean(key string) bool {
	switch v := r.k.Get(key).(type) {
	case bool:
		return v
	case string:
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			r.fail(key, "must be true or false, got %q", v)
		}
		return b
	default:
		r.fail(key, "must be true or false, got %v", v)
		return false
	}
}

func (r *reader) integer(key string) int {
	switch v := r.k.Get(key).(type) {
	case int:
		return v
	case int64:
		return int(v)
	case uint64:
		if v <= math.MaxInt32 {
			return int(v)
		}
	case float64:
		if v == math.Trunc(v) && math.Abs(v) <= math.MaxInt32 {
			return int(v)
		}
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err == nil {
			return n
		}
		r.fail(key, "must be an integer, got %q", v)
		return 0
	}
	r.fail(key, "must be an integer, got %v", r.k.Get(key))
	return 0
}

// uint is a non-negative integer key.
func (r *reader) uint(key string) uint64 {
	n := r.integer(key)
	if n < 0 {
		r.fail(key, "must not be negative, got %d", n)
		return 0
	}
	return uint64(n)
}

func (r *reader) duration(key string) time.Duration {
	switch v := r.k.Get(key).(type) {
	case string:
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil {
			r.fail(key, "invalid duration %q", v)
		}
		return d
	default:
		r.fail(key, "invalid duration %v (write it with a unit, e.g. \"30m\" or \"2ms\")", v)
		return 0
	}
}

// list reads a YAML list of strings, or a comma-separated string (environment).
func (r *reader) list(key string) []string {
	var out []string
	switch v := r.k.Get(key).(type) {
	case nil:
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				r.fail(key, "must be a list of strings, got %v", e)
				continue
			}
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	case []string:
		out = append(out, v...)
	case string:
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	default:
		r.fail(key, "must be a list of strings, got %v", v)
	}
	return out
}
