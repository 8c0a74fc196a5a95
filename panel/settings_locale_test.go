package panel_test

import (
	"fmt"
	"net/url"
	"testing"

	"storefront/testenv"
)

// TestPanelLanguage: the identity form chooses the shop's language (config
// key locale); an unknown one is refused; the settings history records it.
func TestPanelLanguage(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Laden")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/settings/", sid)
	page := base + "identity/"
	b.get(page).expect(t, 200, `name="locale"`, `<option value="en" selected lang="en">English</option>`, `lang="de">Deutsch</option>`, `lang="uz">Oʻzbekcha</option>`)
	form := url.Values{"store.name": {"Laden"}, "store.logo_display": {"logo_and_name"}, "store.logo_size": {"medium"}, "locale": {"xx"}}
	b.submit(page, page, form).expect(t, 400, "must be one of en, de, fr, es, ru, uz")
	if cfg := storeConfig(t, e, sid); cfg["locale"] != nil && cfg["locale"] != "en" {
		t.Fatalf("a refused form changed the locale: %v", cfg["locale"])
	}
	form.Set("locale", "de")
	b.submit(page, page, form).redirectsTo(t, page)
	if cfg := storeConfig(t, e, sid); cfg["locale"] != "de" {
		t.Fatalf("locale: %v", cfg["locale"])
	}
	b.get(page).expect(t, 200, `<option value="de" selected lang="de">Deutsch</option>`)
	st, err := e.Svc.Stores.Get(sid)
	if err != nil || st.Settings().Lang() != "de" {
		t.Fatalf("store language: %v", err)
	}
	b.get(base+"history/").expect(t, 200, "<code>config.locale</code>")
	// a form without the field keeps the language
	form.Del("locale")
	b.submit(page, page, form).redirectsTo(t, page)
	if cfg := storeConfig(t, e, sid); cfg["locale"] != "de" {
		t.Fatalf("locale after a form without it: %v", cfg["locale"])
	}
}
