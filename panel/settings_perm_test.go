package panel_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// settingCase is one store setting and how each path changes it to a new
// value: api is the typed route (method, path after /stores/{id}/, body),
// config a merge patch of the configuration (PATCH config/, the panel's
// JSON editors; also how the restore test makes its version), form the
// panel's form (action after /admin/stores/{id}/, or from /admin/ when it
// starts with "/"), and read the value that shows whether it changed.
type settingCase struct {
	field  string
	want   []string // the roles that may change it
	api    [3]string
	config string
	form   string
	values url.Values
	read   func(st *app.Store) string
}

var ownerOnly, ownerManager = []string{app.RoleOwner}, []string{app.RoleOwner, app.RoleManager}

func configValue(key string) func(st *app.Store) string {
	return func(st *app.Store) string {
		var m map[string]json.RawMessage
		_ = json.Unmarshal(st.Config, &m)
		return string(m[key])
	}
}

// settingCases are every settings field (app.StoreSettings and the
// configuration keys with a permission of their own, plus one ordinary key
// of each kind).
var settingCases = []settingCase{
	{field: "name", want: ownerManager, api: [3]string{"PATCH", "", `{"name":"Renamed"}`},
		form: "name/", values: url.Values{"name": {"Renamed"}}, read: func(st *app.Store) string { return st.Name }},
	{field: "is_active", want: ownerOnly, api: [3]string{"PATCH", "", `{"is_active":false}`},
		form: "active/", values: url.Values{"active": {"false"}, "confirm": {"yes"}}, read: func(st *app.Store) string { return fmt.Sprint(st.IsActive) }},
	{field: "require_staff_totp", want: ownerOnly, api: [3]string{"PATCH", "", `{"require_staff_totp":true}`},
		form: "/admin/users/totp-policy/", values: url.Values{"require": {"yes"}}, read: func(st *app.Store) string { return fmt.Sprint(st.RequireStaffTOTP) }},
	{field: "allowed_origins", want: ownerManager, api: [3]string{"PATCH", "", `{"allowed_origins":["https://front.example"]}`},
		form: "settings/origins/", values: url.Values{"allowed_origins": {"https://front.example"}}, read: func(st *app.Store) string { return fmt.Sprint(st.AllowedOrigins) }},
	{field: "domains", want: ownerOnly, api: [3]string{"PATCH", "", `{"domains":["www.shop-a.example"]}`},
		form: "settings/shop/", values: url.Values{"domains": {"www.shop-a.example"}}, read: func(st *app.Store) string { return fmt.Sprint(st.Domains) }},
	{field: "notification_emails", want: ownerManager, api: [3]string{"PATCH", "", `{"notification_emails":["boss@shop-a.example"]}`},
		form: "notifications/", values: url.Values{"notification_emails": {"boss@shop-a.example"}}, read: func(st *app.Store) string { return fmt.Sprint(st.NotificationEmails) }},
	{field: "notifications", want: ownerManager, api: [3]string{"PATCH", "", `{"notifications":{"order_paid":false}}`},
		form: "notifications/", values: url.Values{"kind_ticket_created": {"on"}}, read: func(st *app.Store) string { return fmt.Sprint(slices.Contains(st.NotificationsOff, "order_paid")) }},
	{field: "config.payments_live", want: ownerOnly, api: [3]string{"PATCH", "payments/", `{"payments_live":true}`},
		config: `{"payments_live":true}`, form: "payments/", values: url.Values{"payments_live": {"on"}}, read: configValue("payments_live")},
	{field: "config.payment_methods", want: ownerOnly, config: `{"payment_methods":[{"code":"WALLET_A","name":"Only A"}]}`,
		form: "settings/payment-methods/", values: url.Values{"WALLET_A_offered": {"on"}, "WALLET_A_name": {"Only A"}}, read: configValue("payment_methods")},
	{field: "payments.credentials", want: ownerOnly, api: [3]string{"PATCH", "payments/", `{"methods":{"WALLET_A":{"provider":"sandbox"}}}`},
		form: "payments/", values: url.Values{"WALLET_A_provider": {"sandbox"}}, read: func(st *app.Store) string { return st.Gateways[app.WalletA].Provider }},
	{field: "api_key", want: ownerOnly, api: [3]string{"POST", "rotate-key/", ""},
		form: "rotate-key/", values: url.Values{"confirm": {"yes"}}, read: func(st *app.Store) string { return fmt.Sprintf("%x", st.APIKeyHash) }},
	{field: "config.theme_color", want: ownerManager, config: `{"theme_color":"#aa0011"}`,
		form: "settings/theme/", values: url.Values{"theme_color": {"#aa0011"}}, read: configValue("theme_color")},
	{field: "config.callback_origins", want: ownerManager, config: `{"callback_origins":["https://pay.shop-a.example"]}`,
		form: "settings/origins/", values: url.Values{"callback_origins": {"https://pay.shop-a.example"}}, read: configValue("callback_origins")},
}

// settingPaths are the ways to change a setting; each returns false when the
// case has no such way.
var settingPaths = map[string]func(t *testing.T, a roleAdmin, c settingCase) bool{
	"api": func(t *testing.T, a roleAdmin, c settingCase) bool {
		if c.api[0] == "" {
			return false
		}
		a.e.Do(testenv.Req{Method: c.api[0], Path: a.storeAPI + c.api[1], Token: a.token, Body: c.api[2]})
		return true
	},
	"api-config": func(t *testing.T, a roleAdmin, c settingCase) bool {
		if c.config == "" {
			return false
		}
		a.e.Do(testenv.Req{Method: "PATCH", Path: a.storeAPI + "config/", Token: a.token, Body: c.config})
		return true
	},
	"api-restore": func(t *testing.T, a roleAdmin, c settingCase) bool {
		vid, ok := restorableVersion(t, a, c)
		if ok {
			a.e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%ssettings/versions/%d/restore/", a.storeAPI, vid), Token: a.token})
		}
		return ok
	},
	"panel-form": func(t *testing.T, a roleAdmin, c settingCase) bool {
		if c.form == "" {
			return false
		}
		action, form := a.storePanel+c.form, url.Values{}
		if strings.HasPrefix(c.form, "/") {
			action = c.form
			form.Set("store_id", fmt.Sprint(a.sid))
		}
		for k, v := range c.values {
			form[k] = v
		}
		a.b.submit("/admin/", action, form)
		return true
	},
	"panel-json": func(t *testing.T, a roleAdmin, c settingCase) bool {
		return c.config != "" && panelJSON(t, a, c, "config/")
	},
	"panel-advanced": func(t *testing.T, a roleAdmin, c settingCase) bool {
		return c.config != "" && panelJSON(t, a, c, "settings/advanced/")
	},
	"panel-restore": func(t *testing.T, a roleAdmin, c settingCase) bool {
		vid, ok := restorableVersion(t, a, c)
		if ok {
			a.b.submit("/admin/", fmt.Sprintf("%ssettings/history/%d/", a.storePanel, vid), url.Values{"confirm": {"yes"}})
		}
		return ok
	},
}

// panelJSON posts the whole configuration with c's patch applied to one of
// the panel's JSON editors.
func panelJSON(t *testing.T, a roleAdmin, c settingCase, action string) bool {
	st, _ := a.e.Svc.Stores.Get(a.sid)
	cfg, err := app.MergeConfig(st.Config, []byte(c.config))
	if err != nil {
		t.Fatal(err)
	}
	a.b.submit("/admin/", a.storePanel+action, url.Values{"config": {string(cfg)}})
	return true
}

// restorableVersion makes, as the server, a settings version holding c's
// new value and then changes it back: restoring that version changes c's
// field. ok is false for a field the history does not keep.
func restorableVersion(t *testing.T, a roleAdmin, c settingCase) (uint64, bool) {
	var ch app.StoreChange
	switch {
	case c.config != "":
		ch.Config = json.RawMessage(c.config)
	case c.api[0] == "PATCH" && c.api[1] == "" && slices.Contains([]string{"allowed_origins", "domains", "notification_emails", "notifications"}, c.field):
		if err := json.Unmarshal([]byte(c.api[2]), &ch); err != nil {
			t.Fatal(err)
		}
	default:
		return 0, false
	}
	before, _ := a.e.Svc.Stores.Get(a.sid)
	if _, err := a.e.Svc.Stores.Change(a.sid, ch, nil); err != nil {
		t.Fatal(err)
	}
	pg, err := a.e.Svc.Stores.SettingsVersions(a.sid, app.ListParams{Limit: 1})
	if err != nil || len(pg.Items) == 0 {
		t.Fatalf("no version: %v", err)
	}
	back := app.StoreChange{StoreSettingsInput: app.StoreSettingsInput{AllowedOrigins: &before.AllowedOrigins,
		Domains: &before.Domains, NotificationEmails: &before.NotificationEmails, Notifications: before.Notifications()}}
	if c.config != "" {
		key := strings.TrimPrefix(c.field, "config.")
		var m map[string]json.RawMessage
		_ = json.Unmarshal(before.Config, &m)
		old := m[key]
		if old == nil {
			old = json.RawMessage("null")
		}
		back = app.StoreChange{Config: json.RawMessage(`{"` + key + `":` + string(old) + `}`)}
	}
	if _, err := a.e.Svc.Stores.Change(a.sid, back, nil); err != nil {
		t.Fatal(err)
	}
	return pg.Items[0].ID, true
}

// roleAdmin is an admin of one role of store sid, on the API and the panel.
type roleAdmin struct {
	e                    *testenv.Env
	sid                  uint64
	role, token          string
	b                    *browser
	storeAPI, storePanel string
}

func newRoleAdmin(t *testing.T, e *testenv.Env, sid uint64, role string) roleAdmin {
	t.Helper()
	email, pass := "owner@example.com", "owner-password"
	if role != app.RoleOwner {
		email, pass = role+"@shop-a.example", "role-password"
		if _, err := e.Svc.Admins.Create(app.NewAdmin{Email: email, Password: pass, Role: role, StoreID: sid}); err != nil {
			t.Fatal(err)
		}
	}
	tok, _, _, err := e.Svc.Admins.Login(email, pass, "")
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e)
	b.login(email, pass).redirectsTo(t, "/admin/")
	return roleAdmin{e: e, sid: sid, role: role, token: tok, b: b,
		storeAPI: fmt.Sprintf("%s/stores/%d/", api, sid), storePanel: fmt.Sprintf("/admin/stores/%d/", sid)}
}

// TestSettingsPermissionTable walks every settings field through every path
// that changes it, as an owner, a manager and a staff member of the store:
// the field changes exactly when the role may change it (app.SettingPerms),
// and a refused change leaves the store as it was. A second store's owner
// and the store's shopper are there too (the store's admin routes are 404
// and 401 to them elsewhere).
func TestSettingsPermissionTable(t *testing.T) {
	t.Parallel()
	for _, c := range settingCases {
		for path, do := range settingPaths {
			for _, role := range app.Roles {
				t.Run(c.field+"/"+path+"/"+role, func(t *testing.T) {
					t.Parallel()
					e := testenv.New(t)
					sid, _ := e.Store("Shop A")
					e.Store("Shop B")
					a := newRoleAdmin(t, e, sid, role)
					before, _ := e.Svc.Stores.Get(sid)
					if !do(t, a, c) {
						t.Skip("no such path for this setting")
					}
					after, _ := e.Svc.Stores.Get(sid)
					changed := c.read(before) != c.read(after)
					if want := slices.Contains(c.want, role); changed != want {
						t.Fatalf("%s by %s through %s: changed %v (%s -> %s), want %v", c.field, role, path, changed, c.read(before), c.read(after), want)
					}
					if !changed && !after.UpdatedAt.Equal(before.UpdatedAt) {
						t.Fatalf("a refused change wrote the store: %v", app.ChangedSettings(before, after))
					}
				})
			}
		}
	}
}
