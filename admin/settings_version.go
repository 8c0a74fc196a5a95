package admin

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

func (h *Handler) registerSettingsVersionRoutes(r fiber.Router) {
	// GET: the store's settings history, newest first, cursor-paged.
	r.Get("/settings/versions", listPaged(h, "settings_versions", h.svc.Stores.SettingsVersions, viewSettingsVersion))
	r.Post("/settings/versions/:vid/restore", onOne(pathID("vid", "settings version"), h.restoreSettingsVersion, viewSettingsVersion))
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

// restoreSettingsVersion serves POST stores/{id}/settings/versions/{vid}/restore/:
// the version's settings become current; the answer is the new version.
func (h *Handler) restoreSettingsVersion(c *fiber.Ctx, vid uint64) (*app.SettingsVersion, error) {
	return h.svc.Stores.RestoreSettings(storeOf(c).ID, vid, adminOf(c))
}
