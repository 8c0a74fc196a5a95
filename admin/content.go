package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// registerContentRoutes mounts the blog posts (every status), flash deals
// and bundles (active or not): each listed newest first, a page at a time.
func (h *Handler) registerContentRoutes(r fiber.Router) {
	cs := h.svc.Content
	resource[*app.BlogPost, app.BlogPostInput]{path: "/blog-posts", param: "post_id", noun: "blog post",
		list: listPaged(h, "blog-posts", cs.Posts, viewPost),
		get:  cs.Post, save: cs.SavePost, del: cs.DeletePost, view: viewPost}.routes(r)
	resource[app.FlashDealView, app.FlashDealInput]{path: "/flash-deals", param: "deal_id", noun: "flash deal",
		list: listPaged(h, "flash-deals", cs.Deals, asIs[app.FlashDealView]),
		get:  cs.Deal, save: cs.SaveDeal, del: cs.DeleteDeal, view: asIs[app.FlashDealView]}.routes(r)
	resource[app.BundleView, app.BundleInput]{path: "/bundles", param: "bundle_id", noun: "bundle",
		list: listPaged(h, "bundles", cs.AllBundles, asIs[app.BundleView]),
		get:  cs.BundleByID, save: cs.SaveBundle, del: cs.DeleteBundle, view: asIs[app.BundleView]}.routes(r)
}

func viewPost(p *app.BlogPost) any { return p.View(true) }
