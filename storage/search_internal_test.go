package storage

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// TestSearchPathsAgree: the two ways of answering q (the postings read whole
// and sorted in memory, and the walk of the sort's index when every word is
// too common) return the same pages and cursors in every sort, and a
// database opened before the index existed, or with its first form, gets
// it built.
func TestSearchPathsAgree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	words := []string{"Red", "Rédwood", "Blue", "Boot", "Bag", "Rain"}
	descs := []string{"Leather.", "Canvas for hikers.", "Rubber boots, red laces.", ""}
	err = db.Update(func(tx app.Tx) error {
		for i := 0; i < 60; i++ {
			p := &app.Product{StoreID: 1, IsActive: i%7 != 3, Currency: "USD", Price: app.Money(100 + i*37%500), Stock: int64(i % 4),
				Name: fmt.Sprintf("%s %s %d", words[i%len(words)], words[(i/len(words))%len(words)], i), ReviewCount: int64(i % 5), RatingSum: int64(i % 5 * (i % 3)),
				Description: descs[i%len(descs)]}
			p.Slug = app.Slugify(p.Name)
			if err := tx.PutProduct(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	walk := func(q app.ProductQuery) (out []string) {
		for pages := 0; pages < 100; pages++ {
			var pg app.Page[app.Doc]
			if err := db.View(func(tx app.Tx) (err error) { pg, err = tx.ProductDocs(1, q); return }); err != nil {
				t.Fatal(err)
			}
			for _, d := range pg.Items {
				out = append(out, string(d[:min(len(d), 40)]))
			}
			if pg.Next == nil {
				return out
			}
			out = append(out, fmt.Sprintf("cursor %x", pg.Next.Key))
			q.After = pg.Next
		}
		t.Fatal("too many pages")
		return nil
	}
	for _, sort := range []string{app.SortNewest, app.SortPriceAsc, app.SortPriceDesc, app.SortNameAsc, app.SortRatingDesc} {
		for _, qs := range []string{"re", "red", "b", "bo r", "rain 4", "x", "boot", "rain", "redw",
			"boots", "redwod", "leathr", "canvas red", "hiker", "lace b"} {
			for _, f := range []struct {
				inStock  bool
				min, max app.Money
			}{{false, -1, -1}, {false, 150, -1}, {true, 150, -1}, {false, -1, 400}, {false, 150, 400}, {true, 0, 0}} {
				inStock := f.inStock
				q := app.ProductQuery{ListParams: app.ListParams{Sort: sort, Limit: 4}, Q: qs, Words: app.QueryWords(qs), MinPrice: f.min, MaxPrice: f.max, InStock: inStock}
				// the ways of searchDocs, each forced in turn (the word's
				// postings in id order where they apply: newest, one word, no filter)
				paths := []struct {
					name                    string
					probe, budget, postings int
					wordWalk                bool
				}{
					{"postings at once", 2000, 4096, 2000, false},
					{"bounded scan", 1, 1 << 30, 1, false},
					{"scan over budget, then postings", 1, 1, 2000, false},
					{"scan over budget, then the whole scan", 1, 1, 1, false},
					{"the word's postings in id order", 1, 1, 1, true},
				}
				var first []string
				for i, p := range paths {
					searchProbe, searchScanBudget, searchCandidates, searchWordWalk = p.probe, p.budget, p.postings, p.wordWalk
					got := walk(q)
					if i == 0 {
						first = got
					} else if !slices.Equal(got, first) {
						t.Errorf("%s q=%q %+v: %s %q\n%s %q", sort, qs, f, paths[0].name, first, p.name, got)
					}
				}
				searchProbe, searchScanBudget, searchCandidates, searchWordWalk = 64, 4096, 2000, true
			}
		}
	}

	// sort=relevance with every word too common lists newest first: the
	// same pages by the word's postings as by the scan
	for _, qs := range []string{"boot", "rain", "redw", "re", "boots", "leathr", "canvas b"} {
		q := app.ProductQuery{ListParams: app.ListParams{Sort: app.SortRelevance, Limit: 4}, Q: qs, Words: app.QueryWords(qs), MinPrice: -1, MaxPrice: -1}
		searchProbe, searchScanBudget, searchCandidates = 1, 1, 1
		searchWordWalk = false
		want := walk(q)
		searchWordWalk = true
		if got := walk(q); !slices.Equal(got, want) {
			t.Errorf("relevance q=%q: by the scan %q\nby the word's postings %q", qs, want, got)
		}
		searchProbe, searchScanBudget, searchCandidates = 64, 4096, 2000
	}

	// A database from before the index (no flag), and one whose index has
	// the first form (names only, flag "1") or the second (one language for
	// every store, "2"): reopened, each is rebuilt.
	for _, flag := range []string{"", "1", "2"} {
		if err := db.bolt.Update(func(tx *bolt.Tx) error {
			if err := tx.DeleteBucket(bIdxSearch); err != nil {
				return err
			}
			if _, err := tx.CreateBucket(bIdxSearch); err != nil {
				return err
			}
			if flag == "" {
				return tx.Bucket(bMeta).Delete([]byte("search_index"))
			}
			return tx.Bucket(bMeta).Put([]byte("search_index"), []byte(flag))
		}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if db, err = Open(path, Options{}); err != nil {
			t.Fatal(err)
		}
		if err := db.Verify(); err != nil {
			t.Fatalf("flag %q: after rebuilding the search index: %v", flag, err)
		}
		for _, w := range []string{"redw", "leather"} {
			q := app.ProductQuery{ListParams: app.ListParams{Limit: 100}, Words: []string{w}, MinPrice: -1, MaxPrice: -1}
			if n := len(walk(q)); n == 0 {
				t.Fatalf("flag %q: the rebuilt index finds nothing for %q", flag, w)
			}
		}
	}
}

// TestSearchWordCounts: the word counts follow every product write (create,
// rename, deactivate, delete), a prefix sums the words it expands to, and a
// database whose search index predates the counts gets them built at open.
func TestSearchWordCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	put := func(p *app.Product) {
		t.Helper()
		if err := db.Update(func(tx app.Tx) error { return tx.PutProduct(p) }); err != nil {
			t.Fatal(err)
		}
	}
	count := func(w string) (n int) {
		t.Helper()
		if err := db.bolt.View(func(btx *bolt.Tx) error {
			tx := db.tx(btx)
			n, _ = tx.countPostings(1, app.NewSearchWords([]string{w}, tx.searchStem(1), false)[0], 1<<20)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	check := func(when string, want map[string]int) {
		t.Helper()
		for w, n := range want {
			if got := count(w); got != n {
				t.Errorf("%s: count(%q) = %d, want %d", when, w, got, n)
			}
		}
		if err := db.Verify(); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
	}
	var ps []*app.Product
	for i, name := range []string{"Red Boot", "Red Redwood Bag", "Blue Boot", "Rain Boot", "Red Hat"} {
		p := &app.Product{StoreID: 1, Name: name, Slug: fmt.Sprintf("p-%d", i), Currency: "USD", Price: 100, IsActive: true}
		put(p)
		ps = append(ps, p)
	}
	// "Other Red" in store 2 counts in its own store only
	put(&app.Product{StoreID: 2, Name: "Other Red", Slug: "other", Currency: "USD", Price: 100, IsActive: true})
	// a prefix sums its words: "red" is red (3 products) and redwood (1)
	check("created", map[string]int{"red": 4, "re": 4, "r": 5, "boot": 3, "redwood": 1, "x": 0})

	ps[0].Name = "Green Boot" // rename
	put(ps[0])
	ps[1].IsActive = false // deactivate
	put(ps[1])
	if err := db.Update(func(tx app.Tx) error { return tx.DeleteProduct(1, ps[4].ID) }); err != nil {
		t.Fatal(err)
	}
	check("changed", map[string]int{"red": 0, "re": 0, "r": 1, "boot": 3, "green": 1, "redwood": 0})
	ps[1].IsActive = true
	put(ps[1])
	check("reactivated", map[string]int{"red": 2, "re": 2, "boot": 3})

	// a database from before the counts: drop them and their mark, reopen
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bSearchWords); err != nil {
			return err
		}
		return tx.Bucket(bMeta).Delete([]byte("built:search_words_v1"))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	check("rebuilt", map[string]int{"red": 2, "re": 2, "r": 3, "boot": 3, "green": 1})
}
