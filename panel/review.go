package panel

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

type reviewsData struct {
	filtered[*app.Review]
	Products map[uint64]string // the reviewed products' names ("" when deleted)
}

// reviewsPage serves GET /admin/stores/{id}/reviews/ (?status=PENDING by
// default, APPROVED, REJECTED or all; ?cursor=) with the moderation buttons.
func (p *panel) reviewsPage(c *fiber.Ctx, v *view) error {
	list, err := filteredPage(p, c, v, "reviews", app.ReviewPending, app.ReviewStatuses, p.h.svc.Reviews.List)
	if err != nil {
		return err
	}
	d := reviewsData{filtered: list}
	if d.Products, err = p.productNames(v.Store.ID, list.Rows); err != nil {
		return err
	}
	v.Title, v.Tab, v.Data = "Reviews", "reviews", d
	return p.render(c, fiber.StatusOK, "reviews", v)
}

// productNames names the products of reviews ("" for a deleted one).
func (p *panel) productNames(storeID uint64, reviews []*app.Review) (map[uint64]string, error) {
	names := map[uint64]string{}
	for _, r := range reviews {
		if _, seen := names[r.ProductID]; r.ProductID == 0 || seen {
			continue
		}
		names[r.ProductID] = ""
		if pr, err := p.h.svc.Catalog.Product(storeID, r.ProductID); err == nil {
			names[r.ProductID] = pr.Name
		} else if !app.IsNotFound(err) {
			return nil, err
		}
	}
	return names, nil
}

// moderateReview serves POST /admin/stores/{id}/reviews/{rvid}/approve/ and
// .../reject/ {status: the list to go back to}.
func (p *panel) moderateReview(approve bool) pageFunc {
	return with(pathID("rvid", "review"), func(c *fiber.Ctx, v *view, id uint64) error {
		decide, verb := p.h.svc.Reviews.Reject, "rejected: it is hidden from the storefront"
		if approve {
			decide, verb = p.h.svc.Reviews.Approve, "approved: it is shown on the storefront"
		}
		if _, err := decide(v.Store.ID, id); err != nil {
			return err
		}
		back := backToFilter(c, storePath(v.Store, "reviews/"), app.ReviewPending, app.ReviewStatuses)
		return p.redirect(c, v, back, ok1("Review #"+strconv.FormatUint(id, 10)+" "+verb+"."))
	})
}
