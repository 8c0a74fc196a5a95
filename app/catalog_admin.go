package app

import (
	"cmp"
	"slices"
	"strings"
)

// AdminProductQuery selects the admin's product list: every product, active
// or not, searched, filtered and sorted, a page at a time by offset.
type AdminProductQuery struct {
	Q      string // case-insensitive search in name, slug and variant SKUs
	Status string // "" (all), "active", "inactive", "low" (available stock at or below the product's threshold)
	Sort   string // "newest" (default), "name", "price", "stock"
	Offset int
	Limit  int
}

// AdminProductPage is a page of the admin's product list and the total.
type AdminProductPage struct {
	Items []*Product
	Total int
}

// Product list sorts of the admin.
var AdminProductSorts = []string{"newest", "name", "price", "stock"}

// AdminProducts searches every product of a store. Errors: validation_failed.
func (cs *CatalogService) AdminProducts(storeID uint64, q AdminProductQuery) (AdminProductPage, error) {
	var v Validation
	v.Check(q.Sort == "" || slices.Contains(AdminProductSorts, q.Sort), "sort", "must be one of newest, name, price, stock")
	v.Check(slices.Contains([]string{"", "active", "inactive", "low"}, q.Status), "status", "must be active, inactive or low")
	v.Check(q.Offset >= 0, "page", "must be 1 or more")
	if err := v.Err(); err != nil {
		return AdminProductPage{}, err
	}
	if q.Limit <= 0 {
		q.Limit = 25
	}
	needle := NormalizeName(q.Q)
	var all []*Product
	err := cs.s.DB.View(func(tx Tx) error {
		lp := ListParams{Sort: SortNewest, Limit: 5000}
		for {
			page, err := tx.Products(storeID, lp)
			if err != nil {
				return err
			}
			for _, p := range page.Items {
				if matchAdmin(p, needle, q.Status) {
					all = append(all, p)
				}
			}
			if page.Next == nil {
				return nil
			}
			lp.After = page.Next
		}
	})
	if err != nil {
		return AdminProductPage{}, err
	}
	switch q.Sort {
	case "name":
		slices.SortStableFunc(all, func(a, b *Product) int { return cmp.Compare(NormalizeName(a.Name), NormalizeName(b.Name)) })
	case "price":
		slices.SortStableFunc(all, func(a, b *Product) int { return cmp.Compare(a.Price, b.Price) })
	case "stock":
		slices.SortStableFunc(all, func(a, b *Product) int { return cmp.Compare(a.AvailableStock(), b.AvailableStock()) })
	}
	out := AdminProductPage{Total: len(all), Items: []*Product{}}
	if q.Offset < len(all) {
		out.Items = all[q.Offset:min(len(all), q.Offset+q.Limit)]
	}
	return out, nil
}

func matchAdmin(p *Product, needle, status string) bool {
	switch status {
	case "active":
		if !p.IsActive {
			return false
		}
	case "inactive":
		if p.IsActive {
			return false
		}
	case "low":
		if !p.LowStock() {
			return false
		}
	}
	if needle == "" {
		return true
	}
	if strings.Contains(NormalizeName(p.Name), needle) || strings.Contains(p.Slug, needle) {
		return true
	}
	for _, v := range p.Variants {
		if strings.Contains(NormalizeName(v.SKU), needle) {
			return true
		}
	}
	return false
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
