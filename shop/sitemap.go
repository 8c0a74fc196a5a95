package shop

import (
	"encoding/xml"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// sitemapMax is the most URLs one sitemap file holds (the protocol's
// limit); past it /sitemap.xml is an index of /sitemap-{n}.xml.
var sitemapMax = 50000

// sitemapPaths lists the paths of a store's indexable pages: home, the
// content pages, the blog and its posts, the categories and the products.
func (s *Shop) sitemapPaths(st *app.Store) ([]string, error) {
	paths := []string{"/", "/products/", "/blog/", "/contact/"}
	for _, n := range contentLinks(s.lookOf(st)) {
		paths = append(paths, n.URL)
	}
	cats, err := s.svc.Catalog.Categories(st.ID)
	if err != nil {
		return nil, err
	}
	for _, c := range cats {
		paths = append(paths, categoryPath(c))
	}
	q := app.ProductQuery{ListParams: app.ListParams{Sort: app.SortNewest, Limit: app.ProductsMaxLimit},
		MinPrice: -1, MaxPrice: -1, Light: true, Whole: true}
	for {
		page, err := s.svc.Catalog.Products(st.ID, q)
		if err != nil {
			return nil, err
		}
		cards, err := s.productCards(st.ID, page.Items)
		if err != nil {
			return nil, err
		}
		for _, p := range cards {
			paths = append(paths, productPath(p.Slug))
		}
		if page.Next == nil {
			break
		}
		q.After = page.Next
	}
	lp := app.ListParams{Sort: app.SortNewest, Limit: 100}
	for {
		page, err := s.svc.Content.PublishedPosts(st.ID, lp)
		if err != nil {
			return nil, err
		}
		for _, p := range page.Items {
			paths = append(paths, "/blog/"+url.PathEscape(p.Slug)+"/")
		}
		if page.Next == nil {
			break
		}
		lp.After = page.Next
	}
	return paths, nil
}

// sitemap serves GET /sitemap.xml: a urlset, or past sitemapMax URLs a
// sitemap index of its parts.
func (s *Shop) sitemap(c *fiber.Ctx, st *app.Store) error {
	paths, err := s.sitemapPaths(st)
	if err != nil {
		return err
	}
	base := s.baseURL(c)
	if len(paths) <= sitemapMax {
		return sendXML(c, urlset(base, paths))
	}
	var b strings.Builder
	b.WriteString(xml.Header + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for n := 1; (n-1)*sitemapMax < len(paths); n++ {
		b.WriteString("<sitemap><loc>" + xmlText(base+"/sitemap-"+strconv.Itoa(n)+".xml") + "</loc></sitemap>\n")
	}
	b.WriteString("</sitemapindex>\n")
	return sendXML(c, b.String())
}

// sitemapPart serves GET /sitemap-{n}.xml: the n-th sitemapMax URLs.
func (s *Shop) sitemapPart(c *fiber.Ctx, st *app.Store) error {
	n, err := strconv.Atoi(c.Params("n"))
	if err != nil || n < 1 {
		return s.plainNotFound(c, app.NotFound("sitemap"))
	}
	paths, err := s.sitemapPaths(st)
	if err != nil {
		return err
	}
	from := (n - 1) * sitemapMax
	if len(paths) <= sitemapMax || from >= len(paths) {
		return s.plainNotFound(c, app.NotFound("sitemap"))
	}
	return sendXML(c, urlset(s.baseURL(c), paths[from:min(from+sitemapMax, len(paths))]))
}

func urlset(base string, paths []string) string {
	var b strings.Builder
	b.Grow(len(paths) * (len(base) + 48))
	b.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, p := range paths {
		b.WriteString("<url><loc>" + xmlText(base+p) + "</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

func xmlText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func sendXML(c *fiber.Ctx, body string) error {
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "public, max-age=3600")
	return c.SendString(body)
}
