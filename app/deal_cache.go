package app

import "time"

// The flash deals of the product reads. The docs storage keeps (Doc) and the
// pages and details cached from them hold no deal: a deal starts and ends
// with the clock, not with a write. Each read adds the product's deal from
// the store's LiveDeals (LiveDeals.AppendDeal), which is kept here per store
// and built again when a deal is written (here, or in another process: its
// announcement, EventDeals) or when its Until passes. What is cached with a
// deal in it (a product detail, a shop page) expires at Until.

// storeDeals is a store's deals not ended when they were read, at the
// store's deal generation of that read. They are read again after
// CategoryCacheTTL at most, which bounds how long a lost announcement
// (PostgreSQL's is sent after the deal's commit) leaves them stale.
type storeDeals struct {
	gen  catalogGen
	read time.Time
	all  []*FlashDeal
	live *LiveDeals
}

// dealGenOf is storeID's deal generation; cs.mu is held.
func (cs *CatalogService) dealGenOf(storeID uint64) catalogGen {
	return catalogGen{cs.dealGen[storeID], cs.epoch}
}

// Deals is the store's flash deals as they stand now. It reads storage
// only after a deal of the store was written; it opens a transaction then,
// so it is called before a read transaction, never inside one.
func (cs *CatalogService) Deals(storeID uint64) (*LiveDeals, error) {
	now := cs.s.Now()
	cs.mu.Lock()
	gen := cs.dealGenOf(storeID)
	sd := cs.deals[storeID]
	if sd != nil && sd.gen == gen && now.Sub(sd.read) < CategoryCacheTTL {
		if !sd.live.validAt(now) {
			sd.live = newLiveDeals(sd.all, now)
		}
		live := sd.live
		cs.mu.Unlock()
		return live, nil
	}
	cs.mu.Unlock()
	all, err := cs.readDeals(storeID, now)
	if err != nil {
		return nil, err
	}
	live := newLiveDeals(all, now)
	cs.mu.Lock()
	if cs.dealGenOf(storeID) == gen { // no deal written since the read began
		cs.deals[storeID] = &storeDeals{gen: gen, read: now, all: all, live: live}
	}
	cs.mu.Unlock()
	return live, nil
}

// readDeals reads the store's deals that have not ended.
func (cs *CatalogService) readDeals(storeID uint64, now time.Time) ([]*FlashDeal, error) {
	var out []*FlashDeal
	err := cs.s.DB.View(func(tx Tx) error {
		out = out[:0]
		lp := ListParams{Sort: SortNewest, Limit: MaxLimit}
		for {
			page, err := tx.FlashDeals(storeID, lp)
			if err != nil {
				return err
			}
			for _, d := range page.Items {
				if now.Before(d.EndsAt) {
					out = append(out, d)
				}
			}
			if page.Next == nil {
				return nil
			}
			lp.After = page.Next
		}
	})
	return out, err
}

// dealsChanged moves a store's deal generation on in this process (its
// catalog generation too: cached pages and details go with it).
func (cs *CatalogService) dealsChanged(storeID uint64) {
	cs.mu.Lock()
	cs.dealGen[storeID]++
	cs.gen[storeID]++
	delete(cs.deals, storeID)
	cs.mu.Unlock()
}

// dropDeals retires a store's deals here and in the other processes.
func (cs *CatalogService) dropDeals(storeID uint64) {
	cs.dealsChanged(storeID)
	cs.s.broadcast(Event{Kind: EventDeals, StoreID: storeID})
}
