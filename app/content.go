package app

import (
	"strings"
	"time"
)

// Blog post statuses.
const (
	PostDraft     = "DRAFT"
	PostPublished = "PUBLISHED"
)

// Content limits.
const (
	BlogDefaultLimit  = 20
	BlogMaxLimit      = 100
	MaxPostTags       = 20
	MaxBundleItems    = 20
	MaxBundleImages   = 20
	MaxBundleQuantity = 1000
)

// BlogPost is an article of a store's blog. PublishedAt is set the first time
// the post is published and kept afterwards (also through unpublishing).
type BlogPost struct {
	ID          uint64     `json:"id"`
	StoreID     uint64     `json:"store_id"`
	Title       string     `json:"title"`
	Slug        string     `json:"slug"`
	Excerpt     string     `json:"excerpt"`
	Content     string     `json:"content"`
	CoverImage  string     `json:"cover_image"`
	Author      string     `json:"author"`
	Tags        []string   `json:"tags"`
	Status      string     `json:"status"`
	PublishedAt *time.Time `json:"published_at"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
}

// BlogPostView is a post on the wire; Content is left out of storefront list
// items unless fields names it.
type BlogPostView struct {
	ID          uint64     `json:"id"`
	Title       string     `json:"title"`
	Slug        string     `json:"slug"`
	Excerpt     string     `json:"excerpt"`
	Content     *string    `json:"content,omitempty"`
	CoverImage  *string    `json:"cover_image"`
	Author      string     `json:"author"`
	Tags        []string   `json:"tags"`
	Status      string     `json:"status"`
	PublishedAt *time.Time `json:"published_at"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
}

// View returns the wire form of p, with its content when withContent.
func (p *BlogPost) View(withContent bool) BlogPostView {
	v := BlogPostView{ID: p.ID, Title: p.Title, Slug: p.Slug, Excerpt: p.Excerpt, Author: p.Author,
		Tags: p.Tags, Status: p.Status, CreatedAt: UTC(p.CreatedAt), UpdatedAt: UTC(p.UpdatedAt)}
	if v.Tags == nil {
		v.Tags = []string{}
	}
	if withContent {
		c := p.Content
		v.Content = &c
	}
	if p.CoverImage != "" {
		c := p.CoverImage
		v.CoverImage = &c
	}
	if p.PublishedAt != nil {
		t := UTC(*p.PublishedAt)
		v.PublishedAt = &t
	}
	return v
}

// FlashDeal sells a product (or one variant; VariantID 0 means every unit of
// the product) at DealPrice from StartsAt (inclusive) to EndsAt (exclusive).
type FlashDeal struct {
	ID        uint64    `json:"id"`
	StoreID   uint64    `json:"store_id"`
	Title     string    `json:"title"`
	ProductID uint64    `json:"product_id"`
	VariantID uint64    `json:"variant_id"`
	DealPrice Money     `json:"deal_price"`
	StartsAt  time.Time `json:"starts_at"`
	EndsAt    time.Time `json:"ends_at"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// ActiveAt reports whether the deal runs at now.
func (d *FlashDeal) ActiveAt(now time.Time) bool {
	return !now.Before(d.StartsAt) && now.Before(d.EndsAt)
}

// DealProduct is the product part of a flash deal on the wire.
type DealProduct struct {
	ID     uint64   `json:"id"`
	Name   string   `json:"name"`
	Slug   string   `json:"slug"`
	Images []string `json:"images"`
	Price  Money    `json:"price"`
}

// FlashDealView is a flash deal on the wire. RegularPrice is the product's (or
// variant's) catalog price; Product is null on the admin side when the
// product has been deleted.
type FlashDealView struct {
	ID           uint64       `json:"id"`
	Title        string       `json:"title"`
	ProductID    uint64       `json:"product_id"`
	VariantID    *uint64      `json:"variant_id"`
	Product      *DealProduct `json:"product"`
	RegularPrice Money        `json:"regular_price"`
	DealPrice    Money        `json:"deal_price"`
	StartsAt     time.Time    `json:"starts_at"`
	EndsAt       time.Time    `json:"ends_at"`
	CreatedAt    time.Time    `json:"created_at"`
}

func (d *FlashDeal) view(p *Product) FlashDealView {
	v := FlashDealView{ID: d.ID, Title: d.Title, ProductID: d.ProductID, DealPrice: d.DealPrice,
		StartsAt: UTC(d.StartsAt), EndsAt: UTC(d.EndsAt), CreatedAt: UTC(d.CreatedAt)}
	if d.VariantID != 0 {
		id := d.VariantID
		v.VariantID = &id
	}
	if p != nil {
		images := p.Images
		if images == nil {
			images = []string{}
		}
		v.Product = &DealProduct{ID: p.ID, Name: p.Name, Slug: p.Slug, Images: images, Price: p.Price}
		v.RegularPrice = p.UnitPrice(d.VariantID)
	}
	return v
}

// BundleItem is one product (or variant) of a bundle.
type BundleItem struct {
	ProductID uint64 `json:"product_id"`
	VariantID uint64 `json:"variant_id"`
	Quantity  int64  `json:"quantity"`
}

// Bundle is a curated set of products shown with a bundle price. It is
// ordered as its items at catalog prices (docs/decisions.md).
type Bundle struct {
	ID          uint64       `json:"id"`
	StoreID     uint64       `json:"store_id"`
	Name        string       `json:"name"`
	Slug        string       `json:"slug"`
	Description string       `json:"description"`
	Images      []string     `json:"images"`
	Items       []BundleItem `json:"items"`
	Price       Money        `json:"price"`
	IsActive    bool         `json:"is_active"`
	CreatedAt   time.Time    `json:"created_at"`
	UpdatedAt   time.Time    `json:"updated_at"`
}

// BundleItemView is a bundle item on the wire with its product's name and
// regular unit price.
type BundleItemView struct {
	ProductID uint64  `json:"product_id"`
	VariantID *uint64 `json:"variant_id"`
	Quantity  int64   `json:"quantity"`
	Name      string  `json:"name"`
	UnitPrice Money   `json:"unit_price"`
	// Slug is the product's (the shop links the item to its page).
	Slug string `json:"-"`
}

// BundleView is a bundle on the wire.
type BundleView struct {
	ID           uint64           `json:"id"`
	Name         string           `json:"name"`
	Slug         string           `json:"slug"`
	Description  string           `json:"description"`
	Images       []string         `json:"images"`
	Items        []BundleItemView `json:"items"`
	Price        Money            `json:"price"`
	RegularTotal Money            `json:"regular_total"`
	IsActive     bool             `json:"is_active"`
	CreatedAt    time.Time        `json:"created_at"`
}

// ContentTx is the storage of blog posts, flash deals and bundles. Slugs of
// posts and of bundles are unique per store (conflict otherwise).
type ContentTx interface {
	PutBlogPost(p *BlogPost) error
	BlogPost(storeID, id uint64) (*BlogPost, error)
	// BlogPostBySlug returns a post by slug, whatever its status (not_found).
	BlogPostBySlug(storeID uint64, slug string) (*BlogPost, error)
	// BlogPosts pages every post by id, newest first (admin).
	BlogPosts(storeID uint64, lp ListParams) (Page[*BlogPost], error)
	// PublishedPosts pages the published posts, newest published_at first.
	PublishedPosts(storeID uint64, lp ListParams) (Page[*BlogPost], error)
	DeleteBlogPost(storeID, id uint64) error

	PutFlashDeal(d *FlashDeal) error
	FlashDeal(storeID, id uint64) (*FlashDeal, error)
	// FlashDeals pages every deal by id, newest first (admin).
	FlashDeals(storeID uint64, lp ListParams) (Page[*FlashDeal], error)
	// ActiveFlashDeals pages the deals running at now, soonest end first,
	// keeping those keep accepts.
	ActiveFlashDeals(storeID uint64, now time.Time, lp ListParams, keep func(*FlashDeal) (bool, error)) (Page[*FlashDeal], error)
	// ProductFlashDeals lists every deal (any time) of one product.
	ProductFlashDeals(storeID, productID uint64) ([]*FlashDeal, error)
	DeleteFlashDeal(storeID, id uint64) error

	PutBundle(b *Bundle) error
	Bundle(storeID, id uint64) (*Bundle, error)
	// Bundles pages every bundle by id, newest first (admin).
	Bundles(storeID uint64, lp ListParams) (Page[*Bundle], error)
	// ActiveBundles pages the active bundles, newest first, keeping those keep accepts.
	ActiveBundles(storeID uint64, lp ListParams, keep func(*Bundle) (bool, error)) (Page[*Bundle], error)
	DeleteBundle(storeID, id uint64) error
}

// UnitPriceAt is PriceAt inside a transaction (cart, quote, checkout): the catalog
// price of the product or variant, or the lowest active flash deal on it. A
// deal without a variant covers every variant of its product (never raising
// a variant's price).
func UnitPriceAt(tx clockedContentTx, p *Product, variantID uint64) (Money, error) {
	price := p.UnitPrice(variantID)
	deals, err := tx.ProductFlashDeals(p.StoreID, p.ID)
	if err != nil || len(deals) == 0 {
		return price, err
	}
	return PriceAt(p, variantID, deals, tx.Now()).Unit(), nil
}

// ContentService serves the blog, flash deals and bundles.
type ContentService struct {
	db       Scope[contentData]
	pictures pictures // posts' and bundles' pictures given by URL (media_fetch.go)
}

func newContentService(db DB, p pictures) *ContentService {
	return &ContentService{db: scopeOf(db, func(tx Tx) contentData { return tx }), pictures: p}
}

// PublishedPosts returns a page of published posts.
func (cs *ContentService) PublishedPosts(storeID uint64, lp ListParams) (Page[*BlogPost], error) {
	return view(cs.db, func(tx contentData) (Page[*BlogPost], error) { return tx.PublishedPosts(storeID, lp) })
}

// PublishedPost returns a published post by slug (a draft is not_found).
func (cs *ContentService) PublishedPost(storeID uint64, slug string) (*BlogPost, error) {
	var p *BlogPost
	err := cs.db.View(func(tx contentData) error {
		var err error
		p, err = tx.BlogPostBySlug(storeID, slug)
		if err == nil && p.Status != PostPublished {
			err = NotFound("blog post")
		}
		return err
	})
	return p, err
}

// ActiveDeals returns a page of the deals running now whose product is on
// sale, with their products.
func (cs *ContentService) ActiveDeals(storeID uint64, lp ListParams) (Page[FlashDealView], error) {
	var out Page[FlashDealView]
	err := cs.db.View(func(tx contentData) error {
		products := map[uint64]*Product{}
		keep := func(d *FlashDeal) (bool, error) {
			p, err := tx.Product(storeID, d.ProductID)
			if IsNotFound(err) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			if !p.IsActive || (d.VariantID != 0 && p.Variant(d.VariantID) == nil) {
				return false, nil
			}
			if d.DealPrice >= p.UnitPrice(d.VariantID) {
				return false, nil // the catalog price fell below it: no deal to show
			}
			products[d.ID] = p
			return true, nil
		}
		page, err := tx.ActiveFlashDeals(storeID, tx.Now(), lp, keep)
		if err != nil {
			return err
		}
		out.Next = page.Next
		out.Items = make([]FlashDealView, len(page.Items))
		for i, d := range page.Items {
			out.Items[i] = d.view(products[d.ID])
		}
		return nil
	})
	return out, err
}

// ActiveBundles returns a page of active bundles whose products are all on sale.
func (cs *ContentService) ActiveBundles(storeID uint64, lp ListParams) (Page[BundleView], error) {
	var out Page[BundleView]
	err := cs.db.View(func(tx contentData) error {
		views := map[uint64]BundleView{}
		keep := func(b *Bundle) (bool, error) {
			v, whole, err := bundleView(tx, b)
			if err != nil || !whole {
				return false, err
			}
			views[b.ID] = v
			return true, nil
		}
		page, err := tx.ActiveBundles(storeID, lp, keep)
		if err != nil {
			return err
		}
		out.Next = page.Next
		out.Items = make([]BundleView, len(page.Items))
		for i, b := range page.Items {
			out.Items[i] = views[b.ID]
		}
		return nil
	})
	return out, err
}

// bundleView prices b's items from the catalog; whole is false when an item's
// product or variant is gone or inactive (its name is then empty).
func bundleView(tx CatalogTx, b *Bundle) (BundleView, bool, error) {
	v := BundleView{ID: b.ID, Name: b.Name, Slug: b.Slug, Description: b.Description, Images: b.Images,
		Items: make([]BundleItemView, 0, len(b.Items)), Price: b.Price, IsActive: b.IsActive, CreatedAt: UTC(b.CreatedAt)}
	if v.Images == nil {
		v.Images = []string{}
	}
	whole := true
	for _, it := range b.Items {
		iv := BundleItemView{ProductID: it.ProductID, Quantity: it.Quantity}
		if it.VariantID != 0 {
			id := it.VariantID
			iv.VariantID = &id
		}
		p, err := tx.Product(b.StoreID, it.ProductID)
		switch {
		case IsNotFound(err):
			whole = false
		case err != nil:
			return v, false, err
		case !p.IsActive || (it.VariantID != 0 && p.Variant(it.VariantID) == nil):
			whole = false
		default:
			iv.Name, iv.Slug = p.Name, p.Slug
			if vr := p.Variant(it.VariantID); vr != nil {
				iv.Name += " - " + vr.Name
			}
			iv.UnitPrice = p.UnitPrice(it.VariantID)
			v.RegularTotal += iv.UnitPrice * Money(it.Quantity)
		}
		v.Items = append(v.Items, iv)
	}
	return v, whole, nil
}

// ---- admin side ----

// BlogPostInput creates or patches a post; nil fields stay as they are.
type BlogPostInput struct {
	Title      *string   `json:"title"`
	Slug       *string   `json:"slug"`
	Excerpt    *string   `json:"excerpt"`
	Content    *string   `json:"content"`
	CoverImage *string   `json:"cover_image"`
	Author     *string   `json:"author"`
	Tags       *[]string `json:"tags"`
	Status     *string   `json:"status"`
}

// SavePost creates (id 0) or patches a post.
// Errors: validation_failed, not_found, conflict (slug taken).
func (cs *ContentService) SavePost(storeID, id uint64, in BlogPostInput) (*BlogPost, error) {
	if err := cs.pictures.one(storeID, "cover_image", &in.CoverImage); err != nil {
		return nil, err
	}
	var p *BlogPost
	err := cs.db.Update(func(tx contentData) error {
		p = &BlogPost{StoreID: storeID, Status: PostDraft}
		if id != 0 {
			var err error
			if p, err = tx.BlogPost(storeID, id); err != nil {
				return err
			}
		}
		setStr(&p.Title, in.Title, true)
		setStr(&p.Slug, in.Slug, true)
		p.Slug = SlugOr(p.Slug, p.Title)
		setStr(&p.Excerpt, in.Excerpt, false)
		setStr(&p.Content, in.Content, false)
		setStr(&p.CoverImage, in.CoverImage, true)
		setStr(&p.Author, in.Author, true)
		setStr(&p.Status, in.Status, true)
		if in.Tags != nil {
			p.Tags = make([]string, 0, len(*in.Tags))
			for _, t := range *in.Tags {
				if t = strings.TrimSpace(t); t != "" {
					p.Tags = append(p.Tags, t)
				}
			}
		}
		var v Validation
		v.Text("title", p.Title, true, 200)
		v.Slug(p.Slug)
		v.Text("excerpt", p.Excerpt, false, 1000)
		v.Text("content", p.Content, false, 200000)
		v.Check(p.CoverImage == "" || ValidHTTPURL(p.CoverImage), "cover_image", "must be an http(s) URL")
		v.Text("author", p.Author, false, 100)
		v.Check(len(p.Tags) <= MaxPostTags, "tags", "at most 20 tags")
		for _, t := range p.Tags {
			v.Check(len(t) <= 50, "tags", "each tag at most 50 characters")
		}
		v.OneOf("status", p.Status, PostDraft, PostPublished)
		if err := v.Err(); err != nil {
			return err
		}
		now := UTC(tx.Now())
		if p.ID == 0 {
			p.CreatedAt = now
		}
		if p.Status == PostPublished && p.PublishedAt == nil {
			p.PublishedAt = &now
		}
		p.UpdatedAt = now
		return tx.PutBlogPost(p)
	})
	return p, err
}

// Post returns one post (admin).
func (cs *ContentService) Post(storeID, id uint64) (*BlogPost, error) {
	return view(cs.db, func(tx contentData) (*BlogPost, error) { return tx.BlogPost(storeID, id) })
}

// Posts pages every post of a store, newest first (admin).
func (cs *ContentService) Posts(storeID uint64, lp ListParams) (Page[*BlogPost], error) {
	return view(cs.db, func(tx contentData) (Page[*BlogPost], error) { return tx.BlogPosts(storeID, lp) })
}

// DeletePost removes a post. Errors: not_found.
func (cs *ContentService) DeletePost(storeID, id uint64) error {
	return cs.db.Update(func(tx contentData) error { return tx.DeleteBlogPost(storeID, id) })
}

// FlashDealInput creates or patches a deal; nil fields stay as they are. A
// variant_id of 0 (or null) means the whole product.
type FlashDealInput struct {
	Title     *string `json:"title"`
	ProductID *uint64 `json:"product_id"`
	VariantID *uint64 `json:"variant_id"`
	DealPrice *Money  `json:"deal_price"`
	StartsAt  *string `json:"starts_at"`
	EndsAt    *string `json:"ends_at"`
}

// SaveDeal creates (id 0) or patches a flash deal.
// Errors: validation_failed, not_found.
func (cs *ContentService) SaveDeal(storeID, id uint64, in FlashDealInput) (FlashDealView, error) {
	var out FlashDealView
	err := cs.db.Update(func(tx contentData) error {
		d := &FlashDeal{StoreID: storeID}
		if id != 0 {
			var err error
			if d, err = tx.FlashDeal(storeID, id); err != nil {
				return err
			}
		}
		setStr(&d.Title, in.Title, true)
		setIf(&d.ProductID, in.ProductID)
		setIf(&d.VariantID, in.VariantID)
		setIf(&d.DealPrice, in.DealPrice)
		var v Validation
		parseRequiredTime(&v, "starts_at", in.StartsAt, &d.StartsAt)
		parseRequiredTime(&v, "ends_at", in.EndsAt, &d.EndsAt)
		v.Text("title", d.Title, true, 200)
		if !v.Has("starts_at") && !v.Has("ends_at") {
			v.Check(d.EndsAt.After(d.StartsAt), "ends_at", "must be after starts_at")
		}
		p, err := checkDealProduct(tx, storeID, d, &v)
		if err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		now := UTC(tx.Now())
		if d.ID == 0 {
			d.CreatedAt = now
		}
		d.UpdatedAt = now
		if err := tx.PutFlashDeal(d); err != nil {
			return err
		}
		out = d.view(p)
		return nil
	})
	return out, err
}

func parseRequiredTime(v *Validation, field string, s *string, dst *time.Time) {
	if s == nil {
		if dst.IsZero() {
			v.Add(field, "is required")
		}
		return
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(*s))
	if err != nil {
		v.Add(field, "must be an RFC 3339 timestamp")
		return
	}
	*dst = UTC(t)
}

// Deal returns one deal with its product (admin).
func (cs *ContentService) Deal(storeID, id uint64) (FlashDealView, error) {
	var out FlashDealView
	err := cs.db.View(func(tx contentData) error {
		d, err := tx.FlashDeal(storeID, id)
		if err != nil {
			return err
		}
		out, err = dealView(tx, d)
		return err
	})
	return out, err
}

func dealView(tx CatalogTx, d *FlashDeal) (FlashDealView, error) {
	p, err := tx.Product(d.StoreID, d.ProductID)
	if IsNotFound(err) {
		return d.view(nil), nil
	}
	if err != nil {
		return FlashDealView{}, err
	}
	return d.view(p), nil
}

// Deals pages every deal of a store, newest first (admin).
func (cs *ContentService) Deals(storeID uint64, lp ListParams) (Page[FlashDealView], error) {
	var out Page[FlashDealView]
	err := cs.db.View(func(tx contentData) error {
		page, err := tx.FlashDeals(storeID, lp)
		if err != nil {
			return err
		}
		out.Next = page.Next
		out.Items = make([]FlashDealView, len(page.Items))
		for i, d := range page.Items {
			if out.Items[i], err = dealView(tx, d); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// DeleteDeal removes a deal. Errors: not_found.
func (cs *ContentService) DeleteDeal(storeID, id uint64) error {
	return cs.db.Update(func(tx contentData) error { return tx.DeleteFlashDeal(storeID, id) })
}

// BundleInput creates or patches a bundle; nil fields stay as they are. Items,
// when sent, replace the list.
type BundleInput struct {
	Name        *string       `json:"name"`
	Slug        *string       `json:"slug"`
	Description *string       `json:"description"`
	Images      *[]string     `json:"images"`
	Items       *[]BundleItem `json:"items"`
	Price       *Money        `json:"price"`
	IsActive    *bool         `json:"is_active"`
}

// SaveBundle creates (id 0) or patches a bundle.
// Errors: validation_failed, not_found, conflict (slug taken).
func (cs *ContentService) SaveBundle(storeID, id uint64, in BundleInput) (BundleView, error) {
	if err := cs.pictures.list(storeID, "images", &in.Images); err != nil {
		return BundleView{}, err
	}
	var out BundleView
	err := cs.db.Update(func(tx contentData) error {
		b := &Bundle{StoreID: storeID, IsActive: true}
		if id != 0 {
			var err error
			if b, err = tx.Bundle(storeID, id); err != nil {
				return err
			}
		}
		setStr(&b.Name, in.Name, true)
		setStr(&b.Slug, in.Slug, true)
		b.Slug = SlugOr(b.Slug, b.Name)
		setStr(&b.Description, in.Description, false)
		setIf(&b.Images, in.Images)
		setIf(&b.Items, in.Items)
		setIf(&b.Price, in.Price)
		setIf(&b.IsActive, in.IsActive)
		var v Validation
		v.Text("name", b.Name, true, 200)
		v.Slug(b.Slug)
		v.Text("description", b.Description, false, 20000)
		v.URLs("images", b.Images, MaxBundleImages)
		v.Check(b.Price >= 0 && b.Price <= MaxMoney, "price", "must be between 0.00 and 1000000000.00")
		if err := checkBundleItems(tx, storeID, b.Items, &v); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		now := UTC(tx.Now())
		if b.ID == 0 {
			b.CreatedAt = now
		}
		b.UpdatedAt = now
		if err := tx.PutBundle(b); err != nil {
			return err
		}
		var err error
		out, _, err = bundleView(tx, b)
		return err
	})
	return out, err
}

// BundleByID returns one bundle (admin).
func (cs *ContentService) BundleByID(storeID, id uint64) (BundleView, error) {
	var out BundleView
	err := cs.db.View(func(tx contentData) error {
		b, err := tx.Bundle(storeID, id)
		if err != nil {
			return err
		}
		out, _, err = bundleView(tx, b)
		return err
	})
	return out, err
}

// AllBundles pages every bundle of a store, newest first (admin).
func (cs *ContentService) AllBundles(storeID uint64, lp ListParams) (Page[BundleView], error) {
	var out Page[BundleView]
	err := cs.db.View(func(tx contentData) error {
		page, err := tx.Bundles(storeID, lp)
		if err != nil {
			return err
		}
		out.Next = page.Next
		out.Items = make([]BundleView, len(page.Items))
		for i, b := range page.Items {
			if out.Items[i], _, err = bundleView(tx, b); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// DeleteBundle removes a bundle. Errors: not_found.
func (cs *ContentService) DeleteBundle(storeID, id uint64) error {
	return cs.db.Update(func(tx contentData) error { return tx.DeleteBundle(storeID, id) })
}

// checkDealProduct checks a deal's product, variant and price against the
// catalog into v, and returns the product (nil when unknown or unset).
func checkDealProduct(tx CatalogTx, storeID uint64, d *FlashDeal, v *Validation) (*Product, error) {
	var p *Product
	if d.ProductID == 0 {
		v.Add("product_id", "is required")
	} else {
		var err error
		p, err = tx.Product(storeID, d.ProductID)
		if IsNotFound(err) {
			v.Add("product_id", "unknown product")
		} else if err != nil {
			return nil, err
		}
	}
	if p != nil {
		if d.VariantID != 0 && p.Variant(d.VariantID) == nil {
			v.Add("variant_id", "is not a variant of this product")
		} else if regular := p.UnitPrice(d.VariantID); d.DealPrice < 0 || d.DealPrice >= regular {
			v.Add("deal_price", "must be at least 0.00 and below the regular price "+regular.String())
		}
	} else if d.DealPrice < 0 {
		v.Add("deal_price", "must be at least 0.00")
	}
	return p, nil
}

// checkBundleItems checks a bundle's items (count, quantities, products and
// variants of the store) into v.
func checkBundleItems(tx CatalogTx, storeID uint64, items []BundleItem, v *Validation) error {
	switch {
	case len(items) == 0:
		v.Add("items", "at least one item")
	case len(items) > MaxBundleItems:
		v.Add("items", "at most 20 items")
	default:
		for i, it := range items {
			f := "items[" + itoa(i) + "]."
			v.Check(it.Quantity >= 1 && it.Quantity <= MaxBundleQuantity, f+"quantity", "must be between 1 and 1000")
			p, err := tx.Product(storeID, it.ProductID)
			if IsNotFound(err) || it.ProductID == 0 {
				v.Add(f+"product_id", "unknown product")
				continue
			}
			if err != nil {
				return err
			}
			if it.VariantID != 0 && p.Variant(it.VariantID) == nil {
				v.Add(f+"variant_id", "is not a variant of this product")
			}
		}
	}
	return nil
}

// setIf copies *src into dst when sent (a PATCH field that is not nil).
func setIf[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

// setStr copies *src into dst when sent, trimmed when trim.
func setStr(dst *string, src *string, trim bool) {
	if src == nil {
		return
	}
	if trim {
		*dst = strings.TrimSpace(*src)
		return
	}
	*dst = *src
}
