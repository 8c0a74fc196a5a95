package storagetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"storefront/app"
)

func testStores(e *env) {
	a, b := e.store("alpha"), e.store("beta")
	if a == b {
		e.t.Fatal("two stores share an id")
	}
	e.same("taken subdomain", e.code(func(tx app.Tx) error {
		return tx.CreateStore(&app.Store{Name: "x", Subdomain: "alpha", Currency: "USD", APIKeyHash: []byte("other")})
	}), app.EConflict)
	e.view(func(tx app.Tx) error {
		s, err := tx.Store(a)
		e.want(err, "")
		e.same("name", s.Name, "Store alpha")
		e.same("config", string(s.Config), "{}")
		e.same("created", s.CreatedAt.Equal(t0), true)
		s, err = tx.StoreByKeyHash([]byte("hash-of-beta"))
		e.want(err, "")
		e.same("by key", s.ID, b)
		_, err = tx.StoreByKeyHash([]byte("nope"))
		e.want(err, app.ENotFound)
		_, err = tx.Store(b + 100)
		e.want(err, app.ENotFound)
		all, err := tx.Stores()
		e.want(err, "")
		e.same("stores by id", len(all) == 2 && all[0].ID == a && all[1].ID == b, true)
		s, err = tx.SharedStore(a)
		e.want(err, "")
		e.same("shared", s.Subdomain, "alpha")
		_, err = tx.SharedStore(b + 100)
		e.want(err, app.ENotFound)
		return nil
	})
	// A new key replaces the old one; a new subdomain frees the old one.
	e.update(func(tx app.Tx) error {
		s, err := tx.Store(a)
		if err != nil {
			return err
		}
		s.APIKeyHash, s.Subdomain, s.Name = []byte("rotated"), "alpha2", "Renamed"
		return tx.PutStore(s)
	})
	e.view(func(tx app.Tx) error {
		_, err := tx.StoreByKeyHash([]byte("hash-of-alpha"))
		e.want(err, app.ENotFound)
		s, err := tx.StoreByKeyHash([]byte("rotated"))
		e.want(err, "")
		e.same("rotated", s.Name, "Renamed")
		s, err = tx.SharedStore(a) // a shared copy follows a committed change
		e.want(err, "")
		e.same("shared after put", s.Name, "Renamed")
		return nil
	})
	e.same("freed subdomain", e.code(func(tx app.Tx) error {
		return tx.CreateStore(&app.Store{Name: "y", Subdomain: "alpha", Currency: "USD", APIKeyHash: []byte("k3")})
	}), "")
}

func testNextIDAndSecret(e *env) {
	a, b := e.store("a"), e.store("b")
	var got []uint64
	e.update(func(tx app.Tx) error {
		for _, c := range []struct {
			sid uint64
			seq string
		}{{a, "x"}, {a, "x"}, {a, "y"}, {b, "x"}, {a, "x"}} {
			n, err := tx.NextID(c.sid, c.seq)
			if err != nil {
				return err
			}
			got = append(got, n)
		}
		return nil
	})
	e.same("per store and sequence, from 1", got, []uint64{1, 2, 1, 1, 3})
	s1, err := e.db.Secret("one")
	e.want(err, "")
	s2, _ := e.db.Secret("one")
	s3, _ := e.db.Secret("two")
	e.same("secret length", len(s1), 32)
	e.same("secret kept", bytes.Equal(s1, s2), true)
	e.same("secrets differ", bytes.Equal(s1, s3), false)
	e.want(e.db.Ping(), "")
	e.view(func(tx app.Tx) error {
		e.same("tx clock", tx.Now().Equal(t0), true)
		return nil
	})
	e.tick(time.Hour)
	e.view(func(tx app.Tx) error {
		e.same("tx clock moves", tx.Now().Equal(t0.Add(time.Hour)), true)
		return nil
	})
}

// testRollback: a transaction whose function fails leaves nothing behind,
// Update and Batch alike.
func testRollback(e *env) {
	sid := e.store("a")
	boom := fmt.Errorf("boom")
	for _, run := range []func(func(app.Tx) error) error{e.db.Update, e.db.Batch} {
		err := run(func(tx app.Tx) error {
			if err := tx.PutCoupon(&app.Coupon{StoreID: sid, Code: "GONE", Type: app.CouponFixed, Value: 1, IsActive: true}); err != nil {
				return err
			}
			if _, err := tx.NextID(sid, "gone"); err != nil {
				return err
			}
			return boom
		})
		if err != boom {
			e.t.Fatalf("the function's error comes back as it is: got %v", err)
		}
	}
	e.view(func(tx app.Tx) error {
		_, err := tx.CouponByCode(sid, "GONE")
		e.want(err, app.ENotFound)
		all, err := tx.Coupons(sid)
		e.same("no coupons", len(all), 0)
		return err
	})
	e.update(func(tx app.Tx) error {
		n, err := tx.NextID(sid, "gone")
		e.same("sequence rolled back", n, uint64(1))
		return err
	})
}

func category(sid uint64, name string) *app.Category {
	return &app.Category{StoreID: sid, Name: name, Slug: app.Slugify(name), CreatedAt: t0, UpdatedAt: t0}
}

func product(sid, cat uint64, name string, price app.Money, stock int64) *app.Product {
	return &app.Product{StoreID: sid, Name: name, Slug: app.Slugify(name), Price: price, Currency: "USD", Images: []string{},
		CategoryID: cat, Stock: stock, Variants: []app.Variant{}, IsActive: true, CreatedAt: t0, UpdatedAt: t0}
}

// docJSON renders a doc whole and decodes the members the suite looks at.
type docView struct {
	ID       uint64 `json:"id"`
	Name     string `json:"name"`
	Slug     string `json:"slug"`
	Stock    int64  `json:"stock"`
	Price    string `json:"price"`
	Category *struct {
		Name string `json:"name"`
	} `json:"category"`
}

func (e *env) doc(d app.Doc) docView {
	e.t.Helper()
	b, err := d.AppendJSON(nil, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	var v docView
	if err := json.Unmarshal(b, &v); err != nil {
		e.t.Fatalf("doc %s: %v", b, err)
	}
	return v
}

func testCategories(e *env) {
	a, b := e.store("a"), e.store("b")
	shoes, hats := category(a, "Shoes"), category(a, "Hats")
	e.update(func(tx app.Tx) error {
		if err := tx.PutCategory(shoes); err != nil {
			return err
		}
		return tx.PutCategory(hats)
	})
	e.same("ids", shoes.ID != 0 && hats.ID != 0 && shoes.ID != hats.ID, true)
	e.same("taken slug", e.code(func(tx app.Tx) error { return tx.PutCategory(category(a, "Shoes")) }), app.EConflict)
	e.same("same slug, other store", e.code(func(tx app.Tx) error { return tx.PutCategory(category(b, "Shoes")) }), "")
	p := product(a, shoes.ID, "Boot", 100, 1)
	e.update(func(tx app.Tx) error { return tx.PutProduct(p) })
	// Renaming re-encodes the docs of its products; a new slug frees the old.
	shoes.Name, shoes.Slug = "Footwear", "footwear"
	e.update(func(tx app.Tx) error { return tx.PutCategory(shoes) })
	e.view(func(tx app.Tx) error {
		d, err := tx.ProductDoc(a, p.ID)
		e.want(err, "")
		v := e.doc(d)
		e.same("doc's category follows a rename", v.Category != nil && v.Category.Name == "Footwear", true)
		list, err := tx.Categories(a)
		e.want(err, "")
		e.same("categories by id", len(list) == 2 && list[0].ID == shoes.ID && list[1].ID == hats.ID && list[0].Slug == "footwear", true)
		c, err := tx.Category(a, hats.ID)
		e.want(err, "")
		e.same("get", c.Name, "Hats")
		_, err = tx.Category(b, hats.ID)
		e.want(err, app.ENotFound)
		list, _ = tx.Categories(b + 100)
		e.same("unknown store: empty, not nil", list != nil && len(list) == 0, true)
		return nil
	})
	e.same("old slug free", e.code(func(tx app.Tx) error { return tx.PutCategory(category(a, "Shoes")) }), "")
	e.same("update of a missing one", e.code(func(tx app.Tx) error {
		c := category(a, "Ghost")
		c.ID = 999
		return tx.PutCategory(c)
	}), app.ENotFound)
	e.same("delete while used", e.code(func(tx app.Tx) error { return tx.DeleteCategory(a, shoes.ID) }), app.EConflict)
	e.same("delete from another store", e.code(func(tx app.Tx) error { return tx.DeleteCategory(b, hats.ID) }), app.ENotFound)
	e.same("delete", e.code(func(tx app.Tx) error { return tx.DeleteCategory(a, hats.ID) }), "")
	e.same("delete twice", e.code(func(tx app.Tx) error { return tx.DeleteCategory(a, hats.ID) }), app.ENotFound)
	e.same("deleted slug free", e.code(func(tx app.Tx) error { return tx.PutCategory(category(a, "Hats")) }), "")
}

func testProducts(e *env) {
	a, b := e.store("a"), e.store("b")
	p := product(a, 0, "Red Boot", 1250, 3)
	p.Variants = []app.Variant{{ID: 1, Name: "S", SKU: "s", Price: 1250, Stock: 2, Attributes: map[string]string{"size": "S"}}}
	e.update(func(tx app.Tx) error { return tx.PutProduct(p) })
	e.same("taken slug", e.code(func(tx app.Tx) error { return tx.PutProduct(product(a, 0, "Red Boot", 1, 1)) }), app.EConflict)
	e.same("same slug, other store", e.code(func(tx app.Tx) error { return tx.PutProduct(product(b, 0, "Red Boot", 1, 1)) }), "")
	checkProductReads(e, a, b, p)
	// A new slug frees the old one; an inactive product has no doc but is a product.
	p.Slug, p.IsActive = "boot-red", false
	e.update(func(tx app.Tx) error { return tx.PutProduct(p) })
	e.view(func(tx app.Tx) error {
		_, err := tx.ProductBySlug(a, "red-boot")
		e.want(err, app.ENotFound)
		_, err = tx.ProductBySlug(a, "boot-red")
		e.want(err, "")
		_, err = tx.ProductDoc(a, p.ID)
		e.want(err, app.ENotFound)
		_, err = tx.ProductDocBySlug(a, "boot-red")
		e.want(err, app.ENotFound)
		if br, ok := tx.(app.DocBorrower); ok {
			_, err = br.BorrowProductDocBySlug(a, "boot-red")
			e.want(err, app.ENotFound)
		}
		pg, err := tx.ProductDocs(a, app.ProductQuery{MinPrice: -1, MaxPrice: -1})
		e.same("inactive not listed", len(pg.Items), 0)
		return err
	})
	e.same("update of a missing one", e.code(func(tx app.Tx) error {
		q := product(a, 0, "Ghost", 1, 1)
		q.ID = 999
		return tx.PutProduct(q)
	}), app.ENotFound)
	testProductsList(e, a, b, p)
}

// checkProductReads checks a product's reads by id, slug and doc, per store.
func checkProductReads(e *env, a, b uint64, p *app.Product) {
	e.view(func(tx app.Tx) error {
		got, err := tx.Product(a, p.ID)
		e.want(err, "")
		e.same("round trip", got.Name == "Red Boot" && got.Price == 1250 && len(got.Variants) == 1 && got.Variants[0].Attributes["size"] == "S", true)
		got, err = tx.ProductBySlug(a, "red-boot")
		e.want(err, "")
		e.same("by slug", got.ID, p.ID)
		d, err := tx.ProductDocBySlug(a, "red-boot")
		e.want(err, "")
		e.same("doc", e.doc(d).Name, "Red Boot")
		if br, ok := tx.(app.DocBorrower); ok { // a backend that hands out its own bytes
			bd, err := br.BorrowProductDocBySlug(a, "red-boot")
			e.want(err, "")
			e.same("borrowed doc", string(bd), string(d))
			_, err = br.BorrowProductDocBySlug(b+100, "red-boot")
			e.want(err, app.ENotFound)
		}
		_, err = tx.Product(b, p.ID+100)
		e.want(err, app.ENotFound)
		_, err = tx.ProductBySlug(b+100, "red-boot")
		e.want(err, app.ENotFound)
		_, err = tx.ProductDoc(b+100, p.ID)
		e.want(err, app.ENotFound)
		return nil
	})
}

// testProductsList checks that Products lists every product, active or not,
// newest first, and deleting.
func testProductsList(e *env, a, b uint64, p *app.Product) {
	// Products lists every product, active or not, newest first.
	var made []uint64
	e.update(func(tx app.Tx) error {
		for i := range 4 {
			q := product(a, 0, fmt.Sprintf("P%d", i), app.Money(100+i), 1)
			q.IsActive = i%2 == 0
			if err := tx.PutProduct(q); err != nil {
				return err
			}
			made = append(made, q.ID)
		}
		return nil
	})
	got := sorted(e, func(p *app.Product) string { return fmt.Sprint(p.ID) }, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Product], error) {
		return tx.Products(a, lp)
	})
	e.same("products newest first", got, ids(made[3], made[2], made[1], made[0], p.ID))
	e.same("delete other store", e.code(func(tx app.Tx) error { return tx.DeleteProduct(b, p.ID+100) }), app.ENotFound)
	e.same("delete", e.code(func(tx app.Tx) error { return tx.DeleteProduct(a, made[0]) }), "")
	e.same("delete twice", e.code(func(tx app.Tx) error { return tx.DeleteProduct(a, made[0]) }), app.ENotFound)
	e.view(func(tx app.Tx) error {
		_, err := tx.ProductDoc(a, made[0])
		e.want(err, app.ENotFound)
		_, err = tx.ProductBySlug(a, "p0")
		e.want(err, app.ENotFound)
		return nil
	})
	e.same("deleted slug free", e.code(func(tx app.Tx) error { return tx.PutProduct(product(a, 0, "P0", 1, 1)) }), "")
}

// testProductDocsOrder: every sort, every page size, within a category and
// not, against the order computed here. Values are distinct, so no ties.
func testProductDocsOrder(e *env) {
	a, b := e.store("a"), e.store("b")
	c1, c2 := category(a, "One"), category(a, "Two")
	e.update(func(tx app.Tx) error {
		if err := tx.PutCategory(c1); err != nil {
			return err
		}
		return tx.PutCategory(c2)
	})
	var rows []docRow
	names := []string{"delta", "Alpha", "charlie", "echo", "Bravo", "foxtrot", "golf"}
	e.update(func(tx app.Tx) error {
		for i, n := range names {
			cat := c1.ID
			if i%2 == 1 {
				cat = c2.ID
			}
			p := product(a, cat, n, app.Money(1000+((i*37)%7)*100), 5)
			p.ReviewCount, p.RatingSum = int64(i+1), int64(i+1)*int64(1+(i*3)%5) // averages 1..5, counts differ
			if err := tx.PutProduct(p); err != nil {
				return err
			}
			rows = append(rows, docRow{p.ID, cat, strings.ToLower(n), p.Price, p.AverageRating()*1000 + float64(p.ReviewCount)})
		}
		return tx.PutProduct(product(b, 0, "Other store", 1, 1))
	})
	order := func(sortBy string, cat uint64) []string { return expectedDocOrder(rows, sortBy, cat) }
	for _, s := range app.ProductSorts {
		for _, cat := range []uint64{0, c1.ID, c2.ID} {
			got := sorted(e, func(d app.Doc) string { return fmt.Sprint(e.doc(d).ID) }, func(tx app.Tx, lp app.ListParams) (app.Page[app.Doc], error) {
				lp.Sort = s
				return tx.ProductDocs(a, app.ProductQuery{ListParams: lp, CategoryID: cat, MinPrice: -1, MaxPrice: -1})
			})
			e.same(fmt.Sprintf("sort %s category %d", s, cat), got, order(s, cat))
		}
	}
	testDocOrderAfterWrites(e, a, c1.ID, rows, order)
}

// docRow is a listed product's sort keys as a test expects them.
type docRow struct {
	id     uint64
	cat    uint64
	name   string
	price  app.Money
	rating float64
}

// expectedDocOrder returns the ids of rows in category cat (0: all) in the
// order of sortBy.
func expectedDocOrder(rows []docRow, sortBy string, cat uint64) []string {
	var rs []docRow
	for _, r := range rows {
		if cat == 0 || r.cat == cat {
			rs = append(rs, r)
		}
	}
	sort.SliceStable(rs, func(i, j int) bool {
		x, y := rs[i], rs[j]
		switch sortBy {
		case app.SortPriceAsc:
			return x.price < y.price || x.price == y.price && x.id < y.id
		case app.SortPriceDesc:
			return x.price > y.price || x.price == y.price && x.id > y.id
		case app.SortNameAsc:
			return x.name < y.name
		case app.SortRatingDesc:
			return x.rating > y.rating || x.rating == y.rating && x.id > y.id
		}
		return x.id > y.id
	})
	out := []string{}
	for _, r := range rs {
		out = append(out, fmt.Sprint(r.id))
	}
	return out
}

// testDocOrderAfterWrites checks that a cursor of one sort stays valid after
// writes elsewhere in the list and that a deactivated product leaves every sort.
func testDocOrderAfterWrites(e *env, a, c1 uint64, rows []docRow, order func(string, uint64) []string) {
	// A cursor of one sort stays valid after writes elsewhere in the list.
	var pg app.Page[app.Doc]
	e.view(func(tx app.Tx) (err error) {
		pg, err = tx.ProductDocs(a, app.ProductQuery{ListParams: app.ListParams{Limit: 2}, MinPrice: -1, MaxPrice: -1})
		return
	})
	e.update(func(tx app.Tx) error { return tx.PutProduct(product(a, 0, "Newest", 1, 1)) })
	e.view(func(tx app.Tx) error {
		next, err := tx.ProductDocs(a, app.ProductQuery{ListParams: app.ListParams{Limit: 2, After: pg.Next}, MinPrice: -1, MaxPrice: -1})
		want := order(app.SortNewest, 0)[2:4]
		e.same("page 2 after an insert", []string{fmt.Sprint(e.doc(next.Items[0]).ID), fmt.Sprint(e.doc(next.Items[1]).ID)}, want)
		return err
	})
	// A deactivated product leaves every sort.
	e.update(func(tx app.Tx) error {
		p, err := tx.Product(a, rows[0].id)
		if err != nil {
			return err
		}
		p.IsActive = false
		return tx.PutProduct(p)
	})
	for _, s := range app.ProductSorts {
		got := sorted(e, func(d app.Doc) string { return fmt.Sprint(e.doc(d).ID) }, func(tx app.Tx, lp app.ListParams) (app.Page[app.Doc], error) {
			lp.Sort = s
			return tx.ProductDocs(a, app.ProductQuery{ListParams: lp, CategoryID: c1, MinPrice: -1, MaxPrice: -1})
		})
		for _, id := range got {
			if id == fmt.Sprint(rows[0].id) {
				e.t.Fatalf("sort %s lists an inactive product", s)
			}
		}
	}
}

func testProductDocsFilter(e *env) {
	a := e.store("a")
	c := category(a, "C")
	var cheap, dear, empty, named uint64
	e.update(func(tx app.Tx) error {
		if err := tx.PutCategory(c); err != nil {
			return err
		}
		for _, x := range []struct {
			p  *app.Product
			id *uint64
		}{
			{product(a, c.ID, "Cheap thing", 500, 4), &cheap},
			{product(a, 0, "Dear thing", 9000, 1), &dear},
			{product(a, c.ID, "Sold out", 2000, 0), &empty},
			{product(a, 0, "Blue Widget", 3000, 2), &named},
		} {
			if err := tx.PutProduct(x.p); err != nil {
				return err
			}
			*x.id = x.p.ID
		}
		return nil
	})
	list := func(q app.ProductQuery) []string {
		return sorted(e, func(d app.Doc) string { return fmt.Sprint(e.doc(d).ID) }, func(tx app.Tx, lp app.ListParams) (app.Page[app.Doc], error) {
			q.ListParams = lp
			q.Sort = app.SortPriceAsc
			return tx.ProductDocs(a, q)
		})
	}
	e.same("all", list(app.ProductQuery{MinPrice: -1, MaxPrice: -1}), ids(cheap, empty, named, dear))
	e.same("min", list(app.ProductQuery{MinPrice: 2000, MaxPrice: -1}), ids(empty, named, dear))
	e.same("max", list(app.ProductQuery{MinPrice: -1, MaxPrice: 2000}), ids(cheap, empty))
	e.same("in stock", list(app.ProductQuery{MinPrice: -1, MaxPrice: -1, InStock: true}), ids(cheap, named, dear))
	e.same("category", list(app.ProductQuery{MinPrice: -1, MaxPrice: -1, CategoryID: c.ID}), ids(cheap, empty))
	e.same("q", list(app.ProductQuery{MinPrice: -1, MaxPrice: -1, Q: "thing"}), ids(cheap, dear))
	e.same("q case-folded", list(app.ProductQuery{MinPrice: -1, MaxPrice: -1, Q: app.NormalizeName("WIDGET")}), ids(named))
	e.same("all filters", list(app.ProductQuery{MinPrice: 100, MaxPrice: 5000, InStock: true, Q: "thing", CategoryID: c.ID}), ids(cheap))
	checkLightDocs(e, a, c.ID)
	checkBorrowedDocs(e, a, c.ID)
	// search: each word begins a word of the name, without case or accents, all words
	e.same("q prefix", list(app.ProductQuery{MinPrice: -1, MaxPrice: -1, Q: "thi"}), ids(cheap, dear))
	e.same("q accents", list(app.ProductQuery{MinPrice: -1, MaxPrice: -1, Q: app.FoldText("WÍDGÉT")}), ids(named))
	e.same("q all words", list(app.ProductQuery{MinPrice: -1, MaxPrice: -1, Q: "th dea"}), ids(dear))
	e.same("q inside a word", list(app.ProductQuery{MinPrice: -1, MaxPrice: -1, Q: "hin"}), ids()) // "hing" is one typo from "thing"
}

// checkLightDocs checks that Light leaves the docs' heavy members out,
// nothing a page writes without them.
func checkLightDocs(e *env, a, cat uint64) {
	// Light may leave the docs' heavy members out, nothing a page writes without them.
	for _, q := range []app.ProductQuery{{MinPrice: -1, MaxPrice: -1}, {MinPrice: -1, MaxPrice: -1, Q: "thing"}, {MinPrice: -1, MaxPrice: -1, CategoryID: cat}} {
		var full, light app.Page[app.Doc]
		e.view(func(tx app.Tx) (err error) {
			if full, err = tx.ProductDocs(a, q); err != nil {
				return err
			}
			q.Light = true
			light, err = tx.ProductDocs(a, q)
			return err
		})
		e.same(fmt.Sprintf("light %+v: items", q), len(light.Items), len(full.Items))
		for i := range full.Items {
			want, _ := full.Items[i].AppendJSON(nil, nil)
			got, err := light.Items[i].AppendJSON(nil, app.FieldSet{"name": {}, "price": {}})
			e.want(err, "")
			want2, _ := full.Items[i].AppendJSON(nil, app.FieldSet{"name": {}, "price": {}})
			e.same(fmt.Sprintf("light %+v: doc %d trimmed", q, i), string(got), string(want2))
			got, _ = light.Items[i].AppendJSON(nil, nil)
			e.same(fmt.Sprintf("light %+v: doc %d", q, i), string(got), string(want))
		}
	}
}

// checkBorrowedDocs checks that Borrow may hand out the transaction's own
// bytes: the same page, read inside it (and a page without Borrow keeps its
// bytes past it).
func checkBorrowedDocs(e *env, a, cat uint64) {
	// Borrow may hand out the transaction's own bytes: the same page, read
	// inside it (and a page without Borrow keeps its bytes past it).
	for _, q := range []app.ProductQuery{{MinPrice: -1, MaxPrice: -1}, {MinPrice: -1, MaxPrice: -1, Q: "thing"}, {MinPrice: -1, MaxPrice: -1, CategoryID: cat, Light: true}} {
		var owned app.Page[app.Doc]
		var want, got []string
		e.view(func(tx app.Tx) (err error) {
			if owned, err = tx.ProductDocs(a, q); err != nil {
				return err
			}
			bq := q
			bq.Borrow = true
			borrowed, err := tx.ProductDocs(a, bq)
			if err != nil {
				return err
			}
			for _, d := range borrowed.Items {
				b, err := d.AppendJSON(nil, nil)
				if err != nil {
					return err
				}
				got = append(got, string(b))
			}
			e.same(fmt.Sprintf("borrow %+v: next", q), borrowed.Next == nil, owned.Next == nil)
			return nil
		})
		for _, d := range owned.Items {
			b, _ := d.AppendJSON(nil, nil)
			want = append(want, string(b))
		}
		e.same(fmt.Sprintf("borrow %+v: docs", q), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// testProductStock: PutProductStock writes the stock into the record, the
// doc and the in_stock filter.
func testProductStock(e *env) {
	a := e.store("a")
	p := product(a, 0, "Boot", 100, 2)
	e.update(func(tx app.Tx) error { return tx.PutProduct(p) })
	e.update(func(tx app.Tx) error {
		q, err := tx.Product(a, p.ID)
		if err != nil {
			return err
		}
		if !q.TakeStock(0, 2) {
			return fmt.Errorf("stock 2 cannot give 2")
		}
		return tx.PutProductStock(q)
	})
	e.view(func(tx app.Tx) error {
		q, err := tx.Product(a, p.ID)
		e.want(err, "")
		e.same("record", q.Stock, int64(0))
		d, err := tx.ProductDoc(a, p.ID)
		e.want(err, "")
		e.same("doc", e.doc(d).Stock, int64(0))
		pg, err := tx.ProductDocs(a, app.ProductQuery{MinPrice: -1, MaxPrice: -1, InStock: true})
		e.same("out of stock filtered", len(pg.Items), 0)
		return err
	})
	e.same("missing product", e.code(func(tx app.Tx) error {
		q := product(a, 0, "Ghost", 1, 1)
		q.ID = 999
		return tx.PutProductStock(q)
	}), app.ENotFound)
	testProductStockInOneTx(e, a)
}

// testProductStockInOneTx: several stock writes of one product in one
// transaction (a group commit of checkouts) leave the doc and the in_stock
// filter as the last one; a write after them (price, delete) wins.
func testProductStockInOneTx(e *env, a uint64) {
	p := product(a, 0, "Lamp", 100, 3)
	e.update(func(tx app.Tx) error { return tx.PutProduct(p) })
	take := func(tx app.Tx) error { return takeOne(tx, a, p.ID) }
	e.update(func(tx app.Tx) error {
		for range 3 {
			if err := take(tx); err != nil {
				return err
			}
		}
		return nil
	})
	e.view(func(tx app.Tx) error {
		d, err := tx.ProductDoc(a, p.ID)
		e.want(err, "")
		e.same("doc after three takes", e.doc(d).Stock, int64(0))
		pg, err := tx.ProductDocs(a, app.ProductQuery{MinPrice: -1, MaxPrice: -1, InStock: true, Q: "lamp"})
		e.same("sold out lamp filtered", len(pg.Items), 0)
		return err
	})
	e.update(func(tx app.Tx) error { // restock, then change the price in the same transaction
		q, err := tx.Product(a, p.ID)
		if err != nil {
			return err
		}
		q.Stock = 5
		if err := tx.PutProductStock(q); err != nil {
			return err
		}
		q.Price = 250
		return tx.PutProduct(q)
	})
	e.view(func(tx app.Tx) error {
		d, err := tx.ProductDoc(a, p.ID)
		e.want(err, "")
		e.same("doc after restock and price", [2]any{e.doc(d).Stock, e.doc(d).Price}, [2]any{int64(5), "2.50"})
		pg, err := tx.ProductDocs(a, app.ProductQuery{MinPrice: 200, MaxPrice: 300, InStock: true, Q: "lamp"})
		e.same("lamp by its new price", len(pg.Items), 1)
		return err
	})
	e.update(func(tx app.Tx) error {
		if err := take(tx); err != nil {
			return err
		}
		return tx.DeleteProduct(a, p.ID)
	})
	e.view(func(tx app.Tx) error {
		_, err := tx.ProductDoc(a, p.ID)
		e.want(err, app.ENotFound)
		pg, err := tx.ProductDocs(a, app.ProductQuery{MinPrice: -1, MaxPrice: -1, Q: "lamp"})
		e.same("deleted lamp listed", len(pg.Items), 0)
		return err
	})
}

// takeOne takes one of a product's stock, as a checkout does.
func takeOne(tx app.Tx, storeID, id uint64) error {
	q, err := tx.Product(storeID, id)
	if err != nil {
		return err
	}
	if !q.TakeStock(0, 1) {
		return fmt.Errorf("no stock left")
	}
	return tx.PutProductStock(q)
}
