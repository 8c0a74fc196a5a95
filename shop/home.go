package shop

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// homeData is what the home page shows.
type homeData struct {
	Categories []*app.Category
	Products   []productCard
}

// home serves GET /: the store's name and look, its categories and its
// newest products.
func (s *Shop) home(c *fiber.Ctx, rq *request) error {
	cats, err := s.svc.Catalog.Categories(rq.Store.ID)
	if err != nil {
		return err
	}
	page, err := s.svc.Catalog.Products(rq.Store.ID, app.ProductQuery{
		ListParams: app.ListParams{Sort: app.SortNewest, Limit: 8}, MinPrice: -1, MaxPrice: -1, Whole: true, Light: true})
	if err != nil {
		return err
	}
	cards, err := productCards(page.Items)
	if err != nil {
		return err
	}
	meta := pageMeta{Title: msg("home.title"), Description: rq.Look.Description, Canonical: "/"}
	return s.render(c, rq, fiber.StatusOK, "home", meta, homeData{Categories: cats, Products: cards})
}
