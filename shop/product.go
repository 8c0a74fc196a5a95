package shop

import (
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/i18n"
	"storefront/httpkit/pagekit"
)

// The product page: gallery, variants, add to cart, reviews.

// productData is what the product page shows.
type productData struct {
	P          *app.Product
	Path       string
	Category   *app.Category
	Paragraphs []string
	Gallery    []galleryImage
	// Groups are the variant picker's option groups; VariantData what
	// shop.js knows of each variant (variants.go).
	Groups      []optionGroup
	VariantData []variantView
	Stock       int64
	Price       app.Price // the product's (app.PriceAt): what the cart charges is Price.Unit()
	Was         app.Money // struck through (app.Price.Was)
	Summary     app.SummaryView
	Reviews     []app.ReviewView
	NextReview  string // the next page of reviews ("" : none)
	FirstPage   string // the first page of reviews when on a later one
	Crumbs      []crumb
	Review      reviewForm
	Sent        bool // a review was just sent
}

// galleryImage is one image of the gallery: Src the largest rendition
// (the full-size view links to it), Thumb the smallest.
type galleryImage struct {
	Src, SrcSet, Thumb, Alt string
	N                       int // its place, from 1
	Eager                   bool
}

// reviewForm is the review form as typed, with its messages.
type reviewForm struct {
	Rating, Title, Content string
	Errors                 map[string]string
	Message                string // a message for the whole form
}

// Stars are the rating choices, 5 down to 1.
func (reviewForm) Stars() []int { return []int{5, 4, 3, 2, 1} }

// InStock reports whether any unit can be bought.
func (d productData) InStock() bool { return d.Stock > 0 }

// LowStock reports a stock small enough to say so (1..5).
func (d productData) LowStock() bool { return d.Stock > 0 && d.Stock <= 5 }

// productPath is a product's canonical path.
func productPath(slug string) string { return "/products/" + url.PathEscape(slug) + "/" }

// loadProduct reads the product page's data: the product, its category
// and a page of its approved reviews (from ?reviews=, the API's cursor).
func (s *Shop) loadProduct(c *fiber.Ctx, rq *request, slug string) (*productData, error) {
	lp, err := s.listAfter(c, rq, reviewsScope(slug), "reviews", 10)
	if err != nil {
		return nil, err
	}
	deals, err := s.svc.Catalog.Deals(rq.Store.ID)
	if err != nil {
		return nil, err
	}
	p, page, sum, err := s.svc.Reviews.ProductReviews(rq.Store.ID, slug, lp)
	if err != nil {
		return nil, err
	}
	d := &productData{P: p, Path: productPath(p.Slug), Stock: p.AvailableStock(), Summary: sum.View(), Price: deals.PriceOf(p, 0)}
	if p.CategoryID != 0 {
		if cat, err := s.svc.Catalog.Category(rq.Store.ID, p.CategoryID); err == nil {
			d.Category = cat
		} else if app.ErrorCode(err) != app.ENotFound {
			return nil, err
		}
	}
	d.Crumbs = []crumb{{rq.L.T("crumbs.home"), "/"}, {rq.L.T("crumbs.products"), "/products/"}}
	if d.Category != nil {
		d.Crumbs = append(d.Crumbs, crumb{d.Category.Name, categoryPath(d.Category)})
	}
	d.Crumbs = append(d.Crumbs, crumb{p.Name, ""})
	fillProduct(rq.L, d, deals, rq.Look.Currency)
	d.Was = d.Price.Was()
	for _, raw := range page.Items {
		var r app.ReviewView
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, err
		}
		d.Reviews = append(d.Reviews, r)
	}
	if page.Next != nil {
		d.NextReview = s.nextURL(rq, d.Path+"?reviews=", reviewsScope(slug), page.Next) + "#reviews"
	}
	if lp.After != nil {
		d.FirstPage = d.Path + "#reviews"
	}
	return d, nil
}

// fillProduct sets what the page shows of d.P: its description's
// paragraphs, its gallery and its variant choices at their prices now;
// the price and stock shown are then the chosen variant's (fillPicker).
func fillProduct(l *i18n.Catalog, d *productData, deals *app.LiveDeals, currency string) {
	p := d.P
	d.Paragraphs = paragraphs(p.Description)
	images := slices.Clone(p.Images)
	for _, v := range p.Variants { // a variant's own picture joins the gallery
		if v.Image != "" && !slices.Contains(images, v.Image) {
			images = append(images, v.Image)
		}
	}
	for i, u := range images {
		if u = picture(u); u != "" {
			alt := p.ImageAlts[images[i]]
			if alt == "" {
				alt = l.TF("product.image", len(d.Gallery)+1, p.Name)
			}
			d.Gallery = append(d.Gallery, galleryImage{Src: u, SrcSet: srcset(u), Thumb: thumbURL(u), N: len(d.Gallery) + 1, Eager: len(d.Gallery) == 0, Alt: alt})
		}
	}
	fillPicker(l, d, deals, currency)
}

// shotOf is the index of the gallery's image u (-1: none).
func (d *productData) shotOf(u string) int {
	u = picture(u)
	return slices.IndexFunc(d.Gallery, func(g galleryImage) bool { return u != "" && g.Src == u })
}

// variantLabel is a variant's choice: its name, and its price when it
// differs from the product's.
func variantLabel(lang *i18n.Catalog, v app.Variant, price app.Money, currency string, base app.Money) string {
	l := v.Name
	if price != base {
		l += " – " + lang.Money(int64(price), currency)
	}
	if v.Stock <= 0 {
		l += " (" + lang.T("product.outstock") + ")"
	}
	return l
}

// paragraphs splits text at blank lines.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// product serves GET /products/{slug}/.
func (s *Shop) product(c *fiber.Ctx, rq *request) error {
	slug, _ := url.PathUnescape(c.Params("slug"))
	d, err := s.loadProduct(c, rq, slug)
	if err != nil {
		return err
	}
	d.Sent = c.Query("review") == "sent"
	return s.renderProduct(c, rq, fiber.StatusOK, d)
}

// renderProduct writes the product page with its head: canonical URL,
// OpenGraph product tags and the Product and BreadcrumbList JSON-LD.
func (s *Shop) renderProduct(c *fiber.Ctx, rq *request, status int, d *productData) error {
	p := d.P
	desc := description(p.Description, p.Name+" – "+rq.L.Money(int64(d.Price.Unit()), rq.Look.Currency))
	meta := pageMeta{Title: p.Name, Description: strings.Join(strings.Fields(desc), " "), Canonical: d.Path, OGType: "product",
		NoIndex: c.Query("reviews") != ""}
	if len(d.Gallery) > 0 {
		meta.Image = d.Gallery[0].Src
	}
	meta.OG = []metaTag{{"product:price:amount", d.Price.Unit().String()}, {"product:price:currency", rq.Look.Currency}}
	base := s.baseURL(c)
	meta.JSONLD = []any{s.productLD(base, rq, d), breadcrumbLD(base, d.Crumbs, d.Path)}
	return s.render(c, rq, status, "product", meta, d)
}

// productLD is the Product JSON-LD: its brand, its Offer (with shipping and
// return details: product_ld.go), and its AggregateRating when it has
// approved reviews.
func (s *Shop) productLD(base string, rq *request, d *productData) map[string]any {
	p := d.P
	avail := "https://schema.org/OutOfStock"
	if d.InStock() {
		avail = "https://schema.org/InStock"
	}
	offer := map[string]any{"@type": "Offer", "price": d.Price.Unit().String(), "priceCurrency": rq.Look.Currency,
		"availability": avail, "url": base + d.Path}
	if d.Price.OnDeal { // the price the cart charges, and until when
		offer["priceValidUntil"] = d.Price.DealEnds.Format(time.RFC3339)
	}
	set := rq.Store.Settings()
	if ship := shippingLD(set, d.Price.Unit(), rq.Look.Currency); ship != nil {
		offer["shippingDetails"] = ship
	}
	if ret := returnPolicyLD(base, set, rq.Look); ret != nil {
		offer["hasMerchantReturnPolicy"] = ret
	}
	ld := map[string]any{"@context": "https://schema.org", "@type": "Product", "name": p.Name,
		"url": base + d.Path, "sku": strconv.FormatUint(p.ID, 10), "offers": offer, "brand": brandLD(rq.Look)}
	if p.Description != "" {
		ld["description"] = p.Description
	}
	var imgs []string
	for _, g := range d.Gallery {
		imgs = append(imgs, absURL(base, g.Src))
	}
	if len(imgs) > 0 {
		ld["image"] = imgs
	}
	if d.Category != nil {
		ld["category"] = d.Category.Name
	}
	if d.Summary.TotalReviews > 0 {
		ld["aggregateRating"] = map[string]any{"@type": "AggregateRating", "ratingValue": d.Summary.AverageRating,
			"reviewCount": d.Summary.TotalReviews, "bestRating": 5, "worstRating": 1}
	}
	return ld
}

// submitReview serves POST /products/{slug}/reviews: the signed-in
// shopper's review (ReviewService.Submit, as the API's POST reviews/); a
// refused one shows the page again with the messages and the values.
func (s *Shop) submitReview(c *fiber.Ctx, rq *request) error {
	slug, _ := url.PathUnescape(c.Params("slug"))
	if rq.Customer == nil {
		return redirect(c, "/account/login/?next="+url.QueryEscape(productPath(slug)))
	}
	form, err := decodeReviewForm(c.Body())
	if err != nil {
		return err
	}
	d, err := s.loadProduct(c, rq, slug)
	if err != nil {
		return err
	}
	in := app.ReviewInput{ProductID: &d.P.ID, Title: form.Title, Content: form.Content}
	if r, err := strconv.Atoi(form.Rating); err == nil {
		f := float64(r)
		in.Rating = &f
	}
	_, err = s.svc.Reviews.Submit(rq.shopper(), in)
	if err == nil {
		return redirect(c, d.Path+"?review=sent#reviews")
	}
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Code == app.ENotFound {
		return err
	}
	form.Errors = map[string]string{}
	switch ae.Code {
	case app.EValidation:
		for f, m := range ae.Fields {
			form.Errors[f] = sentence(fieldText(rq.L, m))
		}
		if _, ok := ae.Fields["rating"]; ok {
			form.Errors["rating"] = rq.L.T("review.err.rating")
		}
	case app.EConflict:
		form.Message = rq.L.T("review.err.dup")
	case app.EEmailNotVerified:
		form.Message = rq.L.T("review.err.verify")
	default:
		return err
	}
	d.Review = form
	return s.renderProduct(c, rq, httpStatus(err), d)
}

// reviewFields are the review form's fields, clipped (the service
// checks them with the API's rules).
var reviewFields = []pagekit.Field{{Name: "rating", Max: 1, Clip: true}, {Name: "title", Max: app.MaxReviewTitle, Clip: true},
	{Name: "content", Max: app.MaxReviewContent, Clip: true}}

// decodeReviewForm reads the review form's fields, bounded.
func decodeReviewForm(body []byte) (reviewForm, error) {
	f, err := pagekit.DecodeForm(body, maxTextForm, reviewFields)
	return reviewForm{Rating: f["rating"], Title: f["title"], Content: f["content"]}, err
}
