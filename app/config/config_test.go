package config_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"

	"storefront/app/config"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "storefront.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaults(t *testing.T) {
	c, err := config.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"http.addr", c.HTTP.Addr, "127.0.0.1:8080"},
		{"http.public_url", c.HTTP.PublicURL, "http://127.0.0.1:8080"},
		{"public url derived", c.HTTP.PublicURLDerived, true},
		{"http.log_requests", c.HTTP.LogRequests, true},
		{"data_dir", c.DataDir, "./data"},
		{"demo", c.Demo, false},
		{"admin.email", c.Admin.Email, "admin@example.com"},
		{"auth.access_ttl", c.Auth.AccessTTL, 15 * time.Minute},
		{"auth.refresh_ttl", c.Auth.RefreshTTL, 720 * time.Hour},
		{"auth.admin_ttl", c.Auth.AdminTTL, 12 * time.Hour},
		{"auth.bcrypt_cost", c.Auth.BcryptCost, 10},
		{"orders.pending_ttl", c.Orders.PendingTTL, 30 * time.Minute},
		{"orders.expire_schedule", c.Orders.ExpireSchedule, "@every 1m"},
		{"cache.evict_schedule", c.Cache.EvictSchedule, "@every 1m"},
		{"ratelimit.auth_per_minute", c.RateLimit.AuthPerMinute, 20},
		{"ratelimit.login_failures", c.RateLimit.LoginFailures, 5},
		{"ratelimit.contact_per_minute", c.RateLimit.ContactPerMinute, 5},
		{"ratelimit.api_per_second", c.RateLimit.APIPerSecond, 100},
		{"backups.schedule", c.Backups.Schedule, "0 3 * * *"},
		{"backups.keep", c.Backups.Keep, 7},
		{"backups.dir", c.Backups.Dir, filepath.Join("data", "backups")},
		{"mail.smtp.host", c.Mail.SMTP.Host, ""},
		{"log.format", c.Log.Format, "text"},
		{"db path", c.DBPath(), filepath.Join("data", "storefront.db")},
	}
	for _, ch := range checks {
		if !reflect.DeepEqual(ch.got, ch.want) {
			t.Errorf("%s: got %#v, want %#v", ch.name, ch.got, ch.want)
		}
	}
	if len(c.HTTP.TrustedProxies) != 0 {
		t.Errorf("http.trusted_proxies: got %v, want none", c.HTTP.TrustedProxies)
	}
}

// TestPrecedence: defaults < file < environment, key by key.
func TestPrecedence(t *testing.T) {
	path := writeFile(t, `
http:
  addr: "0.0.0.0:9000"
  trusted_proxies: ["10.0.0.0/8", "127.0.0.1"]
data_dir: /srv/file
demo: true
ratelimit:
  api_per_second: 50
  auth_per_minute: 30
orders:
  pending_ttl: 45m
payments:
  wallet_a:
    secret: from-the-file-0123456789
`)
	env := []string{
		"STOREFRONT_DATA_DIR=/srv/env",
		"STOREFRONT_RATELIMIT__API_PER_SECOND=0",
		"STOREFRONT_HTTP__PUBLIC_URL=https://shop.example.com/",
		"STOREFRONT_HTTP__TRUSTED_PROXIES=192.168.0.1, 172.16.0.0/12",
		"STOREFRONT_DEMO=false",
		"STOREFRONT_PAYMENTS__WALLET_B__SECRET=from-the-env-0123456789",
		"STOREFRONT_MAIL__SMTP__PORT=2525",
		"OTHER_HTTP__ADDR=1.2.3.4:1", // not ours
		"PATH=/usr/bin",
	}
	c, err := config.Load(path, env)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"http.addr (file)", c.HTTP.Addr, "0.0.0.0:9000"},
		{"data_dir (env over file)", c.DataDir, "/srv/env"},
		{"backups.dir follows data_dir", c.Backups.Dir, "/srv/env/backups"},
		{"demo (env over file)", c.Demo, false},
		{"ratelimit.api_per_second (env 0 over file)", c.RateLimit.APIPerSecond, 0},
		{"ratelimit.auth_per_minute (file)", c.RateLimit.AuthPerMinute, 30},
		{"ratelimit.login_failures (default)", c.RateLimit.LoginFailures, 5},
		{"orders.pending_ttl (file)", c.Orders.PendingTTL, 45 * time.Minute},
		{"http.public_url (env, slash trimmed)", c.HTTP.PublicURL, "https://shop.example.com"},
		{"public url not derived", c.HTTP.PublicURLDerived, false},
		{"http.trusted_proxies (env list)", c.HTTP.TrustedProxies, []string{"192.168.0.1", "172.16.0.0/12"}},
		{"payments.wallet_a.secret (file)", c.Payments.WalletA.Secret, "from-the-file-0123456789"},
		{"payments.wallet_b.secret (env, key with _)", c.Payments.WalletB.Secret, "from-the-env-0123456789"},
		{"mail.smtp.port (env, three levels)", c.Mail.SMTP.Port, 2525},
	}
	for _, ch := range checks {
		if !reflect.DeepEqual(ch.got, ch.want) {
			t.Errorf("%s: got %#v, want %#v", ch.name, ch.got, ch.want)
		}
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings: got %v, want none", c.Warnings)
	}
}

func TestFileListKept(t *testing.T) {
	c, err := config.Load(writeFile(t, "http:\n  trusted_proxies: [\"10.0.0.1\"]\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.HTTP.TrustedProxies, []string{"10.0.0.1"}) {
		t.Fatalf("got %v, want [10.0.0.1]", c.HTTP.TrustedProxies)
	}
}

func TestEnvKey(t *testing.T) {
	for name, want := range map[string]string{
		"STOREFRONT_HTTP__ADDR":                 "http.addr",
		"STOREFRONT_DATA_DIR":                   "data_dir",
		"STOREFRONT_DEMO":                       "demo",
		"STOREFRONT_RATELIMIT__API_PER_SECOND":  "ratelimit.api_per_second",
		"STOREFRONT_MAIL__SMTP__HOST":           "mail.smtp.host",
		"STOREFRONT_PAYMENTS__WALLET_A__SECRET": "payments.wallet_a.secret",
		"STOREFRONT_":                           "",
		"HTTP__ADDR":                            "",
	} {
		if got := config.EnvKey(name); got != want {
			t.Errorf("EnvKey(%q): got %q, want %q", name, got, want)
		}
	}
	for _, k := range config.Keys() {
		if got := config.EnvKey(config.EnvName(k)); got != k {
			t.Errorf("EnvKey(EnvName(%q)): got %q", k, got)
		}
	}
}

// TestBadValues: every bad value is an error naming its key, never a panic.
func TestBadValues(t *testing.T) {
	cases := []struct {
		name string
		file string
		env  []string
		want string
	}{
		{"duration env", "", []string{"STOREFRONT_ORDERS__PENDING_TTL=abc"}, `config: orders.pending_ttl: invalid duration "abc"`},
		{"duration without unit", "orders:\n  pending_ttl: 30\n", nil, "config: orders.pending_ttl: invalid duration 30"},
		{"duration too short", "", []string{"STOREFRONT_AUTH__ACCESS_TTL=1s"}, "config: auth.access_ttl: must be at least 1m0s"},
		{"integer env", "", []string{"STOREFRONT_RATELIMIT__API_PER_SECOND=lots"}, `config: ratelimit.api_per_second: must be an integer, got "lots"`},
		{"integer file", "backups:\n  keep: many\n", nil, `config: backups.keep: must be an integer, got "many"`},
		{"negative rate", "", []string{"STOREFRONT_RATELIMIT__API_PER_SECOND=-1"}, "config: ratelimit.api_per_second: must be at least 0"},
		{"zero auth rate", "", []string{"STOREFRONT_RATELIMIT__AUTH_PER_MINUTE=0"}, "config: ratelimit.auth_per_minute: must be at least 1"},
		{"bool", "", []string{"STOREFRONT_DEMO=maybe"}, `config: demo: must be true or false, got "maybe"`},
		{"addr", "", []string{"STOREFRONT_HTTP__ADDR=8080"}, `config: http.addr: must be host:port, got "8080"`},
		{"addr port", "", []string{"STOREFRONT_HTTP__ADDR=127.0.0.1:99999"}, "config: http.addr: port must be 0-65535"},
		{"public url", "", []string{"STOREFRONT_HTTP__PUBLIC_URL=shop.example.com"}, "config: http.public_url: must be an http(s) URL"},
		{"trusted proxy", "http:\n  trusted_proxies: [\"not-an-ip\"]\n", nil, `config: http.trusted_proxies: "not-an-ip" is neither`},
		{"admin email", "", []string{"STOREFRONT_ADMIN__EMAIL=nobody"}, `config: admin.email: must be an email address, got "nobody"`},
		{"admin password", "", []string{"STOREFRONT_ADMIN__PASSWORD=short"}, "config: admin.password: must be 8-72 bytes"},
		{"bcrypt", "auth:\n  bcrypt_cost: 40\n", nil, "config: auth.bcrypt_cost: must be 4-31, got 40"},
		{"cron", "", []string{"STOREFRONT_BACKUPS__SCHEDULE=every night"}, `config: backups.schedule: invalid cron schedule "every night"`},
		{"log format", "", []string{"STOREFRONT_LOG__FORMAT=xml"}, `config: log.format: must be text or json, got "xml"`},
		{"log level", "log:\n  level: loud\n", nil, `config: log.level: must be debug, info, warn or error, got "loud"`},
		{"smtp from", "", []string{"STOREFRONT_MAIL__SMTP__HOST=smtp.example.com"}, "config: mail.smtp.from: must be an email address"},
		{"smtp tls", "", []string{"STOREFRONT_MAIL__SMTP__TLS=maybe"}, "config: mail.smtp.tls: must be starttls, tls or none"},
		{"gateway secret", "", []string{"STOREFRONT_PAYMENTS__WALLET_A__SECRET=short"}, "config: payments.wallet_a.secret: must be at least 16 characters"},
		{"empty data dir", "", []string{"STOREFRONT_DATA_DIR="}, "config: data_dir: must not be empty"},
		{"unknown file key", "http:\n  adr: \":80\"\n", nil, "unknown key http.adr"},
		{"scalar for a section", "http: yes\n", nil, "unknown key http"},
		{"list for a string", "admin:\n  email: [a, b]\n", nil, "config: admin.email: must be a string"},
		{"malformed yaml", "http:\n  addr: [\n", nil, "storefront.yaml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := ""
			if tc.file != "" {
				path = writeFile(t, tc.file)
			}
			_, err := config.Load(path, tc.env)
			if err == nil {
				t.Fatalf("got no error, want one containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestEveryErrorReported(t *testing.T) {
	_, err := config.Load("", []string{"STOREFRONT_ORDERS__PENDING_TTL=abc", "STOREFRONT_BACKUPS__KEEP=x", "STOREFRONT_LOG__LEVEL=loud"})
	if err == nil {
		t.Fatal("got no error")
	}
	for _, key := range []string{"orders.pending_ttl", "backups.keep"} {
		if !strings.Contains(err.Error(), key) {
			t.Errorf("got %q, want it to name %s", err, key)
		}
	}
}

func TestMissingFile(t *testing.T) {
	_, err := config.Load(filepath.Join(t.TempDir(), "nope.yaml"), nil)
	if err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Fatalf("got %v, want an error naming the file", err)
	}
}

func TestUnknownEnvWarns(t *testing.T) {
	c, err := config.Load("", []string{"STOREFRONT_HTTP__ADR=:80"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "STOREFRONT_HTTP__ADR") {
		t.Fatalf("got warnings %v, want one naming STOREFRONT_HTTP__ADR", c.Warnings)
	}
}

// TestDeprecatedKeyWarns: storage.batch_delay, from the file or the
// environment, still loads (one release) and is named in a warning.
func TestDeprecatedKeyWarns(t *testing.T) {
	path := writeFile(t, "storage:\n  driver: bolt\n  batch_delay: \"2ms\"\n")
	c, err := config.Load(path, []string{"STOREFRONT_STORAGE__BATCH_DELAY=5s"})
	if err != nil {
		t.Fatalf("got %v, want the deprecated key accepted", err)
	}
	if len(c.Warnings) != 2 {
		t.Fatalf("got warnings %v, want two", c.Warnings)
	}
	for i, want := range []string{path, "STOREFRONT_STORAGE__BATCH_DELAY"} {
		if w := c.Warnings[i]; !strings.Contains(w, "storage.batch_delay is deprecated") || !strings.Contains(w, want) {
			t.Errorf("warning %d: got %q, want storage.batch_delay deprecated, naming %s", i, w, want)
		}
	}
	if c.Storage.Driver != "bolt" {
		t.Errorf("storage.driver: got %q, want bolt (the rest of the section kept)", c.Storage.Driver)
	}
}

func TestPublicURLFromWildcardAddr(t *testing.T) {
	c, err := config.Load("", []string{"STOREFRONT_HTTP__ADDR=0.0.0.0:9000"})
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTP.PublicURL != "http://localhost:9000" {
		t.Fatalf("got %q, want http://localhost:9000", c.HTTP.PublicURL)
	}
}

// TestExampleFile: config.example.yaml documents every key, with its default.
func TestExampleFile(t *testing.T) {
	const path = "../../config.example.yaml"
	k := koanf.New(".")
	if err := k.Load(file.Provider(path), yaml.Parser()); err != nil {
		t.Fatal(err)
	}
	for _, key := range config.Keys() {
		if !k.Exists(key) {
			t.Errorf("%s is not in config.example.yaml", key)
			continue
		}
		got, want := k.Get(key), config.Defaults[key]
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: example says %#v, default is %#v", key, got, want)
		}
	}
	ex, err := config.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	def, _ := config.Load("", nil)
	if !reflect.DeepEqual(ex, def) {
		t.Errorf("loading the example differs from the defaults:\n%+v\n%+v", ex, def)
	}
}

func TestPaymentProviders(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
		bad        string
	}{
		{"default server", "", []string{"sandbox", "stripe"}, ""},
		{"old stripe-only config", "payments:\n  wallet_a:\n    provider: stripe\n", []string{"stripe"}, ""},
		{"one listed", "payments:\n  wallet_a:\n    providers: [sandbox]\n", []string{"sandbox"}, ""},
		{"both, stripe default", "payments:\n  wallet_a:\n    provider: stripe\n    providers: [sandbox, stripe]\n", []string{"sandbox", "stripe"}, ""},
		{"default not listed", "payments:\n  wallet_a:\n    provider: stripe\n    providers: [sandbox]\n", nil, "payments.wallet_a.provider"},
		{"unknown provider", "payments:\n  wallet_a:\n    providers: [sandbox, paypal]\n", nil, "payments.wallet_a.providers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := ""
			if tc.file != "" {
				path = writeFile(t, tc.file)
			}
			c, err := config.Load(path, nil)
			if tc.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("want an error naming %s, got %v", tc.bad, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(c.Payments.WalletA.Providers, ","); got != strings.Join(tc.want, ",") {
				t.Fatalf("providers: got %s, want %v", got, tc.want)
			}
		})
	}
}
