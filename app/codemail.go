package app

import (
	"strconv"
	"time"
)

// CodeDayWindow is the period a day's budget of code mails counts over.
const CodeDayWindow = 24 * time.Hour

// CodeMailLimits are the budgets one code mail (a password reset, a new
// verification code) to email at store storeID takes when ip asks for it;
// who names the account or address the mail is for ("email:..." for a
// reset, "customer:..." for a resend), max is ratelimit.login_failures (per
// LoginWindow) and perDay ratelimit.codes_per_day (0: none). The caller
// takes them all at once (TakeAll) and gives them back when nothing was
// sent; unknown emails count alike, so a 429 reveals nothing.
//
// Each requester (address) has its own budget for each account, so no one
// floods an inbox. An address that signed in to the account before (known,
// as for logins) has only that, and its own day's codes; the others also
// share the account's budget and its day's codes: strangers who spend those
// cannot stop the shopper from getting a code from their usual address
// (docs/decisions.md, "Rate limits and login limits").
func (cs *CustomerService) CodeMailLimits(storeID uint64, who, email, ip string, max, perDay int) ([]Limit, error) {
	sid := strconv.FormatUint(storeID, 10)
	shared := []Limit{{Key: "mail|" + sid + "|" + who, Max: max, Window: LoginWindow},
		{Key: "codes-day|" + sid + "|" + email, Max: perDay, Window: CodeDayWindow}}
	if ip == "" || max <= 0 && perDay <= 0 {
		return shared, nil // nothing to count per address (limits off: no database look-up)
	}
	ip = AddrKey(ip)
	pair := Limit{Key: "mail|" + sid + "|" + who + "|" + ip, Max: max, Window: LoginWindow}
	known, err := cs.s.Limits.Count("shopper-login|"+sid+"|known|"+email+"|"+ip, KnownAddressTTL)
	if err != nil {
		return nil, err
	}
	if known > 0 {
		return []Limit{pair, {Key: "codes-day|" + sid + "|" + email + "|" + ip, Max: perDay, Window: CodeDayWindow}}, nil
	}
	return append(shared, pair), nil
}

// SendCodeMail takes the budgets of one code mail (CodeMailLimits, all at
// once) and runs send; when send fails nothing was sent, and they are
// given back. Errors: rate_limited, and send's.
func (cs *CustomerService) SendCodeMail(storeID uint64, who, email, ip string, max, perDay int, send func() error) error {
	lims, err := cs.CodeMailLimits(storeID, who, email, ip, max, perDay)
	if err != nil {
		return err
	}
	if err := TakeAll(cs.s.Limits, "too many codes sent to this address; retry later", lims...); err != nil {
		return err
	}
	if err := send(); err != nil {
		RefundAll(cs.s.Limits, lims...)
		return err
	}
	return nil
}
