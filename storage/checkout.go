package storage

import "storefront/app"

// PutProductStock writes a product whose stock alone changed since it was
// read in this transaction: the record now, its doc and the values of its
// index entries when the transaction ends (finish), from the record as it is
// then. The index keys (id, price, name, rating, category) and the slug
// cannot have changed, so unlike PutProduct it neither deletes nor re-puts
// them; and a group commit of many checkouts of one product (a flash sale)
// encodes its doc once, not once per order.
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
		t.restocked = map[string]struct{}{}
	}
	t.restocked[string(k)] = struct{}{}
	return nil
}

// finish writes what the transaction's changes left for its end: the docs and
// index values of the products PutProductStock wrote, from their records (a
// product deleted since has nothing left to write).
func (t *Tx) finish() error {
	b := t.b(bProducts)
	for k := range t.restocked {
		raw := b.Get([]byte(k))
		if raw == nil {
			continue
		}
		var p app.Product
		if err := getJSONBytes(raw, &p, "product"); err != nil {
			return err
		}
		if err := t.writeDerived(&p); err != nil {
			return err
		}
	}
	t.restocked = nil
	return nil
}
