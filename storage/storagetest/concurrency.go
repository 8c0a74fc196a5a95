package storagetest

import (
	"errors"
	"fmt"
	"sync/atomic"

	"storefront/app"
)

var errSoldOut = errors.New("sold out")

// testConcurrentStock: parallel writers taking one unit each of a product
// (read, check, write in one Update, as checkout does) sell exactly the
// stock: never more, never a negative count, whatever the interleaving.
func testConcurrentStock(e *env) {
	sid := e.store("a")
	p := product(sid, 0, "Scarce", 100, 10)
	p.Variants = []app.Variant{{ID: 1, Name: "V", Price: 100, Stock: 5, Attributes: map[string]string{}}}
	e.update(func(tx app.Tx) error { return tx.PutProduct(p) })
	for _, run := range []struct {
		name string
		tx   func(func(app.Tx) error) error
	}{{"Update", e.db.Update}, {"Batch", e.db.Batch}} {
		var sold atomic.Int64
		parallel(16, func(int) {
			err := run.tx(func(tx app.Tx) error {
				q, err := tx.Product(sid, p.ID)
				if err != nil {
					return err
				}
				if !q.TakeStock(1, 1) {
					return errSoldOut
				}
				return tx.PutProductStock(q)
			})
			switch {
			case err == nil:
				sold.Add(1)
			case !errors.Is(err, errSoldOut):
				e.t.Errorf("%s: %v", run.name, err)
			}
		})
		want := int64(5)
		if run.name == "Batch" {
			want = 0 // the first run sold out
		}
		e.same(run.name+" sold", sold.Load(), want)
	}
	e.view(func(tx app.Tx) error {
		q, err := tx.Product(sid, p.ID)
		e.want(err, "")
		e.same("left", q.Variants[0].Stock, int64(0))
		d, err := tx.ProductDoc(sid, p.ID)
		e.want(err, "")
		e.same("doc left", e.doc(d).Stock, q.AvailableStock())
		return nil
	})
}

// testConcurrentIDs: ids handed out in parallel transactions are unique, in
// a per-store sequence and in every create.
func testConcurrentIDs(e *env) {
	sid := e.store("a")
	const n = 24
	seqs, orders := make([]uint64, n), make([]uint64, n)
	parallel(n, func(i int) {
		err := e.db.Update(func(tx app.Tx) error {
			var err error
			if seqs[i], err = tx.NextID(sid, "seq"); err != nil {
				return err
			}
			o := order(sid, 1, app.OrderPending, t0)
			if err := tx.CreateOrder(o); err != nil {
				return err
			}
			orders[i] = o.ID
			return nil
		})
		if err != nil {
			e.t.Error(err)
		}
	})
	for what, list := range map[string][]uint64{"NextID": seqs, "CreateOrder": orders} {
		seen := map[uint64]bool{}
		for _, id := range list {
			if id == 0 || seen[id] {
				e.t.Fatalf("%s: ids %v: zero or repeated", what, list)
			}
			seen[id] = true
		}
	}
	var pg app.Page[*app.Order]
	e.view(func(tx app.Tx) (err error) { pg, err = tx.Orders(sid, "", app.ListParams{Limit: 100}); return })
	e.same("orders stored", len(pg.Items), n)
}

// testConcurrentUnique: of parallel creates of one unique key (an email, a
// slug, a coupon code, a subdomain), one wins; the others are conflict.
func testConcurrentUnique(e *env) {
	sid := e.store("a")
	cases := map[string]func(tx app.Tx, i int) error{
		"customer email": func(tx app.Tx, i int) error {
			return tx.CreateCustomer(&app.Customer{StoreID: sid, Email: "same@example.com"})
		},
		"product slug": func(tx app.Tx, i int) error { return tx.PutProduct(product(sid, 0, "Same", 1, 1)) },
		"coupon code":  func(tx app.Tx, i int) error { return tx.PutCoupon(coupon(sid, "SAME")) },
		"subdomain": func(tx app.Tx, i int) error {
			return tx.CreateStore(&app.Store{Name: "s", Subdomain: "same", Currency: "USD", APIKeyHash: []byte(fmt.Sprint("key", i))})
		},
		"review owner": func(tx app.Tx, i int) error {
			return tx.CreateReview(&app.Review{StoreID: sid, ProductID: 1, CustomerID: 1, Rating: 5, Status: app.ReviewPending, CreatedAt: t0})
		},
	}
	for name, create := range cases {
		var won, lost atomic.Int64
		parallel(8, func(i int) {
			err := e.db.Update(func(tx app.Tx) error { return create(tx, i) })
			switch app.ErrorCode(err) {
			case "":
				won.Add(1)
			case app.EConflict:
				lost.Add(1)
			default:
				if err != nil {
					e.t.Errorf("%s: %v", name, err)
				}
			}
		})
		e.same(name+": won/lost", fmt.Sprint(won.Load(), lost.Load()), "1 7")
	}
}

// testConcurrentBatch: parallel Batch read-modify-writes of one record lose
// no update (Batch may run a function again; it rebuilds from what it reads).
func testConcurrentBatch(e *env) {
	sid := e.store("a")
	c := coupon(sid, "COUNT")
	e.update(func(tx app.Tx) error { return tx.PutCoupon(c) })
	const n = 20
	parallel(n, func(int) {
		err := e.db.Batch(func(tx app.Tx) error {
			x, err := tx.Coupon(sid, c.ID)
			if err != nil {
				return err
			}
			x.Uses++
			return tx.PutCoupon(x)
		})
		if err != nil {
			e.t.Error(err)
		}
	})
	e.view(func(tx app.Tx) error {
		x, err := tx.Coupon(sid, c.ID)
		e.same("uses", x.Uses, int64(n))
		return err
	})
}
