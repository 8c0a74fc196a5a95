package app

import (
	"strconv"
	"time"
)

// Failed-login limits (docs/decisions.md, "Rate limits and login
// limits": logins that cannot be locked from elsewhere). Every login kind (admin JSON API, admin
// panel, shopper) takes its slots from Services.Limits before any password
// work and gives them back when the login succeeds, so a parallel burst is
// checked at most up to the limit and the rest is 429 without bcrypt.
//
// Which slots a login takes depends on what it presents:
//   - a valid device token of the account (OWASP "device cookies"): only the
//     token's own budget (ratelimit.login_failures); a token over it is
//     locked, the account is not;
//   - else an address that logged in to the account before (known for
//     KnownAddressTTL): the (account, address) budget;
//   - else (an unknown address): the (account, address) budget and the
//     account's budget for unknown addresses (ratelimit.login_failures per
//     email per LoginWindow).
//
// Admin logins also count AdminLoginFailuresIP per address unless they carry
// a device token. So failures from elsewhere never lock out an owner's known
// address or device.
const (
	// LoginWindow is the period failed logins are counted over.
	LoginWindow = 15 * time.Minute
	// AdminLoginFailuresIP is how many failed admin logins one address may
	// make within LoginWindow, whatever the accounts.
	AdminLoginFailuresIP = 20
	// KnownAddressTTL is how long an address that logged in to an account
	// (admin or shopper) is known to it.
	KnownAddressTTL = 30 * 24 * time.Hour
	// AdminKnownAddressTTL is KnownAddressTTL under its older name.
	AdminKnownAddressTTL = KnownAddressTTL
	// DeviceTokenTTL is how long a device token from a successful login is
	// accepted.
	DeviceTokenTTL       = 90 * 24 * time.Hour
	defaultLoginFailures = 5
)

// TokenDevice is the kind of device tokens: Subject is the account (admin
// user or customer id), StoreID its store (0 for admins), Session the
// device's own id (its failure budget).
const TokenDevice = "device"

const loginLimitedMsg = "too many failed logins; retry later"

// LoginRequest is one login attempt, admin or shopper.
type LoginRequest struct {
	Email    string
	Password string
	// IP is the client's address ("" for calls from inside the process: an
	// admin login is then not limited).
	IP string
	// Device is a device token from an earlier successful login ("" none).
	Device string
	// TOTPCode and RecoveryCode are an admin's second factor.
	TOTPCode     string
	RecoveryCode string
}

// loginAttempt is the slots one login took; done settles them.
type loginAttempt struct {
	l     Limiter
	slots []Limit
	known string // the (account, address) key marked known on success
}

// done gives the slots back unless err is a wrong password (a failure that
// counts), and on success marks the address as known to the account.
func (a *loginAttempt) done(err error) {
	if a == nil || ErrorCode(err) == EInvalidCreds {
		return
	}
	RefundAll(a.l, a.slots...)
	if err == nil && a.known != "" {
		_, _, _ = a.l.Take(a.known, KnownAddressTTL)
	}
}

// takeLogin takes the slots of a login of email under scope ("admin-login"
// or "shopper-login|<store>") from ip, with device the session of a valid
// device token of the account ("" none); perIP adds AdminLoginFailuresIP.
func (s *Services) takeLogin(scope, email, ip, device string, perIP bool) (*loginAttempt, error) {
	max := s.Opt.LoginFailures
	a := &loginAttempt{l: s.Limits}
	if ip != "" {
		ip = AddrKey(ip) // an IPv6 client counts per /64
		a.known = scope + "|known|" + email + "|" + ip
	}
	if device != "" {
		a.slots = []Limit{{Key: scope + "|device|" + device, Max: max, Window: LoginWindow}}
		return a, TakeAll(s.Limits, loginLimitedMsg, a.slots...)
	}
	if ip != "" {
		a.slots = append(a.slots, Limit{Key: scope + "|pair|" + email + "|" + ip, Max: max, Window: LoginWindow})
		if perIP {
			a.slots = append(a.slots, Limit{Key: scope + "|ip|" + ip, Max: AdminLoginFailuresIP, Window: LoginWindow})
		}
	}
	known := 0
	if a.known != "" {
		n, err := s.Limits.Count(a.known, KnownAddressTTL)
		if err != nil {
			return nil, err
		}
		known = n
	}
	if known == 0 {
		a.slots = append(a.slots, Limit{Key: scope + "|" + email, Max: max, Window: LoginWindow})
	}
	if err := TakeAll(s.Limits, loginLimitedMsg, a.slots...); err != nil {
		return nil, err
	}
	return a, nil
}

// takeAdminLogin takes the slots of an admin login of email from ip with the
// session of a valid device token ("" none). ip "" (a call from inside the
// process) is not limited.
func (s *Services) takeAdminLogin(email, ip, device string) (*loginAttempt, error) {
	if ip == "" && device == "" {
		return nil, nil
	}
	return s.takeLogin("admin-login", email, ip, device, true)
}

// takeShopperLogin takes the slots of a shopper login of email at store
// storeID from ip ("" unknown) with the session of a valid device token.
func (s *Services) takeShopperLogin(storeID uint64, email, ip, device string) (*loginAttempt, error) {
	return s.takeLogin("shopper-login|"+strconv.FormatUint(storeID, 10), email, ip, device, false)
}

// issueDevice signs a device token for account subject of store storeID
// (0: an admin).
func issueDevice(t Tokens, now time.Time, storeID, subject uint64) (string, error) {
	return t.Issue(Claims{Kind: TokenDevice, StoreID: storeID, Subject: subject, Session: RandomHex(12),
		ExpiresAt: UTC(now.Add(DeviceTokenTTL))})
}

// deviceOf returns the session of device token tok when it is valid and
// belongs to account subject of store storeID, "" otherwise.
func deviceOf(t Tokens, tok string, storeID, subject uint64) string {
	if tok == "" || len(tok) > 2048 {
		return ""
	}
	c, err := t.Verify(tok, TokenDevice)
	if err != nil || c.StoreID != storeID || c.Subject != subject || c.Session == "" {
		return ""
	}
	return c.Session
}
