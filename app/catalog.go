package app

import (
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Category groups products.
type Category struct {
	ID          uint64    `json:"id"`
	StoreID     uint64    `json:"store_id"`
	Name        string    `json:"name"`
	Slug        string    `json:"slug"`
	Description string    `json:"description"`
	Image       string    `json:"image"`
	ParentID    uint64    `json:"parent_id,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// CategoryRef is the {id, name} a product and a category page carry.
type CategoryRef struct {
	ID   uint64 `json:"id"`
	Name string `json:"name"`
}

// Product is a sellable item. With variants, each variant has its own price
// and stock, and an order line must name one.
type Product struct {
	ID             uint64   `json:"id"`
	StoreID        uint64   `json:"store_id"`
	Name           string   `json:"name"`
	Slug           string   `json:"slug"`
	Description    string   `json:"description"`
	Price          Money    `json:"price"`
	CompareAtPrice Money    `json:"compare_at_price"` // 0: none
	Currency       string   `json:"currency"`
	Images         []string `json:"images"`
	// ImageAlts is the alt text of an image, by its URL (none: the shop
	// describes it by its place and the product's name).
	ImageAlts  map[string]string `json:"image_alts,omitempty"`
	CategoryID uint64            `json:"category_id"`
	Stock      int64             `json:"stock"`
	Variants   []Variant         `json:"variants"`
	IsActive   bool              `json:"is_active"`
	// LowStockThreshold: the product is low on stock when its available
	// stock is at or below it (0: never); reaching it tells the owner (mail,
	// product.low_stock webhook).
	LowStockThreshold int64 `json:"low_stock_threshold"`
	// TaxClass picks the tax rate (TaxRate.Class): "" is the standard class.
	TaxClass    string    `json:"tax_class,omitempty"`
	RatingSum   int64     `json:"rating_sum"`
	ReviewCount int64     `json:"review_count"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// Variant is one option of a product (a size, a colour).
type Variant struct {
	ID         uint64            `json:"id"`
	Name       string            `json:"name"`
	SKU        string            `json:"sku"`
	Price      Money             `json:"price"`
	Stock      int64             `json:"stock"`
	Attributes map[string]string `json:"attributes"`
	// TaxClass overrides the product's ("": the product's).
	TaxClass string `json:"tax_class,omitempty"`
	// Image is the variant's own picture, an http(s) URL like the
	// product's images ("": the product's pictures stand for it).
	Image string `json:"image,omitempty"`
}

// MediaURLs are the picture URLs p holds: its images, then its variants'
// own. The stores count an upload's references from them, so a picture a
// variant still shows is never deleted with the product's image.
func (p *Product) MediaURLs() []string {
	out := slices.Clone(p.Images)
	for _, v := range p.Variants {
		if v.Image != "" {
			out = append(out, v.Image)
		}
	}
	return out
}

// AvailableStock is what can still be bought: the product's stock, or the sum
// of its variants' stock when it has variants.
func (p *Product) AvailableStock() int64 {
	if len(p.Variants) == 0 {
		return p.Stock
	}
	var n int64
	for _, v := range p.Variants {
		n += v.Stock
	}
	return n
}

// LowStock reports whether the available stock is at or below the
// product's low-stock threshold (never when the threshold is 0).
func (p *Product) LowStock() bool {
	return p.LowStockThreshold > 0 && p.AvailableStock() <= p.LowStockThreshold
}

// Clone returns a copy of p that shares no slice or map with it.
// TestProductClone fails when a field it would share is added.
func (p *Product) Clone() *Product {
	c := *p
	c.Images = slices.Clone(p.Images)
	c.ImageAlts = maps.Clone(p.ImageAlts)
	if p.Variants != nil {
		c.Variants = make([]Variant, len(p.Variants))
		for i, v := range p.Variants {
			v.Attributes = maps.Clone(v.Attributes)
			c.Variants[i] = v
		}
	}
	return &c
}

// AverageRating is the mean approved rating rounded to two decimals (0 without reviews).
func (p *Product) AverageRating() float64 {
	if p.ReviewCount == 0 {
		return 0
	}
	return math.Round(float64(p.RatingSum)*100/float64(p.ReviewCount)) / 100
}

// Variant returns the variant with id, or nil.
func (p *Product) Variant(id uint64) *Variant {
	for i := range p.Variants {
		if p.Variants[i].ID == id {
			return &p.Variants[i]
		}
	}
	return nil
}

// UnitPrice is the price of one unit of the product or of its variant.
func (p *Product) UnitPrice(variantID uint64) Money {
	if v := p.Variant(variantID); v != nil {
		return v.Price
	}
	return p.Price
}

// TakeStock removes qty units of the product (variantID 0) or of a variant.
// It returns false, changing nothing, when fewer than qty are left.
func (p *Product) TakeStock(variantID uint64, qty int64) bool {
	if qty <= 0 {
		return false
	}
	if variantID != 0 {
		v := p.Variant(variantID)
		if v == nil || v.Stock < qty {
			return false
		}
		v.Stock -= qty
		return true
	}
	if p.Stock < qty {
		return false
	}
	p.Stock -= qty
	return true
}

// PutBackStock returns qty units taken by TakeStock, up to MaxStock. Units of
// a variant that no longer exists have nowhere to go and are dropped.
func (p *Product) PutBackStock(variantID uint64, qty int64) {
	if variantID != 0 {
		if v := p.Variant(variantID); v != nil {
			v.Stock = min(v.Stock+qty, MaxStock)
		}
		return
	}
	p.Stock = min(p.Stock+qty, MaxStock)
}

// Doc builds the product's public representation (decisions.md §4). cat may
// be nil. variants is heavy: lists include it only when asked.
func (p *Product) Doc(cat *Category) (Doc, error) {
	var ref any
	if cat != nil {
		ref = CategoryRef{ID: cat.ID, Name: cat.Name}
	}
	var compare any
	if p.CompareAtPrice > 0 {
		compare = p.CompareAtPrice
	}
	images := p.Images
	if images == nil {
		images = []string{}
	}
	variants := p.Variants
	if variants == nil {
		variants = []Variant{}
	}
	stock := p.AvailableStock()
	return NewDoc(
		DocMember{Name: "id", Value: p.ID},
		DocMember{Name: "name", Value: p.Name},
		DocMember{Name: "slug", Value: p.Slug},
		DocMember{Name: "description", Value: p.Description},
		DocMember{Name: "price", Value: p.Price},
		DocMember{Name: "compare_at_price", Value: compare},
		DocMember{Name: "currency", Value: p.Currency},
		DocMember{Name: "images", Value: images},
		DocMember{Name: "category", Value: ref},
		DocMember{Name: "stock", Value: stock},
		DocMember{Name: "in_stock", Value: stock > 0},
		DocMember{Name: "average_rating", Value: p.AverageRating()},
		DocMember{Name: "review_count", Value: p.ReviewCount},
		DocMember{Name: "created_at", Value: UTC(p.CreatedAt)},
		DocMember{Name: "variants", Value: variants, Heavy: true},
	)
}

// ProductQuery selects a page of a store's active products.
type ProductQuery struct {
	ListParams
	Q          string   // the search as given, folded (FoldText); see search.go
	Words      []string // its words (QueryWords(Q); nil: derived from Q): each must find the product (SearchWord)
	CategoryID uint64
	MinPrice   Money // -1: none
	MaxPrice   Money // -1: none
	InStock    bool
	// Light says the caller writes no heavy member of the docs (no
	// fields=variants): a backend may then return them without (Doc.AppendLight),
	// copying a page's docs at a third of the bytes. It never changes which
	// products a page holds.
	Light bool
	// Whole says the caller writes each doc whole, with no field set
	// (AppendJSON(dst, nil): every light member; implies Light): a backend
	// may then return plain docs (Doc.Plain), the JSON objects it writes,
	// without the binary header a field set needs. PostgreSQL ships a page
	// about a third lighter so. It never changes which products a page holds.
	Whole bool
	// Borrow lets a backend return docs that point into the read
	// transaction's memory, valid only until it ends (bbolt: a page is then
	// not copied at all; PostgreSQL ignores it). Only
	// CatalogService.WithProducts sets it, for a page written out inside the
	// transaction.
	Borrow bool
	// Lenient allows every word of Q one typo more than a search does
	// (SearchWord.Slack): the suggestions of a search that found nothing.
	Lenient bool
}

// IndexEntry is what a product index holds beside the sort key: enough to
// filter a list without reading the product.
type IndexEntry struct {
	Price      Money
	Stock      int64
	CategoryID uint64
	Name       string // NormalizeName form
}

// Match reports whether an index entry passes the query's filters other
// than its words, which a backend tests with its search index.
func (q *ProductQuery) Match(e IndexEntry) bool {
	if q.MinPrice >= 0 && e.Price < q.MinPrice {
		return false
	}
	if q.MaxPrice >= 0 && e.Price > q.MaxPrice {
		return false
	}
	if q.InStock && e.Stock <= 0 {
		return false
	}
	if q.CategoryID != 0 && e.CategoryID != q.CategoryID {
		return false
	}
	return true // the words are the search index's (search_terms.go)
}

// NormalizeName is the case-folded form names are sorted and searched in.
func NormalizeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == 0 {
			return -1
		}
		return unicode.ToLower(r)
	}, strings.TrimSpace(s))
}

// Slugify makes a URL slug from a name.
func Slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimSuffix(b.String(), "-")
	if len(out) > 80 {
		out = strings.TrimSuffix(out[:80], "-")
	}
	return out
}

// SlugOr is slug, or when it is empty one made from name: the default slug
// of every entity that has one (categories, products, posts, bundles).
func SlugOr(slug, name string) string {
	if slug == "" {
		return Slugify(name)
	}
	return slug
}

// ValidSlug reports whether s is a slug as Slugify makes them.
func ValidSlug(s string) bool {
	return s != "" && len(s) <= 100 && Slugify(s) == s
}

// CatalogTx is the storage of categories and products. Product writes keep
// the pre-encoded Doc and every sort index in the same transaction.
type CatalogTx interface {
	// PutCategory creates (ID 0) or updates a category; a taken slug is conflict.
	// Renaming re-encodes the docs of its products.
	PutCategory(c *Category) error
	Category(storeID, id uint64) (*Category, error)
	Categories(storeID uint64) ([]*Category, error)
	// DeleteCategory refuses (conflict) while products are in it.
	DeleteCategory(storeID, id uint64) error
	// PutProduct creates (ID 0) or updates a product, its doc and indexes; a
	// taken slug is conflict.
	PutProduct(p *Product) error
	Product(storeID, id uint64) (*Product, error)
	ProductBySlug(storeID uint64, slug string) (*Product, error)
	ProductDoc(storeID, id uint64) (Doc, error)
	ProductDocBySlug(storeID uint64, slug string) (Doc, error)
	DeleteProduct(storeID, id uint64) error
	// ProductDocs returns a page of active products' docs in q's sort.
	ProductDocs(storeID uint64, q ProductQuery) (Page[Doc], error)
	// Products returns a page of every product (active or not) by id, newest first.
	Products(storeID uint64, p ListParams) (Page[*Product], error)
	AdminProductTx
}
