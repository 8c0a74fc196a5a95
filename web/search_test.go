package web_test

import (
	"fmt"
	"net/url"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// searchNames GETs the products list with query and returns the names, in order.
func searchNames(t *testing.T, e *testenv.Env, key, query string) []string {
	t.Helper()
	var l productList
	e.Do(testenv.Req{Method: "GET", Path: site + "/products/?" + query, Key: key}).Expect(t, 200, "").Decode(t, &l)
	names := []string{}
	for _, it := range l.Items {
		names = append(names, it["name"].(string))
	}
	return names
}

// TestSearch: q is answered from the search index (the same on PostgreSQL):
// each word begins a word of the name, without case or accents, all words
// must match; filters, sorts, relevance and cursors work with it; writes keep
// the index exact (testenv verifies every index after the test); another
// store's products are never found.
func TestSearch(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	other, otherKey := e.Store("Shop B")
	e.Product(other, 0, "Headlamp Other Store", 1000, 5)
	e.Product(sid, 0, "Headlamp 300 Lumen", 3000, 5)
	e.Product(sid, 0, "Café Crème Mug", 1000, 0)
	e.Product(sid, 0, "Trail Headband", 1500, 3)
	torch := e.Product(sid, 0, "Head Torch Pro", 4000, 2)
	warmer := e.Product(sid, 0, "Mug Warmer", 2000, 1)
	hidden := e.Product(sid, 0, "Headless Hidden", 500, 9)
	off := false
	if _, err := e.Svc.Catalog.SaveProduct(sid, hidden.ID, app.ProductInput{IsActive: &off}); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"q=hea", []string{"Head Torch Pro", "Trail Headband", "Headlamp 300 Lumen"}},
		{"q=H%C3%89AD", []string{"Head Torch Pro", "Trail Headband", "Headlamp 300 Lumen"}}, // HÉAD
		{"q=cafe", []string{"Café Crème Mug"}},
		{"q=CR%C3%88ME", []string{"Café Crème Mug"}}, // CRÈME
		{"q=mug", []string{"Mug Warmer", "Café Crème Mug"}},
		{"q=head+pro", []string{"Head Torch Pro"}},
		{"q=pro,+head!", []string{"Head Torch Pro"}},
		{"q=lamp", []string{}},
		{"q=head+mug", []string{}},
		{"q=%21%21", []string{"Mug Warmer", "Head Torch Pro", "Trail Headband", "Café Crème Mug", "Headlamp 300 Lumen"}}, // no word: no search
		{"q=hea&in_stock=true&max_price=35", []string{"Trail Headband", "Headlamp 300 Lumen"}},
		{"q=hea&min_price=20", []string{"Head Torch Pro", "Headlamp 300 Lumen"}},
		{"q=hea&sort=price_asc", []string{"Trail Headband", "Headlamp 300 Lumen", "Head Torch Pro"}},
		{"q=hea&sort=price_desc", []string{"Head Torch Pro", "Headlamp 300 Lumen", "Trail Headband"}},
		{"q=hea&sort=name_asc", []string{"Head Torch Pro", "Headlamp 300 Lumen", "Trail Headband"}},
		// relevance: "head" is a whole word of Head Torch Pro (2) and begins it (1);
		// it begins Headlamp's first word (1 + 1) and only a word of Trail Headband (1).
		{"q=head&sort=relevance", []string{"Head Torch Pro", "Headlamp 300 Lumen", "Trail Headband"}},
		{"q=mug&sort=relevance", []string{"Mug Warmer", "Café Crème Mug"}},
	} {
		if got := searchNames(t, e, key, tc.query); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %q, want %q", tc.query, got, tc.want)
		}
	}
	if got := searchNames(t, e, otherKey, "q=head"); fmt.Sprint(got) != "[Headlamp Other Store]" {
		t.Errorf("store B: got %q", got)
	}
	e.Do(testenv.Req{Method: "GET", Path: site + "/products/?sort=relevance", Key: key}).Expect(t, 400, "validation_failed")

	// Paging: one item per page, walked with the cursors, in every sort.
	for _, sort := range []string{app.SortNewest, app.SortPriceAsc, app.SortNameAsc, app.SortRatingDesc, app.SortRelevance} {
		want := searchNames(t, e, key, "q=hea&sort="+sort)
		var got []string
		cursor := ""
		for pages := 0; pages < 10; pages++ {
			p := site + "/products/?q=hea&limit=1&sort=" + sort
			if cursor != "" {
				p += "&cursor=" + url.QueryEscape(cursor)
			}
			var l productList
			e.Do(testenv.Req{Method: "GET", Path: p, Key: key}).Expect(t, 200, "").Decode(t, &l)
			for _, it := range l.Items {
				got = append(got, it["name"].(string))
			}
			if l.NextCursor == nil {
				break
			}
			cursor = *l.NextCursor
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || len(got) != 3 {
			t.Errorf("sort %s paged: got %q, want %q", sort, got, want)
		}
	}

	// Writes keep the index exact: a rename, a deletion, a reactivation.
	name := "Cup Warmer"
	if _, err := e.Svc.Catalog.SaveProduct(sid, warmer.ID, app.ProductInput{Name: &name}); err != nil {
		t.Fatal(err)
	}
	if err := e.Svc.Catalog.DeleteProduct(sid, torch.ID); err != nil {
		t.Fatal(err)
	}
	on := true
	if _, err := e.Svc.Catalog.SaveProduct(sid, hidden.ID, app.ProductInput{IsActive: &on}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"q=mug", []string{"Café Crème Mug"}},
		{"q=cup+warm", []string{"Cup Warmer"}},
		{"q=head", []string{"Headless Hidden", "Trail Headband", "Headlamp 300 Lumen"}},
		{"q=torch", []string{}},
	} {
		if got := searchNames(t, e, key, tc.query); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("after writes, %s: got %q, want %q", tc.query, got, tc.want)
		}
	}
}

// TestSearchForgives: plurals and inflections, description words (ranked
// below the name) and typos find products; a search that finds nothing
// answers with the closest products' names beside the empty items (and a
// search that finds something has no suggestions member).
func TestSearchForgives(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	for name, desc := range map[string]string{
		"Hiking Boot":       "Waterproof leather for mountain trails.",
		"Studio Headphones": "Closed-back, for mixing.",
		"Trail Tent":        "Sleeps two hikers.",
	} {
		p := e.Product(sid, 0, name, 1000, 5)
		if _, err := e.Svc.Catalog.SaveProduct(sid, p.ID, app.ProductInput{Description: &desc}); err != nil {
			t.Fatal(err)
		}
	}
	type answer struct {
		Items       []map[string]any `json:"items"`
		Suggestions *[]string        `json:"suggestions"`
	}
	for _, tc := range []struct {
		query       string
		want        []string
		suggestions []string // nil: no member
	}{
		{"q=boots", []string{"Hiking Boot"}, nil},
		{"q=hiking+boots&sort=relevance", []string{"Hiking Boot"}, nil},
		{"q=headphnes", []string{"Studio Headphones"}, nil},
		{"q=trails&sort=relevance", []string{"Trail Tent", "Hiking Boot"}, nil},
		{"q=mountain", []string{"Hiking Boot"}, nil},
		{"q=hedfones", []string{}, []string{"Studio Headphones"}}, // three typos: suggested
		{"q=tent+xyzzy", []string{}, []string{"Trail Tent"}},      // a word alone
		{"q=qqqqqqq", []string{}, []string{}},
	} {
		var a answer
		e.Do(testenv.Req{Method: "GET", Path: site + "/products/?" + tc.query, Key: key}).Expect(t, 200, "").Decode(t, &a)
		names := []string{}
		for _, it := range a.Items {
			names = append(names, it["name"].(string))
		}
		if fmt.Sprint(names) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %q, want %q", tc.query, names, tc.want)
		}
		switch {
		case tc.suggestions == nil && a.Suggestions != nil:
			t.Errorf("%s: suggestions %q, want none", tc.query, *a.Suggestions)
		case tc.suggestions != nil && (a.Suggestions == nil || fmt.Sprint(*a.Suggestions) != fmt.Sprint(tc.suggestions)):
			t.Errorf("%s: suggestions %v, want %q", tc.query, a.Suggestions, tc.suggestions)
		}
	}
	e.Do(testenv.Req{Method: "GET", Path: site + "/products/?q=hedfones&sort=bogus", Key: key}).Expect(t, 400, "validation_failed")
}

// TestSearchLanguages: a store searches in its locale (config key locale,
// set through the config PATCH): German and Russian plurals and case
// endings find their products where English stems them apart (and no typo
// allowance reaches), description words too; a change of locale re-indexes
// the store's products at once, and back (testenv verifies the index after
// the test); another store keeps its language.
func TestSearchLanguages(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	products := func(sid uint64, byName map[string]string) {
		for name, desc := range byName {
			// a slug of its own: one made from a Cyrillic name is refused
			slug, price, stock := fmt.Sprintf("p%d", len(name)), app.Money(1000), int64(5)
			in := app.ProductInput{Name: &name, Slug: &slug, Description: &desc, Price: &price, Stock: &stock}
			if _, err := e.Svc.Catalog.SaveProduct(sid, 0, in); err != nil {
				t.Fatal(err)
			}
		}
	}
	locale := func(sid uint64, lang string) {
		e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/config/", sid), Token: e.OwnerToken,
			Body: map[string]any{"locale": lang}}).Expect(t, 200, "")
	}
	de, deKey := e.Store("Laden")
	products(de, map[string]string{"Buch": "Ein Roman.", "Tasche aus Leder": "Für Kinder und Erwachsene."})
	ru, ruKey := e.Store("Magazin RU")
	locale(ru, "ru") // before its products: they are indexed in Russian as they are saved
	products(ru, map[string]string{"Книга": "Роман.", "Наушники": "Беспроводные, для музыки.", "Красная лампа": "Настольная."})
	en, enKey := e.Store("Shop")
	products(en, map[string]string{"Buch": "A book."})
	germanOnly := []string{"q=Bücher", "q=taschen", "q=kind"}
	check := func(key string, tc [][2]string) {
		t.Helper()
		for _, c := range tc {
			if got := fmt.Sprint(searchNames(t, e, key, c[0])); got != c[1] {
				t.Errorf("%s: got %s, want %s", c[0], got, c[1])
			}
		}
	}
	for _, q := range germanOnly { // English, the default: none of these
		check(deKey, [][2]string{{q, "[]"}})
	}
	locale(de, "de")
	check(deKey, [][2]string{{"q=Bücher", "[Buch]"}, {"q=taschen", "[Tasche aus Leder]"}, {"q=kind", "[Tasche aus Leder]"},
		{"q=buch", "[Buch]"}, {"q=tasch", "[Tasche aus Leder]"}})
	check(enKey, [][2]string{{"q=Bücher", "[]"}}) // another store keeps English
	check(ruKey, [][2]string{{"q=книгами", "[Книга]"}, {"q=музыкой", "[Наушники]"}, {"q=красные", "[Красная лампа]"},
		{"q=наушник&sort=relevance", "[Наушники]"}})
	locale(de, "en")
	for _, q := range germanOnly {
		check(deKey, [][2]string{{q, "[]"}})
	}
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/config/", de), Token: e.OwnerToken,
		Body: map[string]any{"locale": "tlh"}}).Expect(t, 400, "validation_failed")
}
