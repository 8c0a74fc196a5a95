package web

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (s *Server) registerContentRoutes(r fiber.Router) {
	r.Get("/blog-posts", s.listBlogPosts)
	r.Get("/blog-posts/:slug", s.getBlogPost)
	r.Get("/flash-deals", s.listFlashDeals)
	r.Get("/bundles", s.listBundles)
}

// listBlogPosts serves GET /api/v1/business/website/blog-posts/: published
// posts, newest published first; content only when fields names it.
func (s *Server) listBlogPosts(c *fiber.Ctx) error {
	lq, err := s.parseList(c, "blog-posts", nil, app.BlogDefaultLimit, app.BlogMaxLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Content.PublishedPosts(store(c).ID, lq.ListParams)
	if err != nil {
		return err
	}
	withContent := lq.Fields.Wants("content")
	return sendList(s, c, "blog-posts", page, lq.Fields, func(p *app.BlogPost) any { return p.View(withContent) }, nil)
}

// getBlogPost serves GET /api/v1/business/website/blog-posts/{slug}/: one
// published post with its content.
func (s *Server) getBlogPost(c *fiber.Ctx) error {
	p, err := s.svc.Content.PublishedPost(store(c).ID, c.Params("slug"))
	if err != nil {
		return err
	}
	return httpkit.OK(c, p.View(true))
}

// listFlashDeals serves GET /api/v1/business/website/flash-deals/: deals
// running now, the soonest to end first.
func (s *Server) listFlashDeals(c *fiber.Ctx) error {
	lq, err := s.parseList(c, "flash-deals", nil, app.ProductsDefaultLimit, app.ProductsMaxLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Content.ActiveDeals(store(c).ID, lq.ListParams)
	if err != nil {
		return err
	}
	return sendList(s, c, "flash-deals", page, lq.Fields, func(d app.FlashDealView) any { return d }, nil)
}

// listBundles serves GET /api/v1/business/website/bundles/: active bundles,
// newest first.
func (s *Server) listBundles(c *fiber.Ctx) error {
	lq, err := s.parseList(c, "bundles", nil, app.ProductsDefaultLimit, app.ProductsMaxLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Content.ActiveBundles(store(c).ID, lq.ListParams)
	if err != nil {
		return err
	}
	return sendList(s, c, "bundles", page, lq.Fields, func(b app.BundleView) any { return b }, nil)
}
