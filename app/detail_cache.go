package app

import (
	"strings"
	"time"
)

// The product detail cache: the JSON of a product's detail by (store, slug),
// kept per process like the category pages and validated the same way, by
// the store's catalog generation (cs.gen), which every catalog write bumps
// here at once and in the other processes when its announcement arrives
// (catalogDB, Services.listen). A hit reads no transaction at all.
const (
	// detailCacheBytes bounds the JSON held (about 7,000 details of 1 KB).
	detailCacheBytes = 8 << 20
	// detailMaxBytes: a larger detail is served but not kept.
	detailMaxBytes = 64 << 10
)

type detailKey struct {
	store uint64
	slug  string
}

// catalogGen is a store's catalog generation with the process-wide epoch,
// which changedAll bumps: a store that had no generation yet keeps its zero.
type catalogGen struct{ store, epoch uint64 }

// genOf is storeID's generation; cs.mu is held.
func (cs *CatalogService) genOf(storeID uint64) catalogGen {
	return catalogGen{cs.gen[storeID], cs.epoch}
}

type cachedDetail struct {
	gen     catalogGen // the store's catalog generation it was read at
	json    []byte
	expires time.Time
}

// WithProductDetail calls fn with the JSON of an active product's detail:
// every light member and its variants (Doc.AppendJSONWith), and its flash
// deal (LiveDeals.AppendDeal). The bytes are
// shared with other requests: fn writes them out and neither keeps nor
// changes them. fn runs outside any transaction.
func (cs *CatalogService) WithProductDetail(storeID uint64, slug string, fn func(detail []byte) error) error {
	now := cs.s.Now()
	cs.mu.Lock()
	gen := cs.genOf(storeID)
	hit, ok := cs.details.Get(detailKey{storeID, slug})
	cs.mu.Unlock()
	if ok && hit.gen == gen && now.Before(hit.expires) {
		return fn(hit.json)
	}
	deals, err := cs.Deals(storeID)
	if err != nil {
		return err
	}
	var detail []byte
	err = cs.WithProductBySlug(storeID, slug, func(d Doc) error {
		var err error
		detail, err = d.AppendJSONWith(make([]byte, 0, len(d)+len(nullDeal)), "variants")
		if err == nil {
			detail, err = deals.AppendDeal(detail, 0, d, nil)
		}
		return err
	})
	if err != nil {
		return err
	}
	if len(detail) <= detailMaxBytes { // kept until its deal starts or ends at the latest
		cs.keepDetail(detailKey{storeID, strings.Clone(slug)}, cachedDetail{gen: gen, json: detail, expires: deals.Expires(now.Add(CategoryCacheTTL))}, now)
	}
	return fn(detail)
}

// keepDetail caches a detail read at generation d.gen, unless the store's
// catalog changed since (the read may have seen the old or the new state).
func (cs *CatalogService) keepDetail(k detailKey, d cachedDetail, now time.Time) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.genOf(k.store) != d.gen {
		return
	}
	cs.details.Put(k, d, cs.staleDetail(now))
}

// stale reports whether an entry of store read at gen and expiring at
// expires will not be served again: the store's catalog changed since, or
// it expired; cs.mu is held. The category pages and the details follow it.
func (cs *CatalogService) stale(store uint64, gen catalogGen, expires, now time.Time) bool {
	return gen != cs.genOf(store) || !now.Before(expires)
}

// staleDetail and stalePage are stale for each cache's entries, at now.
func (cs *CatalogService) staleDetail(now time.Time) func(detailKey, cachedDetail) bool {
	return func(k detailKey, d cachedDetail) bool { return cs.stale(k.store, d.gen, d.expires, now) }
}

func (cs *CatalogService) stalePage(now time.Time) func(pageKey, cachedPage) bool {
	return func(k pageKey, p cachedPage) bool { return cs.stale(k.store, p.gen, p.expires, now) }
}

// CachedDetails is the number of cached product details (for metrics and tests).
func (cs *CatalogService) CachedDetails() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.details.Len()
}

// CachedDetailBytes is the JSON the cached product details hold (for metrics).
func (cs *CatalogService) CachedDetailBytes() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.details.Bytes()
}

// CatalogVersion names one state of a store's catalog: it changes with
// every write of the catalog (in this process at once, from another when
// its announcement arrives). Caches of what is built from a store's
// catalog (the shop's pages) key on it.
type CatalogVersion catalogGen

// Version is storeID's current catalog version.
func (cs *CatalogService) Version(storeID uint64) CatalogVersion {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return CatalogVersion(cs.genOf(storeID))
}
