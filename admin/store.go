package admin

import (
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerStoreRoutes(r fiber.Router) {
	r.Get("/stores", h.listStores)
	r.Post("/stores", decoded(fiber.StatusCreated, h.createStore, asIs[storeView]))
}

func (h *Handler) registerStoreScopedRoutes(r fiber.Router) {
	r.Get("/", h.getStore)
	r.Patch("/", decoded(fiber.StatusOK, h.patchStore, viewStore))
	r.Post("/rotate-key", h.rotateKey)
	r.Get("/config", h.getConfig)
	r.Patch("/config", h.patchConfig)
	r.Get("/payments", h.getPayments)
	r.Patch("/payments", decoded(fiber.StatusOK, h.patchPayments, asIs[app.PaymentSettingsView]))
}

// getPayments serves GET /api/v1/admin/stores/{id}/payments/: payments_live,
// the provider of each method, whose credentials it uses (masked) and the
// Stripe webhook URL to register.
func (h *Handler) getPayments(c *fiber.Ctx) error {
	v, err := h.svc.Payments.PaymentSettings(storeOf(c).ID)
	if err != nil {
		return err
	}
	return httpkit.OK(c, v)
}

// patchPayments serves PATCH /api/v1/admin/stores/{id}/payments/
// {payments_live?, methods?: {WALLET_A: {secret_key?, webhook_secret?}}}.
// Secrets are write-only: the answer shows them masked.
func (h *Handler) patchPayments(c *fiber.Ctx, in app.PaymentSettingsInput) (app.PaymentSettingsView, error) {
	return h.svc.Payments.SetPaymentSettingsBy(storeOf(c).ID, in, adminOf(c))
}

type storeView struct {
	ID        uint64 `json:"id"`
	Name      string `json:"name"`
	Subdomain string `json:"subdomain"`
	Currency  string `json:"currency"`
	IsActive  bool   `json:"is_active"`
	CreatedAt string `json:"created_at"`
	// RequireStaffTOTP: managers and staff must enrol a second factor.
	RequireStaffTOTP bool   `json:"require_staff_totp"`
	APIKey           string `json:"api_key,omitempty"`
	// Settings beyond the public configuration (PATCH stores/{id}/).
	AllowedOrigins     []string        `json:"allowed_origins"`
	Domains            []string        `json:"domains"`
	NotificationEmails []string        `json:"notification_emails"`
	Notifications      map[string]bool `json:"notifications"`
}

func viewStore(st *app.Store) any { return viewStoreKey(st, "") }

func viewStoreKey(st *app.Store, key string) storeView {
	return storeView{ID: st.ID, Name: st.Name, Subdomain: st.Subdomain, Currency: st.Currency,
		IsActive: st.IsActive, RequireStaffTOTP: st.RequireStaffTOTP, CreatedAt: app.UTC(st.CreatedAt).Format("2006-01-02T15:04:05Z"), APIKey: key,
		AllowedOrigins: nonNil(st.AllowedOrigins), Domains: nonNil(st.Domains), NotificationEmails: nonNil(st.NotificationEmails), Notifications: st.Notifications()}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
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
func (h *Handler) createStore(_ *fiber.Ctx, in app.NewStore) (storeView, error) {
	st, key, err := h.svc.Stores.Create(in)
	if err != nil {
		return storeView{}, err
	}
	return viewStoreKey(st, key), nil
}

// getStore serves GET /api/v1/admin/stores/{id}/.
func (h *Handler) getStore(c *fiber.Ctx) error { return httpkit.OK(c, viewStore(storeOf(c))) }

// patchStore serves PATCH /api/v1/admin/stores/{id}/ {is_active, name,
// require_staff_totp, allowed_origins, domains, notification_emails,
// notifications}: one change (app.StoreService.Change), whole or not at all.
func (h *Handler) patchStore(c *fiber.Ctx, in app.StoreChange) (*app.Store, error) {
	return h.svc.Stores.Change(storeOf(c).ID, in, adminOf(c))
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
	st, err := h.svc.Stores.PatchConfigBy(storeOf(c).ID, c.Body(), adminOf(c))
	if err != nil {
		return err
	}
	return httpkit.OK(c, json.RawMessage(st.Config))
}
