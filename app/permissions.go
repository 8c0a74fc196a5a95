package app

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Who may change which setting of a store, decided once, per field
// (docs/decisions.md, "Staff roles"). Every write of a store's settings
// (StoreService.updateTx: the typed routes, PATCH config, a restore from
// the history, the panel's forms and its JSON editor) compares the store
// before and after and asks PermitChanges about each field it changed: a
// change that touches one field the admin may not change is refused whole.
// Sending a field's current value changes nothing and needs nothing.

// A setting is a store field by its wire name ("domains") or a key of the
// configuration as "config.<key>" ("config.payments_live").
const (
	SettingName             = "name"
	SettingIsActive         = "is_active"
	SettingRequireStaffTOTP = "require_staff_totp"
	SettingAllowedOrigins   = "allowed_origins"
	SettingDomains          = "domains"
	SettingNotifyEmails     = "notification_emails"
	SettingNotifications    = "notifications"
	SettingGateways         = "payments.credentials" // providers and keys of the payment methods
	SettingAPIKey           = "api_key"
	SettingMailTemplates    = "mail_templates"
)

// SettingPerms is the permission that changes each store field, and each
// configuration key that needs more than PermSettings (every other
// "config.*" key needs PermSettings).
var SettingPerms = map[string]Perm{
	SettingName: PermSettings, SettingIsActive: PermStores, SettingRequireStaffTOTP: PermUsers,
	SettingAllowedOrigins: PermSettings, SettingDomains: PermDomains,
	SettingNotifyEmails: PermSettings, SettingNotifications: PermSettings, SettingMailTemplates: PermSettings,
	SettingGateways: PermPayments, SettingAPIKey: PermKeys,
	"config.payments_live": PermPayments, "config.payment_methods": PermPayments,
}

// StoreSettings lists the store fields of SettingPerms, in a stable order
// (the configuration's keys come as "config.<key>").
var StoreSettings = []string{SettingName, SettingIsActive, SettingRequireStaffTOTP, SettingAllowedOrigins,
	SettingDomains, SettingNotifyEmails, SettingNotifications, SettingMailTemplates, SettingGateways, SettingAPIKey}

// SettingPerm returns the permission that changes setting.
func SettingPerm(setting string) Perm {
	if p, ok := SettingPerms[setting]; ok {
		return p
	}
	if strings.HasPrefix(setting, "config.") && secretKey(setting) {
		return PermPayments // a credential kept in the configuration
	}
	return PermSettings
}

// MayChange reports whether u may change setting (nil u: the server, which may).
func MayChange(u *AdminUser, setting string) bool {
	return u == nil || u.Has(SettingPerm(setting))
}

// PermitChanges is nil when u may change every one of settings (nil u: the
// server); otherwise forbidden, naming each setting u may not change.
func PermitChanges(u *AdminUser, settings []string) error {
	fields := map[string]string{}
	for _, s := range settings {
		if !MayChange(u, s) {
			fields[s] = "your role (" + u.Role + ") may not change this; ask an owner"
		}
	}
	if len(fields) == 0 {
		return nil
	}
	names := slices.Sorted(maps.Keys(fields))
	return &Error{Code: EForbidden, Fields: fields,
		Message: "your role (" + u.Role + ") may not change " + strings.Join(names, ", ") + "; nothing was changed"}
}

// ChangedSettings lists the settings that differ between a and b (two
// states of one store), sorted.
func ChangedSettings(a, b *Store) []string {
	var out []string
	add := func(name string, differ bool) {
		if differ {
			out = append(out, name)
		}
	}
	add(SettingName, a.Name != b.Name)
	add(SettingIsActive, a.IsActive != b.IsActive)
	add(SettingRequireStaffTOTP, a.RequireStaffTOTP != b.RequireStaffTOTP)
	add(SettingAllowedOrigins, !slices.Equal(a.AllowedOrigins, b.AllowedOrigins))
	add(SettingDomains, !slices.Equal(a.Domains, b.Domains))
	add(SettingNotifyEmails, !slices.Equal(a.NotificationEmails, b.NotificationEmails))
	add(SettingNotifications, !sameSet(a.NotificationsOff, b.NotificationsOff))
	add(SettingMailTemplates, !reflect.DeepEqual(a.MailTemplates, b.MailTemplates))
	add(SettingGateways, !maps.Equal(a.Gateways, b.Gateways))
	add(SettingAPIKey, string(a.APIKeyHash) != string(b.APIKeyHash))
	out = append(out, changedConfigKeys(a.Config, b.Config)...)
	sort.Strings(out)
	return out
}

// changedConfigKeys lists "config.<key>" for each top-level key whose value
// differs between two configurations.
func changedConfigKeys(a, b json.RawMessage) []string {
	var am, bm map[string]any
	_ = json.Unmarshal(a, &am)
	_ = json.Unmarshal(b, &bm)
	var out []string
	for k, av := range am {
		if !reflect.DeepEqual(av, bm[k]) {
			out = append(out, "config."+k)
		}
	}
	for k := range bm {
		if _, ok := am[k]; !ok {
			out = append(out, "config."+k)
		}
	}
	return out
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(x string) bool { return !slices.Contains(b, x) })
}

// cloneStore copies the parts of st that a settings change may modify.
func cloneStore(st *Store) *Store {
	c := *st
	c.Config = slices.Clone(st.Config)
	c.AllowedOrigins, c.Domains = slices.Clone(st.AllowedOrigins), slices.Clone(st.Domains)
	c.NotificationEmails, c.NotificationsOff = slices.Clone(st.NotificationEmails), slices.Clone(st.NotificationsOff)
	c.Gateways, c.MailTemplates = maps.Clone(st.Gateways), maps.Clone(st.MailTemplates)
	c.APIKeyHash = slices.Clone(st.APIKeyHash)
	return &c
}
