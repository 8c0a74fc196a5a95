package app

import "strings"

// SKUs are unique per store, compared without case: a product's variants
// may not share one, nor use one another product of the store has. The
// check runs in the transaction that writes the product (the PostgreSQL
// backend holds the store's lock there; bbolt has one writer), through the
// admin search index, whose words include every SKU's.

// checkSKUs fails with validation_failed for a SKU twice in p, and with
// conflict naming the other product for one another product uses.
func checkSKUs(tx Tx, p *Product) error {
	seen := map[string]bool{}
	for i, v := range p.Variants {
		if v.SKU == "" {
			continue
		}
		f := "variants[" + itoa(i) + "].sku"
		k := strings.ToLower(v.SKU)
		if seen[k] {
			return Invalid(f, "the SKU "+v.SKU+" is used by another variant of this product")
		}
		seen[k] = true
		other, err := productWithSKU(tx, p.StoreID, p.ID, v.SKU)
		if err != nil {
			return err
		}
		if other != nil {
			return &Error{Code: EConflict, Message: "the SKU " + v.SKU + " is used by “" + other.Name + "” (product #" + itoa(int(other.ID)) + ")",
				Fields: map[string]string{f: "used by “" + other.Name + "” (product #" + itoa(int(other.ID)) + ")"}}
		}
	}
	return nil
}

// productWithSKU returns the store's product other than skip with a variant
// of SKU sku (any case), or nil.
func productWithSKU(tx Tx, storeID, skip uint64, sku string) (*Product, error) {
	q := AdminProductQuery{Q: sku, Words: QueryWords(sku), Limit: 100}
	if len(q.Words) == 0 {
		return nil, nil
	}
	for {
		page, err := tx.AdminProducts(storeID, q)
		if err != nil {
			return nil, err
		}
		for _, p := range page.Items {
			if p.ID == skip {
				continue
			}
			for _, v := range p.Variants {
				if strings.EqualFold(v.SKU, sku) {
					return p, nil
				}
			}
		}
		q.Offset += len(page.Items)
		if len(page.Items) == 0 || q.Offset >= page.Total {
			return nil, nil
		}
	}
}
