package storagetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"storefront/app"
)

// testAdminProducts: the admin's product list (Tx.AdminProducts) in every
// status, category, sort, search and page, against app.AdminProductQuery's
// Match and AdminLess over every product, before and after writes that move
// products in and out of the lists (stock, activation, category, rename,
// delete).
func testAdminProducts(e *env) { adminProducts(e) }

// AdminProductsCase runs the admin product list case on db (an empty
// database): for a backend's own tests that force its internal paths.
func AdminProductsCase(t *testing.T, db app.DB) {
	adminProducts(&env{t: t, db: db, at: t0})
}

func adminProducts(e *env) {
	a, b := e.store("a"), e.store("b")
	c1, c2 := category(a, "Shoes"), category(a, "Bags")
	e.update(func(tx app.Tx) error {
		if err := tx.PutCategory(c1); err != nil {
			return err
		}
		return tx.PutCategory(c2)
	})
	made := seedAdminProducts(e, a, b, c1.ID, c2.ID)
	e.checkAdmin(a, c1.ID, c2.ID)

	changeAdminProducts(e, a, c2.ID, made)
	e.checkAdmin(a, c1.ID, c2.ID)
	e.view(func(tx app.Tx) error {
		pg, err := tx.AdminProducts(a, app.AdminProductQuery{Words: []string{"zebra"}, Sort: "newest", Limit: 10})
		e.same("renamed", fmt.Sprint(pg.Total, len(pg.Items)), "1 1")
		e.same("renamed id", pg.Items[0].ID, made[1].ID)
		pg, err2 := tx.AdminProducts(b+100, app.AdminProductQuery{Sort: "newest", Limit: 10})
		e.same("unknown store", fmt.Sprint(pg.Total, len(pg.Items)), "0 0")
		return cmpErr(err, err2)
	})
}

// seedAdminProducts puts 36 products in store a whose names, prices and
// stock repeat, so the sorts' ties show, and 5 in store b.
func seedAdminProducts(e *env, a, b, c1, c2 uint64) []*app.Product {
	names := []string{"Red Boot", "Blue Boot", "Rain Bag", "Trail Runner", "Red Bag"}
	var made []*app.Product
	e.update(func(tx app.Tx) error {
		for i := range 36 {
			cat := []uint64{0, c1, c2}[i%3]
			// Names and prices repeat, so the sorts' ties show.
			p := product(a, cat, names[i%len(names)], app.Money(100+i%4*50), int64(i%9))
			p.Slug = fmt.Sprintf("item-%d", i)
			p.IsActive = i%4 != 1
			p.LowStockThreshold = int64(i % 3 * 2) // 0 (never), 2 or 4
			if i%5 == 0 {
				p.Variants = []app.Variant{{ID: 1, Name: "S", SKU: fmt.Sprintf("SKU-%d-S", i), Price: p.Price, Stock: int64(i % 6)},
					{ID: 2, Name: "M", SKU: fmt.Sprintf("SKU-%d-M", i), Price: p.Price, Stock: 1}}
			}
			if err := tx.PutProduct(p); err != nil {
				return err
			}
			made = append(made, p)
		}
		// Another store's products are never listed.
		for i := range 5 {
			q := product(b, 0, "Red Boot other", 100, int64(i))
			q.Slug, q.LowStockThreshold = fmt.Sprintf("other-%d", i), 9
			if err := tx.PutProduct(q); err != nil {
				return err
			}
		}
		return nil
	})
	return made
}

// changeAdminProducts takes stock to the threshold and back, hides and shows
// a product, changes a category, renames and deletes.
func changeAdminProducts(e *env, a, c2 uint64, made []*app.Product) {
	// Stock taken to the threshold and back, a product hidden and shown, a
	// category changed, a rename, a delete.
	e.update(func(tx app.Tx) error {
		p, err := tx.Product(a, made[3].ID)
		if err != nil {
			return err
		}
		p.LowStockThreshold, p.Stock = 3, 3
		if err := tx.PutProduct(p); err != nil {
			return err
		}
		q, err := tx.Product(a, made[8].ID)
		if err != nil {
			return err
		}
		q.Stock = 0
		if err := tx.PutProductStock(q); err != nil {
			return err
		}
		r, err := tx.Product(a, made[10].ID) // low (stock 1, threshold 4)
		if err != nil {
			return err
		}
		r.Stock = 50
		if err := tx.PutProductStock(r); err != nil {
			return err
		}
		s, err := tx.Product(a, made[1].ID)
		if err != nil {
			return err
		}
		s.IsActive, s.CategoryID, s.Name = true, c2, "Zebra Clog"
		if err := tx.PutProduct(s); err != nil {
			return err
		}
		u, err := tx.Product(a, made[4].ID)
		if err != nil {
			return err
		}
		u.IsActive, u.Price = false, 75
		if err := tx.PutProduct(u); err != nil {
			return err
		}
		return tx.DeleteProduct(a, made[6].ID)
	})
}

func cmpErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkAdmin compares every query of the admin list of store sid with the
// definition.
func (e *env) checkAdmin(sid uint64, cats ...uint64) {
	e.t.Helper()
	var every []*app.Product
	e.view(func(tx app.Tx) error {
		lp := app.ListParams{Sort: app.SortNewest, Limit: 100}
		for {
			pg, err := tx.Products(sid, lp)
			if err != nil {
				return err
			}
			every = append(every, pg.Items...)
			if pg.Next == nil {
				return nil
			}
			lp.After = pg.Next
		}
	})
	searches := []string{"", "red", "boot", "red bo", "sku-10", "item-3", "ITEM", "nothing", "bag red", "b"} // "b": two words of "Blue Boot"
	for _, status := range app.AdminProductStatuses {
		for _, cat := range append([]uint64{0}, cats...) {
			for _, sort := range app.AdminProductSorts {
				for _, text := range searches {
					q := app.AdminProductQuery{Q: text, Words: app.QueryWords(text), Status: status, CategoryID: cat, Sort: sort}
					e.checkAdminQuery(sid, every, q)
				}
			}
		}
	}
}

// checkAdminQuery checks every page of q, at two page sizes, and a page
// past the end against the products of every that match q in q's order.
func (e *env) checkAdminQuery(sid uint64, every []*app.Product, q app.AdminProductQuery) {
	e.t.Helper()
	var want []string
	var match []*app.Product
	for _, p := range every {
		if q.Match(p) {
			match = append(match, p)
		}
	}
	slices.SortStableFunc(match, q.AdminLess)
	for _, p := range match {
		want = append(want, fmt.Sprint(p.ID))
	}
	for _, limit := range []int{100, 7} {
		var got []string
		for offset := 0; offset < len(want) || offset == 0; offset += limit {
			q.Offset, q.Limit = offset, limit
			e.view(func(tx app.Tx) error {
				pg, err := tx.AdminProducts(sid, q)
				if err != nil {
					return err
				}
				if pg.Total != len(want) {
					e.t.Fatalf("%+v: total %d, want %d", q, pg.Total, len(want))
				}
				for _, p := range pg.Items {
					if p.StoreID != sid {
						e.t.Fatalf("%+v: a product of store %d", q, p.StoreID)
					}
					got = append(got, fmt.Sprint(p.ID))
				}
				return nil
			})
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			e.t.Fatalf("%+v: got %v, want %v", q, got, want)
		}
	}
	// A page past the end is empty but counts.
	q.Offset, q.Limit = len(want)+5, 5
	e.view(func(tx app.Tx) error {
		pg, err := tx.AdminProducts(sid, q)
		e.same(fmt.Sprintf("%+v past the end", q), fmt.Sprint(len(pg.Items), pg.Total), fmt.Sprint(0, len(want)))
		return err
	})
}
