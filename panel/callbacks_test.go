package panel_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/testenv"
)

// TestPanelOpenCallbacksNotice: the store page tells about a store with
// neither allowed_origins nor callback_origins (its checkouts return only
// to its own shop) and links to where to set them; setting either list
// removes the notice (issue 14 pt 4, issue 38).
func TestPanelOpenCallbacksNotice(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	a, _ := e.Store("Shop A")
	b, _ := e.Store("Shop B")
	for _, id := range []uint64{a, b} { // no list (testenv's stores list their front-end)
		if _, err := e.Svc.Stores.PatchConfig(id, []byte(`{"callback_origins":null}`)); err != nil {
			t.Fatal(err)
		}
	}
	br := owner(t, e)
	const notice = "No callback origins set:</b> checkouts of this store return shoppers only to its own shop"
	homeA, homeB := fmt.Sprintf("/admin/stores/%d/", a), fmt.Sprintf("/admin/stores/%d/", b)

	t.Run("ShownWithLinks", func(t *testing.T) {
		br.get(homeA).expect(t, 200, notice, `href="`+homeA+`notifications/"`, `href="#config-json"`, "callback_origins")
	})
	t.Run("GoneWithAllowedOrigins", func(t *testing.T) {
		page := homeA + "notifications/"
		br.submit(page, page, url.Values{"allowed_origins": {"https://shop-a.example"}}).redirectsTo(t, page)
		if p := br.get(homeA).expect(t, 200, "Shop A"); strings.Contains(p.Body, notice) {
			t.Fatal("notice still shown with allowed_origins set")
		}
	})
	t.Run("GoneWithCallbackOrigins", func(t *testing.T) {
		br.get(homeB).expect(t, 200, notice)
		st, err := e.Svc.Stores.Get(b)
		if err != nil {
			t.Fatal(err)
		}
		var cfg map[string]any
		if err := json.Unmarshal(st.Config, &cfg); err != nil {
			t.Fatal(err)
		}
		cfg["callback_origins"] = []string{"https://shop-b.example"}
		raw, _ := json.Marshal(cfg)
		br.submit(homeB, homeB+"config/", url.Values{"config": {string(raw)}}).redirectsTo(t, homeB)
		if p := br.get(homeB).expect(t, 200, "Shop B"); strings.Contains(p.Body, notice) {
			t.Fatal("notice still shown with callback_origins set")
		}
	})
	t.Run("ErrWrongTenant", func(t *testing.T) {
		staff := newBrowser(t, e)
		e.Staff(b, "staff-b@example.com")
		staff.login("staff-b@example.com", "staff-password").redirectsTo(t, "/admin/")
		staff.get(homeA).expect(t, 404)
	})
	t.Run("ErrNoLogin", func(t *testing.T) {
		newBrowser(t, e).get(homeA).redirectsTo(t, "/admin/login/")
	})
}
