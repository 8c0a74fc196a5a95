package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerContentRoutes(r fiber.Router) {
	r.Get("/blog-posts", h.listPosts)
	r.Post("/blog-posts", h.createPost)
	r.Get("/blog-posts/:post_id", h.getPost)
	r.Patch("/blog-posts/:post_id", h.patchPost)
	r.Delete("/blog-posts/:post_id", h.deletePost)
	r.Get("/flash-deals", h.listDeals)
	r.Post("/flash-deals", h.createDeal)
	r.Get("/flash-deals/:deal_id", h.getDeal)
	r.Patch("/flash-deals/:deal_id", h.patchDeal)
	r.Delete("/flash-deals/:deal_id", h.deleteDeal)
	r.Get("/bundles", h.listBundles)
	r.Post("/bundles", h.createBundle)
	r.Get("/bundles/:bundle_id", h.getBundle)
	r.Patch("/bundles/:bundle_id", h.patchBundle)
	r.Delete("/bundles/:bundle_id", h.deleteBundle)
}

func viewPost(p *app.BlogPost) any { return p.View(true) }

// listPosts serves GET stores/{id}/blog-posts/ (every status, newest first).
func (h *Handler) listPosts(c *fiber.Ctx) error {
	lp, err := h.listParams(c, "blog-posts")
	if err != nil {
		return err
	}
	page, err := h.svc.Content.Posts(storeOf(c).ID, lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, "blog-posts", page, viewPost)
}

// createPost serves POST stores/{id}/blog-posts/.
func (h *Handler) createPost(c *fiber.Ctx) error {
	return h.savePost(c, 0, fiber.StatusCreated)
}

// patchPost serves PATCH stores/{id}/blog-posts/{post_id}/.
func (h *Handler) patchPost(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "post_id", "blog post")
	if err != nil {
		return err
	}
	return h.savePost(c, id, fiber.StatusOK)
}

func (h *Handler) savePost(c *fiber.Ctx, id uint64, status int) error {
	var in app.BlogPostInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	p, err := h.svc.Content.SavePost(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.Reply(c, status, "", p.View(true))
}

// getPost serves GET stores/{id}/blog-posts/{post_id}/.
func (h *Handler) getPost(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "post_id", "blog post")
	if err != nil {
		return err
	}
	p, err := h.svc.Content.Post(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, p.View(true))
}

// deletePost serves DELETE stores/{id}/blog-posts/{post_id}/.
func (h *Handler) deletePost(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "post_id", "blog post")
	if err != nil {
		return err
	}
	if err := h.svc.Content.DeletePost(storeOf(c).ID, id); err != nil {
		return err
	}
	return httpkit.OK(c, nil)
}

// listDeals serves GET stores/{id}/flash-deals/ (every deal, newest first).
func (h *Handler) listDeals(c *fiber.Ctx) error {
	lp, err := h.listParams(c, "flash-deals")
	if err != nil {
		return err
	}
	page, err := h.svc.Content.Deals(storeOf(c).ID, lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, "flash-deals", page, func(d app.FlashDealView) any { return d })
}

// createDeal serves POST stores/{id}/flash-deals/.
func (h *Handler) createDeal(c *fiber.Ctx) error {
	return h.saveDeal(c, 0, fiber.StatusCreated)
}

// patchDeal serves PATCH stores/{id}/flash-deals/{deal_id}/.
func (h *Handler) patchDeal(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "deal_id", "flash deal")
	if err != nil {
		return err
	}
	return h.saveDeal(c, id, fiber.StatusOK)
}

func (h *Handler) saveDeal(c *fiber.Ctx, id uint64, status int) error {
	var in app.FlashDealInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	d, err := h.svc.Content.SaveDeal(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.Reply(c, status, "", d)
}

// getDeal serves GET stores/{id}/flash-deals/{deal_id}/.
func (h *Handler) getDeal(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "deal_id", "flash deal")
	if err != nil {
		return err
	}
	d, err := h.svc.Content.Deal(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, d)
}

// deleteDeal serves DELETE stores/{id}/flash-deals/{deal_id}/.
func (h *Handler) deleteDeal(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "deal_id", "flash deal")
	if err != nil {
		return err
	}
	if err := h.svc.Content.DeleteDeal(storeOf(c).ID, id); err != nil {
		return err
	}
	return httpkit.OK(c, nil)
}

// listBundles serves GET stores/{id}/bundles/ (active or not, newest first).
func (h *Handler) listBundles(c *fiber.Ctx) error {
	lp, err := h.listParams(c, "bundles")
	if err != nil {
		return err
	}
	page, err := h.svc.Content.AllBundles(storeOf(c).ID, lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, "bundles", page, func(b app.BundleView) any { return b })
}

// createBundle serves POST stores/{id}/bundles/.
func (h *Handler) createBundle(c *fiber.Ctx) error {
	return h.saveBundle(c, 0, fiber.StatusCreated)
}

// patchBundle serves PATCH stores/{id}/bundles/{bundle_id}/.
func (h *Handler) patchBundle(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "bundle_id", "bundle")
	if err != nil {
		return err
	}
	return h.saveBundle(c, id, fiber.StatusOK)
}

func (h *Handler) saveBundle(c *fiber.Ctx, id uint64, status int) error {
	var in app.BundleInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	b, err := h.svc.Content.SaveBundle(storeOf(c).ID, id, in)
	if err != nil {
		return err
	}
	return httpkit.Reply(c, status, "", b)
}

// getBundle serves GET stores/{id}/bundles/{bundle_id}/.
func (h *Handler) getBundle(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "bundle_id", "bundle")
	if err != nil {
		return err
	}
	b, err := h.svc.Content.BundleByID(storeOf(c).ID, id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, b)
}

// deleteBundle serves DELETE stores/{id}/bundles/{bundle_id}/.
func (h *Handler) deleteBundle(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "bundle_id", "bundle")
	if err != nil {
		return err
	}
	if err := h.svc.Content.DeleteBundle(storeOf(c).ID, id); err != nil {
		return err
	}
	return httpkit.OK(c, nil)
}
