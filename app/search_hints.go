package app

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// SearchHint is a product a search names: as-you-type (SearchHints) or
// when it found nothing (DidYouMean).
type SearchHint struct {
	Name string `json:"name"`
	Slug string `json:"slug"`
}

// MaxSuggestions is how many product names a search that finds nothing
// suggests; MaxHints how many as-you-type hints a query gets at most.
const (
	MaxSuggestions = 3
	MaxHints       = 8
)

// SearchHints returns up to limit (at most MaxHints) products the text
// typed so far finds, best first: the search a shopper would submit, its
// last word a prefix like every other.
func (cs *CatalogService) SearchHints(storeID uint64, text string, limit int) ([]SearchHint, error) {
	q := FoldText(strings.TrimSpace(text))
	words := QueryWords(q)
	if len(words) == 0 || len(q) > 100 {
		return []SearchHint{}, nil
	}
	return cs.hints(storeID, searchQuery(words, min(max(limit, 1), MaxHints), false))
}

// DidYouMean returns up to MaxSuggestions products (distinct names) closest
// to a search that found nothing, best first: those the search finds with one
// typo more per word (SearchWord.Slack), then those each of its words finds
// alone so. None when nothing is close.
func (cs *CatalogService) DidYouMean(storeID uint64, words []string) ([]SearchHint, error) {
	tries := [][]string{words}
	if len(words) > 1 {
		for _, w := range words {
			tries = append(tries, []string{w})
		}
	}
	out := []SearchHint{}
	for _, ws := range tries {
		hs, err := cs.hints(storeID, searchQuery(ws, MaxSuggestions, true))
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			if len(out) < MaxSuggestions && !slices.ContainsFunc(out, func(x SearchHint) bool { return x.Name == h.Name }) {
				out = append(out, h)
			}
		}
		if len(out) == MaxSuggestions {
			break
		}
	}
	return out, nil
}

// searchQuery is the first page of a relevance search for words.
func searchQuery(words []string, limit int, lenient bool) ProductQuery {
	return ProductQuery{ListParams: ListParams{Sort: SortRelevance, Limit: limit}, Q: strings.Join(words, " "), Words: words,
		MinPrice: -1, MaxPrice: -1, Light: true, Lenient: lenient}
}

// hints reads the names and slugs of a page of products.
func (cs *CatalogService) hints(storeID uint64, q ProductQuery) ([]SearchHint, error) {
	page, err := cs.Products(storeID, q)
	if err != nil {
		return nil, err
	}
	fs := FieldSet{"name": {}, "slug": {}}
	out := make([]SearchHint, 0, len(page.Items))
	for _, d := range page.Items {
		b, err := d.AppendJSON(nil, fs)
		if err != nil {
			return nil, err
		}
		var h SearchHint
		if err := json.Unmarshal(b, &h); err != nil {
			return nil, fmt.Errorf("search hints: %w", err)
		}
		out = append(out, h)
	}
	return out, nil
}
