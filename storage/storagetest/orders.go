package storagetest

import (
	"fmt"
	"time"

	"storefront/app"
)

func order(sid, cid uint64, status string, at time.Time) *app.Order {
	return &app.Order{StoreID: sid, CustomerID: cid, Status: status, PaymentStatus: app.PaymentUnpaid, PaymentMethod: app.WalletA,
		Items:    []app.OrderItem{{ProductID: 1, Name: "P", UnitPrice: 100, Quantity: 2, LineTotal: 200}},
		Subtotal: 200, Total: 200, Currency: "USD", CreatedAt: at, UpdatedAt: at}
}

func testOrders(e *env) {
	a, b := e.store("a"), e.store("b")
	c1, c2 := e.customer(a, "a@example.com"), e.customer(a, "b@example.com")
	var o []*app.Order
	e.update(func(tx app.Tx) error {
		for i, x := range []struct {
			cid    uint64
			status string
		}{{c1, app.OrderPending}, {c2, app.OrderPending}, {0, app.OrderConfirmed}, {c1, app.OrderPending}, {c1, app.OrderDelivered}} {
			ord := order(a, x.cid, x.status, t0.Add(time.Duration(i)*time.Minute))
			if err := tx.CreateOrder(ord); err != nil {
				return err
			}
			o = append(o, ord)
		}
		return tx.CreateOrder(order(b, c1, app.OrderPending, t0))
	})
	oid := func(x *app.Order) string { return fmt.Sprint(x.ID) }
	list := func(status string) []string {
		return sorted(e, oid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Order], error) { return tx.Orders(a, status, lp) })
	}
	e.same("all newest first", list(""), ids(o[4].ID, o[3].ID, o[2].ID, o[1].ID, o[0].ID))
	e.same("pending", list(app.OrderPending), ids(o[3].ID, o[1].ID, o[0].ID))
	e.same("cancelled", list(app.OrderCancelled), ids())
	e.same("a customer's", sorted(e, oid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Order], error) {
		return tx.CustomerOrders(a, c1, lp)
	}), ids(o[4].ID, o[3].ID, o[0].ID))
	checkOrderReads(e, a, b, o)
	// A status change moves the order between the status lists.
	o[0].Status = app.OrderCancelled
	e.update(func(tx app.Tx) error { return tx.PutOrder(o[0]) })
	e.same("pending after a move", list(app.OrderPending), ids(o[3].ID, o[1].ID))
	e.same("cancelled after a move", list(app.OrderCancelled), ids(o[0].ID))
	e.same("put a missing one", e.code(func(tx app.Tx) error {
		x := order(a, c1, app.OrderPending, t0)
		x.ID = 999
		return tx.PutOrder(x)
	}), app.ENotFound)
}

// checkOrderReads checks an order's round trip, the pending orders before a
// time and the reads by id, per store.
func checkOrderReads(e *env, a, b uint64, o []*app.Order) {
	oid := func(x *app.Order) string { return fmt.Sprint(x.ID) }
	e.view(func(tx app.Tx) error {
		got, err := tx.Order(a, o[0].ID)
		e.want(err, "")
		e.same("round trip", got.Total == 200 && len(got.Items) == 1 && got.Items[0].LineTotal == 200 && got.CreatedAt.Equal(t0), true)
		_, err = tx.Order(b, o[4].ID)
		e.want(err, app.ENotFound)
		pending, err := tx.PendingOrdersBefore(a, t0.Add(3*time.Minute)) // created before: o[0], o[1]
		e.want(err, "")
		var got2 []string
		for _, x := range pending {
			got2 = append(got2, oid(x))
		}
		e.same("pending before, oldest first", got2, ids(o[0].ID, o[1].ID))
		// By id: in the order asked, leaving out an id of no order; store b
		// has one order, so o[3]'s id names none of b's.
		batch, err := tx.OrdersByID(a, []uint64{o[3].ID, 999, o[0].ID, o[4].ID})
		e.want(err, "")
		var got3 []string
		for _, x := range batch {
			got3 = append(got3, oid(x))
		}
		e.same("by id", got3, ids(o[3].ID, o[0].ID, o[4].ID))
		none, err := tx.OrdersByID(b, []uint64{o[3].ID})
		e.want(err, "")
		e.same("by id, another store", len(none), 0)
		none, err = tx.OrdersByID(a, nil)
		e.want(err, "")
		e.same("by id, no ids", len(none), 0)
		return nil
	})
}

// bodyHash is a request body's hash as the checkout stores it: SHA-256 in
// lowercase hex (here of nothing real).
func bodyHash(n int) string { return fmt.Sprintf("%064x", n) }

func testPayments(e *env) {
	a, b := e.store("a"), e.store("b")
	ps := &app.PaymentSession{ID: "sess-1", StoreID: a, Seq: 1, OrderID: 3, Method: app.WalletA, Amount: 500, Currency: "USD",
		Status: app.SessionOpen, Attempts: []app.PaymentAttempt{}, CreatedAt: t0, UpdatedAt: t0}
	e.update(func(tx app.Tx) error { return tx.PutPaymentSession(ps) })
	ps.Status, ps.PaidTxID = app.SessionPaid, "tx-9"
	e.update(func(tx app.Tx) error { return tx.PutPaymentSession(ps) })
	e.view(func(tx app.Tx) error {
		got, err := tx.PaymentSession(a, 1)
		e.want(err, "")
		e.same("updated", got.Status+"/"+got.PaidTxID+"/"+got.ID, app.SessionPaid+"/tx-9/sess-1")
		_, err = tx.PaymentSession(b, 1)
		e.want(err, app.ENotFound)
		_, err = tx.PaymentSession(a, 2)
		e.want(err, app.ENotFound)
		return nil
	})
}

// testIdempotency: records by store, customer (0: guest) and key; the sweep
// finds the old ones and deletes each only while it is still old.
func testIdempotency(e *env) {
	a, b := e.store("a"), e.store("b")
	putIdempotencyRecords(e, a, b)
	e.view(func(tx app.Tx) error {
		r, err := tx.IdempotencyRecord(a, 2, "k")
		e.want(err, "")
		e.same("by customer", r.BodyHash, bodyHash(2))
		r, err = tx.IdempotencyRecord(a, 0, "k")
		e.want(err, "")
		e.same("guest", r.BodyHash, bodyHash(3))
		_, err = tx.IdempotencyRecord(a, 1, "other")
		e.want(err, app.ENotFound)
		_, err = tx.IdempotencyRecord(a, 3, "k")
		e.want(err, app.ENotFound)
		return nil
	})
	sweepIdempotencyRecords(e, a, b)
}

// putIdempotencyRecords stores store a's records of customers 1, 2 and a
// guest, made at t0, t0+1h and t0+2h, and store b's of customer 1 at t0.
func putIdempotencyRecords(e *env, a, b uint64) {
	e.update(func(tx app.Tx) error {
		for i, r := range []*app.IdempotencyRecord{
			{StoreID: a, CustomerID: 1, Key: "k", BodyHash: bodyHash(1), OrderID: 1, CreatedAt: t0},
			{StoreID: a, CustomerID: 2, Key: "k", BodyHash: bodyHash(2), OrderID: 2, CreatedAt: t0.Add(time.Hour)},
			{StoreID: a, CustomerID: 0, Key: "k", BodyHash: bodyHash(3), OrderID: 3, CreatedAt: t0.Add(2 * time.Hour)},
			{StoreID: b, CustomerID: 1, Key: "k", BodyHash: bodyHash(4), OrderID: 4, CreatedAt: t0},
		} {
			if err := tx.PutIdempotencyRecord(r); err != nil {
				return fmt.Errorf("record %d: %w", i, err)
			}
		}
		return nil
	})
}

// sweepIdempotencyRecords: the records of putIdempotencyRecords found old,
// and deleted only while they are.
func sweepIdempotencyRecords(e *env, a, b uint64) {
	e.view(func(tx app.Tx) error {
		old, err := tx.IdempotencyRecordsBefore(a, t0.Add(time.Hour), 10) // only the one made at t0
		e.want(err, "")
		e.same("old records", len(old), 1)
		e.same("old record", fmt.Sprint(old[0].CustomerID, old[0].BodyHash), fmt.Sprint(1, bodyHash(1)))
		old, err = tx.IdempotencyRecordsBefore(a, t0.Add(48*time.Hour), 1)
		e.want(err, "")
		e.same("limited", len(old), 1)
		return nil
	})
	e.update(func(tx app.Tx) error {
		del := func(customerID uint64) (bool, error) {
			n, err := tx.DeleteIdempotencyRecords(a, []*app.IdempotencyRecord{{CustomerID: customerID, Key: "k"}}, t0.Add(time.Hour))
			return n == 1, err
		}
		done, err := del(2) // made later: kept
		e.want(err, "")
		e.same("newer deleted", done, false)
		done, err = del(1)
		e.want(err, "")
		e.same("old deleted", done, true)
		done, err = del(1)
		e.same("deleted twice", done, false)
		return err
	})
	e.view(func(tx app.Tx) error {
		_, err := tx.IdempotencyRecord(a, 1, "k")
		e.want(err, app.ENotFound)
		_, err = tx.IdempotencyRecord(a, 2, "k")
		e.want(err, "")
		_, err = tx.IdempotencyRecord(b, 1, "k") // another store's stays
		e.want(err, "")
		return nil
	})
	// a batch: the one made at t0+1h goes, not the later one nor an unknown one
	e.update(func(tx app.Tx) error {
		n, err := tx.DeleteIdempotencyRecords(a, []*app.IdempotencyRecord{{CustomerID: 2, Key: "k"}, {CustomerID: 0, Key: "k"}, {CustomerID: 9, Key: "k"}},
			t0.Add(90*time.Minute))
		e.same("batch deleted", n, 1)
		return err
	})
	e.view(func(tx app.Tx) error {
		_, err := tx.IdempotencyRecord(a, 2, "k")
		e.want(err, app.ENotFound)
		_, err = tx.IdempotencyRecord(a, 0, "k")
		e.want(err, "")
		return nil
	})
}

func coupon(sid uint64, code string) *app.Coupon {
	return &app.Coupon{StoreID: sid, Code: code, Type: app.CouponPercent, Value: 10, IsActive: true, CreatedAt: t0, UpdatedAt: t0}
}

func testCoupons(e *env) {
	a, b := e.store("a"), e.store("b")
	c1, c2 := coupon(a, "SAVE10"), coupon(a, "WELCOME")
	e.update(func(tx app.Tx) error {
		if err := tx.PutCoupon(c1); err != nil {
			return err
		}
		return tx.PutCoupon(c2)
	})
	e.same("taken code, any case", e.code(func(tx app.Tx) error { return tx.PutCoupon(coupon(a, "save10")) }), app.EConflict)
	e.same("same code, other store", e.code(func(tx app.Tx) error { return tx.PutCoupon(coupon(b, "SAVE10")) }), "")
	e.view(func(tx app.Tx) error {
		c, err := tx.CouponByCode(a, "Save10")
		e.want(err, "")
		e.same("by code", c.ID, c1.ID)
		_, err = tx.CouponByCode(a, "NOPE")
		e.want(err, app.ENotFound)
		_, err = tx.Coupon(b, c2.ID+100)
		e.want(err, app.ENotFound)
		all, err := tx.Coupons(a)
		e.want(err, "")
		e.same("by id", len(all) == 2 && all[0].ID == c1.ID && all[1].ID == c2.ID, true)
		return nil
	})
	c1.Code, c1.Uses = "SAVE15", 4
	e.update(func(tx app.Tx) error { return tx.PutCoupon(c1) })
	e.view(func(tx app.Tx) error {
		_, err := tx.CouponByCode(a, "SAVE10")
		e.want(err, app.ENotFound)
		c, err := tx.CouponByCode(a, "SAVE15")
		e.want(err, "")
		e.same("updated", c.Uses, int64(4))
		return nil
	})
	e.same("update to a taken code", e.code(func(tx app.Tx) error {
		c := *c1
		c.Code = "WELCOME"
		return tx.PutCoupon(&c)
	}), app.EConflict)
	e.same("update a missing one", e.code(func(tx app.Tx) error {
		c := coupon(a, "GHOST")
		c.ID = 999
		return tx.PutCoupon(c)
	}), app.ENotFound)
	e.same("delete other store", e.code(func(tx app.Tx) error { return tx.DeleteCoupon(b, c2.ID+100) }), app.ENotFound)
	e.same("delete", e.code(func(tx app.Tx) error { return tx.DeleteCoupon(a, c2.ID) }), "")
	e.same("delete twice", e.code(func(tx app.Tx) error { return tx.DeleteCoupon(a, c2.ID) }), app.ENotFound)
	e.same("code free", e.code(func(tx app.Tx) error { return tx.PutCoupon(coupon(a, "WELCOME")) }), "")
}

func testRequests(e *env) {
	a, b := e.store("a"), e.store("b")
	mk := func(kind string, orderID uint64, status string) *app.Request {
		return &app.Request{StoreID: a, Kind: kind, OrderID: orderID, CustomerID: 1, Status: status, Reason: "r", ProofFiles: []string{}, CreatedAt: t0}
	}
	var r []*app.Request
	e.update(func(tx app.Tx) error {
		for _, x := range []*app.Request{
			mk(app.KindCancellation, 1, app.RequestPending),
			mk(app.KindRefund, 1, app.RequestPending),
			mk(app.KindCancellation, 2, app.RequestRejected),
			mk(app.KindCancellation, 1, app.RequestPending),
		} {
			if err := tx.CreateRequest(x); err != nil {
				return err
			}
			r = append(r, x)
		}
		return nil
	})
	e.same("ids per kind", r[0].ID != r[2].ID && r[2].ID != r[3].ID && r[0].ID != r[3].ID, true)
	rid := func(x *app.Request) string { return fmt.Sprint(x.ID) }
	list := func(kind, status string) []string {
		return sorted(e, rid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Request], error) {
			return tx.Requests(a, kind, status, lp)
		})
	}
	e.same("cancellations newest first", list(app.KindCancellation, ""), ids(r[3].ID, r[2].ID, r[0].ID))
	e.same("pending cancellations", list(app.KindCancellation, app.RequestPending), ids(r[3].ID, r[0].ID))
	e.same("refunds", list(app.KindRefund, ""), ids(r[1].ID))
	checkOrderRequests(e, a, b, r)
	now := t0.Add(time.Hour)
	r[0].Status, r[0].ReviewedBy, r[0].ReviewedAt = app.RequestApproved, 5, &now
	e.update(func(tx app.Tx) error { return tx.PutRequest(r[0]) })
	e.same("pending after a decision", list(app.KindCancellation, app.RequestPending), ids(r[3].ID))
	e.same("approved", list(app.KindCancellation, app.RequestApproved), ids(r[0].ID))
	e.same("put a missing one", e.code(func(tx app.Tx) error {
		x := mk(app.KindRefund, 1, app.RequestPending)
		x.ID = 999
		return tx.PutRequest(x)
	}), app.ENotFound)
}

// checkOrderRequests checks an order's requests and the reads by kind and id,
// per store.
func checkOrderRequests(e *env, a, b uint64, r []*app.Request) {
	rid := func(x *app.Request) string { return fmt.Sprint(x.ID) }
	e.view(func(tx app.Tx) error {
		got, err := tx.OrderRequests(a, app.KindCancellation, 1)
		e.want(err, "")
		var s []string
		for _, x := range got {
			s = append(s, rid(x))
		}
		e.same("an order's, newest first", s, ids(r[3].ID, r[0].ID))
		got, err = tx.OrderRequests(b, app.KindCancellation, 1)
		e.same("other store", len(got), 0)
		e.want(err, "")
		x, err := tx.Request(a, app.KindRefund, r[1].ID)
		e.want(err, "")
		e.same("get", x.Kind, app.KindRefund)
		if r[1].ID != r[0].ID {
			_, err = tx.Request(a, app.KindRefund, r[0].ID)
			e.want(err, app.ENotFound)
		}
		_, err = tx.Request(b, app.KindRefund, r[1].ID)
		e.want(err, app.ENotFound)
		return nil
	})
}
