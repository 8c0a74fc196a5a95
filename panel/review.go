package panel

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

type reviewRow struct {
	*app.Review
	Product string // the product's name; "" for a store review or a deleted product
}

type reviewsData struct {
	Base    string
	Reviews []reviewRow
	Filter  statusFilter
	Pager
}

// reviewsPage serves GET /admin/stores/{id}/reviews/ (?status=PENDING by
// default, APPROVED, REJECTED or all; ?cursor=) with the moderation buttons.
func (p *panel) reviewsPage(c *fiber.Ctx, v *view) error {
	st := v.Store
	base := storePath(st, "reviews/")
	f, err := readStatusFilter(c, base, app.ReviewPending, app.ReviewStatuses)
	if err != nil {
		return err
	}
	items, pg, err := listPage(p, c, v, "reviews:"+f.Value, f.Base,
		func(storeID uint64, lp app.ListParams) (app.Page[*app.Review], error) {
			return p.h.svc.Reviews.List(storeID, f.Status, lp)
		})
	if err != nil {
		return err
	}
	d := reviewsData{Base: base, Filter: f, Pager: pg}
	names := map[uint64]string{}
	for _, r := range items {
		if _, seen := names[r.ProductID]; r.ProductID != 0 && !seen {
			if pr, err := p.h.svc.Catalog.Product(st.ID, r.ProductID); err == nil {
				names[r.ProductID] = pr.Name
			} else if !app.IsNotFound(err) {
				return err
			} else {
				names[r.ProductID] = ""
			}
		}
		d.Reviews = append(d.Reviews, reviewRow{Review: r, Product: names[r.ProductID]})
	}
	v.Title, v.Tab, v.Data = "Reviews", "reviews", d
	return p.render(c, fiber.StatusOK, "reviews", v)
}

// moderateReview serves POST /admin/stores/{id}/reviews/{rvid}/approve/ and
// .../reject/ {status: the list to go back to}.
func (p *panel) moderateReview(approve bool) pageFunc {
	return with(pathID("rvid", "review"), func(c *fiber.Ctx, v *view, id uint64) error {
		var err error
		verb := "rejected: it is hidden from the storefront"
		if approve {
			_, err = p.h.svc.Reviews.Approve(v.Store.ID, id)
			verb = "approved: it is shown on the storefront"
		} else {
			_, err = p.h.svc.Reviews.Reject(v.Store.ID, id)
		}
		if err != nil {
			return err
		}
		back := backToFilter(c, storePath(v.Store, "reviews/"), app.ReviewPending, app.ReviewStatuses)
		return p.redirect(c, v, back, ok1("Review #"+strconv.FormatUint(id, 10)+" "+verb+"."))
	})
}
