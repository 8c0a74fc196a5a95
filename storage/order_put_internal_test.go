package storage

import (
	"bytes"
	"errors"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"storefront/app"
)

// TestPutOrderExact: PutOrder undoes the order as stored, whatever the
// caller did to its copy: an order changed twice in one transaction, read
// twice, changed around PutOrder, or written by a group commit that was
// retried keeps exactly one status and customer key and the right stats.
func TestPutOrderExact(t *testing.T) {
	type state struct {
		status   string
		customer uint64
		stats    [3]int64 // paid orders, gross, refunded of the order's day
	}
	setup := func(t *testing.T) (*DB, *app.Order) {
		db, err := Open(filepath.Join(t.TempDir(), "o.db"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		o := benchOrder(1, 0)
		if err := db.update(func(tx *Tx) error { return tx.CreateOrder(o) }); err != nil {
			t.Fatal(err)
		}
		return db, o
	}
	check := func(t *testing.T, db *DB, o *app.Order, want state) {
		t.Helper()
		var got state
		err := db.View(func(atx app.Tx) error {
			tx := atx.(*Tx)
			id := u64(o.ID)
			keysOf := func(b []byte) (out [][]byte) {
				c := tx.b(b).Cursor()
				for k, _ := c.First(); k != nil; k, _ = c.Next() {
					if bytes.HasSuffix(k, id) {
						out = append(out, k)
					}
				}
				return out
			}
			status, customer := keysOf(bIdxOrdersStatus), keysOf(bIdxOrdersCust)
			if len(status) != 1 || len(customer) != 1 {
				t.Fatalf("status keys %q, customer keys %q: want one of each", status, customer)
			}
			got.status, got.customer = string(status[0][8:len(status[0])-9]), idFromKeyEnd(customer[0][:16])
			days, err := tx.OrderDayStats(o.StoreID, o.CreatedAt, o.CreatedAt.AddDate(0, 0, 1))
			if err != nil {
				return err
			}
			for _, d := range days {
				got.stats = [3]int64{d.Orders, int64(d.Gross), int64(d.Refunded)}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
		if err := db.Verify(); err != nil {
			t.Errorf("verify: %v", err)
		}
	}
	pay := func(o *app.Order) { o.Status, o.PaymentStatus = app.OrderConfirmed, app.PaymentPaid }
	total := int64(benchOrder(1, 0).Total)

	t.Run("TwiceInOneTx", func(t *testing.T) {
		db, o := setup(t)
		err := db.update(func(tx *Tx) error {
			o, err := tx.Order(1, o.ID)
			if err != nil {
				return err
			}
			pay(o)
			if err := tx.PutOrder(o); err != nil {
				return err
			}
			o.Status, o.CustomerID = app.OrderDelivered, 5
			if err := tx.PutOrder(o); err != nil {
				return err
			}
			o.PaymentStatus, o.RefundedAmount = app.PaymentPartiallyRefunded, 100
			return tx.PutOrder(o)
		})
		if err != nil {
			t.Fatal(err)
		}
		check(t, db, o, state{app.OrderDelivered, 5, [3]int64{1, total, 100}})
	})
	t.Run("MutatedAfterRead", func(t *testing.T) {
		db, o := setup(t)
		err := db.update(func(tx *Tx) error {
			a, err := tx.Order(1, o.ID)
			if err != nil {
				return err
			}
			a.Status, a.PaymentStatus, a.CustomerID = app.OrderCancelled, app.PaymentPaid, 9 // never written
			b, err := tx.Order(1, o.ID)
			if err != nil {
				return err
			}
			pay(b)
			return tx.PutOrder(b)
		})
		if err != nil {
			t.Fatal(err)
		}
		check(t, db, o, state{app.OrderConfirmed, 0, [3]int64{1, total, 0}})
	})
	t.Run("TwoCopies", func(t *testing.T) {
		db, o := setup(t)
		err := db.update(func(tx *Tx) error {
			a, err := tx.Order(1, o.ID)
			if err != nil {
				return err
			}
			b, err := tx.Order(1, o.ID)
			if err != nil {
				return err
			}
			pay(b)
			if err := tx.PutOrder(b); err != nil {
				return err
			}
			a.Status = app.OrderCancelled // over b's write: its keys and stats go
			return tx.PutOrder(a)
		})
		if err != nil {
			t.Fatal(err)
		}
		check(t, db, o, state{app.OrderCancelled, 0, [3]int64{}})
	})
	t.Run("WrittenAround", func(t *testing.T) {
		db, o := setup(t)
		err := db.update(func(tx *Tx) error {
			a, err := tx.Order(1, o.ID)
			if err != nil {
				return err
			}
			// another writer replaces the record and its keys without PutOrder
			other := *a
			pay(&other)
			other.CustomerID = 7
			raw, err := encodeOrder(&other)
			if err != nil {
				return err
			}
			if err := tx.b(bIdxOrdersStatus).Delete(orderStatusKey(a)); err != nil {
				return err
			}
			if err := tx.b(bIdxOrdersCust).Delete(orderCustomerKey(a)); err != nil {
				return err
			}
			if err := tx.putOrderDerived(a, &other); err != nil {
				return err
			}
			for b, k := range map[string][]byte{string(bIdxOrdersStatus): orderStatusKey(&other), string(bIdxOrdersCust): orderCustomerKey(&other)} {
				if err := tx.b([]byte(b)).Put(k, nil); err != nil {
					return err
				}
			}
			if err := tx.b(bOrders).Put(keyOf(1).id(o.ID), raw); err != nil {
				return err
			}
			a.Status = app.OrderDelivered
			return tx.PutOrder(a)
		})
		if err != nil {
			t.Fatal(err)
		}
		check(t, db, o, state{app.OrderDelivered, 0, [3]int64{}})
	})
	t.Run("GroupRetried", func(t *testing.T) {
		db, o := setup(t)
		change := func(from string, f func(*app.Order), fail bool) *batchCall {
			return &batchCall{err: make(chan error, 1), fn: func(tx *Tx) error {
				x, err := tx.Order(1, o.ID)
				if err != nil || x.Status != from {
					return err
				}
				f(x)
				if err := tx.PutOrder(x); err != nil {
					return err
				}
				if fail {
					return errors.New("boom")
				}
				return nil
			}}
		}
		group := []*batchCall{
			change(app.OrderPending, pay, false),
			change(app.OrderConfirmed, func(x *app.Order) { x.Status, x.CustomerID = app.OrderDelivered, 3 }, true),
			change(app.OrderConfirmed, func(x *app.Order) {
				x.PaymentStatus, x.RefundedAmount = app.PaymentPartiallyRefunded, 50
			}, false),
		}
		db.commitGroup(group)
		for i, want := range []error{nil, errTrySolo, nil} {
			if err := <-group[i].err; !errors.Is(err, want) {
				t.Errorf("call %d: got %v, want %v", i, err, want)
			}
		}
		check(t, db, o, state{app.OrderConfirmed, 0, [3]int64{1, total, 50}})
	})
	t.Run("ReadBack", func(t *testing.T) {
		db, o := setup(t)
		var got *app.Order
		err := db.update(func(tx *Tx) error {
			a, err := tx.Order(1, o.ID)
			if err != nil {
				return err
			}
			pay(a)
			a.UpdatedAt = a.UpdatedAt.Add(time.Minute)
			if err := tx.PutOrder(a); err != nil {
				return err
			}
			a.Status = app.OrderCancelled // after the write: not stored
			got, err = tx.Order(1, o.ID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		want := *o
		pay(&want)
		want.UpdatedAt = want.UpdatedAt.Add(time.Minute)
		if !reflect.DeepEqual(got, &want) {
			t.Errorf("got %+v, want %+v", got, &want)
		}
	})
}

// TestOrderStatsExactOverUpdates: the day stats equal the stats recomputed
// from the orders after every write of a long random sequence of order
// updates (status and payment changes, partial and full refunds, a total
// changed, an order moved to another day or currency), one or several
// updates of one or two orders per transaction.
func TestOrderStatsExactOverUpdates(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "o.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	orders := map[uint64]app.Order{} // as written
	err = db.update(func(tx *Tx) error {
		for i := 0; i < 6; i++ {
			o := benchOrder(1, 0)
			o.CreatedAt = o.CreatedAt.AddDate(0, 0, i%3).Add(time.Duration(i) * 5 * time.Hour)
			if err := tx.CreateOrder(o); err != nil {
				return err
			}
			orders[o.ID] = *o
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]uint64, 0, len(orders))
	for id := range orders {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	statuses := []string{app.OrderPending, app.OrderConfirmed, app.OrderDelivered, app.OrderCancelled}
	changes := []func(o *app.Order){
		func(o *app.Order) { o.Status = statuses[rng.IntN(len(statuses))] },
		func(o *app.Order) { o.PaymentStatus, o.RefundedAmount = app.PaymentPaid, 0 },
		func(o *app.Order) { o.PaymentStatus, o.RefundedAmount = app.PaymentUnpaid, 0 },
		func(o *app.Order) { o.PaymentStatus, o.RefundedAmount = app.PaymentFailed, 0 },
		func(o *app.Order) {
			o.PaymentStatus, o.RefundedAmount = app.PaymentPartiallyRefunded, app.Money(1+rng.IntN(int(o.Total)-1))
		},
		func(o *app.Order) { o.PaymentStatus, o.RefundedAmount = app.PaymentRefunded, o.Total },
		func(o *app.Order) {
			o.Total = app.Money(1000 + rng.IntN(9000))
			o.RefundedAmount = min(o.RefundedAmount, o.Total)
		},
		func(o *app.Order) { o.CreatedAt = o.CreatedAt.Add(time.Duration(rng.IntN(49)-24) * time.Hour) },
		func(o *app.Order) { o.Currency = []string{"USD", "EUR"}[rng.IntN(2)] },
		func(o *app.Order) { o.Address = "2 Side St" },
	}
	from, to := benchOrder(1, 0).CreatedAt.AddDate(0, 0, -400), benchOrder(1, 0).CreatedAt.AddDate(0, 0, 400)
	for step := 0; step < 400; step++ {
		err := db.update(func(tx *Tx) error {
			for range 1 + rng.IntN(3) {
				o, err := tx.Order(1, ids[rng.IntN(len(ids))])
				if err != nil {
					return err
				}
				for range 1 + rng.IntN(2) {
					changes[rng.IntN(len(changes))](o)
				}
				if err := tx.PutOrder(o); err != nil {
					return err
				}
				orders[o.ID] = *o
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][3]int64{}
		for _, o := range orders {
			if n, g, r := app.OrderStatsOf(&o); n != 0 || g != 0 || r != 0 {
				k := app.StatsDay(o.CreatedAt).Format(time.DateOnly) + " " + o.Currency
				s := want[k]
				want[k] = [3]int64{s[0] + n, s[1] + int64(g), s[2] + int64(r)}
			}
		}
		got := map[string][3]int64{}
		err = db.View(func(atx app.Tx) error {
			days, err := atx.(*Tx).OrderDayStats(1, from, to)
			for _, d := range days {
				got[d.Day.Format(time.DateOnly)+" "+d.Currency] = [3]int64{d.Orders, int64(d.Gross), int64(d.Refunded)}
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Fatalf("step %d: got %v, want %v", step, got, want)
		}
	}
	if err := db.Verify(); err != nil {
		t.Fatal(err)
	}
}
