package shop

import (
	"cmp"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// homeData is what the home page shows, section by section (look.Sections).
type homeData struct {
	Categories []*app.Category
	Products   []productCard // home.featured, or the newest products
	Featured   bool          // Products are the featured ones
	Deals      []app.FlashDealView
	Bundles    []app.BundleView
	Posts      []*app.BlogPost
}

// home serves GET /: the store's name and look, its hero and banners,
// featured (or newest) products, running flash deals, bundles, the newest
// posts and the categories, in the order of home.sections.
func (s *Shop) home(c *fiber.Ctx, rq *request) error {
	id := rq.Store.ID
	var d homeData
	var err error
	if d.Categories, err = s.svc.Catalog.Categories(id); err != nil {
		return err
	}
	if d.Products, d.Featured, err = s.homeProducts(id, rq.Look.Featured); err != nil {
		return err
	}
	if d.Deals, err = newest(rq, "deals", 4, s.svc.Content.ActiveDeals); err != nil {
		return err
	}
	if d.Bundles, err = newest(rq, "bundles", 4, s.svc.Content.ActiveBundles); err != nil {
		return err
	}
	if d.Posts, err = newest(rq, "posts", 3, s.svc.Content.PublishedPosts); err != nil {
		return err
	}
	title := rq.Look.SEOTitle
	if title == "" || title == rq.Look.Name {
		title = rq.L.T("home.title")
	}
	meta := pageMeta{Title: title, Description: rq.Look.Description, Canonical: "/", Image: cmp.Or(rq.Look.Logo, rq.Look.Hero.Image)}
	meta.JSONLD = []any{s.organizationLD(s.baseURL(c), rq.Look)}
	return s.render(c, rq, fiber.StatusOK, "home", meta, d)
}

// newest are the n newest items of list for a section of the home page,
// none when the look leaves the section out.
func newest[T any](rq *request, section string, n int, list func(uint64, app.ListParams) (app.Page[T], error)) ([]T, error) {
	if !rq.Look.HasSection(section) {
		return nil, nil
	}
	page, err := list(rq.Store.ID, app.ListParams{Sort: app.SortNewest, Limit: n})
	return page.Items, err
}

// homeProducts are the products of home.featured (by slug, in order; a
// slug that names no active product is skipped), or else the 8 newest.
func (s *Shop) homeProducts(storeID uint64, featured []string) ([]productCard, bool, error) {
	if len(featured) > 0 {
		var docs []app.Doc
		for _, slug := range featured {
			d, err := s.svc.Catalog.ProductDocBySlug(storeID, slug)
			if app.ErrorCode(err) == app.ENotFound {
				continue
			}
			if err != nil {
				return nil, false, err
			}
			docs = append(docs, d)
		}
		if len(docs) > 0 {
			cards, err := s.productCards(storeID, docs)
			return cards, true, err
		}
	}
	page, err := s.svc.Catalog.Products(storeID, app.ProductQuery{
		ListParams: app.ListParams{Sort: app.SortNewest, Limit: 8}, MinPrice: -1, MaxPrice: -1, Whole: true, Light: true})
	if err != nil {
		return nil, false, err
	}
	cards, err := s.productCards(storeID, page.Items)
	return cards, false, err
}

// organizationLD is the store as a schema.org Organization, with the site
// search as a WebSite SearchAction.
func (s *Shop) organizationLD(base string, l *look) map[string]any {
	org := map[string]any{"@type": "Organization", "name": l.Name, "url": base + "/"}
	setNonEmpty(org, "logo", absURL(base, l.Logo))
	setNonEmpty(org, "email", l.Email)
	setNonEmpty(org, "telephone", l.Phone)
	site := map[string]any{"@type": "WebSite", "name": l.Name, "url": base + "/",
		"potentialAction": map[string]any{"@type": "SearchAction", "target": base + "/search/?q={search_term_string}",
			"query-input": "required name=search_term_string"}}
	return map[string]any{"@context": "https://schema.org", "@graph": []any{org, site}}
}
