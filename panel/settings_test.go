package panel_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/panel"
	"storefront/testenv"
)

func storeConfig(t *testing.T, e *testenv.Env, sid uint64) map[string]any {
	t.Helper()
	st, err := e.Svc.Stores.Get(sid)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(st.Config, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPanelSettings(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/settings/", sid)
	if p := b.get(base); p.Status != 303 || p.Header.Get("Location") != base+"identity/" {
		t.Fatalf("settings index: got %d %q", p.Status, p.Header.Get("Location"))
	}
	b.get(base+"nope/").expect(t, 404)

	t.Run("Identity", func(t *testing.T) {
		page := base + "identity/"
		b.get(page).expect(t, 200, `name="store.email"`, `value="Shop A"`, "logo_and_name")
		form := url.Values{"store.name": {"Shop A <b>"}, "store.email": {"not-an-email"}, "store.logo": {"ftp://x"}, "seo.title": {"Best shop"},
			"store.logo_display": {"logo_only"}, "store.logo_size": {"large"}, "email_otp_enabled": {"on"}}
		b.submit(page, page, form).expect(t, 400, "must be an email address", "must be an http(s) URL", `value="Shop A &lt;b&gt;"`)
		if cfg := storeConfig(t, e, sid); cfg["store"].(map[string]any)["name"] != "Shop A" {
			t.Fatal("a refused form changed the config")
		}
		form.Set("store.email", "hi@shop.test")
		form.Set("store.logo", "https://cdn.example/logo.png")
		b.submit(page, page, form).redirectsTo(t, page)
		cfg := storeConfig(t, e, sid)
		store := cfg["store"].(map[string]any)
		if store["name"] != "Shop A <b>" || store["email"] != "hi@shop.test" || store["logo_display"] != "logo_only" ||
			cfg["seo"].(map[string]any)["title"] != "Best shop" || cfg["email_otp_enabled"] != true || cfg["theme_color"] != "#1f6feb" {
			t.Fatalf("config: %v", cfg)
		}
		b.get(page).expect(t, 200, "Settings saved.", `value="hi@shop.test"`, `value="logo_only" selected`)
		b.submit(page, page, form).redirectsTo(t, page)
		b.get(page).expect(t, 200, "Nothing changed.")
	})
	t.Run("Theme", func(t *testing.T) {
		page := base + "theme/"
		form := url.Values{"theme_color": {"blue"}, "template": {"modern"}}
		b.submit(page, page, form).expect(t, 400, "must be a colour", "grid (the default) or list")
		if strings.Contains(b.get(page).Body, `name="header_layout"`) {
			t.Fatal("the theme form offers header_layout, which the shop does not read")
		}
		form.Set("theme_color", "#AA0011")
		b.submit(page, page, form).redirectsTo(t, page)
		if cfg := storeConfig(t, e, sid); cfg["theme_color"] != "#aa0011" || cfg["template"] != "modern" || cfg["product_grid_layout"] != "" || cfg["header_layout"] != "default" { // header_layout: not on the form, kept
			t.Fatalf("config: %v", cfg)
		}
	})
	t.Run("Navigation", func(t *testing.T) {
		page := base + "navigation/"
		b.get(page).expect(t, 200, `name="rows" value="3"`)
		form := url.Values{"rows": {"3"}, "r0_label": {"Shoes"}, "r0_url": {"/categories/shoes"}, "r1_label": {"Blog"}, "r1_url": {"javascript:alert(1)"}}
		b.submit(page, page, form).expect(t, 400, "row 2", "needs a link")
		form.Set("r1_url", "https://blog.example/")
		b.submit(page, page, form).redirectsTo(t, page)
		nav := storeConfig(t, e, sid)["navigation"].([]any)
		if len(nav) != 2 || nav[0].(map[string]any)["label"] != "Shoes" || nav[1].(map[string]any)["url"] != "https://blog.example/" {
			t.Fatalf("navigation: %v", nav)
		}
		// Other keys of an entry survive the form; Remove drops one.
		if _, err := e.Svc.Stores.PatchConfig(sid, []byte(`{"navigation":[{"label":"Shoes","url":"/categories/shoes","icon":"shoe"},{"label":"Blog","url":"/blog"}]}`)); err != nil {
			t.Fatal(err)
		}
		b.get(page).expect(t, 200, `name="rows" value="5"`, `value="{&#34;icon&#34;:&#34;shoe&#34;}"`)
		form = url.Values{"rows": {"5"}, "r0_label": {"Shoes!"}, "r0_url": {"/categories/shoes"}, "r0_extra": {`{"icon":"shoe"}`},
			"r1_label": {"Blog"}, "r1_url": {"/blog"}, "r1_delete": {"1"}}
		b.submit(page, page, form).redirectsTo(t, page)
		nav = storeConfig(t, e, sid)["navigation"].([]any)
		if len(nav) != 1 || nav[0].(map[string]any)["icon"] != "shoe" || nav[0].(map[string]any)["label"] != "Shoes!" {
			t.Fatalf("navigation: %v", nav)
		}
		// Carried keys that are not an object ("null" too) start the entry empty.
		form.Set("r0_extra", "null")
		b.submit(page, page, form).redirectsTo(t, page)
		if nav = storeConfig(t, e, sid)["navigation"].([]any); len(nav) != 1 || nav[0].(map[string]any)["icon"] != nil {
			t.Fatalf("navigation: %v", nav)
		}
	})
	t.Run("Delivery", func(t *testing.T) {
		page := base + "delivery/"
		b.get(page).expect(t, 200, `value="standard"`, `value="0.00"`)
		form := url.Values{"rows": {"4"}, "r0_id": {"standard"}, "r0_name": {"Standard"}, "r0_fee": {"0"},
			"r1_id": {"standard"}, "r1_name": {"Express"}, "r1_fee": {"-2"}}
		p := b.submit(page, page, form).expect(t, 400, "same id as row 1")
		if !strings.Contains(p.Body, `value="Express"`) {
			t.Fatal("the form lost what was typed")
		}
		form.Set("r1_id", "express")
		form.Set("r1_fee", "9.5")
		form.Set("r1_countries", "us, USA")
		b.submit(page, page, form).expect(t, 400, "needs countries as ISO codes")
		form.Set("r1_countries", "us de")
		form.Set("r0_free_over", "50")
		form.Set("r2_id", "pickup")
		form.Set("r2_name", "Pick up")
		form.Set("r2_fee", "0")
		form.Set("r2_pickup", "on")
		b.submit(page, page, form).redirectsTo(t, page)
		st, _ := e.Svc.Stores.Get(sid)
		if d := st.Settings().DeliveryOptions; len(d) != 3 || d[1].ID != "express" || d[1].Fee != 950 || strings.Join(d[1].Countries, ",") != "US,DE" ||
			d[0].FreeOver == nil || *d[0].FreeOver != 5000 || !d[0].NeedsAddress || d[2].NeedsAddress {
			t.Fatalf("delivery: %+v", d)
		}
		b.get(page).expect(t, 200, `value="50.00"`, `value="US DE"`, `name="r2_pickup" value="on" aria-label="Row 3 pickup, no address" checked`)
		all := url.Values{"rows": {"3"}, "r0_id": {"standard"}, "r0_name": {"Standard"}, "r0_fee": {"0"}, "r0_delete": {"1"},
			"r1_id": {"express"}, "r1_name": {"Express"}, "r1_fee": {"9.50"}, "r1_delete": {"1"}, "r2_id": {"pickup"}, "r2_name": {"Pick up"}, "r2_fee": {"0"}, "r2_delete": {"1"}}
		b.submit(page, page, all).expect(t, 400, "at least one delivery option")
	})
	t.Run("PaymentMethods", func(t *testing.T) {
		page := base + "payment-methods/"
		b.get(page).expect(t, 200, "WALLET_A", "WALLET_B", `name="WALLET_B_offered" value="on" checked`)
		b.submit(page, page, url.Values{"WALLET_A_name": {"Card"}}).expect(t, 400, "at least one payment method")
		b.submit(page, page, url.Values{"WALLET_A_offered": {"on"}, "WALLET_A_name": {"Card"}, "WALLET_A_description": {"Visa, Mastercard"},
			"WALLET_B_name": {"Wallet B"}}).redirectsTo(t, page)
		st, _ := e.Svc.Stores.Get(sid)
		if pm := st.Settings().PaymentMethods; len(pm) != 1 || pm[0]["code"] != app.WalletA || pm[0]["name"] != "Card" || pm[0]["description"] != "Visa, Mastercard" {
			t.Fatalf("payment methods: %v", pm)
		}
	})
	t.Run("Origins", func(t *testing.T) {
		page := base + "origins/"
		b.get(page).expect(t, 200, `<label for="allowed_origins">`)
		b.submit(page, page, url.Values{"allowed_origins": {"https://shop.example/path"}}).expect(t, 400, "exact origin")
		b.submit(page, page, url.Values{"callback_origins": {"https://pay.example/return"}}).expect(t, 400, "is not an origin")
		b.submit(page, page, url.Values{"allowed_origins": {"https://Shop.example\r\nhttp://localhost:3000"}, "callback_origins": {"https://pay.example/"}}).redirectsTo(t, page)
		st, _ := e.Svc.Stores.Get(sid)
		if o := st.AllowedOrigins; len(o) != 2 || o[0] != "https://shop.example" || o[1] != "http://localhost:3000" {
			t.Fatalf("allowed origins: %v", o)
		}
		if o := st.Settings().CallbackOrigins; len(o) != 1 || o[0] != "https://pay.example" {
			t.Fatalf("callback origins: %v", o)
		}
		b.get(page).expect(t, 200, "https://shop.example\nhttp://localhost:3000</textarea>", "Settings saved.")
	})
	t.Run("Advanced", func(t *testing.T) {
		page := base + "advanced/"
		b.get(page).expect(t, 200, `<label for="config">`, `&#34;theme_color&#34;: &#34;#aa0011&#34;`)
		bad := "{\n  \"template\": \"x\",\n  \"seo\": {\"title\": \"é\" \"x\"}\n}"
		b.submit(page, page, url.Values{"config": {bad}}).expect(t, 400, "line 3, column 24", "Look at line 3, column 24")
		b.submit(page, page, url.Values{"config": {"{\"template\": \"x\""}}).expect(t, 400, "line 1, column 17", "ends before the object is closed")
		b.submit(page, page, url.Values{"config": {"{}\n  x"}}).expect(t, 400, "line 2, column 3", "unexpected text")
		// a save that removes keys shows what it changes and asks to confirm
		b.submit(page, page, url.Values{"config": {`{}`}}).expect(t, 400, "This save removes", "What this save changes",
			"<code>delivery_options</code>", "Remove these keys")
		if cfg := storeConfig(t, e, sid); cfg["delivery_options"] == nil {
			t.Fatalf("saving {} unconfirmed wiped the delivery options: %v", cfg)
		}
		b.submit(page, page, url.Values{"config": {`{"template": "classic"}`}, "confirm_removal": {"yes"}}).redirectsTo(t, page)
		if cfg := storeConfig(t, e, sid); cfg["template"] != "classic" || cfg["store"] != nil {
			t.Fatalf("config: %v", cfg)
		}
	})
	t.Run("ErrScope", func(t *testing.T) {
		staff := newBrowser(t, e)
		e.Svc.Admins.Create(app.NewAdmin{Email: "b@example.com", Password: "staff-password", Role: app.RoleStaff, StoreID: sidB})
		staff.login("b@example.com", "staff-password")
		staff.get(base+"identity/").expect(t, 404)
		b.do("POST", base+"theme/", url.Values{"theme_color": {"#000000"}}).expect(t, 403)
	})
}

func TestPanelShopWindowSettings(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	if _, err := e.Svc.Stores.SetSettings(sidB, app.StoreSettingsInput{Domains: &[]string{"b.example"}}); err != nil {
		t.Fatal(err)
	}
	b := owner(t, e)
	page := fmt.Sprintf("/admin/stores/%d/settings/shop/", sid)
	b.get(page).expect(t, 200, `name="hero.title"`, `name="pages.about"`, `<label for="domains">`)
	form := url.Values{"domains": {"Shop.A.Example\nb.example"}, "hero.title": {"Hello <there>"}, "hero.cta_url": {"/products/"},
		"pages.about": {"We sell things."}}
	b.submit(page, page, form).expect(t, 409, "domains[1]", `Hello &lt;there&gt;`)
	form.Set("domains", "Shop.A.Example")
	form.Set("hero.cta_url", "javascript:alert(1)")
	b.submit(page, page, form).expect(t, 400, "must be an http(s) URL or a path")
	form.Set("hero.cta_url", "/products/")
	b.submit(page, page, form).redirectsTo(t, page)
	cfg := storeConfig(t, e, sid)
	if cfg["hero"].(map[string]any)["title"] != "Hello <there>" || cfg["pages"].(map[string]any)["about"] != "We sell things." ||
		cfg["hero"].(map[string]any)["cta_url"] != "/products/" {
		t.Fatalf("config: %v", cfg)
	}
	if st, _ := e.Svc.Stores.Get(sid); fmt.Sprint(st.Domains) != "[shop.a.example]" {
		t.Fatalf("domains %v", st.Domains)
	}
	b.get(page).expect(t, 200, "Settings saved.", "shop.a.example")
}

func TestPanelViewShopLink(t *testing.T) {
	t.Parallel()
	e := testenv.NewWith(t, testenv.Options{Panel: panel.Config{ShopURL: func(st *app.Store) string {
		return "http://" + st.Subdomain + ".shops.test/"
	}}})
	sid, _ := e.Store("Shop A")
	b := owner(t, e)
	b.get(fmt.Sprintf("/admin/stores/%d/", sid)).expect(t, 200, `href="http://shop-a.shops.test/" class="viewshop"`, "View shop")
	// without a shop (shop.enabled false): no link
	plain := testenv.New(t)
	pid, _ := plain.Store("Shop B")
	if p := owner(t, plain).get(fmt.Sprintf("/admin/stores/%d/", pid)).expect(t, 200); strings.Contains(p.Body, "View shop") {
		t.Fatal("a View shop link without a shop")
	}
}
