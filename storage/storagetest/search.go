package storagetest

import (
	"storefront/app"
)

// testForgivingSearch: a query word finds its other inflections and the
// description's words (ranked below the name), and, when it finds nothing
// as typed, the words one typo away (two from 8 letters); in store a only,
// active products only, and a renamed product by its new name only.
func testForgivingSearch(e *env) {
	a, b := e.store("a"), e.store("b")
	put := func(p *app.Product) {
		e.update(func(tx app.Tx) error { return tx.PutProduct(p) })
	}
	withDesc := func(sid uint64, name, desc string) *app.Product {
		p := product(sid, 0, name, 1000, 1)
		p.Description = desc
		put(p)
		return p
	}
	withDesc(a, "Hiking Boot", "Waterproof leather for mountain trails.")
	withDesc(a, "Studio Headphones", "Closed-back, for mixing.")
	withDesc(a, "Trail Tent 2", "Sleeps two hikers.")
	withDesc(a, "Boat Shoes", "Canvas.")
	hidden := withDesc(a, "Hiking Poles", "Carbon.")
	hidden.IsActive = false
	put(hidden)
	renamed := withDesc(a, "Rain Jacket", "Light.")
	renamed.Name = "Storm Jacket"
	put(renamed)
	withDesc(b, "Hiking Boots", "In store b.")
	search := func(q string) []string {
		return sorted(e, func(d app.Doc) string { return e.doc(d).Name }, func(tx app.Tx, lp app.ListParams) (app.Page[app.Doc], error) {
			lp.Sort = app.SortRelevance
			return tx.ProductDocs(a, app.ProductQuery{ListParams: lp, Q: q, MinPrice: -1, MaxPrice: -1})
		})
	}
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"boots", []string{"Hiking Boot"}},                   // a plural; no typo ("boat") once a word is found
		{"hike", []string{"Hiking Boot"}},                    // an inflection ("hikers" is another word)
		{"trails", []string{"Trail Tent 2", "Hiking Boot"}},  // the name ranks above the description
		{"mountain boot", []string{"Hiking Boot"}},           // one word in each
		{"headphnes", []string{"Studio Headphones"}},         // a letter missing
		{"haedphones", []string{"Studio Headphones"}},        // a swap
		{"waterprof", []string{"Hiking Boot"}},               // a typo in the description
		{"tnet", []string{"Trail Tent 2"}},                   // one typo in 4 letters
		{"bot", []string{}},                                  // under 4 letters: no typo
		{"lea", []string{}},                                  // description words are whole words
		{"poles", []string{}},                                // inactive
		{"rain", []string{}},                                 // the old name
		{"storm", []string{"Storm Jacket"}},                  // the new one
		{"headphnes xyzzyq", []string{}},                     // every word must find it
		{"Studio Headphones", []string{"Studio Headphones"}}, // as typed
	} {
		e.same("q="+c.q, search(app.FoldText(c.q)), c.want)
	}
}
