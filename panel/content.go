package panel

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// The content pages of the panel: blog posts, flash deals and bundles. Each
// is a list (newest first, a page at a time), a form for a new one, an edit
// form with a delete box, like the products pages.

// ---- blog posts ----

// postForm is the blog post form as typed.
type postForm struct {
	ID         uint64
	Title      string
	Slug       string
	Excerpt    string
	Content    string
	CoverImage string
	Author     string
	Tags       string // comma-separated
	Status     string
}

type postData struct {
	Form     postForm
	Post     *app.BlogPost // nil when creating
	Statuses []string
}

func formOfPost(bp *app.BlogPost) postForm {
	return postForm{ID: bp.ID, Title: bp.Title, Slug: bp.Slug, Excerpt: bp.Excerpt, Content: bp.Content,
		CoverImage: bp.CoverImage, Author: bp.Author, Tags: strings.Join(bp.Tags, ", "), Status: bp.Status}
}

// postEditor edits the blog posts.
func (p *panel) postEditor() editor[app.BlogPost, postForm, app.BlogPostInput] {
	cs := p.h.svc.Content
	return editor[app.BlogPost, postForm, app.BlogPostInput]{path: "blog-posts", param: "bpid", noun: "blog post",
		tab: "blog", page: "post", title: "New blog post",
		get: cs.Post, save: cs.SavePost, del: cs.DeletePost, read: readPostForm, formOf: formOfPost,
		blank: func(*fiber.Ctx) postForm { return postForm{Status: app.PostDraft} },
		data: func(_ *view, _ int, form postForm, bp *app.BlogPost) (any, error) {
			return postData{Form: form, Post: bp, Statuses: []string{app.PostDraft, app.PostPublished}}, nil
		},
		key: func(bp *app.BlogPost) (uint64, string) { return bp.ID, bp.Title }, said: quotedSaid("Blog post")}
}

func readPostForm(c *fiber.Ctx, id uint64) (postForm, app.BlogPostInput, error) {
	fv := readForm(c, nil, "title", "slug", "excerpt", "content", "cover_image", "author", "tags", "status")
	f := postForm{ID: id, Title: fv["title"], Slug: fv["slug"], Excerpt: fv["excerpt"], Content: fv["content"],
		CoverImage: fv["cover_image"], Author: fv["author"], Tags: fv["tags"], Status: fv["status"]}
	tags := splitTrim(f.Tags, ",")
	in := app.BlogPostInput{Title: &f.Title, Slug: &f.Slug, Excerpt: &f.Excerpt, Content: &f.Content,
		CoverImage: &f.CoverImage, Author: &f.Author, Tags: &tags, Status: &f.Status}
	return f, in, nil
}

// ---- flash deals ----

// dealTimeLayout is the value of a datetime-local input; the panel reads
// and writes it in UTC.
const dealTimeLayout = "2006-01-02T15:04"

// dealForm is the flash deal form as typed.
type dealForm struct {
	ID        uint64
	Title     string
	ProductID string
	VariantID string
	DealPrice string
	StartsAt  string // datetime-local, UTC
	EndsAt    string
}

type dealRow struct {
	app.FlashDealView
	State string // running, upcoming, ended
}

type dealData struct {
	Form     dealForm
	Deal     *dealRow // nil when creating
	Products []*app.Product
}

// dealState names where now is in the deal's window.
func dealState(d app.FlashDealView, now time.Time) string {
	switch {
	case now.Before(d.StartsAt):
		return "upcoming"
	case now.Before(d.EndsAt):
		return "running"
	}
	return "ended"
}

// dealEditor edits the flash deals.
func (p *panel) dealEditor() editor[dealRow, dealForm, app.FlashDealInput] {
	cs := p.h.svc.Content
	return editor[dealRow, dealForm, app.FlashDealInput]{path: "flash-deals", param: "fdid", noun: "flash deal",
		tab: "deals", page: "deal", title: "New flash deal",
		get: p.dealRow, del: cs.DeleteDeal, read: readDealForm, formOf: formOfDeal, blank: p.newDealForm, data: p.dealData,
		save: func(storeID, id uint64, in app.FlashDealInput) (*dealRow, error) {
			d, err := cs.SaveDeal(storeID, id, in)
			return &dealRow{FlashDealView: d}, err
		},
		key: func(d *dealRow) (uint64, string) { return d.ID, d.Title }, said: quotedSaid("Flash deal")}
}

// dealRow is the deal id with its state now.
func (p *panel) dealRow(storeID, id uint64) (*dealRow, error) {
	d, err := p.h.svc.Content.Deal(storeID, id)
	if err != nil {
		return nil, err
	}
	return &dealRow{FlashDealView: d, State: dealState(d, p.h.svc.Now())}, nil
}

func formOfDeal(d *dealRow) dealForm {
	f := dealForm{ID: d.ID, Title: d.Title, ProductID: strconv.FormatUint(d.ProductID, 10), DealPrice: d.DealPrice.String(),
		StartsAt: d.StartsAt.UTC().Format(dealTimeLayout), EndsAt: d.EndsAt.UTC().Format(dealTimeLayout)}
	if d.VariantID != nil {
		f.VariantID = strconv.FormatUint(*d.VariantID, 10)
	}
	return f
}

// readDealForm reads the form into the service's input; the times are
// datetime-local values taken as UTC.
func readDealForm(c *fiber.Ctx, id uint64) (dealForm, app.FlashDealInput, error) {
	var v app.Validation
	fv := readForm(c, &v, "title", "product_id", "variant_id", "deal_price", "starts_at", "ends_at")
	f := dealForm{ID: id, Title: fv["title"], ProductID: fv["product_id"], VariantID: fv["variant_id"],
		DealPrice: fv["deal_price"], StartsAt: fv["starts_at"], EndsAt: fv["ends_at"]}
	in := app.FlashDealInput{Title: &f.Title}
	productID := fv.ID(&v, "product_id", "must be a product id")
	v.Check(f.ProductID != "", "product_id", "is required")
	variantID := fv.ID(&v, "variant_id", "must be a variant id, or empty for the whole product")
	in.ProductID, in.VariantID = &productID, &variantID
	price := fv.Money(&v, "deal_price", false, "must be an amount like 12.50")
	in.DealPrice = &price
	in.StartsAt = readUTCTime(&v, "starts_at", f.StartsAt)
	in.EndsAt = readUTCTime(&v, "ends_at", f.EndsAt)
	return f, in, v.Err()
}

// readUTCTime turns a datetime-local value (seconds optional) into RFC 3339 UTC.
func readUTCTime(v *app.Validation, field, s string) *string {
	if s == "" {
		v.Add(field, "is required")
		return nil
	}
	for _, layout := range []string{dealTimeLayout, dealTimeLayout + ":05", time.RFC3339} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			out := t.UTC().Format(time.RFC3339)
			return &out
		}
	}
	v.Add(field, "must be a date and time like 2026-12-01T09:00 (UTC)")
	return nil
}

// deals is a page of the store's flash deals with their states now.
func (p *panel) deals(storeID uint64, lp app.ListParams) (app.Page[dealRow], error) {
	page, err := p.h.svc.Content.Deals(storeID, lp)
	now := p.h.svc.Now()
	rows := make([]dealRow, len(page.Items))
	for i, x := range page.Items {
		rows[i] = dealRow{FlashDealView: x, State: dealState(x, now)}
	}
	return app.Page[dealRow]{Items: rows, Next: page.Next}, err
}

// dealProductsShown is how many products the deal form offers to pick from;
// any other is typed by id.
const dealProductsShown = 200

func (p *panel) dealData(v *view, _ int, form dealForm, d *dealRow) (any, error) {
	page, err := p.h.svc.Catalog.AllProducts(v.Store.ID, app.ListParams{Sort: app.SortNewest, Limit: dealProductsShown})
	return dealData{Form: form, Deal: d, Products: page.Items}, err
}

// newDealForm is the form of a new deal (?product_id= preselects): from
// the next full hour, for a day.
func (p *panel) newDealForm(c *fiber.Ctx) dealForm {
	now := p.h.svc.Now().UTC().Truncate(time.Hour).Add(time.Hour)
	return dealForm{ProductID: strings.Clone(c.Query("product_id")),
		StartsAt: now.Format(dealTimeLayout), EndsAt: now.Add(24 * time.Hour).Format(dealTimeLayout)}
}

// ---- bundles ----

// bundleForm is the bundle form as typed.
type bundleForm struct {
	ID          uint64
	Name        string
	Slug        string
	Description string
	Images      string // one URL per line
	Price       string
	IsActive    bool
	Items       string // one "product_id x quantity" (or "product_id/variant_id x quantity") per line
}

type bundleData struct {
	Form       bundleForm
	Bundle     *app.BundleView // nil when creating
	ItemErrors []string        // the service's items[i].field errors, "line i+1: field: message"
}

// bundleEditor edits the bundles.
func (p *panel) bundleEditor() editor[app.BundleView, bundleForm, app.BundleInput] {
	cs := p.h.svc.Content
	return editor[app.BundleView, bundleForm, app.BundleInput]{path: "bundles", param: "buid", noun: "bundle",
		tab: "bundles", page: "bundle", title: "New bundle",
		del: cs.DeleteBundle, read: readBundleForm, formOf: formOfBundle, data: bundlePageData,
		blank: func(*fiber.Ctx) bundleForm { return bundleForm{IsActive: true, Price: "0.00"} },
		get: func(storeID, id uint64) (*app.BundleView, error) {
			b, err := cs.BundleByID(storeID, id)
			return &b, err
		},
		save: func(storeID, id uint64, in app.BundleInput) (*app.BundleView, error) {
			b, err := cs.SaveBundle(storeID, id, in)
			return &b, err
		},
		key: func(b *app.BundleView) (uint64, string) { return b.ID, b.Name }, said: quotedSaid("Bundle")}
}

func formOfBundle(b *app.BundleView) bundleForm {
	f := bundleForm{ID: b.ID, Name: b.Name, Slug: b.Slug, Description: b.Description, Images: strings.Join(b.Images, "\n"),
		Price: b.Price.String(), IsActive: b.IsActive}
	lines := make([]string, len(b.Items))
	for i, it := range b.Items {
		id := strconv.FormatUint(it.ProductID, 10)
		if it.VariantID != nil {
			id += "/" + strconv.FormatUint(*it.VariantID, 10)
		}
		lines[i] = id + " x " + strconv.FormatInt(it.Quantity, 10)
	}
	f.Items = strings.Join(lines, "\n")
	return f
}

// parseBundleItems reads lines "product_id x quantity"; "product_id/variant_id"
// names a variant and a line without "x quantity" is one unit.
func parseBundleItems(v *app.Validation, text string) []app.BundleItem {
	items := []app.BundleItem{}
	var bad []string
	n := 0
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		n++
		item, ok := parseBundleLine(line)
		if !ok {
			bad = append(bad, "line "+strconv.Itoa(n)+" (“"+line+"”)")
			continue
		}
		items = append(items, item)
	}
	if len(bad) > 0 {
		v.Add("items", strings.Join(bad, ", ")+": write product_id x quantity, like 12 x 2, or 12/3 x 2 for variant 3")
	}
	return items
}

func parseBundleLine(line string) (app.BundleItem, bool) {
	it := app.BundleItem{Quantity: 1}
	ids, qty, found := strings.Cut(strings.ToLower(strings.ReplaceAll(line, "×", "x")), "x")
	if found {
		q, err := strconv.ParseInt(strings.TrimSpace(qty), 10, 64)
		if err != nil {
			return it, false
		}
		it.Quantity = q
	}
	pid, vid, hasVariant := strings.Cut(strings.TrimSpace(ids), "/")
	var err error
	if it.ProductID, err = strconv.ParseUint(strings.TrimSpace(pid), 10, 64); err != nil {
		return it, false
	}
	if hasVariant {
		if it.VariantID, err = strconv.ParseUint(strings.TrimSpace(vid), 10, 64); err != nil {
			return it, false
		}
	}
	return it, true
}

func readBundleForm(c *fiber.Ctx, id uint64) (bundleForm, app.BundleInput, error) {
	var v app.Validation
	fv := readForm(c, &v, "name", "slug", "description", "images", "price", "is_active", "items")
	f := bundleForm{ID: id, Name: fv["name"], Slug: fv["slug"], Description: fv["description"], Images: fv["images"],
		Price: fv["price"], IsActive: fv["is_active"] != "", Items: fv["items"]}
	in := app.BundleInput{Name: &f.Name, Slug: &f.Slug, Description: &f.Description, IsActive: &f.IsActive}
	price := fv.Money(&v, "price", false, "must be an amount like 12.50")
	in.Price = &price
	images := splitTrim(f.Images, "\n")
	in.Images = &images
	items := parseBundleItems(&v, f.Items)
	in.Items = &items
	return f, in, v.Err()
}

// bundlePageData is the bundle form's page, with the service's errors of
// its items by line.
func bundlePageData(v *view, _ int, form bundleForm, b *app.BundleView) (any, error) {
	d := bundleData{Form: form, Bundle: b}
	for k, m := range v.Fields {
		if rest, found := strings.CutPrefix(k, "items["); found {
			if i, field, ok := strings.Cut(rest, "]."); ok {
				n, _ := strconv.Atoi(i)
				d.ItemErrors = append(d.ItemErrors, "line "+strconv.Itoa(n+1)+": "+field+" "+m)
			}
		}
	}
	sort.Strings(d.ItemErrors)
	return d, nil
}
