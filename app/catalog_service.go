package app

import (
	"strconv"
	"strings"
	"sync"
	"time"
)

// CategoryCacheTTL is how long a category page (and on a shared database a
// product list) is served from memory.
const CategoryCacheTTL = 5 * time.Minute

// pageCacheBytes bounds the category pages kept (about 700 pages of 24 full
// products), whatever the filters and searches asked for.
const pageCacheBytes = 16 << 20

// CatalogService serves the catalog to shoppers and manages it for admins.
type CatalogService struct {
	s catalogDeps
	// Images fetches pictures given by URL (media_fetch.go); nil: URLs are
	// stored as they are given. main and testenv set it.
	Images ImageFetcher

	mu    sync.Mutex
	gen   map[uint64]uint64 // store id -> catalog generation, bumped on every write
	pages SizedCache[pageKey, cachedPage]
	// details are the cached product details (detail_cache.go).
	details SizedCache[detailKey, cachedDetail]
	epoch   uint64 // bumped by changedAll (catalogGen)
	// dealGen and deals are each store's deal generation, bumped on every
	// deal write, and its deals (deal_cache.go).
	dealGen map[uint64]uint64
	deals   map[uint64]*storeDeals
}

// pageKey is a cached page's: its store, pageQuery, and whether it is a
// product list (Products) rather than a category page (with its category).
type pageKey struct {
	store uint64
	query string
	list  bool
}

type cachedPage struct {
	gen     catalogGen // the store's catalog generation it was read at
	cat     *Category
	page    Page[Doc]
	expires time.Time
}

// pageSize is about the memory a cached page holds: its docs, its key and
// the category's name.
func pageSize(k pageKey, p cachedPage) int {
	n := len(k.query) + 256
	if p.cat != nil {
		n += len(p.cat.Name) + len(p.cat.Description)
	}
	for _, d := range p.page.Items {
		n += len(d)
	}
	return n
}

func newCatalogService(d catalogDeps) *CatalogService {
	return &CatalogService{s: d, gen: map[uint64]uint64{}, dealGen: map[uint64]uint64{}, deals: map[uint64]*storeDeals{},
		pages:   NewSizedCache(pageCacheBytes, pageSize),
		details: NewSizedCache(detailCacheBytes, func(_ detailKey, d cachedDetail) int { return len(d.json) })}
}

// Products returns a page of a store's active products. On a shared
// database (PostgreSQL) a first page is cached like a category page; a later
// one (a cursor: a crawler, the sitemap walking the catalog) is read, so that
// walks do not push the hot pages out.
func (cs *CatalogService) Products(storeID uint64, q ProductQuery) (Page[Doc], error) {
	q.Borrow = false // the page outlives the transaction
	if cs.s.cacheLists && q.After == nil {
		_, page, err := cs.cachedPage(pageKey{storeID, pageQuery(q), true}, func(tx Tx) (*Category, Page[Doc], error) {
			page, err := tx.ProductDocs(storeID, q)
			return nil, page, err
		})
		return page, err
	}
	return view(cs.s.DB, func(tx Tx) (Page[Doc], error) { return tx.ProductDocs(storeID, q) })
}

// WithProducts calls fn with a page of a store's active products inside the
// read transaction. The docs may point into the database's memory (nothing
// copied: ProductQuery.Borrow) and are valid only until fn returns, so fn
// writes them out and keeps nothing; it must not open a transaction of its
// own (bbolt: a read inside a read can deadlock with a writer remapping).
// On a shared database the page comes from Products (cached), and fn runs
// outside any transaction.
func (cs *CatalogService) WithProducts(storeID uint64, q ProductQuery, fn func(Page[Doc]) error) error {
	if cs.s.cacheLists { // copied (and a first page cached) by Products
		page, err := cs.Products(storeID, q)
		if err != nil {
			return err
		}
		return fn(page)
	}
	q.Borrow = true
	return cs.s.DB.View(func(tx Tx) error {
		pg, err := tx.ProductDocs(storeID, q)
		if err != nil {
			return err
		}
		return fn(pg)
	})
}

// CategoryProducts returns the category and a page of its products. Pages are
// cached per (category, sort, page, filters) for CategoryCacheTTL, and not
// served again once the store's catalog changes (its generation moved on).
func (cs *CatalogService) CategoryProducts(storeID, categoryID uint64, q ProductQuery) (*Category, Page[Doc], error) {
	q.CategoryID = categoryID
	q.Borrow = false // a cached page must own its bytes
	return cs.cachedPage(pageKey{storeID, pageQuery(q), false}, func(tx Tx) (*Category, Page[Doc], error) {
		cat, err := tx.Category(storeID, categoryID)
		if err != nil {
			return nil, Page[Doc]{}, err
		}
		page, err := tx.ProductDocs(storeID, q)
		return cat, page, err
	})
}

// cachedPage serves the page under key from memory while the store's
// catalog generation is the one it was read at, and otherwise reads it.
func (cs *CatalogService) cachedPage(key pageKey, read func(Tx) (*Category, Page[Doc], error)) (*Category, Page[Doc], error) {
	now := cs.s.Now()
	cs.mu.Lock()
	gen := cs.genOf(key.store)
	hit, ok := cs.pages.Get(key)
	cs.mu.Unlock()
	if ok && hit.gen == gen && now.Before(hit.expires) {
		return hit.cat, hit.page, nil
	}
	var cat *Category
	var page Page[Doc]
	err := cs.s.DB.View(func(tx Tx) error {
		var err error
		cat, page, err = read(tx)
		return err
	})
	if err != nil {
		return nil, page, err
	}
	cs.mu.Lock()
	if cs.genOf(key.store) == gen { // no write since the read began
		cs.pages.Put(key, cachedPage{gen: gen, cat: cat, page: page, expires: now.Add(CategoryCacheTTL)}, cs.stalePage(now))
	}
	cs.mu.Unlock()
	return cat, page, nil
}

// pageQuery is what a category page's key holds of its query.
func pageQuery(q ProductQuery) string {
	var b strings.Builder
	b.WriteString(strconv.FormatUint(q.CategoryID, 10))
	b.WriteByte('|')
	b.WriteString(q.Sort)
	b.WriteByte('|')
	b.WriteString(strconv.Itoa(q.Limit))
	b.WriteByte('|')
	if q.After != nil {
		b.Write(q.After.Key)
	}
	b.WriteByte('|')
	b.WriteString(q.Q)
	b.WriteByte('|')
	b.WriteString(strconv.FormatInt(int64(q.MinPrice), 10) + "," + strconv.FormatInt(int64(q.MaxPrice), 10) + "," + strconv.FormatBool(q.InStock))
	if q.Light { // a light page has no variants to give a fields=variants request
		b.WriteString(",light")
	}
	if q.Whole { // plain docs cannot be trimmed to a field set
		b.WriteString(",whole")
	}
	if q.Lenient {
		b.WriteString(",lenient")
	}
	return b.String()
}

// dropPages retires the cached pages and details of a store, here and in
// the other processes sharing the database. catalogDB calls it after every transaction
// that wrote the store's catalog (stock changes included).
func (cs *CatalogService) dropPages(storeID uint64) {
	cs.changedLocal(storeID)
	cs.s.broadcast(Event{Kind: EventCatalog, StoreID: storeID})
}

// changedAll drops every cached page and detail (announcements may have been
// missed).
func (cs *CatalogService) changedAll() {
	cs.mu.Lock()
	cs.epoch++ // every store's generation (genOf) changes with it
	cs.pages.Clear()
	cs.details.Clear()
	clear(cs.deals)
	cs.mu.Unlock()
}

// changedLocal moves a store's catalog generation on in this process: its
// cached pages and details are not served again (their generation is
// checked on every hit), and go when the eviction job or the bound comes by
// (stalePage, staleDetail). Nothing is scanned here: the write path (every
// checkout's stock) holds the lock for one map increment.
func (cs *CatalogService) changedLocal(storeID uint64) {
	cs.mu.Lock()
	cs.gen[storeID]++
	cs.mu.Unlock()
}

// EvictExpired drops cache entries past their TTL (and product details of
// an older catalog); a cron job calls it.
// It returns how many were dropped.
func (cs *CatalogService) EvictExpired() int {
	now := cs.s.Now()
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.pages.Drop(cs.stalePage(now)) + cs.details.Drop(cs.staleDetail(now))
}

// CachedPages is the number of cached category pages (for metrics and tests).
func (cs *CatalogService) CachedPages() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.pages.Len()
}

// ProductDocBySlug returns the public doc of an active product.
func (cs *CatalogService) ProductDocBySlug(storeID uint64, slug string) (Doc, error) {
	return view(cs.s.DB, func(tx Tx) (Doc, error) { return tx.ProductDocBySlug(storeID, slug) })
}

// DocBorrower is what a transaction offers when it can hand out a product's
// doc without copying it: the bytes are valid until the transaction ends
// (bbolt's Tx; PostgreSQL's copies anyway and need not offer it).
type DocBorrower interface {
	BorrowProductDocBySlug(storeID uint64, slug string) (Doc, error)
}

// WithProductBySlug calls fn with the doc of an active product inside the
// read transaction. The doc may point into the database's memory (when the
// transaction is a DocBorrower) and is valid only until fn returns, so fn
// writes it out and keeps nothing; it must not open a transaction of its own
// (bbolt: a read inside a read can deadlock with a writer remapping).
func (cs *CatalogService) WithProductBySlug(storeID uint64, slug string, fn func(Doc) error) error {
	return cs.s.DB.View(func(tx Tx) error {
		var d Doc
		var err error
		if b, ok := tx.(DocBorrower); ok {
			d, err = b.BorrowProductDocBySlug(storeID, slug)
		} else {
			d, err = tx.ProductDocBySlug(storeID, slug)
		}
		if err != nil {
			return err
		}
		return fn(d)
	})
}

// Categories lists a store's categories.
func (cs *CatalogService) Categories(storeID uint64) ([]*Category, error) {
	return view(cs.s.DB, func(tx Tx) ([]*Category, error) { return tx.Categories(storeID) })
}

// Category returns one category.
func (cs *CatalogService) Category(storeID, id uint64) (*Category, error) {
	return view(cs.s.DB, func(tx Tx) (*Category, error) { return tx.Category(storeID, id) })
}

// CategoryInput creates or patches a category; nil fields stay as they are.
type CategoryInput struct {
	Name        *string `json:"name"`
	Slug        *string `json:"slug"`
	Description *string `json:"description"`
	Image       *string `json:"image"`
	ParentID    *uint64 `json:"parent_id"`
}

// SaveCategory creates (id 0) or patches a category.
func (cs *CatalogService) SaveCategory(storeID, id uint64, in CategoryInput) (*Category, error) {
	if err := pictures(cs.LocalImages).one(storeID, "image", &in.Image); err != nil {
		return nil, err
	}
	var c *Category
	err := cs.s.DB.Update(func(tx Tx) error {
		c = &Category{StoreID: storeID}
		if id != 0 {
			var err error
			if c, err = tx.Category(storeID, id); err != nil {
				return err
			}
		}
		if in.Name != nil {
			c.Name = strings.TrimSpace(*in.Name)
		}
		if in.Slug != nil {
			c.Slug = strings.TrimSpace(*in.Slug)
		}
		c.Slug = SlugOr(c.Slug, c.Name)
		if in.Description != nil {
			c.Description = *in.Description
		}
		if in.Image != nil {
			c.Image = *in.Image
		}
		if in.ParentID != nil {
			c.ParentID = *in.ParentID
		}
		var v Validation
		v.Text("name", c.Name, true, 100)
		v.Slug(c.Slug)
		v.Text("description", c.Description, false, 5000)
		v.Check(c.Image == "" || ValidHTTPURL(c.Image), "image", "must be an http(s) URL")
		if err := v.Err(); err != nil {
			return err
		}
		if c.ParentID != 0 {
			if c.ParentID == c.ID {
				return Invalid("parent_id", "must not be the category itself")
			}
			if _, err := tx.Category(storeID, c.ParentID); err != nil {
				return Invalid("parent_id", "unknown category")
			}
		}
		now := UTC(tx.Now())
		if c.ID == 0 {
			c.CreatedAt = now
		}
		c.UpdatedAt = now
		return tx.PutCategory(c)
	})
	return c, err
}

// DeleteCategory deletes an empty category (conflict while it has products).
func (cs *CatalogService) DeleteCategory(storeID, id uint64) error {
	err := cs.s.DB.Update(func(tx Tx) error { return tx.DeleteCategory(storeID, id) })
	return err
}

// ProductInput creates or patches a product; nil fields stay as they are.
// Variants, when sent, replace the list: an entry with the id of an existing
// variant keeps that id, others get new ids.
type ProductInput struct {
	Name           *string         `json:"name"`
	Slug           *string         `json:"slug"`
	Description    *string         `json:"description"`
	Price          *Money          `json:"price"`
	CompareAtPrice *Money          `json:"compare_at_price"`
	CategoryID     *uint64         `json:"category_id"`
	Images         *[]string       `json:"images"`
	Stock          *int64          `json:"stock"`
	IsActive       *bool           `json:"is_active"`
	Variants       *[]VariantInput `json:"variants"`
	// LowStockThreshold: low on stock at or below it (0: never, and no alert).
	LowStockThreshold *int64 `json:"low_stock_threshold"`
	// TaxClass picks the product's tax rate ("" the standard one; tax.go).
	TaxClass *string `json:"tax_class"`
}

// VariantInput is one variant of ProductInput.
type VariantInput struct {
	ID         uint64            `json:"id"`
	Name       string            `json:"name"`
	SKU        string            `json:"sku"`
	Price      *Money            `json:"price"`
	Stock      int64             `json:"stock"`
	Attributes map[string]string `json:"attributes"`
	// TaxClass: nil keeps the class of the variant of ID (none for a new one).
	TaxClass *string `json:"tax_class"`
	// Image: nil keeps the picture of the variant of ID (none for a new
	// one); "" removes it; else an http(s) URL.
	Image *string `json:"image"`
}

// Product limits.
const (
	MaxProductImages = 20
	MaxVariants      = 100
	MaxStock         = 1_000_000_000
)

// SaveProduct creates (id 0) or patches a product.
// Errors: validation_failed, not_found, conflict (slug taken, a SKU another
// product of the store has).
func (cs *CatalogService) SaveProduct(storeID, id uint64, in ProductInput) (*Product, error) {
	return cs.SaveProductWithImages(storeID, id, in, nil)
}

// SaveProductWithImages is SaveProduct that also adds media (decoded
// uploads) to the product's images, in the same transaction: a product
// whose photos are refused is not made either.
func (cs *CatalogService) SaveProductWithImages(storeID, id uint64, in ProductInput, media []Media) (*Product, error) {
	if err := cs.localProductPictures(storeID, &in); err != nil {
		return nil, err
	}
	var p *Product
	err := cs.s.DB.Update(func(tx Tx) error {
		st, err := tx.Store(storeID)
		if err != nil {
			return err
		}
		p = &Product{StoreID: storeID, IsActive: true}
		watch := stockWatch{}
		if id != 0 {
			if p, err = tx.Product(storeID, id); err != nil {
				return err
			}
			watch.before(p)
		}
		p.Currency = st.Currency
		if err := applyProductInput(tx, p, in); err != nil {
			return err
		}
		if err := checkSKUs(tx, p); err != nil {
			return err
		}
		if err := cs.attachMedia(tx, p, media); err != nil {
			return err
		}
		now := UTC(tx.Now())
		if p.ID == 0 {
			p.CreatedAt = now
		}
		p.UpdatedAt = now
		if err := tx.PutProduct(p); err != nil {
			return err
		}
		return cs.s.lowStockAfter(tx, watch, p)
	})
	if err == nil {
		cs.s.Kick()
	}
	return p, err
}

func applyProductInput(tx clockedCatalogTx, p *Product, in ProductInput) error {
	setProductFields(p, in)
	var v Validation
	checkProductFields(tx, p, &v)
	if in.Variants == nil {
		return v.Err()
	}
	setVariants(p, *in.Variants, &v)
	if err := v.Err(); err != nil {
		return err
	}
	return allocateVariantIDs(tx, p)
}

// checkProductFields checks p's own fields (not its variants) into v.
func checkProductFields(tx CatalogTx, p *Product, v *Validation) {
	v.Text("name", p.Name, true, 200)
	v.Slug(p.Slug)
	v.Text("description", p.Description, false, 20000)
	v.Check(p.Price >= 0 && p.Price <= MaxMoney, "price", "must be between 0.00 and 1000000000.00")
	v.Check(p.CompareAtPrice >= 0 && p.CompareAtPrice <= MaxMoney, "compare_at_price", "must be between 0.00 and 1000000000.00 (0 clears it)")
	v.URLs("images", p.Images, MaxProductImages)
	v.Check(p.Stock >= 0 && p.Stock <= MaxStock, "stock", "must be between 0 and 1000000000")
	v.Check(p.LowStockThreshold >= 0 && p.LowStockThreshold <= MaxStock, "low_stock_threshold", "must be between 0 and 1000000000")
	checkTaxClass(v, "tax_class", p.TaxClass)
	if p.CategoryID != 0 {
		if _, err := tx.Category(p.StoreID, p.CategoryID); err != nil {
			v.Add("category_id", "unknown category")
		}
	}
}

// allocateVariantIDs gives the new variants of a checked product their ids.
func allocateVariantIDs(tx BaseTx, p *Product) error {
	for i := range p.Variants {
		if p.Variants[i].ID == 0 {
			id, err := tx.NextID(p.StoreID, "variant")
			if err != nil {
				return err
			}
			p.Variants[i].ID = id
		}
	}
	return nil
}

// setProductFields copies the fields in names onto p (an empty slug: one
// made from the name).
func setProductFields(p *Product, in ProductInput) {
	if in.Name != nil {
		p.Name = strings.TrimSpace(*in.Name)
	}
	if in.Slug != nil {
		p.Slug = strings.TrimSpace(*in.Slug)
	}
	p.Slug = SlugOr(p.Slug, p.Name)
	if in.Description != nil {
		p.Description = *in.Description
	}
	if in.Price != nil {
		p.Price = *in.Price
	}
	if in.CompareAtPrice != nil {
		p.CompareAtPrice = *in.CompareAtPrice
	}
	if in.Images != nil {
		p.Images = *in.Images
	}
	if in.Stock != nil {
		p.Stock = *in.Stock
	}
	if in.IsActive != nil {
		p.IsActive = *in.IsActive
	}
	if in.LowStockThreshold != nil {
		p.LowStockThreshold = *in.LowStockThreshold
	}
	if in.TaxClass != nil {
		p.TaxClass = strings.TrimSpace(*in.TaxClass)
	}
	if in.CategoryID != nil {
		p.CategoryID = *in.CategoryID
	}
}

// setVariants replaces p's variants with vs, checking each into v: a
// variant sent with an id keeps it when it is one of p's; new ones get ids
// once everything is valid.
func setVariants(p *Product, vs []VariantInput, v *Validation) {
	if len(vs) > MaxVariants {
		v.Add("variants", "at most 100 variants")
	}
	old := p.Variants
	p.Variants = make([]Variant, 0, len(vs))
	for i, vi := range vs {
		f := "variants[" + itoa(i) + "]"
		nv := Variant{Name: strings.TrimSpace(vi.Name), SKU: strings.TrimSpace(vi.SKU), Stock: vi.Stock, Attributes: vi.Attributes, Price: p.Price}
		if vi.Price != nil {
			nv.Price = *vi.Price
		}
		v.Text(f+".name", nv.Name, true, 200)
		v.Text(f+".sku", nv.SKU, false, 100)
		v.Check(nv.Price >= 0 && nv.Price <= MaxMoney, f+".price", "must be between 0.00 and 1000000000.00")
		v.Check(nv.Stock >= 0 && nv.Stock <= MaxStock, f+".stock", "must be between 0 and 1000000000")
		v.Check(len(nv.Attributes) <= 20, f+".attributes", "at most 20 attributes")
		if nv.Attributes == nil {
			nv.Attributes = map[string]string{}
		}
		for _, o := range old {
			if vi.ID != 0 && o.ID == vi.ID {
				nv.ID, nv.TaxClass, nv.Image = o.ID, o.TaxClass, o.Image
			}
		}
		setVariantExtras(&nv, vi, f, v)
		if vi.ID != 0 && nv.ID == 0 {
			v.Add(f+".id", "unknown variant of this product")
		}
		p.Variants = append(p.Variants, nv)
	}
}

// setVariantExtras sets the optional fields vi sends on nv (a tax class,
// a picture), checking them into v under the variant's field f.
func setVariantExtras(nv *Variant, vi VariantInput, f string, v *Validation) {
	if vi.TaxClass != nil {
		nv.TaxClass = strings.TrimSpace(*vi.TaxClass)
		checkTaxClass(v, f+".tax_class", nv.TaxClass)
	}
	if vi.Image != nil {
		nv.Image = strings.TrimSpace(*vi.Image)
		v.Check(nv.Image == "" || ValidHTTPURL(nv.Image), f+".image", "must be an http(s) URL")
	}
}

// Product returns one product (admin view).
func (cs *CatalogService) Product(storeID, id uint64) (*Product, error) {
	return view(cs.s.DB, func(tx Tx) (*Product, error) { return tx.Product(storeID, id) })
}

// AllProducts pages through every product of a store (admin view).
func (cs *CatalogService) AllProducts(storeID uint64, lp ListParams) (Page[*Product], error) {
	return view(cs.s.DB, func(tx Tx) (Page[*Product], error) { return tx.Products(storeID, lp) })
}

// DeleteProduct removes a product; orders keep their own copy of its lines.
func (cs *CatalogService) DeleteProduct(storeID, id uint64) error {
	err := cs.s.DB.Update(func(tx Tx) error { return tx.DeleteProduct(storeID, id) })
	return err
}
