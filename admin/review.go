package admin

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

func (h *Handler) registerReviewRoutes(r fiber.Router) {
	r.Get("/reviews", listByStatus(h, "reviews:", h.svc.Reviews.List, viewReview)) // ?status=PENDING|APPROVED|REJECTED
	r.Post("/reviews/:rid/approve", onOne(pathID("rid", "review"), inStore(h.svc.Reviews.Approve), viewReview))
	// rejecting an approved review takes it out of the product's rating
	r.Post("/reviews/:rid/reject", onOne(pathID("rid", "review"), inStore(h.svc.Reviews.Reject), viewReview))
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
