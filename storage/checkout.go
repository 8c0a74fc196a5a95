package storage

import "storefront/app"

// PutProductStock writes a product whose stock alone changed since it was
// read in this transaction: the record, its doc and the values of its index
// entries. The index keys (id, price, name, rating, category) and the slug
// cannot have changed, so unlike PutProduct it neither deletes nor re-puts
// them, which keeps a checkout's commit to fewer pages.
func (t *Tx) PutProductStock(p *app.Product) error {
	if t.b(bProducts).Get(keyOf(p.StoreID).id(p.ID)) == nil {
		return app.NotFound("product")
	}
	return t.writeProduct(p)
}
