package web

import (
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (s *Server) registerReviewRoutes(r fiber.Router) {
	r.Post("/reviews", s.shopper, s.submitReview)
	r.Get("/reviews/store", s.listStoreReviews)
	r.Get("/products/:slug/reviews", s.listProductReviews)
}

// sendReviews writes a page of pre-encoded review views as the list shape
// with the summary sibling, trimming items to ?fields= when asked.
func (s *Server) sendReviews(c *fiber.Ctx, scope string, page app.Page[json.RawMessage], fs app.FieldSet, sum app.ReviewSummary) error {
	b := make([]byte, 0, 512+len(page.Items)*400)
	b = append(b, httpkit.OKPrefix...)
	b = append(b, `{"items":[`...)
	for i, raw := range page.Items {
		if i > 0 {
			b = append(b, ',')
		}
		if fs != nil {
			raw = httpkit.TrimJSON(raw, fs)
		}
		b = append(b, raw...)
	}
	b, err := httpkit.ListTail(b, s.nextCursor(c, scope, page.Next), map[string]any{"summary": sum.View()})
	if err != nil {
		return err
	}
	httpkit.SetJSON(c)
	return c.Send(b)
}

// submitReview serves POST /api/v1/business/website/reviews/: data is the new
// review's id as a decimal string; the review waits for moderation.
func (s *Server) submitReview(c *fiber.Ctx) error {
	var in app.ReviewInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	r, err := s.svc.Reviews.Submit(*shopperOf(c), in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, uintString(r.ID))
}

// listProductReviews serves GET /api/v1/business/website/products/{slug}/reviews/:
// approved reviews in the list shape plus summary.
func (s *Server) listProductReviews(c *fiber.Ctx) error {
	slug := c.Params("slug")
	scope := "reviews:" + slug
	q, err := s.parseList(c, scope, app.ReviewSorts, app.ReviewsDefaultLimit, app.ReviewsMaxLimit)
	if err != nil {
		return err
	}
	_, page, sum, err := s.svc.Reviews.ProductReviews(store(c).ID, slug, q.ListParams)
	if err != nil {
		return err
	}
	return s.sendReviews(c, scope, page, q.Fields, sum)
}

// listStoreReviews serves GET /api/v1/business/website/reviews/store/:
// approved store reviews in the list shape plus summary.
func (s *Server) listStoreReviews(c *fiber.Ctx) error {
	const scope = "reviews:store"
	q, err := s.parseList(c, scope, app.ReviewSorts, app.ReviewsDefaultLimit, app.ReviewsMaxLimit)
	if err != nil {
		return err
	}
	page, sum, err := s.svc.Reviews.StoreReviews(store(c).ID, q.ListParams)
	if err != nil {
		return err
	}
	return s.sendReviews(c, scope, page, q.Fields, sum)
}

func uintString(n uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
