package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestStoreChangeWhole: a change of a store is validated, permitted and
// written whole. A refused request answers its 4xx and changes nothing: not
// the domains beside an empty name (it saved them), not the theme beside a
// manager's payments_live, not a restore that would turn test money on.
func TestStoreChangeWhole(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	manager := newRoleAdmin(t, e, sid, app.RoleManager)
	managerB := e.Admin(sidB, "manager-b@example.com", app.RoleManager)
	staff := e.Staff(sid, "staff-a@example.com")
	_, shopper := e.Shopper(sid, "shopper@example.com")
	path := fmt.Sprintf("%s/stores/%d/", api, sid)
	live := fmt.Sprint(configValue("payments_live")(mustStore(t, e, sid)))
	tests := []struct {
		name, token, method, path, body string
		status                          int
		code, field                     string
	}{
		{"ErrDomainsBesideEmptyName", e.OwnerToken, "PATCH", path, `{"domains":["shop-a.example"],"name":""}`, 400, "validation_failed", "name"},
		{"ErrDomainsBesideBadOrigin", e.OwnerToken, "PATCH", path, `{"domains":["shop-a.example"],"allowed_origins":["nope"]}`, 400, "validation_failed", "allowed_origins[0]"},
		{"ErrNameBesideBadDomain", e.OwnerToken, "PATCH", path, `{"name":"New","domains":["127.0.0.1"]}`, 400, "validation_failed", "domains[0]"},
		{"ErrManagerActive", manager.token, "PATCH", path, `{"name":"New","is_active":false}`, 403, "forbidden", "is_active"},
		{"ErrManagerDomains", manager.token, "PATCH", path, `{"notification_emails":["a@b.example"],"domains":["shop-a.example"]}`, 403, "forbidden", "domains"},
		{"ErrManagerTOTPPolicy", manager.token, "PATCH", path, `{"require_staff_totp":true}`, 403, "forbidden", "require_staff_totp"},
		{"ErrManagerLive", manager.token, "PATCH", path + "config/", `{"theme_color":"#000000","payments_live":true}`, 403, "forbidden", "config.payments_live"},
		{"ErrManagerMethods", manager.token, "PATCH", path + "config/", `{"payment_methods":[{"code":"WALLET_B","name":"B"}]}`, 403, "forbidden", "config.payment_methods"},
		{"ErrManagerPayments", manager.token, "PATCH", path + "payments/", `{"payments_live":true}`, 403, "forbidden", ""},
		{"ErrStaff", staff, "PATCH", path, `{"name":"New"}`, 403, "forbidden", ""},
		{"ErrOtherStoreManager", managerB, "PATCH", path + "config/", `{"payments_live":true}`, 404, "not_found", ""},
		{"ErrShopperToken", shopper, "PATCH", path, `{"domains":["shop-a.example"]}`, 401, "unauthorized", ""},
		{"ManagerSameValue", manager.token, "PATCH", path + "config/", `{"payments_live":` + live + `}`, 200, "", ""},
		{"ManagerSettings", manager.token, "PATCH", path, `{"name":"Renamed","notification_emails":["a@b.example"]}`, 200, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := mustStore(t, e, sid)
			r := e.Do(testenv.Req{Method: tc.method, Path: tc.path, Token: tc.token, Body: tc.body}).Expect(t, tc.status, tc.code)
			if tc.field != "" && r.Body.Errors[tc.field] == "" {
				t.Fatalf("errors lack %s: %s", tc.field, r.Raw)
			}
			if after := mustStore(t, e, sid); tc.status >= 400 && len(app.ChangedSettings(before, after)) > 0 {
				t.Fatalf("a refused change changed %v", app.ChangedSettings(before, after))
			}
		})
	}
	t.Run("ErrManagerRestoreWhole", func(t *testing.T) {
		// a version with test money on and another theme, then both back
		if _, err := e.Svc.Stores.PatchConfig(sid, []byte(`{"payments_live":true,"theme_color":"#123456"}`)); err != nil {
			t.Fatal(err)
		}
		pg, _ := e.Svc.Stores.SettingsVersions(sid, app.ListParams{Limit: 1})
		if _, err := e.Svc.Stores.PatchConfig(sid, []byte(`{"payments_live":`+live+`,"theme_color":"#1f6feb"}`)); err != nil {
			t.Fatal(err)
		}
		before := mustStore(t, e, sid)
		restore := fmt.Sprintf("%ssettings/versions/%d/restore/", path, pg.Items[0].ID)
		r := e.Do(testenv.Req{Method: "POST", Path: restore, Token: manager.token}).Expect(t, 403, "forbidden")
		if r.Body.Errors["config.payments_live"] == "" {
			t.Fatalf("errors lack config.payments_live: %s", r.Raw)
		}
		if ch := app.ChangedSettings(before, mustStore(t, e, sid)); len(ch) > 0 {
			t.Fatalf("a refused restore changed %v", ch)
		}
		// the panel says why, on the history page (no bare 403 page)
		manager.b.submit("/admin/", fmt.Sprintf("/admin/stores/%d/settings/history/%d/", sid, pg.Items[0].ID), url.Values{"confirm": {"yes"}}).
			redirectsTo(t, fmt.Sprintf("/admin/stores/%d/settings/history/", sid))
		manager.b.get(fmt.Sprintf("/admin/stores/%d/settings/history/", sid)).expect(t, 200, "not restored", "config.payments_live")
		e.Do(testenv.Req{Method: "POST", Path: restore, Token: e.OwnerToken}).Expect(t, 200, "")
	})
}

// TestPanelHidesWhatRoleMayNotChange: a manager's store page has no Payments
// form and its settings no payment methods section; the domains field is
// disabled; staff see no configuration editor and no rename form.
func TestPanelHidesWhatRoleMayNotChange(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	page := fmt.Sprintf("/admin/stores/%d/", sid)
	own := newRoleAdmin(t, e, sid, app.RoleOwner)
	man := newRoleAdmin(t, e, sid, app.RoleManager)
	staff := newRoleAdmin(t, e, sid, app.RoleStaff)
	cid, _ := e.Shopper(sid, "s@example.com")
	o := e.PlaceOrder(sid, cid, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: e.Product(sid, 0, "Mug", 1000, 10), Qty: 1})
	orderPage := fmt.Sprintf("%sorders/%d/", page, o.ID)
	for _, tc := range []struct {
		a        roleAdmin
		path     string
		has, not []string
	}{
		{own, page, []string{`action="` + page + `payments/"`, `id="config-json"`, `action="` + page + `name/"`}, []string{`id="config-owner-keys"`}},
		{man, page, []string{`id="config-json"`, `action="` + page + `name/"`, `id="config-owner-keys"`}, []string{`action="` + page + `payments/"`, "Save payments"}},
		{staff, page, nil, []string{`action="` + page + `payments/"`, `id="config-json"`, `action="` + page + `name/"`}},
		{own, page + "settings/shop/", []string{"payment-methods/", `name="domains"`}, []string{"Only an owner may change the shop's domains"}},
		{man, page + "settings/shop/", []string{"Only an owner may change the shop's domains", `disabled aria-describedby="domains-owner"`}, []string{"settings/payment-methods/"}},
		{man, orderPage, []string{`/refund/" class="grid"`}, []string{"Only an owner or a manager may refund."}},
		{staff, orderPage, []string{"Only an owner or a manager may refund."}, []string{`/refund/" class="grid"`}},
	} {
		p := tc.a.b.get(tc.path).expect(t, 200, tc.has...)
		for _, s := range tc.not {
			if strings.Contains(p.Body, s) {
				t.Fatalf("%s's %s shows %q", tc.a.role, tc.path, s)
			}
		}
	}
}

// TestPanelJSONEditorRefusal: a manager's save of the configuration
// editor that turns test mode on is the store page again with the editor
// as typed and the field named (403, not a bare error page), nothing saved.
func TestPanelJSONEditorRefusal(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	man := newRoleAdmin(t, e, sid, app.RoleManager)
	st := mustStore(t, e, sid)
	cfg, err := app.MergeConfig(st.Config, []byte(`{"payments_live":true,"theme_color":"#000000"}`))
	if err != nil {
		t.Fatal(err)
	}
	page := fmt.Sprintf("/admin/stores/%d/", sid)
	man.b.submit("/admin/", page+"config/", url.Values{"config": {string(cfg)}}).
		expect(t, 403, `id="config-json"`, "config.payments_live", "#000000")
	if ch := app.ChangedSettings(st, mustStore(t, e, sid)); len(ch) > 0 {
		t.Fatalf("a refused save changed %v", ch)
	}
}

func mustStore(t *testing.T, e *testenv.Env, id uint64) *app.Store {
	t.Helper()
	st, err := e.Svc.Stores.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestStoreDomainHostRules: no store may claim a host the server already
// answers on: shop.domain, any name under it (another store's shop, or one
// no store has yet), an IP address (127.0.0.1 is the default store's shop),
// localhost, or the host of http.public_url. A host name of its own is fine.
func TestStoreDomainHostRules(t *testing.T) {
	t.Parallel()
	e := testenv.New(t) // public URL http://shop.test
	e.Svc.Stores.SetShopHost(app.ShopHost{Domain: "shops.example"})
	sid, _ := e.Store("Shop A")
	e.Store("Shop B")
	path := fmt.Sprintf("%s/stores/%d/", api, sid)
	for _, tc := range []struct {
		domain string
		status int
	}{
		{"shops.example", 400}, {"shop-b.shops.example", 400}, {"SHOP-B.Shops.Example.", 400}, {"new.shops.example", 400},
		{"a.b.shops.example", 400}, {"127.0.0.1", 400}, {"127.1", 400}, {"10.0.0.1", 400}, {"[::1]", 400}, {"::1", 400},
		{"2130706433", 400}, {"0x7f.0x1", 400}, {"localhost", 400}, {"app.localhost", 400}, {"shop.test", 400},
		{"shop-a.example", 200}, {"myshops.example", 200}, {"www.shop.test", 200},
	} {
		t.Run(tc.domain, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: `{"domains":["` + tc.domain + `"]}`}).Expect(t, tc.status, "")
			if tc.status == 400 && r.Body.Errors["domains[0]"] == "" {
				t.Fatalf("no domains[0] error: %s", r.Raw)
			}
			if got := mustStore(t, e, sid).Domains; tc.status == 400 && len(got) > 0 && got[0] == strings.ToLower(strings.TrimSuffix(tc.domain, ".")) {
				t.Fatalf("refused domain stored: %v", got)
			}
		})
	}
}
