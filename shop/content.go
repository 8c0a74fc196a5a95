package shop

import (
	"cmp"
	"net/url"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// registerContentRoutes adds the blog, the contact form, the content
// pages, the sitemap and robots.txt.
func (s *Shop) registerContentRoutes(a *fiber.App) {
	a.Get("/blog/", s.cachedPage(s.blog))
	a.Get("/blog/:slug/", s.cachedPage(s.post))
	a.Get("/contact/", s.cachedPage(s.contactPage))
	a.Post("/contact/", s.form(s.contactSubmit, s.contactAgain))
	for _, k := range contentPages {
		a.Get("/"+k+"/", s.cachedPage(s.contentPage(k)))
	}
	a.Get("/robots.txt", s.plain(s.robots))
	a.Get("/sitemap.xml", s.plain(s.sitemap))
	a.Get("/sitemap-:n.xml", s.plain(s.sitemapPart))
}

// blog serves GET /blog/: published posts, newest first, cursor paged (the
// API's blog-posts cursor).
func (s *Shop) blog(c *fiber.Ctx, rq *request) error {
	lp, err := s.listAfter(c, rq, "blog-posts", "cursor", 10)
	if err != nil {
		return err
	}
	page, err := s.svc.Content.PublishedPosts(rq.Store.ID, lp)
	if err != nil {
		return err
	}
	d := listView[*app.BlogPost]{Items: page.Items, Next: s.nextURL(rq, "/blog/?cursor=", "blog-posts", page.Next)}
	if lp.After != nil {
		d.First = "/blog/"
	}
	meta := pageMeta{Title: rq.L.T("blog.title"), Description: rq.L.TF("blog.description", rq.Look.Name), Canonical: "/blog/", NoIndex: lp.After != nil}
	return s.render(c, rq, fiber.StatusOK, "blog", meta, d)
}

// postData is one post.
type postData struct {
	Post       *app.BlogPost
	Paragraphs []string
	Crumbs     []crumb
}

// post serves GET /blog/{slug}/.
func (s *Shop) post(c *fiber.Ctx, rq *request) error {
	slug, _ := url.PathUnescape(c.Params("slug"))
	p, err := s.svc.Content.PublishedPost(rq.Store.ID, slug)
	if err != nil {
		return err
	}
	path := "/blog/" + url.PathEscape(p.Slug) + "/"
	d := postData{Post: p, Paragraphs: paragraphs(p.Content),
		Crumbs: []crumb{{rq.L.T("crumbs.home"), "/"}, {rq.L.T("blog.title"), "/blog/"}, {p.Title, ""}}}
	base := s.baseURL(c)
	meta := pageMeta{Title: p.Title, Description: description(append([]string{p.Excerpt}, d.Paragraphs...)...), Canonical: path, OGType: "article", Image: picture(p.CoverImage)}
	art := map[string]any{"@context": "https://schema.org", "@type": "BlogPosting", "headline": p.Title, "url": base + path}
	if p.PublishedAt != nil {
		art["datePublished"] = p.PublishedAt.UTC().Format(time.RFC3339)
	}
	if p.Author != "" {
		art["author"] = map[string]any{"@type": "Person", "name": p.Author}
	}
	setNonEmpty(art, "image", absURL(base, meta.Image))
	meta.JSONLD = []any{art, breadcrumbLD(base, d.Crumbs, path)}
	return s.render(c, rq, fiber.StatusOK, "post", meta, d)
}

// contentData is one content page.
type contentData struct {
	Title      string
	Paragraphs []string
}

// contentPage serves GET /{key}/ (about, shipping, terms, privacy) when the
// store's config has pages.{key}; 404 otherwise.
func (s *Shop) contentPage(key string) pageFunc {
	return func(c *fiber.Ctx, rq *request) error {
		body := rq.Look.Pages[key]
		if body == "" {
			return app.NotFound("page")
		}
		d := contentData{Title: rq.L.T("page." + key), Paragraphs: paragraphs(body)}
		meta := pageMeta{Title: d.Title, Description: description(d.Paragraphs...), Canonical: "/" + key + "/"}
		return s.render(c, rq, fiber.StatusOK, "content", meta, d)
	}
}

// description is the first of texts that is not empty, as a meta
// description: at most 160 characters.
func description(texts ...string) string {
	desc := cmp.Or(texts...)
	if r := []rune(desc); len(r) > 160 {
		desc = string(r[:157]) + "…"
	}
	return desc
}

// contentLinks are the content pages a store has, for the footer.
func contentLinks(l *look) []navLink {
	var out []navLink
	for _, k := range contentPages {
		if l.Pages[k] != "" {
			out = append(out, navLink{Label: l.L.T("page." + k), URL: "/" + k + "/"})
		}
	}
	return out
}

// plain wraps a text handler (robots.txt, the sitemap): the store by host,
// and a plain 404 where there is no shop.
func (s *Shop) plain(fn func(c *fiber.Ctx, st *app.Store) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		host := c.Hostname()
		st, err := s.svc.Stores.ByHost(s.cfg.Host, host)
		if err != nil {
			return s.plainNotFound(c, err)
		}
		c.Set("X-Content-Type-Options", "nosniff")
		s.setBase(c, st, host)
		return fn(c, st)
	}
}

// robots serves GET /robots.txt: everything but the cart, checkout and
// account pages, and where the sitemap is.
func (s *Shop) robots(c *fiber.Ctx, st *app.Store) error {
	c.Set(fiber.HeaderContentType, fiber.MIMETextPlainCharsetUTF8)
	c.Set(fiber.HeaderCacheControl, "public, max-age=3600")
	return c.SendString("User-agent: *\nDisallow: /cart/\nDisallow: /checkout/\nDisallow: /account/\nDisallow: /orders/\nDisallow: /search/\n\n" +
		"Sitemap: " + s.baseURL(c) + "/sitemap.xml\n")
}
