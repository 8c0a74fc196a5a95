package storage

import (
	"fmt"

	"storefront/app"
)

// PutProductStock writes a product whose stock alone changed since it was
// read in this transaction: the record, its doc and the values of its index
// entries. The index keys (id, price, name, rating, category) and the slug
// cannot have changed, so unlike PutProduct it neither deletes nor re-puts
// them, which keeps a checkout's commit to fewer pages.
func (t *Tx) PutProductStock(p *app.Product) error {
	if t.b(bProducts).Get(key(p.StoreID, p.ID)) == nil {
		return app.NotFound("product")
	}
	if err := putJSON(t.b(bProducts), key(p.StoreID, p.ID), p); err != nil {
		return err
	}
	var cat *app.Category
	if p.CategoryID != 0 {
		var err error
		if cat, err = t.Category(p.StoreID, p.CategoryID); err != nil {
			return err
		}
	}
	if err := t.putProductDoc(p, cat); err != nil {
		return err
	}
	if !p.IsActive {
		return nil
	}
	entry := encodeIndexEntry(p)
	global, inCat := productIndexKeysOf(p)
	for _, k := range global {
		if err := t.b(bIdxProducts).Put(k, entry); err != nil {
			return fmt.Errorf("storage: put product index: %w", err)
		}
	}
	for _, k := range inCat {
		if err := t.b(bIdxCatProducts).Put(k, entry); err != nil {
			return fmt.Errorf("storage: put product index: %w", err)
		}
	}
	return nil
}
