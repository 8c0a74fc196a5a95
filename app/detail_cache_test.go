package app

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// detailTx serves a doc for every slug but "missing"; during runs inside
// the read (a write committing while it reads).
type detailTx struct {
	Tx
	during func()
	reads  *int
}

func (t detailTx) ProductDocBySlug(storeID uint64, slug string) (Doc, error) {
	*t.reads++
	if t.during != nil {
		t.during()
	}
	if slug == "missing" {
		return nil, NotFound("product")
	}
	return NewDoc(DocMember{Name: "slug", Value: fmt.Sprintf("%d/%s", storeID, slug)},
		DocMember{Name: "description", Value: strings.Repeat("x", 100)},
		DocMember{Name: "variants", Value: []int{1}, Heavy: true})
}

// A category page is what a category shows: a one-doc page.
func (t detailTx) Category(storeID, id uint64) (*Category, error) {
	return &Category{ID: id, StoreID: storeID, Name: "c"}, nil
}

func (t detailTx) ProductDocs(storeID uint64, q ProductQuery) (Page[Doc], error) {
	d, err := t.ProductDocBySlug(storeID, "page")
	return Page[Doc]{Items: []Doc{d}}, err
}

// The store has no flash deals (its reads are not counted below).
func (t detailTx) FlashDeals(storeID uint64, lp ListParams) (Page[*FlashDeal], error) {
	return Page[*FlashDeal]{}, nil
}

type detailDB struct {
	DB
	reads  *int
	during func()
}

// View's reads of the catalog are counted (ProductDocBySlug), not the deals'.
func (d detailDB) View(fn func(Tx) error) error {
	return fn(detailTx{during: d.during, reads: d.reads})
}

func newDetailCatalog(now *time.Time, during func()) (*CatalogService, *int) {
	reads := new(int)
	cs := newCatalogService(catalogDeps{DB: detailDB{reads: reads, during: during}, Now: func() time.Time { return *now }})
	return cs, reads
}

func detailOf(t *testing.T, cs *CatalogService, storeID uint64, slug string) string {
	t.Helper()
	var got string
	if err := cs.WithProductDetail(storeID, slug, func(b []byte) error { got = string(b); return nil }); err != nil {
		t.Fatal(err)
	}
	return got
}

// A detail is read once per store and slug and generation, with the
// variants; another store, a catalog change of its store, a lost
// announcement (changedAll, also for a store that had no generation yet) or
// the TTL read it again; an unknown slug is not kept.
func TestDetailCacheValidation(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	cs, reads := newDetailCatalog(&now, nil)
	want := `{"slug":"1/a","description":"` + strings.Repeat("x", 100) + `","variants":[1],"deal_price":null,"deal_ends_at":null}`
	for i := 0; i < 3; i++ {
		if got := detailOf(t, cs, 1, "a"); got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
	if *reads != 1 {
		t.Fatalf("%d reads, want 1", *reads)
	}
	step := func(what string, change func(), storeID uint64) {
		t.Helper()
		before := *reads
		change()
		detailOf(t, cs, storeID, "a")
		detailOf(t, cs, storeID, "a")
		if *reads != before+1 {
			t.Fatalf("%s: %d reads, want 1", what, *reads-before)
		}
	}
	step("another store", func() {}, 2)
	step("a change of store 1", func() { cs.changedLocal(1) }, 1)
	detailOf(t, cs, 2, "a")
	if *reads != 3 {
		t.Fatalf("store 2 read again after store 1's change")
	}
	step("changedAll, store 2 without a generation", cs.changedAll, 2)
	step("the TTL", func() { now = now.Add(CategoryCacheTTL) }, 1)
	if err := cs.WithProductDetail(1, "missing", func([]byte) error { return nil }); !IsNotFound(err) {
		t.Fatalf("missing: %v", err)
	}
	if n := cs.CachedDetails(); n != 2 {
		t.Fatalf("%d cached, want 2 (1/a, 2/a)", n)
	}
}

// A catalog write that lands while a detail or a category page is read, or
// a lost announcement (changedAll, for a store that had no generation yet):
// what the read saw is served but not kept.
func TestCacheWriteDuringRead(t *testing.T) {
	reads := map[string]struct {
		read   func(*testing.T, *CatalogService)
		cached func(*CatalogService) int
	}{
		"detail": {func(t *testing.T, cs *CatalogService) { detailOf(t, cs, 1, "a") }, (*CatalogService).CachedDetails},
		"category page": {func(t *testing.T, cs *CatalogService) {
			t.Helper()
			if _, _, err := cs.CategoryProducts(1, 7, ProductQuery{ListParams: ListParams{Limit: 24}}); err != nil {
				t.Fatal(err)
			}
		}, (*CatalogService).CachedPages},
	}
	changes := map[string]func(*CatalogService){
		"changedLocal": func(cs *CatalogService) { cs.changedLocal(1) },
		"changedAll":   func(cs *CatalogService) { cs.changedAll() },
	}
	for what, r := range reads {
		for name, change := range changes {
			t.Run(what+"/"+name, func(t *testing.T) {
				now := time.Unix(1_700_000_000, 0)
				var cs *CatalogService
				write := true
				cs, views := newDetailCatalog(&now, func() {
					if write {
						change(cs)
					}
				})
				r.read(t, cs)
				if n := r.cached(cs); n != 0 {
					t.Fatalf("%d cached, want none: the catalog changed during the read", n)
				}
				write = false
				r.read(t, cs)
				r.read(t, cs)
				if *views != 2 {
					t.Fatalf("%d reads, want 2", *views)
				}
			})
		}
	}
}

// The cache holds at most its limit of bytes; stale details go first, and
// EvictExpired drops them and expired ones.
func TestDetailCacheBound(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	cs, _ := newDetailCatalog(&now, nil)
	one := len(detailOf(t, cs, 1, "s0"))
	cs.details.limit = 10 * one
	for i := 1; i < 30; i++ {
		detailOf(t, cs, 1, fmt.Sprintf("s%d", i))
		if cs.details.bytes > cs.details.limit || cs.CachedDetails() > 10 {
			t.Fatalf("%d bytes in %d details, limit %d", cs.details.bytes, cs.CachedDetails(), cs.details.limit)
		}
	}
	kept := cs.CachedDetails()
	if kept < 9 {
		t.Fatalf("%d details kept, want the 9 or 10 that fit", kept)
	}
	cs.changedLocal(1)
	if n := cs.EvictExpired(); n != kept {
		t.Fatalf("evicted %d, want the %d stale details", n, kept)
	}
	detailOf(t, cs, 2, "x")
	now = now.Add(CategoryCacheTTL)
	if n := cs.EvictExpired(); n != 1 || cs.details.bytes != 0 {
		t.Fatalf("evicted %d, want 1 expired; %d bytes left", n, cs.details.bytes)
	}
}

// The category pages are bounded like the details: a client asking for
// ever new searches or price ranges cannot fill the memory; expired pages
// go first.
func TestCategoryPageCacheBound(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	cs, _ := newDetailCatalog(&now, nil)
	page := func(q string) {
		t.Helper()
		if _, _, err := cs.CategoryProducts(1, 7, ProductQuery{ListParams: ListParams{Limit: 24}, Q: q}); err != nil {
			t.Fatal(err)
		}
	}
	page("first")
	one := cs.pages.bytes
	cs.pages.limit = 10*one + one/2
	for i := range 100 {
		page(fmt.Sprint("q", i))
		if cs.pages.bytes > cs.pages.limit || cs.CachedPages() > 10 {
			t.Fatalf("%d bytes in %d pages, limit %d", cs.pages.bytes, cs.CachedPages(), cs.pages.limit)
		}
	}
	if n := cs.CachedPages(); n < 9 {
		t.Fatalf("%d pages kept, want the 9 or 10 that fit", n)
	}
	// Expired pages make room before live ones are dropped.
	now = now.Add(CategoryCacheTTL)
	page("fresh-1")
	page("fresh-2")
	if n := cs.CachedPages(); n != 2 {
		t.Fatalf("%d pages kept, want the 2 fresh ones (the expired dropped first)", n)
	}
}

// A catalog change retires its store's category pages by generation alone:
// they are not served again (the next read goes to the database), the other
// stores' pages still are, and the stale ones are reclaimed by the eviction
// job or, before any live page, by the bound.
func TestCategoryPagesRetiredByGeneration(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	cs, reads := newDetailCatalog(&now, nil)
	page := func(store uint64, q string) {
		t.Helper()
		if _, _, err := cs.CategoryProducts(store, 7, ProductQuery{ListParams: ListParams{Limit: 24}, Q: q}); err != nil {
			t.Fatal(err)
		}
	}
	fill := func() {
		t.Helper()
		for _, q := range []string{"a", "b", "c"} {
			page(1, q)
			page(2, q)
		}
	}
	fill()
	fill()
	if *reads != 6 || cs.CachedPages() != 6 {
		t.Fatalf("%d reads, %d pages; want 6 and 6", *reads, cs.CachedPages())
	}
	cs.changedLocal(1)
	if n := cs.CachedPages(); n != 6 {
		t.Fatalf("%d pages right after the change, want the 6 (nothing scanned on a write)", n)
	}
	page(2, "a")
	page(1, "a")
	page(1, "a")
	if *reads != 7 {
		t.Fatalf("%d reads, want 7: store 1's page read again once, store 2's served", *reads)
	}
	if n := cs.EvictExpired(); n != 2 || cs.CachedPages() != 4 {
		t.Fatalf("evicted %d, %d left: want store 1's 2 stale pages gone, 4 left", n, cs.CachedPages())
	}
	// Over the bound the stale pages go before any live one: 4 pages cached,
	// room for not quite 5 (the bound then drops down to 7/8 of it, 4.4).
	cs.changedLocal(1)
	cs.pages.limit = cs.pages.bytes*5/4 - 1
	page(2, "d")
	if n := cs.CachedPages(); n != 4 {
		t.Fatalf("%d pages, want store 2's 4", n)
	}
	for _, q := range []string{"a", "b", "c", "d"} {
		if _, ok := cs.pages.m[pageKey{2, pageQuery(ProductQuery{CategoryID: 7, ListParams: ListParams{Limit: 24}, Q: q}), false}]; !ok {
			t.Fatalf("store 2's page %q was dropped", q)
		}
	}
}
