package shop

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// searchHint is an as-you-type hint of the search box: a product's name and page.
type searchHint struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// searchHints serves GET /search/suggest?q=: the products the text typed so
// far finds, best first, as JSON ({"items": [{"name", "url"}]}), for the
// search boxes' suggestions (shop.js). Without it the form searches as
// before; a q with no word answers no items.
func (s *Shop) searchHints(c *fiber.Ctx, rq *request) error {
	hs, err := s.svc.Catalog.SearchHints(rq.Store.ID, c.Query("q"), app.MaxHints)
	if err != nil {
		return err
	}
	items := make([]searchHint, len(hs))
	for i, h := range hs {
		items[i] = searchHint{Name: h.Name, URL: "/products/" + h.Slug + "/"}
	}
	c.Set(fiber.HeaderCacheControl, "private, max-age=60")
	return c.JSON(fiber.Map{"items": items})
}

// didYouMean fills the suggestions of a search page that found nothing.
func (s *Shop) didYouMean(rq *request, q app.ProductQuery, g *gridData) error {
	if !g.Searching || q.Q == "" || q.After != nil || len(g.Cards) > 0 {
		return nil
	}
	hs, err := s.svc.Catalog.DidYouMean(rq.Store.ID, q.Words)
	g.Suggestions = hs
	return err
}
