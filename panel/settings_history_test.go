package panel_test

import (
	"fmt"
	"net/url"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

func TestPanelSettingsHistory(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	b := owner(t, e)
	settings := fmt.Sprintf("/admin/stores/%d/settings/", sid)
	hist := settings + "history/"
	t.Run("Empty", func(t *testing.T) {
		b.get(hist).expect(t, 200, "No change of the settings yet.", `aria-current="page">History</a>`)
	})
	// the JSON tab, confirmed: saving {} removes everything, delivery options included
	b.submit(settings+"advanced/", settings+"advanced/", url.Values{"config": {`{}`}, "confirm_removal": {"yes"}}).redirectsTo(t, settings+"advanced/")
	if cfg := storeConfig(t, e, sid); cfg["delivery_options"] != nil {
		t.Fatalf("config %v", cfg)
	}
	t.Run("List", func(t *testing.T) {
		b.get(hist).expect(t, 200, "Version 1", "owner@example.com", "<code>config.delivery_options</code>", "Restore…")
	})
	t.Run("RestoreConfirm", func(t *testing.T) {
		b.get(hist+"1/").expect(t, 200, "Restore settings version 1?", "Restore this version")
		// a POST without confirm=yes is sent to the confirm page
		p := b.submit(hist, hist+"1/", url.Values{})
		p.redirectsTo(t, hist+"1/")
		if cfg := storeConfig(t, e, sid); cfg["delivery_options"] != nil {
			t.Fatal("restored without confirmation")
		}
	})
	t.Run("Restore", func(t *testing.T) {
		// one more change (version 2), then back to version 1 (the wipe):
		// the restore is version 3
		b.submit(settings+"advanced/", settings+"advanced/", url.Values{"config": {`{"template":"classic"}`}}).redirectsTo(t, settings+"advanced/")
		b.submit(hist+"1/", hist+"1/", url.Values{"confirm": {"yes"}}).redirectsTo(t, hist)
		b.get(hist).expect(t, 200, "Version 1 restored (as version 3).", "Version 3")
		if cfg := storeConfig(t, e, sid); cfg["template"] != nil {
			t.Fatalf("config after restore %v", cfg)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		b.submit(hist, hist+"99/", url.Values{"confirm": {"yes"}}).expect(t, 404)
		b.submit(hist, hist+"x/", url.Values{"confirm": {"yes"}}).expect(t, 404)
	})
	t.Run("ErrOtherStore", func(t *testing.T) {
		staff := newBrowser(t, e)
		e.Svc.Admins.Create(app.NewAdmin{Email: "b@example.com", Password: "staff-password", Role: app.RoleStaff, StoreID: sidB})
		staff.login("b@example.com", "staff-password")
		staff.get(hist).expect(t, 404)
		staff.get(hist+"1/").expect(t, 404)
	})
}
