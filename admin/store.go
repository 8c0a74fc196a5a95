package admin

import (
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerStoreRoutes(r fiber.Router) {
	r.Get("/stores", h.listStores)
	r.Post("/stores", ownerOnly, h.createStore)
}

func (h *Handler) registerStoreScopedRoutes(r fiber.Router) {
	r.Get("/", h.getStore)
	r.Patch("/", h.patchStore)
	r.Post("/rotate-key", h.permit(app.ActRotateKey), h.rotateKey)
	r.Get("/config", h.getConfig)
	r.Patch("/config", h.patchConfig)
}

type storeView struct {
	ID        uint64 `json:"id"`
	Name      string `json:"name"`
	Subdomain string `json:"subdomain"`
	Currency  string `json:"currency"`
	IsActive  bool   `json:"is_active"`
	CreatedAt string `json:"created_at"`
	APIKey    string `json:"api_key,omitempty"`
}

func viewStore(st *app.Store) any { return viewStoreKey(st, "") }

func viewStoreKey(st *app.Store, key string) storeView {
	return storeView{ID: st.ID, Name: st.Name, Subdomain: st.Subdomain, Currency: st.Currency,
		IsActive: st.IsActive, CreatedAt: app.UTC(st.CreatedAt).Format("2006-01-02T15:04:05Z"), APIKey: key}
}

// listStores serves GET /api/v1/admin/stores/: every store for an owner, one for staff.
func (h *Handler) listStores(c *fiber.Ctx) error {
	all, err := h.svc.Stores.List()
	if err != nil {
		return err
	}
	u := adminOf(c)
	mine := []*app.Store{}
	for _, st := range all {
		if u.CanAccess(st.ID) {
			mine = append(mine, st)
		}
	}
	return httpkit.SendAll(c, mine, viewStore)
}

// createStore serves POST /api/v1/admin/stores/ (owner); the API key is shown only here.
func (h *Handler) createStore(c *fiber.Ctx) error {
	var in app.NewStore
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	st, key, err := h.svc.Stores.Create(in)
	if err != nil {
		return err
	}
	return httpkit.Created(c, viewStoreKey(st, key))
}

// getStore serves GET /api/v1/admin/stores/{id}/.
func (h *Handler) getStore(c *fiber.Ctx) error { return httpkit.OK(c, viewStore(storeOf(c))) }

// patchStore serves PATCH /api/v1/admin/stores/{id}/ {is_active, name}.
func (h *Handler) patchStore(c *fiber.Ctx) error {
	var in struct {
		IsActive *bool   `json:"is_active"`
		Name     *string `json:"name"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	st := storeOf(c)
	if in.IsActive != nil {
		if err := app.Permit(adminOf(c), app.ActSetActive); err != nil {
			return err
		}
	}
	var err error
	if in.Name != nil {
		if st, err = h.svc.Stores.Rename(st.ID, *in.Name); err != nil {
			return err
		}
	}
	if in.IsActive != nil {
		if st, err = h.svc.Stores.SetActive(st.ID, *in.IsActive); err != nil {
			return err
		}
	}
	return httpkit.OK(c, viewStore(st))
}

// rotateKey serves POST /api/v1/admin/stores/{id}/rotate-key/.
func (h *Handler) rotateKey(c *fiber.Ctx) error {
	st, key, err := h.svc.Stores.RotateKey(storeOf(c).ID)
	if err != nil {
		return err
	}
	return httpkit.OK(c, viewStoreKey(st, key))
}

// getConfig serves GET /api/v1/admin/stores/{id}/config/.
func (h *Handler) getConfig(c *fiber.Ctx) error {
	return httpkit.OK(c, json.RawMessage(storeOf(c).Config))
}

// patchConfig serves PATCH /api/v1/admin/stores/{id}/config/ (JSON merge patch).
func (h *Handler) patchConfig(c *fiber.Ctx) error {
	if !json.Valid(c.Body()) {
		return app.Invalid("body", "malformed JSON")
	}
	st, err := h.svc.Stores.PatchConfig(storeOf(c).ID, c.Body())
	if err != nil {
		return err
	}
	return httpkit.OK(c, json.RawMessage(st.Config))
}
