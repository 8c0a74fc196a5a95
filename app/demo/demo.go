package demo

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"time"

	"storefront/app"
)

// AdminPassword is the owner's password in demo mode when admin.password is
// not set: fixed and documented so that `make run` logs in the same way on
// every start. Never use demo mode on a public server.
const AdminPassword = "storefront-demo"

// Subdomain is the demo store's subdomain.
const Subdomain = "demo-shop"

//go:embed demo.json
var raw []byte

// Data is the demo content.
type Data struct {
	Store      app.NewStore    `json:"store"`
	Config     json.RawMessage `json:"config"`
	Categories []CategoryData  `json:"categories"`
	Products   []ProductData   `json:"products"`
	// Shopper is the account the banner prints, to log in as a customer.
	Shopper   app.Registration   `json:"shopper"`
	Reviewers []app.Registration `json:"reviewers"`
	Reviews   []ReviewData       `json:"reviews"`
	BlogPosts []BlogPostData     `json:"blog_posts"`
	Deals     []DealData         `json:"flash_deals"`
	Bundles   []BundleData       `json:"bundles"`
	Coupons   []app.CouponInput  `json:"coupons"`
}

// ReviewData is an approved review by Reviewers[Reviewer]; no Product is a
// review of the store.
type ReviewData struct {
	Reviewer int     `json:"reviewer"`
	Product  string  `json:"product"`
	Rating   float64 `json:"rating"`
	Title    string  `json:"title"`
	Content  string  `json:"content"`
}

// BlogPostData is a published blog post.
type BlogPostData struct {
	Title   string   `json:"title"`
	Slug    string   `json:"slug"`
	Author  string   `json:"author"`
	Tags    []string `json:"tags"`
	Excerpt string   `json:"excerpt"`
	Content string   `json:"content"`
}

// DealData is a flash deal on a product (by slug) running from the seeding
// for Days days.
type DealData struct {
	Title     string    `json:"title"`
	Product   string    `json:"product"`
	DealPrice app.Money `json:"deal_price"`
	Days      int       `json:"days"`
}

// BundleData is a bundle of products by slug; Variant indexes the product's
// variants when it has some (the first by default).
type BundleData struct {
	Name        string    `json:"name"`
	Slug        string    `json:"slug"`
	Description string    `json:"description"`
	Price       app.Money `json:"price"`
	Items       []struct {
		Product  string `json:"product"`
		Variant  int    `json:"variant"`
		Quantity int64  `json:"quantity"`
	} `json:"items"`
}

// CategoryData is one category of the demo.
type CategoryData struct {
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
	Image       string `json:"image"`
}

// ProductData is one product of the demo; Category is a category slug.
type ProductData struct {
	Category string `json:"category"`
	app.ProductInput
}

// Load decodes the embedded demo content.
func Load() (*Data, error) {
	var d Data
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("demo: decode demo.json: %w", err)
	}
	return &d, nil
}

// Result says what Seed did.
type Result struct {
	// Created is true when Seed made the store (the database had none).
	Created bool
	// StoreID is the demo store's id, also when it existed already; 0 when
	// the database has stores but no demo store.
	StoreID uint64
	// APIKey is the new store's key, only when Created (keys are kept hashed).
	APIKey     string
	Categories int
	Products   int
	// Shopper is the demo customer's login (email, password), when Created.
	ShopperEmail, ShopperPassword string
	BlogPosts, Deals, Bundles     int
	Reviews, Coupons              int
}

// Seed creates the demo store when the database has no store at all, and
// otherwise only looks it up: running it on every start is safe. A failure
// half-way leaves what was made (each step is its own transaction); the next
// start sees a store and does not seed again.
func Seed(svc *app.Services) (Result, error) {
	stores, err := svc.Stores.List()
	if err != nil {
		return Result{}, err
	}
	if len(stores) > 0 {
		for _, st := range stores {
			if st.Subdomain == Subdomain {
				return Result{StoreID: st.ID}, nil
			}
		}
		return Result{}, nil
	}
	d, err := Load()
	if err != nil {
		return Result{}, err
	}
	st, key, err := svc.Stores.Create(d.Store)
	if err != nil {
		return Result{}, fmt.Errorf("demo: create store: %w", err)
	}
	res := Result{Created: true, StoreID: st.ID, APIKey: key}
	if err := (&pictures{svc: svc, storeID: st.ID, urls: map[string]string{}}).fill(d); err != nil {
		return res, err
	}
	if _, err := svc.Stores.PatchConfig(st.ID, d.Config); err != nil {
		return res, fmt.Errorf("demo: store config: %w", err)
	}
	catIDs := map[string]uint64{}
	products := map[string]*app.Product{}
	for _, c := range d.Categories {
		cat, err := svc.Catalog.SaveCategory(st.ID, 0, app.CategoryInput{Name: &c.Name, Slug: &c.Slug, Description: &c.Description, Image: &c.Image})
		if err != nil {
			return res, fmt.Errorf("demo: category %q: %w", c.Name, err)
		}
		catIDs[c.Slug] = cat.ID
		res.Categories++
	}
	for _, p := range d.Products {
		id, ok := catIDs[p.Category]
		if !ok {
			return res, fmt.Errorf("demo: product %q: unknown category %q", *p.Name, p.Category)
		}
		in := p.ProductInput
		in.CategoryID = &id
		made, err := svc.Catalog.SaveProduct(st.ID, 0, in)
		if err != nil {
			return res, fmt.Errorf("demo: product %q: %w", *p.Name, err)
		}
		products[made.Slug] = made
		res.Products++
	}
	return res, seedContent(svc, st, d, products, &res)
}

// seedContent adds what shows the rest of the features: a shopper account,
// approved reviews, published blog posts, running flash deals, bundles and a
// coupon.
func seedContent(svc *app.Services, st *app.Store, d *Data, products map[string]*app.Product, res *Result) error {
	s := &contentSeeder{svc: svc, st: st, d: d, products: products, res: res}
	for _, step := range []func() error{s.people, s.reviews, s.posts, s.deals, s.bundles, s.coupons} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// contentSeeder seeds the demo store's content once its products exist.
type contentSeeder struct {
	svc       *app.Services
	st        *app.Store
	d         *Data
	products  map[string]*app.Product
	res       *Result
	reviewers []uint64
}

func (s *contentSeeder) product(slug string) (*app.Product, error) {
	if p, ok := s.products[slug]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("demo: unknown product %q", slug)
}

// people registers the demo shopper and the reviewers.
func (s *contentSeeder) people() error {
	svc, st, d, res := s.svc, s.st, s.d, s.res
	if _, err := svc.Customers.Register(st, d.Shopper); err != nil {
		return fmt.Errorf("demo: shopper: %w", err)
	}
	res.ShopperEmail, res.ShopperPassword = d.Shopper.Email, d.Shopper.Password
	s.reviewers = make([]uint64, len(d.Reviewers))
	for i, r := range d.Reviewers {
		tr, err := svc.Customers.Register(st, r)
		if err != nil {
			return fmt.Errorf("demo: reviewer %s: %w", r.Email, err)
		}
		s.reviewers[i] = tr.Customer.ID
	}
	return nil
}

// reviews submits and approves each review as its reviewer.
func (s *contentSeeder) reviews() error {
	svc, st, reviewers := s.svc, s.st, s.reviewers
	for _, r := range s.d.Reviews {
		if r.Reviewer < 0 || r.Reviewer >= len(reviewers) {
			return fmt.Errorf("demo: review %q: no reviewer %d", r.Title, r.Reviewer)
		}
		in := app.ReviewInput{Rating: &r.Rating, Title: r.Title, Content: r.Content}
		if r.Product != "" {
			p, err := s.product(r.Product)
			if err != nil {
				return err
			}
			in.ProductID = &p.ID
		}
		rv, err := svc.Reviews.Submit(app.Shopper{StoreID: st.ID, CustomerID: reviewers[r.Reviewer]}, in)
		if err != nil {
			return fmt.Errorf("demo: review %q: %w", r.Title, err)
		}
		if _, err := svc.Reviews.Approve(st.ID, rv.ID); err != nil {
			return fmt.Errorf("demo: approve review %q: %w", r.Title, err)
		}
		s.res.Reviews++
	}
	return nil
}

// posts publishes the blog posts.
func (s *contentSeeder) posts() error {
	published := app.PostPublished
	for _, b := range s.d.BlogPosts {
		if _, err := s.svc.Content.SavePost(s.st.ID, 0, app.BlogPostInput{Title: &b.Title, Slug: &b.Slug, Author: &b.Author,
			Tags: &b.Tags, Excerpt: &b.Excerpt, Content: &b.Content, Status: &published}); err != nil {
			return fmt.Errorf("demo: blog post %q: %w", b.Title, err)
		}
		s.res.BlogPosts++
	}
	return nil
}

// deals saves the flash deals, started an hour ago.
func (s *contentSeeder) deals() error {
	now := s.svc.Now().UTC()
	for _, dl := range s.d.Deals {
		p, err := s.product(dl.Product)
		if err != nil {
			return err
		}
		starts := now.Add(-time.Hour).Format(time.RFC3339)
		ends := now.AddDate(0, 0, dl.Days).Format(time.RFC3339)
		if _, err := s.svc.Content.SaveDeal(s.st.ID, 0, app.FlashDealInput{Title: &dl.Title, ProductID: &p.ID, DealPrice: &dl.DealPrice,
			StartsAt: &starts, EndsAt: &ends}); err != nil {
			return fmt.Errorf("demo: flash deal %q: %w", dl.Title, err)
		}
		s.res.Deals++
	}
	return nil
}

// bundles saves the bundles, with the first three images of their products.
func (s *contentSeeder) bundles() error {
	for _, b := range s.d.Bundles {
		items := make([]app.BundleItem, 0, len(b.Items))
		var images []string
		for _, it := range b.Items {
			p, err := s.product(it.Product)
			if err != nil {
				return err
			}
			item := app.BundleItem{ProductID: p.ID, Quantity: it.Quantity}
			if len(p.Variants) > 0 {
				if it.Variant < 0 || it.Variant >= len(p.Variants) {
					return fmt.Errorf("demo: bundle %q: %s has no variant %d", b.Name, it.Product, it.Variant)
				}
				item.VariantID = p.Variants[it.Variant].ID
			}
			items = append(items, item)
			images = append(images, p.Images...)
		}
		images = images[:min(len(images), 3)]
		if _, err := s.svc.Content.SaveBundle(s.st.ID, 0, app.BundleInput{Name: &b.Name, Slug: &b.Slug, Description: &b.Description,
			Images: &images, Items: &items, Price: &b.Price}); err != nil {
			return fmt.Errorf("demo: bundle %q: %w", b.Name, err)
		}
		s.res.Bundles++
	}
	return nil
}

// coupons saves the coupons.
func (s *contentSeeder) coupons() error {
	for _, c := range s.d.Coupons {
		if _, err := s.svc.Coupons.Save(s.st.ID, 0, c); err != nil {
			return fmt.Errorf("demo: coupon: %w", err)
		}
		s.res.Coupons++
	}
	return nil
}
