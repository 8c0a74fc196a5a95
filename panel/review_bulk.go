package panel

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// maxBulkReviews bounds one bulk moderation (a page of the list and more).
const maxBulkReviews = 200

// moderateReviews serves POST /admin/stores/{id}/reviews/bulk/ {action:
// approve|reject, ids (repeated), status: the list to go back to}: the
// selected reviews of the list moderated at once. Reviews not found (deleted
// meanwhile, or another store's) are counted apart.
func (p *panel) moderateReviews(c *fiber.Ctx, v *view) error {
	action := readForm(c, nil, "action")["action"]
	approve := action == "approve"
	if !approve && action != "reject" {
		return app.Invalid("action", "must be approve or reject")
	}
	var ids []uint64
	for _, raw := range c.Context().PostArgs().PeekMulti("ids") {
		id, err := strconv.ParseUint(string(raw), 10, 64)
		if err != nil || id == 0 {
			return app.Invalid("ids", "must be review numbers")
		}
		ids = append(ids, id)
	}
	back := backToFilter(c, storePath(v.Store, "reviews/"), app.ReviewPending, app.ReviewStatuses)
	if len(ids) == 0 {
		return p.redirect(c, v, back, &flash{Kind: "error", Message: "Select at least one review."})
	}
	if len(ids) > maxBulkReviews {
		return app.Invalid("ids", "at most "+strconv.Itoa(maxBulkReviews)+" reviews at once")
	}
	decide := p.h.svc.Reviews.Reject
	if approve {
		decide = p.h.svc.Reviews.Approve
	}
	done, missing := 0, 0
	for _, id := range ids {
		_, err := decide(v.Store.ID, id)
		switch {
		case app.IsNotFound(err):
			missing++
		case err != nil:
			return err
		default:
			done++
		}
	}
	msg := strconv.Itoa(done) + " reviews rejected: hidden from the storefront."
	if approve {
		msg = strconv.Itoa(done) + " reviews approved: shown on the storefront."
	}
	if missing > 0 {
		msg += " " + strconv.Itoa(missing) + " were not found."
	}
	return p.redirect(c, v, back, ok1(msg))
}
