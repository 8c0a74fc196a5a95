package app

import (
	"net/url"
	"slices"
	"strings"
)

// Owner notification kinds: each can be turned off per store
// (Store.NotificationsOff).
const (
	NotifyOrderPaid             = "order_paid"
	NotifyCancellationRequested = "cancellation_requested"
	NotifyRefundRequested       = "refund_requested"
	NotifyTicketCreated         = "ticket_created"
	NotifyTicketReplied         = "ticket_replied"
	NotifyContactReceived       = "contact_received"
	NotifyLowStock              = "low_stock"
)

// NotificationKinds lists every owner notification kind, in display order.
var NotificationKinds = []string{NotifyOrderPaid, NotifyCancellationRequested, NotifyRefundRequested,
	NotifyTicketCreated, NotifyTicketReplied, NotifyContactReceived, NotifyLowStock}

// Settings limits.
const (
	MaxAllowedOrigins     = 20
	MaxNotificationEmails = 10
	MaxDomains            = 10
)

// Notifies reports whether the store wants owner mail of kind.
func (s *Store) Notifies(kind string) bool {
	return len(s.NotificationEmails) > 0 && !slices.Contains(s.NotificationsOff, kind)
}

// Notifications returns every kind with whether it is on (the wire form).
func (s *Store) Notifications() map[string]bool {
	out := make(map[string]bool, len(NotificationKinds))
	for _, k := range NotificationKinds {
		out[k] = !slices.Contains(s.NotificationsOff, k)
	}
	return out
}

// AllowsOrigin reports whether origin (an Origin header) is one of the
// store's allowed origins. Comparison is exact after normalising case.
func (s *Store) AllowsOrigin(origin string) bool {
	o, ok := ExactOrigin(origin)
	return ok && slices.Contains(s.AllowedOrigins, o)
}

// LocalOrigin reports whether origin is http://localhost or
// http://127.0.0.1 on any port: a developer's machine, which the demo store
// allows (Options.DemoSubdomain).
func LocalOrigin(origin string) bool {
	o := NormalizeOrigin(origin)
	for _, host := range []string{"http://localhost", "http://127.0.0.1"} {
		if o == host || strings.HasPrefix(o, host+":") {
			return true
		}
	}
	return false
}

// demoLocal reports whether st is the demo store and origin a local one.
func demoLocal(demo string, st *Store, origin string) bool {
	return demo != "" && st.Subdomain == demo && LocalOrigin(origin)
}

// AllowsOrigin reports whether st allows origin for CORS: one of its
// allowed origins, or a local origin when st is the demo store.
func (ss *StoreService) AllowsOrigin(st *Store, origin string) bool {
	return st.AllowsOrigin(origin) || demoLocal(ss.s.demo, st, origin)
}

// ExactOrigin returns the canonical form of a browser origin
// (lower-case scheme and host, no default port) and whether s is one:
// http or https, a host, an optional port, nothing else (no path, query,
// user or wildcard).
func ExactOrigin(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "*\\ ") || strings.HasSuffix(s, "/") {
		return "", false
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" || strings.Contains(s, "?") || strings.Contains(s, "#") {
		return "", false
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if host == "" {
		return "", false
	}
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	out := strings.ToLower(u.Scheme) + "://" + host
	if port != "" {
		out += ":" + port
	}
	return out, true
}

// StoreSettingsInput changes the store settings that are not part of the
// public configuration; nil fields stay as they are. Notifications maps a
// kind to on (true) or off (false); kinds not named stay as they are.
type StoreSettingsInput struct {
	AllowedOrigins     *[]string       `json:"allowed_origins"`
	Domains            *[]string       `json:"domains"`
	NotificationEmails *[]string       `json:"notification_emails"`
	Notifications      map[string]bool `json:"notifications"`
}

// apply validates in and applies it to st; hr says which hosts no store
// may claim as a domain.
func (in StoreSettingsInput) apply(st *Store, hr hostRules) error {
	var v Validation
	if in.AllowedOrigins != nil {
		list := []string{}
		v.Check(len(*in.AllowedOrigins) <= MaxAllowedOrigins, "allowed_origins", "at most "+itoa(MaxAllowedOrigins)+" origins")
		for i, o := range *in.AllowedOrigins {
			n, ok := ExactOrigin(o)
			if !ok {
				v.Add("allowed_origins["+itoa(i)+"]", "must be an exact origin such as https://shop.example (scheme, host, optional port; no path, no wildcard)")
				continue
			}
			if !slices.Contains(list, n) {
				list = append(list, n)
			}
		}
		st.AllowedOrigins = list
	}
	if in.Domains != nil {
		st.Domains = validDomains(&v, *in.Domains, hr)
	}
	if in.NotificationEmails != nil {
		list := []string{}
		v.Check(len(*in.NotificationEmails) <= MaxNotificationEmails, "notification_emails", "at most "+itoa(MaxNotificationEmails)+" addresses")
		for i, e := range *in.NotificationEmails {
			e = strings.TrimSpace(e)
			f := "notification_emails[" + itoa(i) + "]"
			v.Email(f, e)
			if !v.Has(f) && !slices.Contains(list, e) {
				list = append(list, e)
			}
		}
		st.NotificationEmails = list
	}
	for k, on := range in.Notifications {
		if !slices.Contains(NotificationKinds, k) {
			v.Add("notifications."+k, "unknown notification kind; known: "+strings.Join(NotificationKinds, ", "))
			continue
		}
		off := slices.DeleteFunc(st.NotificationsOff, func(x string) bool { return x == k })
		if !on {
			off = append(off, k)
		}
		st.NotificationsOff = off
	}
	return v.Err()
}

// validDomains checks a store's custom shop domains and returns them
// normalised (lower case, no trailing dot, no duplicates). A domain must be
// a host name that no store can already answer on (hostRules.check).
func validDomains(v *Validation, in []string, hr hostRules) []string {
	list := []string{}
	v.Check(len(in) <= MaxDomains, "domains", "at most "+itoa(MaxDomains)+" domains")
	for i, d := range in {
		d = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), ".")
		f := "domains[" + itoa(i) + "]"
		if msg := hr.check(d); msg != "" {
			v.Add(f, msg)
			continue
		}
		if !IsHostName(d) {
			v.Add(f, "must be a host name such as shop.example.com (no scheme, port or path)")
			continue
		}
		if !slices.Contains(list, d) {
			list = append(list, d)
		}
	}
	return list
}

// IsHostName reports whether s is a lower-case DNS host name with at least
// two labels: letters, digits and inner dashes, labels of 1-63, 253 in all.
func IsHostName(s string) bool {
	if len(s) > 253 || !strings.Contains(s, ".") {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if !subdomainRE.MatchString(label) {
			return false
		}
	}
	return true
}

// SetSettings changes a store's allowed origins, shop domains and
// notification settings. Errors: validation_failed, not_found, conflict (a
// domain another store uses).
func (ss *StoreService) SetSettings(id uint64, in StoreSettingsInput) (*Store, error) {
	return ss.SetSettingsBy(id, in, nil)
}

// SetSettingsBy is SetSettings by an admin (Change): forbidden when by may
// not change one of the settings it changes.
func (ss *StoreService) SetSettingsBy(id uint64, in StoreSettingsInput, by *AdminUser) (*Store, error) {
	return ss.Change(id, StoreChange{StoreSettingsInput: in}, by)
}

// domainsAllowed checks st's domains against the host rules (a version
// restored may predate them) and the other stores' domains.
func (ss *StoreService) domainsAllowed(tx storeData, st *Store) error {
	var v Validation
	hr := ss.hostRules()
	for i, d := range st.Domains {
		if msg := hr.check(d); msg != "" {
			v.Add("domains["+itoa(i)+"]", msg)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	return domainsFree(tx, st)
}

// domainsFree fails with conflict when another store lists one of st's
// domains. The check and the write
// share one transaction.
func domainsFree(tx storeData, st *Store) error {
	others, err := tx.Stores()
	if err != nil {
		return err
	}
	for i, d := range st.Domains {
		for _, o := range others {
			if o.ID != st.ID && slices.Contains(o.Domains, d) {
				return &Error{Code: EConflict, Message: "the domain " + d + " is used by another store",
					Fields: map[string]string{"domains[" + itoa(i) + "]": "already used by another store"}}
			}
		}
	}
	return nil
}

// OriginAllowedAnywhere reports whether any active store lists origin. It
// answers CORS preflights, which carry no API key (docs/decisions.md).
func (ss *StoreService) OriginAllowedAnywhere(origin string) bool {
	o, ok := ExactOrigin(origin)
	if !ok {
		return false
	}
	if ss.s.demo != "" && LocalOrigin(o) {
		return true // the demo store's (its actual responses check the key's store)
	}
	set := ss.origins.Load()
	if set == nil {
		gen := ss.cache.Load().gen
		stores, err := ss.List()
		if err != nil {
			ss.s.Log.Error("cors: listing stores", "err", err)
			return false
		}
		m := map[string]bool{}
		for _, st := range stores {
			if st.IsActive {
				for _, x := range st.AllowedOrigins {
					m[x] = true
				}
			}
		}
		set = &m
		ss.mu.Lock()
		if ss.cache.Load().gen == gen {
			ss.origins.Store(set)
		}
		ss.mu.Unlock()
	}
	return (*set)[o]
}
