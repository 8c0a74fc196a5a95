package app

import (
	"math"
	"strconv"
	"time"
)

// Failed-login limits (docs/decisions.md, "Login limits"). Every login kind
// (admin JSON API, admin panel, shopper) takes its slots from Services.Limits
// before any password work and gives them back when the login succeeds, so a
// parallel burst is checked at most up to the limit and the rest is 429
// without bcrypt.
const (
	// LoginWindow is the period failed logins are counted over.
	LoginWindow = 15 * time.Minute
	// AdminLoginFailuresIP is how many failed admin logins one address may
	// make within LoginWindow, whatever the accounts.
	AdminLoginFailuresIP = 20
	// AdminKnownAddressTTL is how long an address that logged in to an admin
	// account is known to it (and skips the account's delay).
	AdminKnownAddressTTL = 30 * 24 * time.Hour
	defaultLoginFailures = 5
)

// adminDelay is the growing per-account delay of admin logins: once an
// account has more than After failed logins within LoginWindow (from any
// address), tries from addresses that never logged in to it are spaced at
// least Every apart. Every tier up to the current one applies, so a burst
// from many addresses gets one try per slot.
var adminDelay = []struct {
	After int
	Every time.Duration
}{{5, time.Second}, {10, 10 * time.Second}, {20, time.Minute}}

const loginLimitedMsg = "too many failed logins; retry later"

// loginAttempt is the slots one login took; done settles them.
type loginAttempt struct {
	l     Limiter
	slots []Limit
	known *Limit // set for admin logins: marked on success
}

// done gives the slots back unless err is a wrong password (a failure that
// counts), and on success marks the address as known to the account.
func (a *loginAttempt) done(err error) {
	if a == nil || ErrorCode(err) == EInvalidCreds {
		return
	}
	RefundAll(a.l, a.slots...)
	if err == nil && a.known != nil {
		_, _, _ = a.l.Take(a.known.Key, a.known.Window)
	}
}

// takeAdminLogin takes the slots of an admin login of email from ip:
// ratelimit.login_failures per (account, address) and AdminLoginFailuresIP
// per address, so an attacker elsewhere cannot lock the owner out; then,
// unless ip is known to the account, the account's growing delay. ip "" (a
// call from inside the process) is not limited.
func (s *Services) takeAdminLogin(email, ip string) (*loginAttempt, error) {
	if ip == "" {
		return nil, nil
	}
	ip = AddrKey(ip) // an IPv6 client counts per /64
	l := s.Limits
	a := &loginAttempt{l: l, slots: []Limit{
		{Key: "admin-login|pair|" + email + "|" + ip, Max: s.Opt.LoginFailures, Window: LoginWindow},
		{Key: "admin-login|ip|" + ip, Max: AdminLoginFailuresIP, Window: LoginWindow},
	}, known: &Limit{Key: "admin-login|known|" + email + "|" + ip, Max: 1, Window: AdminKnownAddressTTL}}
	if err := TakeAll(l, loginLimitedMsg, a.slots...); err != nil {
		return nil, err
	}
	if n, err := l.Count(a.known.Key, a.known.Window); err != nil || n > 0 {
		return a, err
	}
	acct := Limit{Key: "admin-login|account|" + email, Max: math.MaxInt, Window: LoginWindow}
	f, _, err := l.Take(acct.Key, acct.Window)
	if err != nil {
		RefundAll(l, a.slots...)
		return nil, err
	}
	a.slots = append(a.slots, acct)
	var tiers []Limit
	for _, t := range adminDelay {
		if f > t.After {
			tiers = append(tiers, Limit{Key: "admin-login|delay|" + email + "|" + strconv.FormatInt(int64(t.Every), 10), Max: 1, Window: t.Every})
		}
	}
	if err := TakeAll(l, loginLimitedMsg, tiers...); err != nil {
		RefundAll(l, a.slots...)
		return nil, err
	}
	a.slots = append(a.slots, tiers...)
	return a, nil
}

// takeShopperLogin takes the slot of a shopper login: ratelimit.login_failures
// per store and email (decisions §11), unknown emails alike.
func (s *Services) takeShopperLogin(storeID uint64, email string) (*loginAttempt, error) {
	a := &loginAttempt{l: s.Limits, slots: []Limit{
		{Key: "shopper-login|" + strconv.FormatUint(storeID, 10) + "|" + email, Max: s.Opt.LoginFailures, Window: LoginWindow},
	}}
	if err := TakeAll(s.Limits, loginLimitedMsg, a.slots...); err != nil {
		return nil, err
	}
	return a, nil
}
