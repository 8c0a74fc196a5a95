package panel

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// requestKind is one kind of post-order request as the panel shows it.
type requestKind struct {
	Kind  string // app.KindCancellation, app.KindRefund
	path  string // under the store: "cancellations"
	Label string // "Cancellation"
}

func (k requestKind) Refund() bool { return k.Kind == app.KindRefund }

var requestKinds = []requestKind{
	{Kind: app.KindCancellation, path: "cancellations", Label: "Cancellation"},
	{Kind: app.KindRefund, path: "refunds", Label: "Refund"},
}

var requestStatuses = []string{app.RequestPending, app.RequestApproved, app.RequestRejected}

type requestsData struct {
	Kind requestKind
	filtered[*app.Request]
}

// requestsPage serves GET /admin/stores/{id}/cancellations/ and refunds/
// (?status=PENDING by default, APPROVED, REJECTED or all; ?cursor=).
func (p *panel) requestsPage(k requestKind) pageFunc {
	return func(c *fiber.Ctx, v *view) error {
		list, err := filteredPage(p, c, v, k.path, app.RequestPending, requestStatuses,
			func(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Request], error) {
				return p.h.svc.Requests.List(storeID, k.Kind, status, lp)
			})
		if err != nil {
			return err
		}
		v.Title, v.Tab, v.Data = k.Label+" requests", k.path, requestsData{Kind: k, filtered: list}
		return p.render(c, fiber.StatusOK, "requests", v)
	}
}

// decisionForm is the approve/reject form as typed.
type decisionForm struct {
	Action       string // approve, reject: the form that was sent
	AdminNote    string
	RefundMethod string
}

type requestData struct {
	Kind          requestKind
	Base          string
	Request       *app.Request
	Order         *app.Order
	Customer      *app.Customer // nil when the account is gone
	ReviewedBy    string        // the deciding admin's email, or ""
	RefundMethods []string
	Form          decisionForm
}

// requestPage serves GET /admin/stores/{id}/cancellations/{rid}/ and
// refunds/{rid}/: the request, its order and the decision forms.
func (p *panel) requestPage(k requestKind) pageFunc {
	return with(p.pathRequest(k), func(c *fiber.Ctx, v *view, r *app.Request) error {
		return p.showRequest(c, v, fiber.StatusOK, k, r, decisionForm{RefundMethod: app.RefundOriginalMethod})
	})
}

// pathRequest reads the path's request of kind k.
func (p *panel) pathRequest(k requestKind) func(c *fiber.Ctx, v *view) (*app.Request, error) {
	return pathRecord("rid", k.Kind+" request", func(storeID, id uint64) (*app.Request, error) {
		return p.h.svc.Requests.Get(storeID, k.Kind, id)
	})
}

func (p *panel) showRequest(c *fiber.Ctx, v *view, status int, k requestKind, r *app.Request, form decisionForm) error {
	d := requestData{Kind: k, Base: storePath(v.Store, k.path+"/"), Request: r, RefundMethods: app.RefundMethods, Form: form}
	det, err := p.h.svc.Requests.Detail(v.Store.ID, r)
	if err != nil {
		return err
	}
	d.Order, d.Customer, d.ReviewedBy = det.Order, det.Customer, det.ReviewedBy
	v.Title, v.Tab, v.Data = k.Label+" request #"+strconv.FormatUint(r.ID, 10), k.path, d
	return p.render(c, status, "request", v)
}

// decideRequest serves POST .../cancellations/{rid}/approve/ and .../reject/
// (and the same under refunds/) {admin_note, refund_method (refund approval)}.
func (p *panel) decideRequest(k requestKind, approve bool) pageFunc {
	return with(p.pathRequest(k), func(c *fiber.Ctx, v *view, r *app.Request) error {
		form := decisionForm{Action: "reject", AdminNote: formValue(c, "admin_note"), RefundMethod: formValue(c, "refund_method")}
		verb := "rejected"
		if approve {
			form.Action, verb = "approve", "approved"
		}
		in := app.DecisionInput{AdminNote: form.AdminNote}
		if approve && k.Refund() {
			in.RefundMethod = form.RefundMethod
		}
		decided, err := p.h.svc.Requests.DecideBy(v.Store.ID, k.Kind, r.ID, v.Admin, approve, in)
		if err != nil {
			if app.IsNotFound(err) {
				return err
			}
			if cur, gerr := p.h.svc.Requests.Get(v.Store.ID, k.Kind, r.ID); gerr == nil {
				r = cur // show what another admin may have decided meanwhile
			}
			return p.showRequest(c, v, p.formError(c, v, err), k, r, form)
		}
		return p.redirect(c, v, storePath(v.Store, k.path+"/"+strconv.FormatUint(decided.ID, 10)+"/"),
			ok1(k.Label+" request #"+strconv.FormatUint(decided.ID, 10)+" "+verb+". The customer was told by email."))
	})
}
