package panel

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// The settings history: every change of the store's settings as a version,
// newest first, each with Restore behind a confirm page.

type historyData struct {
	Section  string
	Sections []tab
	Versions []historyRow
	Pager
}

// historyRow is one version as the page shows it: its changes with the
// values as short JSON.
type historyRow struct {
	*app.SettingsVersion
	Lines []historyLine
}

type historyLine struct{ Path, Before, After string }

// maxHistoryValue is how much of a changed value a row shows.
const maxHistoryValue = 200

func shortJSON(v any) string {
	if v == nil {
		return "—"
	}
	b, _ := json.Marshal(v)
	if len(b) > maxHistoryValue {
		return string(b[:maxHistoryValue]) + "…"
	}
	return string(b)
}

// settingsHistoryPage serves GET /admin/stores/{id}/settings/history/?cursor=.
func (p *panel) settingsHistoryPage(c *fiber.Ctx, v *view) error {
	items, pg, err := listPage(p, c, v, "settings_versions", storePath(v.Store, "settings/history/"), p.h.svc.Stores.SettingsVersions)
	if err != nil {
		return err
	}
	d := historyData{Section: "history", Sections: settingsSections, Pager: pg}
	for _, sv := range items {
		row := historyRow{SettingsVersion: sv}
		for _, ch := range sv.Changes {
			row.Lines = append(row.Lines, historyLine{Path: ch.Path, Before: shortJSON(ch.Before), After: shortJSON(ch.After)})
		}
		d.Versions = append(d.Versions, row)
	}
	v.Title, v.Tab, v.Data = "Settings: History", "settings", d
	return p.render(c, fiber.StatusOK, "settings_history", v)
}

func (p *panel) askRestoreSettings(c *fiber.Ctx, v *view) (*confirmData, error) {
	id := c.Params("vid")
	return &confirmData{Heading: "Restore settings version " + id + "?",
		Message: "The store's configuration, CORS origins, shop domains and notification settings become what they were after this change. Payment credentials stay as they are. The restore is itself a new version, so it can be undone the same way.",
		Action:  storePath(v.Store, "settings/history/"+id+"/"), Button: "Restore this version",
		Back: storePath(v.Store, "settings/history/")}, nil
}

// restoreSettings serves POST /admin/stores/{id}/settings/history/{vid}/ (confirmed).
func (p *panel) restoreSettings(c *fiber.Ctx, v *view, id uint64) error {
	nv, err := p.h.svc.Stores.RestoreSettings(v.Store.ID, id, v.Admin)
	if err != nil && httpkit.StatusOfError(err) < 500 && !app.IsNotFound(err) {
		return p.redirect(c, v, storePath(v.Store, "settings/history/"), &flash{Kind: "error",
			Message: "Version " + strconv.FormatUint(id, 10) + " not restored: " + app.ErrorMessage(err)})
	}
	if err != nil {
		return err
	}
	return p.redirect(c, v, storePath(v.Store, "settings/history/"),
		ok1("Version "+strconv.FormatUint(id, 10)+" restored (as version "+strconv.FormatUint(nv.ID, 10)+")."))
}

// removalGuard lets a configuration save that removes keys through only
// when the form confirms it (confirm_removal=yes): otherwise it returns the
// changes the save would make and a validation error naming the removed
// keys. Saving "{}" thus never wipes the configuration silently.
func removalGuard(c *fiber.Ctx, stored, patch []byte) ([]historyLine, error) {
	var pm map[string]any
	if patch == nil || json.Unmarshal(patch, &pm) != nil {
		return nil, nil
	}
	removed := removedPaths("", pm)
	if len(removed) == 0 || formOn(c, "confirm_removal") {
		return nil, nil
	}
	merged, err := app.MergeConfig(stored, patch)
	if err != nil {
		return nil, err
	}
	var lines []historyLine
	for _, ch := range app.DiffSettings(app.StoreSettingsDoc{Config: stored}, app.StoreSettingsDoc{Config: merged}) {
		if path, ok := strings.CutPrefix(ch.Path, "config."); ok {
			lines = append(lines, historyLine{Path: path, Before: shortJSON(ch.Before), After: shortJSON(ch.After)})
		}
	}
	return lines, app.Invalid("config", "This save removes "+strings.Join(removed, ", ")+
		": look at the changes, tick “Remove these keys” and save again to confirm.")
}

// removedPaths lists the keys a merge patch removes (null values), sorted.
func removedPaths(prefix string, m map[string]any) []string {
	var out []string
	for k, v := range m {
		switch x := v.(type) {
		case nil:
			out = append(out, prefix+k)
		case map[string]any:
			out = append(out, removedPaths(prefix+k+".", x)...)
		}
	}
	slices.Sort(out)
	return out
}
