package web

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (s *Server) registerCatalogRoutes(r fiber.Router) {
	r.Get("/products", s.listProducts)
	r.Get("/products/:slug", s.getProduct)
	r.Get("/categories", s.listCategories)
	r.Get("/categories/:category_id/products", s.listCategoryProducts)
}

// parseProductQuery reads the paging and filter parameters of product lists.
func (s *Server) parseProductQuery(c *fiber.Ctx, scope string) (app.ProductQuery, app.FieldSet, error) {
	lq, err := s.parseList(c, scope, app.ProductSorts, app.ProductsDefaultLimit, app.ProductsMaxLimit)
	if err != nil {
		return app.ProductQuery{}, nil, err
	}
	q := app.ProductQuery{ListParams: lq.ListParams, MinPrice: -1, MaxPrice: -1, Light: !lq.Fields.Wants("variants")}
	var v app.Validation
	if qv := c.Query("q"); qv != "" { // an empty q needs no check (MaxLen allocates its message)
		q.Q = app.FoldText(strings.TrimSpace(qv))
		v.MaxLen("q", q.Q, 100)
		if q.Words = app.QueryWords(q.Q); len(q.Words) == 0 {
			q.Q = "" // no letter or digit: no search
		}
	}
	if q.Sort == app.SortRelevance && q.Q == "" {
		v.Add("sort", "relevance needs q")
	}
	if cv := c.Query("category_id"); cv != "" {
		id, err := strconv.ParseUint(cv, 10, 64)
		v.Check(err == nil && id > 0, "category_id", "must be a positive integer")
		q.CategoryID = id
	}
	q.MinPrice = parsePrice(c, &v, "min_price")
	q.MaxPrice = parsePrice(c, &v, "max_price")
	switch strings.ToLower(c.Query("in_stock")) {
	case "", "false", "0":
	case "true", "1":
		q.InStock = true
	default:
		v.Add("in_stock", "must be true or false")
	}
	return q, lq.Fields, v.Err()
}

// parsePrice reads an optional non-negative amount; -1 when absent.
func parsePrice(c *fiber.Ctx, v *app.Validation, name string) app.Money {
	pv := c.Query(name)
	if pv == "" {
		return -1
	}
	m, err := app.ParseMoney(pv)
	v.Check(err == nil && m >= 0, name, "must be a non-negative amount")
	return m
}

// listProducts serves GET /api/v1/business/website/products/.
func (s *Server) listProducts(c *fiber.Ctx) error {
	q, fs, err := s.parseProductQuery(c, "products")
	if err != nil {
		return err
	}
	deals, err := s.svc.Catalog.Deals(store(c).ID)
	if err != nil {
		return err
	}
	heavy := s.heavyProductFields(c, fs)
	if heavy == nil {
		// written out inside the read transaction, from the database's own
		// bytes: a page allocates no copy of its docs; with no fields= each
		// doc goes out whole (PostgreSQL then ships the JSON objects alone)
		q.Whole = fs == nil
		none := false
		err := s.svc.Catalog.WithProducts(store(c).ID, q, func(page app.Page[app.Doc]) error {
			if none = searchFoundNothing(q, page); none {
				return nil // sent with its suggestions, outside the transaction
			}
			return s.sendDocs(c, "products", page, deals, fs, nil, nil)
		})
		if err != nil || !none {
			return err
		}
		return s.sendSuggestions(c, q, fs)
	}
	// the reviews are read in transactions of their own: the page is copied first
	page, err := s.svc.Catalog.Products(store(c).ID, q)
	if err != nil {
		return err
	}
	if searchFoundNothing(q, page) {
		return s.sendSuggestions(c, q, fs)
	}
	return s.sendDocs(c, "products", page, deals, fs, nil, heavy)
}

// searchFoundNothing reports whether page is the empty first page of a search.
func searchFoundNothing(q app.ProductQuery, page app.Page[app.Doc]) bool {
	return q.Q != "" && q.After == nil && len(page.Items) == 0
}

// sendSuggestions sends the empty first page of a search with its
// suggestions beside the items: the names of the closest products
// (app.CatalogService.DidYouMean; "Did you mean ...").
func (s *Server) sendSuggestions(c *fiber.Ctx, q app.ProductQuery, fs app.FieldSet) error {
	hints, err := s.svc.Catalog.DidYouMean(store(c).ID, q.Words)
	if err != nil {
		return err
	}
	names := make([]string, len(hints))
	for i, h := range hints {
		names[i] = h.Name
	}
	return s.sendDocs(c, "products", app.Page[app.Doc]{}, nil, fs, map[string]any{"suggestions": names}, nil)
}

// listCategoryProducts serves GET /api/v1/business/website/categories/{id}/products/.
func (s *Server) listCategoryProducts(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "category_id", "category")
	if err != nil {
		return err
	}
	scope := "category:" + strconv.FormatUint(id, 10)
	q, fs, err := s.parseProductQuery(c, scope)
	if err != nil {
		return err
	}
	deals, err := s.svc.Catalog.Deals(store(c).ID)
	if err != nil {
		return err
	}
	cat, page, err := s.svc.Catalog.CategoryProducts(store(c).ID, id, q)
	if err != nil {
		return err
	}
	return s.sendDocs(c, scope, page, deals, fs, map[string]any{"category": app.CategoryRef{ID: cat.ID, Name: cat.Name}}, s.heavyProductFields(c, fs))
}

// heavyProductFields returns the writer for fields=...variants/reviews, or nil
// when no heavy field is asked (the fast path copies stored bytes).
func (s *Server) heavyProductFields(c *fiber.Ctx, fs app.FieldSet) func(app.Doc, []byte) ([]byte, error) {
	if !fs.Wants("reviews") {
		return nil
	}
	sid := store(c).ID
	return func(d app.Doc, b []byte) ([]byte, error) {
		b, err := d.AppendJSON(b, fs)
		if err != nil {
			return nil, err
		}
		id, err := docID(d)
		if err != nil {
			return nil, err
		}
		reviews, err := s.svc.Reviews.RecentJSON(sid, id, 5)
		if err != nil {
			return nil, err
		}
		return appendMember(b, "reviews", reviews), nil
	}
}

func docID(d app.Doc) (uint64, error) {
	b, err := d.AppendJSON(nil, app.FieldSet{})
	if err != nil {
		return 0, err
	}
	s := strings.TrimSuffix(strings.TrimPrefix(string(b), `{"id":`), "}")
	return strconv.ParseUint(s, 10, 64)
}

// getProduct serves GET /api/v1/business/website/products/{slug}/: the
// product with its variants always.
func (s *Server) getProduct(c *fiber.Ctx) error {
	fs := httpkit.ParseFields(c)
	if fs == nil { // the whole detail: from the catalog's detail cache
		return s.svc.Catalog.WithProductDetail(store(c).ID, c.Params("slug"), func(detail []byte) error {
			return httpkit.SendRaw(c, fiber.StatusOK, "", detail)
		})
	}
	deals, err := s.svc.Catalog.Deals(store(c).ID)
	if err != nil {
		return err
	}
	if fs.Wants("reviews") {
		// the reviews are read in a transaction of their own: the doc is copied first
		d, err := s.svc.Catalog.ProductDocBySlug(store(c).ID, c.Params("slug"))
		if err != nil {
			return err
		}
		return s.sendProduct(c, d, deals, fs)
	}
	// written out inside the read transaction, from the database's own bytes
	return s.svc.Catalog.WithProductBySlug(store(c).ID, c.Params("slug"), func(d app.Doc) error {
		return s.sendProduct(c, d, deals, fs)
	})
}

// sendProduct writes the fields asked for of a product's detail: the envelope and the doc are
// written into a pooled buffer, then copied into the response's own (pooled)
// body, so a response allocates nothing.
func (s *Server) sendProduct(c *fiber.Ctx, d app.Doc, deals *app.LiveDeals, fs app.FieldSet) error {
	bp := docBufs.Get().(*[]byte)
	b, err := s.appendProduct(append((*bp)[:0], httpkit.OKPrefix...), c, d, fs)
	if err == nil {
		b, err = deals.AppendDeal(b, len(httpkit.OKPrefix), d, fs)
	}
	if err == nil {
		c.Status(fiber.StatusOK)
		httpkit.SetJSON(c)
		b = append(b, '}')
		c.Response().SetBody(b)
	}
	if cap(b) <= 1<<20 {
		*bp = b[:0]
		docBufs.Put(bp)
	}
	return err
}

// appendProduct appends the fields of the product's detail asked for (with
// its recent reviews when named) to b; the whole detail is
// CatalogService.WithProductDetail's.
func (s *Server) appendProduct(b []byte, c *fiber.Ctx, d app.Doc, fs app.FieldSet) ([]byte, error) {
	var err error
	if b, err = d.AppendJSON(b, fs); err != nil || !fs.Wants("reviews") {
		return b, err
	}
	id, err := docID(d)
	if err != nil {
		return b, err
	}
	reviews, err := s.svc.Reviews.RecentJSON(store(c).ID, id, 5)
	if err != nil {
		return b, err
	}
	return appendMember(b, "reviews", reviews), nil
}

type categoryView struct {
	ID          uint64  `json:"id"`
	Name        string  `json:"name"`
	Slug        string  `json:"slug"`
	Description string  `json:"description"`
	Image       string  `json:"image"`
	ParentID    *uint64 `json:"parent_id"`
}

func viewCategory(cat *app.Category) any {
	v := categoryView{ID: cat.ID, Name: cat.Name, Slug: cat.Slug, Description: cat.Description, Image: cat.Image}
	if cat.ParentID != 0 {
		p := cat.ParentID
		v.ParentID = &p
	}
	return v
}

// listCategories serves GET /api/v1/business/website/categories/ (a small complete set).
func (s *Server) listCategories(c *fiber.Ctx) error {
	cats, err := s.svc.Catalog.Categories(store(c).ID)
	if err != nil {
		return err
	}
	return httpkit.SendAll(c, cats, viewCategory)
}

// appendMember adds "name":raw to the JSON object that ends b. The object is
// never empty: docs always carry id.
func appendMember(b []byte, name string, raw []byte) []byte {
	b = append(b[:len(b)-1], ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	b = append(b, raw...)
	return append(b, '}')
}
