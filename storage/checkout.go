package storage

import "storefront/app"

// PutProductStock writes a product whose stock alone changed since it was
// read in this transaction: the record now, its doc and the values of its
// index entries when the transaction ends (finish). The index keys (id,
// price, name, rating, category) and the slug cannot have changed, so unlike
// PutProduct it neither deletes nor re-puts them. A group commit of many
// checkouts of one product (a flash sale) thus encodes its doc once, not once
// per order, and reads the product from the copy kept here instead of
// decoding the record again (Product).
func (t *Tx) PutProductStock(p *app.Product) error {
	k := keyOf(p.StoreID).id(p.ID)
	b := t.b(bProducts)
	if b.Get(k) == nil {
		return app.NotFound("product")
	}
	if err := putJSON(b, k, p); err != nil {
		return err
	}
	if t.restocked == nil {
		t.restocked = map[string]*app.Product{}
	}
	t.restocked[string(k)] = p.Clone()
	return nil
}

// finish writes what the transaction's changes left for its end: the docs and
// index values of the products PutProductStock wrote and nothing wrote since
// (PutProduct and DeleteProduct take a product off the list).
func (t *Tx) finish() error {
	for _, p := range t.restocked {
		if err := t.writeDerived(p); err != nil {
			return err
		}
	}
	t.restocked = nil
	return nil
}
