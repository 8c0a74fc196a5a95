package panel

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

type productRow struct {
	*app.Product
	Category  string
	Available int64 // stock on the wire: the variants' sum when there are variants
	Thumb     string
	Alt       string // the owner's alt text of the first image, "" when none
	Low       bool
}

type productsData struct {
	Rows       []productRow
	Categories []*app.Category
	Q, Status  string
	Sort       string
	Category   uint64 // the category filter (0: all)
	Total      int
	numbered
	Back     string // this page's URL, where a bulk action returns
	Statuses []option
	Sorts    []option
}

var productStatuses = []option{{"", "All"}, {"active", "Active"}, {"inactive", "Hidden"}, {"low", "Low stock"}}
var productSorts = []option{{"newest", "Newest"}, {"name", "Name"}, {"price", "Price"}, {"stock", "Stock"}}

// productsPage serves GET /admin/stores/{id}/products/?q=&status=&category=&sort=&page=:
// every product, searched (each word begins a word of the name, slug or a
// SKU), filtered by status and category and sorted, 25 a page. status=low
// is the low-stock view (at or below each product's threshold).
func (p *panel) productsPage(c *fiber.Ctx, v *view) error {
	st := v.Store
	q := app.AdminProductQuery{Q: strings.TrimSpace(c.Query("q")), Status: c.Query("status"), Sort: c.Query("sort"), Limit: panelPageSize}
	page, err := readPage(c, "must be 1 or more")
	if err != nil {
		return err
	}
	if s := c.Query("category"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return app.Invalid("category", "must be a category id")
		}
		q.CategoryID = n
	}
	q.Offset = (page - 1) * panelPageSize
	res, err := p.h.svc.Catalog.AdminProducts(st.ID, q)
	if err != nil {
		return err
	}
	cats, err := p.categoriesData(st.ID, app.Category{})
	if err != nil {
		return err
	}
	if q.Sort == "" {
		q.Sort = "newest"
	}
	d := productsData{Q: strings.Clone(q.Q), Status: strings.Clone(q.Status), Sort: strings.Clone(q.Sort), Category: q.CategoryID, Total: res.Total,
		Categories: cats.Categories, Statuses: productStatuses, Sorts: productSorts}
	base, params := storePath(st, "products/"), d.params()
	d.Back, d.numbered = pageLink(base, params, page), numberedPages(base, params, page, res.Total, panelPageSize)
	for _, pr := range res.Items {
		row := productRow{Product: pr, Category: cats.Names[pr.CategoryID], Available: pr.AvailableStock(), Low: pr.LowStock()}
		if len(pr.Images) > 0 {
			row.Thumb, row.Alt = thumbOf(st.ID, pr.Images[0]), pr.ImageAlts[pr.Images[0]]
		}
		d.Rows = append(d.Rows, row)
	}
	v.Title, v.Tab, v.Data = "Products", "products", d
	if q.Status == "low" {
		v.Title = "Low stock"
	}
	return p.render(c, fiber.StatusOK, "products", v)
}

// params are the filters of the list d shows, as in its links.
func (d *productsData) params() url.Values {
	vals := url.Values{}
	if d.Q != "" {
		vals.Set("q", d.Q)
	}
	if d.Status != "" {
		vals.Set("status", d.Status)
	}
	if d.Category != 0 {
		vals.Set("category", strconv.FormatUint(d.Category, 10))
	}
	if d.Sort != "newest" {
		vals.Set("sort", d.Sort)
	}
	return vals
}

// bulkProducts serves POST /admin/stores/{id}/products/bulk/ {ids, action,
// category_id, stock_delta, back}: one action on the ticked products, all or
// nothing.
func (p *panel) bulkProducts(c *fiber.Ctx, v *view) error {
	var ids []uint64
	for _, raw := range c.Request().PostArgs().PeekMulti("ids") {
		id, err := strconv.ParseUint(string(raw), 10, 64)
		if err != nil || id == 0 {
			return app.Invalid("ids", "bad product id")
		}
		ids = append(ids, id)
	}
	var bad app.Validation
	fv := readForm(c, &bad, "action", "category_id", "stock_delta")
	a := app.BulkAction{Kind: fv["action"]}
	a.CategoryID, _ = strconv.ParseUint(fv["category_id"], 10, 64)
	a.StockDelta = fv.Int(&bad, "stock_delta", 0, math.MinInt64, math.MaxInt64, "must be a whole number like 5 or -2")
	if err := bad.Err(); err != nil {
		return p.bulkDone(c, v, nil, err)
	}
	n, err := p.h.svc.Catalog.BulkProducts(v.Store.ID, ids, a)
	return p.bulkDone(c, v, &n, err)
}

func (p *panel) bulkDone(c *fiber.Ctx, v *view, n *int, err error) error {
	back := readForm(c, nil, "back")["back"]
	if !strings.HasPrefix(back, storePath(v.Store, "products/")) || strings.ContainsAny(back, "\r\n\\") {
		back = storePath(v.Store, "products/")
	}
	if err != nil {
		if httpStatus := p.formError(c, v, err); httpStatus >= 500 {
			return err
		}
		msg := v.Error
		for k, m := range v.Fields {
			msg += " " + k + ": " + m
		}
		return p.redirect(c, v, back, &flash{Kind: "error", Message: msg})
	}
	word := " products"
	if *n == 1 {
		word = " product"
	}
	return p.redirect(c, v, back, ok1(strconv.Itoa(*n)+word+" updated."))
}
