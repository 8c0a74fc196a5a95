package admin

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerSettingsVersionRoutes(r fiber.Router) {
	r.Get("/settings/versions", h.listSettingsVersions)
	r.Post("/settings/versions/:vid/restore", h.restoreSettingsVersion)
}

// settingsVersionView is a settings version on the wire.
type settingsVersionView struct {
	ID         uint64               `json:"id"`
	CreatedAt  time.Time            `json:"created_at"`
	AdminEmail string               `json:"admin_email"`
	Settings   app.StoreSettingsDoc `json:"settings"`
	Changes    []app.SettingsChange `json:"changes"`
}

func viewSettingsVersion(v *app.SettingsVersion) any {
	return settingsVersionView{ID: v.ID, CreatedAt: app.UTC(v.CreatedAt), AdminEmail: v.AdminEmail, Settings: v.Settings,
		Changes: v.Changes}
}

// listSettingsVersions serves GET stores/{id}/settings/versions/: the
// store's settings history, newest first, cursor-paged.
func (h *Handler) listSettingsVersions(c *fiber.Ctx) error {
	const scope = "settings_versions"
	lp, err := h.listParams(c, scope)
	if err != nil {
		return err
	}
	page, err := h.svc.Stores.SettingsVersions(storeOf(c).ID, lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, scope, page, viewSettingsVersion)
}

// restoreSettingsVersion serves POST stores/{id}/settings/versions/{vid}/restore/:
// the version's settings become current; the answer is the new version.
func (h *Handler) restoreSettingsVersion(c *fiber.Ctx) error {
	vid, err := httpkit.PathID(c, "vid", "settings version")
	if err != nil {
		return err
	}
	v, err := h.svc.Stores.RestoreSettings(storeOf(c).ID, vid, adminOf(c))
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewSettingsVersion(v))
}
