package shop

import (
	"cmp"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/i18n"
	"storefront/httpkit"
)

// registerCatalogRoutes adds the product lists, search and product pages.
func (s *Shop) registerCatalogRoutes(a *fiber.App) {
	a.Get("/products/", s.cachedPage(s.allProducts))
	a.Get("/search/", s.cachedPage(s.search))
	a.Get("/search/suggest", s.page(s.searchHints))
	a.Get("/categories/:id/", s.page(s.categoryRedirect))
	a.Get("/categories/:id/:slug/", s.cachedPage(s.category))
	a.Get("/products/:slug/", s.cachedPage(s.product))
	a.Post("/products/:slug/reviews", s.form(s.submitReview, s.reviewAgain))
}

// productCard is a product as a grid shows it.
type productCard struct {
	ID        uint64     `json:"id"`
	Name      string     `json:"name"`
	Slug      string     `json:"slug"`
	Price     app.Money  `json:"price"`
	CompareAt *app.Money `json:"compare_at_price"` // null: none
	InStock   bool       `json:"in_stock"`
	Stock     int64      `json:"stock"`
	Images    []string   `json:"images"`
	// DealPrice and DealEndsAt are the running flash deal's (null: none),
	// as the API's product reads carry them (app.LiveDeals.AppendDeal).
	DealPrice  *app.Money `json:"deal_price"`
	DealEndsAt *time.Time `json:"deal_ends_at"`
}

// cardView is a card with the currency its prices are written in.
type cardView struct {
	productCard
	Currency string
	// Eager marks a card of the first row: its image loads at once.
	Eager bool
}

// price is the card's price as the API wrote it, for app.Price's rules.
func (p productCard) price() app.Price {
	pr := app.Price{Regular: p.Price}
	if p.CompareAt != nil {
		pr.CompareAt = *p.CompareAt
	}
	if p.DealPrice != nil {
		pr.OnDeal, pr.Deal = true, *p.DealPrice
	}
	return pr
}

// Now is the price the cart charges: the deal's while one runs.
func (p productCard) Now() app.Money { return p.price().Unit() }

// Was is the price struck through (app.Price.Was).
func (p productCard) Was() app.Money { return p.price().Was() }

// Image is the card's first image ("" when it has none).
func (p productCard) Image() string { return picture(p.first()) }

// SrcSet is the srcset of the card's first image ("" when it has no
// renditions).
func (p productCard) SrcSet() string { return srcset(p.first()) }

// first is the URL of the card's first image ("": none).
func (p productCard) first() string {
	if len(p.Images) == 0 {
		return ""
	}
	return p.Images[0]
}

// productCards decodes a page of a store's product docs into cards, with
// their flash deals as the API writes them.
func (s *Shop) productCards(storeID uint64, docs []app.Doc) ([]productCard, error) {
	deals, err := s.svc.Catalog.Deals(storeID)
	if err != nil {
		return nil, err
	}
	cards := make([]productCard, len(docs))
	var buf []byte
	for i, d := range docs {
		if buf, err = d.AppendJSON(buf[:0], nil); err != nil {
			return nil, err
		}
		if buf, err = deals.AppendDeal(buf, 0, d, nil); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(buf, &cards[i]); err != nil {
			return nil, err
		}
	}
	return cards, nil
}

// picture is the path on this site of a stored picture (app.ParseMediaURL:
// /media/{store}/{sha256}-{width}.{ext}, served on every host), and "" for
// any other URL: the shop shows only pictures of the media store, from its
// own host, never another host's (a picture given by URL is fetched into
// the media store when it is saved: app/media_fetch.go).
func picture(u string) string { return rendition(u, 0) }

// thumbURL is the path of the smallest rendition of a stored picture
// (app.MediaWidths), for a thumbnail; "" for any other URL (picture).
func thumbURL(u string) string { return rendition(u, app.MediaWidths[0]) }

// rendition is the path of a stored picture at width w (0: the width its
// URL names); "" for any other URL (picture).
func rendition(u string, w int) string {
	ref, ok := app.ParseMediaURL(strings.TrimSpace(u))
	if !ok {
		return ""
	}
	if w == 0 {
		w = ref.Width
	}
	return app.MediaPath(ref.StoreID, ref.Hash, w, ref.Ext)
}

// srcset lists the renditions of a stored picture (app.MediaWidths) as a
// srcset of paths on this site; "" for any other URL.
func srcset(u string) string {
	if picture(u) == "" {
		return ""
	}
	parts := make([]string, len(app.MediaWidths))
	for i, w := range app.MediaWidths {
		parts[i] = rendition(u, w) + " " + strconv.Itoa(w) + "w"
	}
	return strings.Join(parts, ", ")
}

// listForm is the filter form of a product grid, as typed.
type listForm struct {
	Q, Sort, Min, Max, Cursor string
	InStock                   bool
}

// decodeListForm reads a grid's query (q, sort, min_price, max_price,
// in_stock, cursor) into the product query it asks for, with the API's
// rules; errs maps a field to its message. defSort is the sort when none is
// asked. The cursor is checked by the caller (it needs the store).
func decodeListForm(l *i18n.Catalog, get func(string) string, defSort string) (f listForm, q app.ProductQuery, errs map[string]string) {
	bad := func(field, key string) {
		if errs == nil {
			errs = map[string]string{}
		}
		errs[field] = l.T(key)
	}
	f = listForm{Q: strings.TrimSpace(get("q")), Sort: get("sort"), Min: strings.TrimSpace(get("min_price")),
		Max: strings.TrimSpace(get("max_price")), Cursor: get("cursor")}
	q = app.ProductQuery{ListParams: app.ListParams{Sort: defSort, Limit: app.ProductsDefaultLimit},
		MinPrice: -1, MaxPrice: -1, Light: true, Whole: true}
	if f.Q != "" {
		q.Q = app.FoldText(f.Q)
		if len([]rune(q.Q)) > 100 {
			bad("q", "list.err.q")
		} else if q.Words = app.QueryWords(q.Q); len(q.Words) == 0 {
			q.Q = ""
		}
	}
	if q.Q == "" && q.Sort == app.SortRelevance {
		q.Sort = app.SortNewest
	}
	if f.Sort != "" {
		switch {
		case !slices.Contains(app.ProductSorts, f.Sort):
			bad("sort", "list.err.sort")
		case f.Sort == app.SortRelevance && q.Q == "":
			bad("sort", "list.err.relevance")
		default:
			q.Sort = f.Sort
		}
	}
	f.Sort = q.Sort
	price := func(field, v string) app.Money {
		if v == "" {
			return -1
		}
		m, err := app.ParseMoney(v)
		if err != nil || m < 0 {
			bad(field, "list.err.price")
			return -1
		}
		return m
	}
	q.MinPrice, q.MaxPrice = price("min_price", f.Min), price("max_price", f.Max)
	switch strings.ToLower(get("in_stock")) {
	case "", "false", "0":
	case "true", "1", "on":
		f.InStock, q.InStock = true, true
	default:
		bad("in_stock", "list.err.instock")
	}
	return f, q, errs
}

// Query is the form's query string without the cursor (for paging links).
func (f listForm) Query() url.Values {
	v := url.Values{}
	for k, x := range map[string]string{"q": f.Q, "sort": f.Sort, "min_price": f.Min, "max_price": f.Max} {
		if x != "" {
			v.Set(k, x)
		}
	}
	if f.InStock {
		v.Set("in_stock", "1")
	}
	return v
}

// Filtered reports whether any filter is set.
func (f listForm) Filtered() bool { return f.Min != "" || f.Max != "" || f.InStock }

// sortOption is one choice of the sort select.
type sortOption struct {
	Value, Label string
	Selected     bool
}

// gridData is what a product grid page shows.
type gridData struct {
	Heading   string
	Intro     string
	Path      string // the form's action
	Form      listForm
	Sorts     []sortOption
	Errors    map[string]string
	Cards     []productCard
	Next      string // the next page's URL ("" : none)
	First     string // the first page's URL when this is a later one
	Searching bool   // the search page (q shown in the form)
	Prompt    bool   // a search page with nothing to search
	// Suggestions are the closest products when a search found nothing ("Did you mean").
	Suggestions []app.SearchHint
	Crumbs      []crumb
}

// grid serves a product grid: scope names the list for cursors (the API's:
// "products" or "category:{id}"), path is the page's own path.
func (s *Shop) grid(c *fiber.Ctx, rq *request, scope, path string, g gridData, meta pageMeta, categoryID uint64) error {
	defSort := app.SortNewest
	if g.Searching && c.Query("q") != "" {
		defSort = app.SortRelevance
	}
	f, q, errs := decodeListForm(rq.L, func(k string) string { return c.Query(k) }, defSort)
	if errs == nil && f.Cursor != "" {
		cur, err := s.cursors.Decode(scope, rq.Store.ID, q.Sort, f.Cursor)
		if err != nil {
			errs = map[string]string{"cursor": rq.L.T("list.err.cursor")}
		}
		q.After = cur
	}
	g.Path, g.Form, g.Errors = path, f, errs
	g.Sorts = sortOptions(rq.L, f.Sort, q.Q != "")
	meta.Canonical = path
	if f.Cursor != "" || f.Filtered() || f.Sort != defSort || errs != nil {
		meta.NoIndex = true // one canonical page per list; its variants stay out of the index
	}
	if g.Searching && q.Q != "" {
		meta.Canonical = path + "?q=" + url.QueryEscape(f.Q)
	}
	if errs != nil {
		return s.render(c, rq, fiber.StatusBadRequest, "products", meta, g)
	}
	if g.Searching && q.Q == "" {
		g.Prompt = true
		return s.render(c, rq, fiber.StatusOK, "products", meta, g)
	}
	var page app.Page[app.Doc]
	var err error
	if categoryID != 0 { // the category pages are cached by the catalog
		_, page, err = s.svc.Catalog.CategoryProducts(rq.Store.ID, categoryID, q)
	} else {
		page, err = s.svc.Catalog.Products(rq.Store.ID, q)
	}
	if err != nil {
		return err
	}
	if g.Cards, err = s.productCards(rq.Store.ID, page.Items); err != nil {
		return err
	}
	if err := s.didYouMean(rq, q, &g); err != nil {
		return err
	}
	link := f.Query()
	if f.Cursor != "" {
		g.First = pathQuery(path, link)
	}
	if page.Next != nil {
		link.Set("cursor", s.cursors.Encode(scope, rq.Store.ID, page.Next))
		g.Next = pathQuery(path, link)
	}
	return s.render(c, rq, fiber.StatusOK, "products", meta, g)
}

func pathQuery(path string, v url.Values) string {
	if len(v) == 0 {
		return path
	}
	return path + "?" + v.Encode()
}

func sortOptions(l *i18n.Catalog, selected string, searching bool) []sortOption {
	var out []sortOption
	for _, s := range app.ProductSorts {
		if s == app.SortRelevance && !searching {
			continue
		}
		out = append(out, sortOption{Value: s, Label: l.T("list.sort." + s), Selected: s == selected})
	}
	return out
}

// allProducts serves GET /products/.
func (s *Shop) allProducts(c *fiber.Ctx, rq *request) error {
	g := gridData{Heading: rq.L.T("list.all.title"), Crumbs: []crumb{{rq.L.T("crumbs.home"), "/"}, {rq.L.T("list.all.title"), ""}}}
	meta := pageMeta{Title: rq.L.T("list.all.title"), Description: rq.L.TF("list.all.description", rq.Look.Name)}
	meta.JSONLD = []any{breadcrumbLD(s.baseURL(c), g.Crumbs, "/products/")}
	return s.grid(c, rq, "products", "/products/", g, meta, 0)
}

// search serves GET /search/?q=.
func (s *Shop) search(c *fiber.Ctx, rq *request) error {
	g := gridData{Heading: rq.L.T("list.search.title"), Searching: true}
	if q := strings.TrimSpace(c.Query("q")); q != "" {
		g.Heading = rq.L.TF("list.search.results", q)
	}
	meta := pageMeta{Title: g.Heading, Description: rq.L.TF("list.search.desc", rq.Look.Name)}
	return s.grid(c, rq, "products", "/search/", g, meta, 0)
}

// categoryOf reads the category of the path's :id (not_found for a bad id).
func (s *Shop) categoryOf(c *fiber.Ctx, rq *request) (*app.Category, error) {
	id, err := strconv.ParseUint(c.Params("id"), 10, 64)
	if err != nil || id == 0 {
		return nil, app.NotFound("category")
	}
	return s.svc.Catalog.Category(rq.Store.ID, id)
}

// categoryPath is a category's canonical path.
func categoryPath(cat *app.Category) string {
	return "/categories/" + strconv.FormatUint(cat.ID, 10) + "/" + url.PathEscape(cat.Slug) + "/"
}

// permanent answers 301 to path with the request's query string.
func permanent(c *fiber.Ctx, path string) error {
	if qs := c.Request().URI().QueryString(); len(qs) > 0 {
		path += "?" + string(qs)
	}
	return c.Redirect(path, fiber.StatusMovedPermanently)
}

// categoryRedirect serves GET /categories/{id}/: 301 to the canonical
// path. A slug in place of the id (/categories/shoes/, as a store's
// navigation may link) redirects to the category of that slug.
func (s *Shop) categoryRedirect(c *fiber.Ctx, rq *request) error {
	if _, err := strconv.ParseUint(c.Params("id"), 10, 64); err != nil {
		slug, _ := url.PathUnescape(c.Params("id"))
		cats, err := s.svc.Catalog.Categories(rq.Store.ID)
		if err != nil {
			return err
		}
		if i := slices.IndexFunc(cats, func(cat *app.Category) bool { return cat.Slug == slug }); i >= 0 {
			return permanent(c, categoryPath(cats[i]))
		}
		return app.NotFound("category")
	}
	cat, err := s.categoryOf(c, rq)
	if err != nil {
		return err
	}
	return permanent(c, categoryPath(cat))
}

// category serves GET /categories/{id}/{slug}/ (a wrong slug: 301 to the right one).
func (s *Shop) category(c *fiber.Ctx, rq *request) error {
	cat, err := s.categoryOf(c, rq)
	if err != nil {
		return err
	}
	if slug, _ := url.PathUnescape(c.Params("slug")); slug != cat.Slug {
		return permanent(c, categoryPath(cat))
	}
	path := categoryPath(cat)
	g := gridData{Heading: cat.Name, Intro: cat.Description,
		Crumbs: []crumb{{rq.L.T("crumbs.home"), "/"}, {rq.L.T("crumbs.products"), "/products/"}, {cat.Name, ""}}}
	desc := cmp.Or(cat.Description, rq.L.TF("list.category.desc", cat.Name, rq.Look.Name))
	meta := pageMeta{Title: cat.Name, Description: desc, Image: picture(cat.Image)}
	meta.JSONLD = []any{breadcrumbLD(s.baseURL(c), g.Crumbs, path)}
	return s.grid(c, rq, "category:"+strconv.FormatUint(cat.ID, 10), path, g, meta, cat.ID)
}

// crumb is one step of the breadcrumbs (URL "" : the current page).
type crumb struct{ Label, URL string }

// breadcrumbLD is the BreadcrumbList of crumbs; the last is at self.
func breadcrumbLD(base string, crumbs []crumb, self string) map[string]any {
	items := make([]any, len(crumbs))
	for i, cr := range crumbs {
		items[i] = map[string]any{"@type": "ListItem", "position": i + 1, "name": cr.Label, "item": absURL(base, cmp.Or(cr.URL, self))}
	}
	return map[string]any{"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items}
}

// listView is a page of a list (the blog, the shopper's orders, tickets
// and addresses): its items, the URLs of the next page ("" on the
// last) and of the first (on a later page), and the notice a redirect names.
type listView[T any] struct {
	Items               []T
	Next, First, Notice string
}

// listAfter is a newest-first list of limit after the cursor of scope in
// the query's arg (none: the first page); a stale or forged cursor is no
// page of this site (404).
func (s *Shop) listAfter(c *fiber.Ctx, rq *request, scope, arg string, limit int) (app.ListParams, error) {
	lp := app.ListParams{Sort: app.SortNewest, Limit: limit}
	if cv := c.Query(arg); cv != "" {
		cur, err := s.cursors.Decode(scope, rq.Store.ID, lp.Sort, cv)
		if err != nil {
			return lp, app.NotFound("page")
		}
		lp.After = cur
	}
	return lp, nil
}

// nextURL is prefix with the cursor of scope after next ("" when next is nil).
func (s *Shop) nextURL(rq *request, prefix, scope string, next *app.Cursor) string {
	if next == nil {
		return ""
	}
	return prefix + url.QueryEscape(s.cursors.Encode(scope, rq.Store.ID, next))
}

// reviewsScope is the cursor scope of a product's reviews (the API's).
func reviewsScope(slug string) string { return "reviews:" + slug }

// httpStatus is the status of an app error code.
func httpStatus(err error) int { return httpkit.StatusOf(app.ErrorCode(err)) }
