package app

// catalogDB is the DB every service writes through. A transaction that
// writes the catalog (a category or product put or deleted, stock taken or
// put back, a rating summed into a product) drops the cached category pages
// of that store once it has committed: the cache cannot be forgotten by a
// new write path, because invalidation follows the write, not the caller.
type catalogDB struct {
	DB
	changed func(storeID uint64)
	// dealsChanged follows a transaction that wrote a store's flash deals
	// (nil: changed alone).
	dealsChanged func(storeID uint64)
}

func (d catalogDB) Update(fn func(Tx) error) error { return d.write(d.DB.Update, fn) }
func (d catalogDB) Batch(fn func(Tx) error) error  { return d.write(d.DB.Batch, fn) }

func (d catalogDB) write(run func(func(Tx) error) error, fn func(Tx) error) error {
	var touched, dealt storeSet
	err := run(func(tx Tx) error {
		// Batch may run fn again (or with others that fail): collecting across
		// attempts can only drop a page too many, never keep a stale one.
		return fn(catalogTx{Tx: tx, touched: &touched, dealt: &dealt})
	})
	if err == nil {
		for _, id := range touched {
			d.changed(id)
		}
		for _, id := range dealt {
			if d.dealsChanged != nil {
				d.dealsChanged(id)
			} else {
				d.changed(id)
			}
		}
	}
	return err
}

// storeSet is a small set of store ids (a transaction touches one, rarely more).
type storeSet []uint64

func (s *storeSet) add(id uint64) {
	for _, x := range *s {
		if x == id {
			return
		}
	}
	*s = append(*s, id)
}

// catalogTx records the stores whose catalog (and flash deals) a
// transaction writes.
type catalogTx struct {
	Tx
	touched, dealt *storeSet
}

func (t catalogTx) PutFlashDeal(d *FlashDeal) error {
	t.dealt.add(d.StoreID)
	return t.Tx.PutFlashDeal(d)
}

func (t catalogTx) DeleteFlashDeal(storeID, id uint64) error {
	t.dealt.add(storeID)
	return t.Tx.DeleteFlashDeal(storeID, id)
}

// PutStore touches the store's catalog: its language is its search index's
// (the storage re-indexes the store when it changes), and a cached search
// page would answer in the old one.
func (t catalogTx) PutStore(s *Store) error {
	t.touched.add(s.ID)
	return t.Tx.PutStore(s)
}

func (t catalogTx) PutCategory(c *Category) error {
	t.touched.add(c.StoreID)
	return t.Tx.PutCategory(c)
}

func (t catalogTx) DeleteCategory(storeID, id uint64) error {
	t.touched.add(storeID)
	return t.Tx.DeleteCategory(storeID, id)
}

func (t catalogTx) PutProduct(p *Product) error {
	t.touched.add(p.StoreID)
	return t.Tx.PutProduct(p)
}

func (t catalogTx) PutProductStock(p *Product) error {
	t.touched.add(p.StoreID)
	return t.Tx.PutProductStock(p)
}

func (t catalogTx) DeleteProduct(storeID, id uint64) error {
	t.touched.add(storeID)
	return t.Tx.DeleteProduct(storeID, id)
}
