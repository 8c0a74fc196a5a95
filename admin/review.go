package admin

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

func (h *Handler) registerReviewRoutes(r fiber.Router) {
	r.Get("/reviews", h.listReviews)
	r.Post("/reviews/:rid/approve", onOne(pathID("rid", "review"), h.approveReview, viewReview))
	// rejecting an approved review takes it out of the product's rating
	r.Post("/reviews/:rid/reject", onOne(pathID("rid", "review"), h.rejectReview, viewReview))
}

// reviewView is the moderator's view: the public fields plus who, status and when.
type reviewView struct {
	app.ReviewView
	CustomerID uint64    `json:"customer_id"`
	Status     string    `json:"status"`
	UpdatedAt  time.Time `json:"updated_at"`
}

func viewReview(r *app.Review) any {
	return reviewView{ReviewView: r.View(), CustomerID: r.CustomerID, Status: r.Status, UpdatedAt: app.UTC(r.UpdatedAt)}
}

// listReviews serves GET stores/{id}/reviews/ (?status=PENDING|APPROVED|REJECTED), newest first.
func (h *Handler) listReviews(c *fiber.Ctx) error {
	status := c.Query("status")
	return sendList(h, c, "reviews:"+status, func(lp app.ListParams) (app.Page[*app.Review], error) {
		return h.svc.Reviews.List(storeOf(c).ID, status, lp)
	}, viewReview)
}

func (h *Handler) approveReview(c *fiber.Ctx, id uint64) (*app.Review, error) {
	return h.svc.Reviews.Approve(storeOf(c).ID, id)
}

func (h *Handler) rejectReview(c *fiber.Ctx, id uint64) (*app.Review, error) {
	return h.svc.Reviews.Reject(storeOf(c).ID, id)
}
