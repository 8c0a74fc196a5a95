package admin_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/testenv"
)

type versionItem struct {
	ID         uint64 `json:"id"`
	CreatedAt  string `json:"created_at"`
	AdminEmail string `json:"admin_email"`
	Settings   struct {
		Config         map[string]any `json:"config"`
		AllowedOrigins []string       `json:"allowed_origins"`
	} `json:"settings"`
	Changes []struct {
		Path   string `json:"path"`
		Before any    `json:"before"`
		After  any    `json:"after"`
	} `json:"changes"`
}

type versionPage struct {
	Items      []versionItem `json:"items"`
	NextCursor *string       `json:"next_cursor"`
}

func TestSettingsVersions(t *testing.T) {
	e := testenv.New(t)
	a, _ := e.Store("Shop A")
	b, _ := e.Store("Shop B")
	staffB := e.Staff(b, "staff-b@example.com")
	base := fmt.Sprintf("%s/stores/%d/", api, a)
	list := func(t *testing.T, q string) versionPage {
		var pg versionPage
		e.Do(testenv.Req{Method: "GET", Path: base + "settings/versions/" + q, Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &pg)
		return pg
	}
	e.Do(testenv.Req{Method: "PATCH", Path: base + "config/", Token: e.OwnerToken, Body: `{"store_name":"Renamed"}`}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "PATCH", Path: base, Token: e.OwnerToken, Body: `{"allowed_origins":["https://a.example"]}`}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "PATCH", Path: base + "payments/", Token: e.OwnerToken,
		Body: `{"payments_live":true,"methods":{"WALLET_A":{"secret_key":"sk_test_0123456789abcdef"}}}`}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "PATCH", Path: base + "config/", Token: e.OwnerToken, Body: `{"delivery_options":null}`}).Expect(t, 200, "")
	t.Run("ListNewestFirst", func(t *testing.T) {
		pg := list(t, "")
		if len(pg.Items) != 4 {
			t.Fatalf("got %d versions, want 4: %+v", len(pg.Items), pg.Items)
		}
		last := pg.Items[0]
		if last.AdminEmail != "owner@example.com" || last.CreatedAt == "" || len(last.Changes) != 1 ||
			last.Changes[0].Path != "config.delivery_options" || last.Changes[0].After != nil || last.Changes[0].Before == nil {
			t.Fatalf("newest %+v", last)
		}
		if _, ok := last.Settings.Config["delivery_options"]; ok || last.Settings.Config["store_name"] != "Renamed" ||
			fmt.Sprint(last.Settings.AllowedOrigins) != "[https://a.example]" {
			t.Fatalf("newest settings %+v", last.Settings)
		}
		if pg.Items[1].Changes[0].Path != "config.payments_live" || pg.Items[2].Changes[0].Path != "allowed_origins" ||
			pg.Items[3].Changes[0].Path != "config.store_name" || pg.Items[3].Changes[0].After != "Renamed" {
			t.Fatalf("changes %+v", pg.Items)
		}
	})
	t.Run("NoSecrets", func(t *testing.T) {
		r := e.Do(testenv.Req{Method: "GET", Path: base + "settings/versions/", Token: e.OwnerToken}).Expect(t, 200, "")
		if s := string(r.Raw); strings.Contains(s, "sk_test_") || strings.Contains(s, "0123456789abcdef") {
			t.Fatalf("a version holds a secret: %s", s)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		pg := list(t, "?limit=3")
		if len(pg.Items) != 3 || pg.NextCursor == nil {
			t.Fatalf("first page %+v", pg)
		}
		pg2 := list(t, "?limit=3&cursor="+*pg.NextCursor)
		if len(pg2.Items) != 1 || pg2.Items[0].ID >= pg.Items[2].ID || pg2.NextCursor != nil {
			t.Fatalf("second page %+v", pg2)
		}
	})
	t.Run("Restore", func(t *testing.T) {
		pg := list(t, "")
		before := pg.Items[1] // before delivery options were removed
		var got versionItem
		e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%ssettings/versions/%d/restore/", base, before.ID), Token: e.OwnerToken}).
			Expect(t, 200, "").Decode(t, &got)
		if got.ID <= pg.Items[0].ID || len(got.Changes) != 1 || got.Changes[0].Path != "config.delivery_options" || got.Changes[0].Before != nil {
			t.Fatalf("restore answer %+v", got)
		}
		var cfg map[string]any
		e.Do(testenv.Req{Method: "GET", Path: base + "config/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &cfg)
		if cfg["delivery_options"] == nil {
			t.Fatalf("delivery options not restored: %v", cfg)
		}
		// restoring the newest version again changes nothing and is still a version
		e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%ssettings/versions/%d/restore/", base, got.ID), Token: e.OwnerToken}).Expect(t, 200, "")
		if n := len(list(t, "").Items); n != 6 {
			t.Fatalf("%d versions, want 6: a restore is a new version", n)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		e.Do(testenv.Req{Method: "POST", Path: base + "settings/versions/999/restore/", Token: e.OwnerToken}).Expect(t, 404, "not_found")
		e.Do(testenv.Req{Method: "POST", Path: base + "settings/versions/abc/restore/", Token: e.OwnerToken}).Expect(t, 404, "not_found")
	})
	t.Run("ErrOtherStore", func(t *testing.T) {
		id := list(t, "").Items[0].ID
		other := fmt.Sprintf("%s/stores/%d/settings/versions/%d/restore/", api, b, id)
		e.Do(testenv.Req{Method: "POST", Path: other, Token: e.OwnerToken}).Expect(t, 404, "not_found")
		e.Do(testenv.Req{Method: "GET", Path: base + "settings/versions/", Token: staffB}).Expect(t, 404, "")
		e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("%ssettings/versions/%d/restore/", base, id), Token: staffB}).Expect(t, 404, "")
	})
	t.Run("ErrNoCredentials", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: base + "settings/versions/"}).Expect(t, 401, "unauthorized")
	})
	t.Run("ErrBadCursor", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: base + "settings/versions/?cursor=zzz", Token: e.OwnerToken}).Expect(t, 400, "")
	})
}
