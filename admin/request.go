package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// registerRequestRoutes adds the store's review of cancellation and refund
// requests (decisions.md §10).
func (h *Handler) registerRequestRoutes(r fiber.Router) {
	for _, k := range []struct{ path, kind string }{
		{"/cancellation-requests", app.KindCancellation},
		{"/refund-requests", app.KindRefund},
	} {
		r.Get(k.path, listByStatus(h, k.kind+"-requests?status=", h.requests(k.kind), viewRequest))
		r.Get(k.path+"/:rid", h.getRequest(k.kind))
		r.Post(k.path+"/:rid/approve", h.decideRequest(k.kind, true))
		r.Post(k.path+"/:rid/reject", h.decideRequest(k.kind, false))
	}
}

// requestAdminExtra is the admin's view of a request: the storefront view plus
// who filed it and who decided it.
type requestAdminExtra struct {
	Kind       string `json:"kind"`
	CustomerID uint64 `json:"customer_id"`
	ReviewedBy uint64 `json:"reviewed_by"`
	// ByStore: filed by the store itself (a refund it made).
	ByStore bool `json:"by_store"`
	// ProviderRefundID is the payment provider's refund ("" when none was made there).
	ProviderRefundID string `json:"provider_refund_id"`
	// ProviderError is the provider's last failure on a still PENDING request.
	ProviderError string `json:"provider_error"`
}

type cancellationAdminView struct {
	app.CancellationView
	requestAdminExtra
}

type refundAdminView struct {
	app.RefundView
	requestAdminExtra
}

func viewRequest(r *app.Request) any {
	rv := requestAdminExtra{Kind: r.Kind, CustomerID: r.CustomerID, ReviewedBy: r.ReviewedBy, ByStore: r.ByStore,
		ProviderRefundID: r.ProviderRefundID, ProviderError: r.ProviderError}
	if r.Kind == app.KindRefund {
		return refundAdminView{r.RefundView(), rv}
	}
	return cancellationAdminView{r.CancellationView(), rv}
}

func requestKindName(kind string) string { return kind + " request" }

// requests lists the store's requests of kind (?status=), for listByStatus.
func (h *Handler) requests(kind string) func(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Request], error) {
	return func(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Request], error) {
		return h.svc.Requests.List(storeID, kind, status, lp)
	}
}

// getRequest serves GET stores/{id}/cancellation-requests/{rid}/ and
// refund-requests/{rid}/.
func (h *Handler) getRequest(kind string) fiber.Handler {
	return onOne(pathID("rid", requestKindName(kind)), func(c *fiber.Ctx, id uint64) (*app.Request, error) {
		return h.svc.Requests.Get(storeOf(c).ID, kind, id)
	}, viewRequest)
}

// decideRequest serves POST stores/{id}/{kind}-requests/{rid}/approve/ and
// .../reject/ {admin_note, refund_method (refund approval only)}.
func (h *Handler) decideRequest(kind string, approve bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := httpkit.PathID(c, "rid", requestKindName(kind))
		if err != nil {
			return err
		}
		var in app.DecisionInput
		if len(c.Body()) > 0 {
			if err := httpkit.Decode(c, &in); err != nil {
				return err
			}
		}
		r, err := h.svc.Requests.DecideBy(storeOf(c).ID, kind, id, adminOf(c), approve, in)
		if err != nil {
			return err
		}
		return httpkit.OK(c, viewRequest(r))
	}
}
