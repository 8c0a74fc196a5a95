package app

// Sort names of the product and review lists (decisions.md §3).
const (
	SortNewest     = "newest"
	SortPriceAsc   = "price_asc"
	SortPriceDesc  = "price_desc"
	SortNameAsc    = "name_asc"
	SortRatingDesc = "rating_desc"
	SortRatingAsc  = "rating_asc"
)

// ProductSorts and ReviewSorts list the sorts each list accepts; the first is the default.
var (
	ProductSorts = []string{SortNewest, SortPriceAsc, SortPriceDesc, SortNameAsc, SortRatingDesc, SortRelevance}
	ReviewSorts  = []string{SortNewest, SortRatingDesc, SortRatingAsc}
)

// Cursor is the decoded position of a page walk: the sort it was issued under
// and the index key of the last item returned. The web layer signs and encodes
// it; nothing but storage reads Key.
type Cursor struct {
	Sort string
	Key  []byte
}

// Page is one page of a list: at most Limit items and the cursor of the next
// page, nil when there is none.
type Page[T any] struct {
	Items []T
	Next  *Cursor
}

// ListParams are the paging parameters every list takes. After is nil for the
// first page. Sort is already validated by the caller.
type ListParams struct {
	Sort  string
	Limit int
	After *Cursor
}

// Limits of list pages (storefront-api.md, Limits).
const (
	ProductsDefaultLimit = 24
	ProductsMaxLimit     = 100
	ReviewsDefaultLimit  = 20
	ReviewsMaxLimit      = 50
	DefaultLimit         = 20
	MaxLimit             = 100
)
