package app

import (
	"cmp"
	"slices"
	"strings"
)

// AdminProductQuery selects the admin's product list: every product, active
// or not, searched, filtered and sorted, a page at a time by offset.
type AdminProductQuery struct {
	Q          string   // the search: each of its words begins a word of the name, the slug or a variant's SKU
	Words      []string // QueryWords(Q), set by AdminProducts for the storage
	Status     string   // "" (all), "active", "inactive", "low" (available stock at or below the product's threshold)
	CategoryID uint64   // 0: any category
	Sort       string   // "newest" (default), "name", "price", "stock"
	Offset     int
	Limit      int
}

// AdminProductPage is a page of the admin's product list and the total.
type AdminProductPage struct {
	Items []*Product
	Total int
}

// Product list sorts of the admin.
var AdminProductSorts = []string{"newest", "name", "price", "stock"}

// AdminProductStatuses are the admin list's status filters ("" is all).
var AdminProductStatuses = []string{"", "active", "inactive", "low"}

// AdminProductTx answers the admin's product list from indexes: the page's
// products are the only ones decoded, and the total is counted from index
// keys. Ties of the name and price sorts list the older product first; ties
// of the stock sort the newer.
type AdminProductTx interface {
	// AdminProducts returns a page of a store's products matching q (valid,
	// Limit > 0, Words set) and how many match.
	AdminProducts(storeID uint64, q AdminProductQuery) (AdminProductPage, error)
}

// AdminProducts searches every product of a store. Errors: validation_failed.
func (cs *CatalogService) AdminProducts(storeID uint64, q AdminProductQuery) (AdminProductPage, error) {
	var v Validation
	v.Check(q.Sort == "" || slices.Contains(AdminProductSorts, q.Sort), "sort", "must be one of newest, name, price, stock")
	v.Check(slices.Contains(AdminProductStatuses, q.Status), "status", "must be active, inactive or low")
	v.Check(q.Offset >= 0, "page", "must be 1 or more")
	v.MaxLen("q", q.Q, MaxOrderSearchLen)
	if err := v.Err(); err != nil {
		return AdminProductPage{}, err
	}
	if q.Limit <= 0 {
		q.Limit = 25
	}
	if q.Sort == "" {
		q.Sort = "newest"
	}
	q.Words = QueryWords(q.Q)
	return view(cs.s.DB, func(tx Tx) (AdminProductPage, error) { return tx.AdminProducts(storeID, q) })
}

// AdminSearchWords are the words the admin's search finds p by: those of its
// name, its slug and its variants' SKUs (folded, distinct).
func AdminSearchWords(p *Product) []string {
	var b strings.Builder
	b.WriteString(p.Name)
	b.WriteByte(' ')
	b.WriteString(p.Slug)
	for _, v := range p.Variants {
		b.WriteByte(' ')
		b.WriteString(v.SKU)
	}
	return SearchWords(b.String())
}

// Match reports whether p is on q's list (any page): the definition the
// storage's indexes answer, and what tests compare them with.
func (q *AdminProductQuery) Match(p *Product) bool {
	switch {
	case q.Status == "active" && !p.IsActive,
		q.Status == "inactive" && p.IsActive,
		q.Status == "low" && !p.LowStock(),
		q.CategoryID != 0 && p.CategoryID != q.CategoryID:
		return false
	}
	words := q.Words
	if words == nil {
		words = QueryWords(q.Q)
	}
	return MatchWords(strings.Join(AdminSearchWords(p), " "), words)
}

// AdminLess orders two products of q's list as its sort does (newest: the
// higher id first; name and price: ties by the lower id; stock: ties by the
// higher id).
func (q *AdminProductQuery) AdminLess(a, b *Product) int {
	byID := cmp.Compare(a.ID, b.ID)
	switch q.Sort {
	case "name":
		return cmp.Or(cmp.Compare(NormalizeName(a.Name), NormalizeName(b.Name)), byID)
	case "price":
		return cmp.Or(cmp.Compare(a.Price, b.Price), byID)
	case "stock":
		return cmp.Or(cmp.Compare(a.AvailableStock(), b.AvailableStock()), -byID)
	}
	return -byID
}

// BulkAction is one change applied to many products at once.
type BulkAction struct {
	Kind       string // "activate", "deactivate", "category", "stock"
	CategoryID uint64 // for "category" (0: none)
	StockDelta int64  // for "stock": added to the product's stock (negative removes)
}

// BulkProducts applies an action to products in one transaction: all of them
// change or none. Errors: validation_failed (naming the product), not_found.
func (cs *CatalogService) BulkProducts(storeID uint64, ids []uint64, a BulkAction) (int, error) {
	if len(ids) == 0 {
		return 0, Invalid("ids", "select at least one product")
	}
	if len(ids) > 1000 {
		return 0, Invalid("ids", "at most 1000 products at once")
	}
	if !slices.Contains([]string{"activate", "deactivate", "category", "stock"}, a.Kind) {
		return 0, Invalid("action", "must be activate, deactivate, category or stock")
	}
	if a.Kind == "stock" && a.StockDelta == 0 {
		return 0, Invalid("stock_delta", "must be a whole number other than 0")
	}
	err := cs.s.DB.Update(func(tx Tx) error {
		if a.Kind == "category" && a.CategoryID != 0 {
			if _, err := tx.Category(storeID, a.CategoryID); err != nil {
				return Invalid("category_id", "unknown category")
			}
		}
		now, watch := UTC(tx.Now()), stockWatch{}
		for _, id := range ids {
			p, err := tx.Product(storeID, id)
			if err != nil {
				return err
			}
			watch.before(p)
			switch a.Kind {
			case "activate":
				p.IsActive = true
			case "deactivate":
				p.IsActive = false
			case "category":
				p.CategoryID = a.CategoryID
			case "stock":
				if len(p.Variants) > 0 {
					return Invalid("ids", "“"+p.Name+"” has variants: adjust each variant's stock on its page")
				}
				n := p.Stock + a.StockDelta
				if n < 0 || n > MaxStock {
					return Invalid("stock_delta", "“"+p.Name+"” would have "+itoa(int(n))+" in stock (0 to 1000000000)")
				}
				p.Stock = n
			}
			p.UpdatedAt = now
			if err := tx.PutProduct(p); err != nil {
				return err
			}
			if err := cs.s.lowStockAfter(tx, watch, p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	cs.s.Kick()
	return len(ids), nil
}
