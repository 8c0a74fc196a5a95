package storagetest

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"sort"
	"time"

	"storefront/app"
)

func testCustomers(e *env) {
	a, b := e.store("a"), e.store("b")
	c1 := e.customer(a, "Ann@Example.com")
	e.same("email taken, any case", e.code(func(tx app.Tx) error {
		return tx.CreateCustomer(&app.Customer{StoreID: a, Email: "ann@example.COM"})
	}), app.EConflict)
	cb := e.customer(b, "ann@example.com") // another store: another shopper
	c2, c3 := e.customer(a, "bob@example.com"), e.customer(a, "cy@example.com")
	e.view(func(tx app.Tx) error {
		c, err := tx.CustomerByEmail(a, "ANN@example.com")
		e.want(err, "")
		e.same("by email", c.ID, c1)
		e.same("kept as given", c.Email, "Ann@Example.com")
		c, err = tx.CustomerByEmail(b, "ann@example.com")
		e.want(err, "")
		e.same("by email, store b", c.ID, cb)
		_, err = tx.Customer(b, c3)
		if c3 != cb {
			e.want(err, app.ENotFound)
		}
		_, err = tx.CustomerByEmail(a, "nobody@example.com")
		e.want(err, app.ENotFound)
		return nil
	})
	got := sorted(e, func(c *app.Customer) string { return fmt.Sprint(c.ID) }, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Customer], error) {
		return tx.Customers(a, lp)
	})
	e.same("newest first", got, ids(c3, c2, c1))
	// A changed email moves the index; a taken one is conflict.
	e.same("email change to a taken one", e.code(func(tx app.Tx) error {
		c, _ := tx.Customer(a, c2)
		c.Email = "CY@example.com"
		return tx.PutCustomer(c)
	}), app.EConflict)
	e.update(func(tx app.Tx) error {
		c, err := tx.Customer(a, c2)
		if err != nil {
			return err
		}
		c.Email, c.EmailVerified = "robert@example.com", true
		return tx.PutCustomer(c)
	})
	e.view(func(tx app.Tx) error {
		_, err := tx.CustomerByEmail(a, "bob@example.com")
		e.want(err, app.ENotFound)
		c, err := tx.CustomerByEmail(a, "robert@example.com")
		e.want(err, "")
		e.same("updated", c.ID == c2 && c.EmailVerified, true)
		return nil
	})
	e.same("put a missing one", e.code(func(tx app.Tx) error {
		return tx.PutCustomer(&app.Customer{StoreID: a, ID: 999, Email: "x@example.com"})
	}), app.ENotFound)
}

func sessionKey(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }

func testSessionsAndCodes(e *env) {
	a, b := e.store("a"), e.store("b")
	c1, c2 := e.customer(a, "a@example.com"), e.customer(a, "b@example.com")
	k1, k2, k3 := sessionKey("1"), sessionKey("2"), sessionKey("3")
	e.update(func(tx app.Tx) error {
		for _, s := range []*app.Session{
			{StoreID: a, CustomerID: c1, Key: k1, Hash: []byte("h1"), CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)},
			{StoreID: a, CustomerID: c1, Key: k2, Hash: []byte("h2"), CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)},
			{StoreID: a, CustomerID: c2, Key: k3, Hash: []byte("h3"), CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)},
		} {
			if err := tx.PutSession(s); err != nil {
				return err
			}
		}
		return nil
	})
	keysOf := func(sid, cid uint64) []string {
		var out []string
		e.view(func(tx app.Tx) error {
			list, err := tx.Sessions(sid, cid)
			for _, s := range list {
				out = append(out, fmt.Sprintf("%x", s.Key[:2]))
			}
			return err
		})
		sort.Strings(out)
		return out
	}
	want := []string{fmt.Sprintf("%x", k1[:2]), fmt.Sprintf("%x", k2[:2])}
	sort.Strings(want)
	e.same("a customer's sessions", keysOf(a, c1), want)
	e.same("other store", len(keysOf(b, c1)), 0)
	// Rotation updates in place.
	e.update(func(tx app.Tx) error {
		s, err := tx.Session(a, k1)
		if err != nil {
			return err
		}
		s.Rotations, s.Hash = 1, []byte("h1b")
		return tx.PutSession(s)
	})
	e.view(func(tx app.Tx) error {
		s, err := tx.Session(a, k1)
		e.want(err, "")
		e.same("rotated", s.Rotations == 1 && bytes.Equal(s.Hash, []byte("h1b")), true)
		_, err = tx.Session(b, k1)
		e.want(err, app.ENotFound)
		return nil
	})
	e.update(func(tx app.Tx) error { return tx.DeleteSession(a, k1) })
	e.update(func(tx app.Tx) error { return tx.DeleteSession(a, k1) }) // an unknown key is no error
	e.same("after delete", keysOf(a, c1), []string{fmt.Sprintf("%x", k2[:2])})
	e.view(func(tx app.Tx) error {
		_, err := tx.Session(a, k1)
		e.want(err, app.ENotFound)
		return nil
	})

	testEmailCodes(e, a, b, c1, c2)
}

// testEmailCodes checks email codes: one per customer and purpose, replaced
// by the next.
func testEmailCodes(e *env, a, b, c1, c2 uint64) {
	// Email codes: one per customer and purpose, replaced by the next.
	e.update(func(tx app.Tx) error {
		for _, c := range []*app.EmailCode{
			{StoreID: a, CustomerID: c1, Purpose: "verify", Hash: []byte("1"), ExpiresAt: t0.Add(time.Hour)},
			{StoreID: a, CustomerID: c1, Purpose: "verify", Hash: []byte("2"), Tries: 1, ExpiresAt: t0.Add(time.Hour)},
			{StoreID: a, CustomerID: c1, Purpose: "reset", Hash: []byte("3"), ExpiresAt: t0.Add(time.Hour)},
		} {
			if err := tx.PutEmailCode(c); err != nil {
				return err
			}
		}
		return nil
	})
	e.view(func(tx app.Tx) error {
		c, err := tx.EmailCode(a, c1, "verify")
		e.want(err, "")
		e.same("replaced", string(c.Hash)+fmt.Sprint(c.Tries), "21")
		_, err = tx.EmailCode(a, c2, "verify")
		e.want(err, app.ENotFound)
		_, err = tx.EmailCode(b, c1, "verify")
		e.want(err, app.ENotFound)
		return nil
	})
	e.update(func(tx app.Tx) error { return tx.DeleteEmailCode(a, c1, "verify") })
	e.update(func(tx app.Tx) error { return tx.DeleteEmailCode(a, c1, "verify") }) // missing: no error
	e.view(func(tx app.Tx) error {
		_, err := tx.EmailCode(a, c1, "verify")
		e.want(err, app.ENotFound)
		_, err = tx.EmailCode(a, c1, "reset")
		e.want(err, "")
		return nil
	})
}

func testRevocations(e *env) {
	a := e.store("a")
	e.update(func(tx app.Tx) error {
		for _, r := range []*app.Revocation{
			{StoreID: a, Session: "s1", Until: t0.Add(time.Minute)},
			{StoreID: a, Session: "s1", Until: t0.Add(2 * time.Hour)}, // replaces the first
			{StoreID: a, CustomerID: 7, NotBefore: t0, Until: t0.Add(time.Hour)},
			{StoreID: 0, Session: "admin", Until: t0.Add(3 * time.Hour)},
		} {
			if err := tx.PutRevocation(r); err != nil {
				return err
			}
		}
		return nil
	})
	list := func() []string {
		var out []string
		e.view(func(tx app.Tx) error {
			all, err := tx.Revocations()
			for _, r := range all {
				out = append(out, fmt.Sprintf("%d/%s/%d/%s", r.StoreID, r.Session, r.CustomerID, r.Until.Sub(t0)))
			}
			return err
		})
		sort.Strings(out)
		return out
	}
	e.same("stored", list(), []string{"0/admin/0/3h0m0s", fmt.Sprintf("%d//7/1h0m0s", a), fmt.Sprintf("%d/s1/0/2h0m0s", a)})
	e.update(func(tx app.Tx) error { return tx.PruneRevocations(t0.Add(time.Hour)) }) // Until == t is pruned
	e.same("pruned", list(), []string{"0/admin/0/3h0m0s", fmt.Sprintf("%d/s1/0/2h0m0s", a)})
}

func address(sid, cid uint64, label string) *app.Address {
	return &app.Address{ID: app.NewUUID(), StoreID: sid, CustomerID: cid, Label: label, ReceiverName: "R", Phone: "1",
		AddressLine1: "L1", City: "C", CreatedAt: t0, UpdatedAt: t0}
}

func testAddresses(e *env) {
	a, b := e.store("a"), e.store("b")
	c1, c2 := e.customer(a, "a@example.com"), e.customer(a, "b@example.com")
	x, y, z := address(a, c1, "home"), address(a, c1, "work"), address(a, c2, "other")
	e.update(func(tx app.Tx) error {
		for _, ad := range []*app.Address{x, y, z} {
			if err := tx.PutAddress(ad); err != nil {
				return err
			}
		}
		x.Label, x.IsDefault = "house", true
		return tx.PutAddress(x) // replaces
	})
	e.view(func(tx app.Tx) error {
		list, err := tx.Addresses(a, c1)
		e.want(err, "")
		var labels []string
		for _, ad := range list {
			labels = append(labels, ad.Label)
		}
		sort.Strings(labels)
		e.same("a customer's addresses", labels, []string{"house", "work"})
		got, err := tx.Address(a, c1, x.ID)
		e.want(err, "")
		e.same("replaced", got.IsDefault, true)
		_, err = tx.Address(a, c2, x.ID) // another customer's
		e.want(err, app.ENotFound)
		_, err = tx.Address(b, c1, x.ID) // another store's
		e.want(err, app.ENotFound)
		list, err = tx.Addresses(b, c1)
		e.same("none in store b", list != nil && len(list) == 0, true)
		return err
	})
	e.same("delete another's", e.code(func(tx app.Tx) error { return tx.DeleteAddress(a, c2, x.ID) }), app.ENotFound)
	e.same("delete", e.code(func(tx app.Tx) error { return tx.DeleteAddress(a, c1, x.ID) }), "")
	e.same("delete twice", e.code(func(tx app.Tx) error { return tx.DeleteAddress(a, c1, x.ID) }), app.ENotFound)
}

func testCart(e *env) {
	a, b := e.store("a"), e.store("b")
	c1, c2 := e.customer(a, "a@example.com"), e.customer(a, "b@example.com")
	var lines []*app.CartItem
	e.update(func(tx app.Tx) error {
		for i, cid := range []uint64{c1, c2, c1, c1} {
			it := &app.CartItem{StoreID: a, CustomerID: cid, ProductID: uint64(i + 1), Quantity: 1, AddedVia: "product", CreatedAt: t0, UpdatedAt: t0}
			if err := tx.PutCartItem(it); err != nil {
				return err
			}
			lines = append(lines, it)
		}
		return nil
	})
	list := func(sid, cid uint64) []string {
		var out []string
		e.view(func(tx app.Tx) error {
			items, err := tx.CartItems(sid, cid)
			if items == nil {
				e.t.Fatal("CartItems: nil, want an empty slice")
			}
			for _, it := range items {
				out = append(out, fmt.Sprintf("%d:%d", it.ID, it.Quantity))
			}
			return err
		})
		return out
	}
	e.same("oldest first", list(a, c1), []string{fmt.Sprintf("%d:1", lines[0].ID), fmt.Sprintf("%d:1", lines[2].ID), fmt.Sprintf("%d:1", lines[3].ID)})
	e.same("other store", len(list(b, c1)), 0)
	lines[2].Quantity = 5
	e.update(func(tx app.Tx) error { return tx.PutCartItem(lines[2]) })
	e.view(func(tx app.Tx) error {
		it, err := tx.CartItem(a, c1, lines[2].ID)
		e.want(err, "")
		e.same("updated", it.Quantity, int64(5))
		_, err = tx.CartItem(a, c2, lines[2].ID) // another shopper's line
		e.want(err, app.ENotFound)
		_, err = tx.CartItem(b, c1, lines[2].ID)
		e.want(err, app.ENotFound)
		return nil
	})
	e.same("delete another's", e.code(func(tx app.Tx) error { return tx.DeleteCartItem(a, c2, lines[0].ID) }), app.ENotFound)
	e.same("delete", e.code(func(tx app.Tx) error { return tx.DeleteCartItem(a, c1, lines[0].ID) }), "")
	e.same("delete twice", e.code(func(tx app.Tx) error { return tx.DeleteCartItem(a, c1, lines[0].ID) }), app.ENotFound)
	e.same("after delete", len(list(a, c1)), 2)
}

func testGuestCarts(e *env) {
	a, b := e.store("a"), e.store("b")
	key := func(n byte) []byte { return bytes.Repeat([]byte{n}, 32) }
	var carts []*app.GuestCart
	e.update(func(tx app.Tx) error {
		for i := range 3 {
			at := t0.Add(time.Duration(2-i) * time.Hour) // the last made is the oldest used
			g := &app.GuestCart{StoreID: a, Key: key(byte(i + 1)), CreatedAt: at, UsedAt: at}
			if err := tx.PutGuestCart(g); err != nil {
				return err
			}
			carts = append(carts, g)
		}
		return nil
	})
	if carts[0].ID == 0 || carts[0].ID == carts[1].ID {
		e.t.Fatalf("ids: got %d and %d, want distinct, not 0", carts[0].ID, carts[1].ID)
	}
	// A guest cart's lines are cart lines under its owner id.
	line := &app.CartItem{StoreID: a, CustomerID: carts[0].Owner(), ProductID: 7, Quantity: 2, CreatedAt: t0, UpdatedAt: t0}
	e.update(func(tx app.Tx) error { return tx.PutCartItem(line) })
	e.view(func(tx app.Tx) error {
		g, err := tx.GuestCart(a, key(1))
		e.want(err, "")
		e.same("read", g.ID, carts[0].ID)
		e.same("used at", g.UsedAt.Equal(carts[0].UsedAt), true)
		_, err = tx.GuestCart(b, key(1)) // another store's token
		e.want(err, app.ENotFound)
		_, err = tx.GuestCart(a, key(9))
		e.want(err, app.ENotFound)
		items, err := tx.CartItems(a, carts[0].Owner())
		e.same("guest lines", len(items), 1)
		return err
	})
	carts[2].UsedAt = t0.Add(3 * time.Hour)
	e.update(func(tx app.Tx) error { return tx.PutGuestCart(carts[2]) })
	idle := func(before time.Time, limit int) []uint64 {
		var out []uint64
		e.view(func(tx app.Tx) error {
			list, err := tx.GuestCartsUsedBefore(a, before, limit)
			for _, g := range list {
				out = append(out, g.ID)
			}
			return err
		})
		return out
	}
	e.same("idle, oldest use first", idle(t0.Add(4*time.Hour), 10), []uint64{carts[1].ID, carts[0].ID, carts[2].ID})
	e.same("idle before", idle(t0.Add(2*time.Hour), 10), []uint64{carts[1].ID})
	e.same("idle limit", idle(t0.Add(4*time.Hour), 2), []uint64{carts[1].ID, carts[0].ID})
	e.view(func(tx app.Tx) error {
		list, err := tx.GuestCartsUsedBefore(b, t0.Add(4*time.Hour), 10)
		e.same("other store's idle", len(list), 0)
		return err
	})
	e.same("delete another store's", e.code(func(tx app.Tx) error { return tx.DeleteGuestCart(b, key(1)) }), app.ENotFound)
	e.same("delete", e.code(func(tx app.Tx) error { return tx.DeleteGuestCart(a, key(1)) }), "")
	e.same("delete twice", e.code(func(tx app.Tx) error { return tx.DeleteGuestCart(a, key(1)) }), app.ENotFound)
	e.same("after delete", idle(t0.Add(4*time.Hour), 10), []uint64{carts[1].ID, carts[2].ID})
}

func testAdmins(e *env) {
	sid := e.store("a")
	owner := &app.AdminUser{Email: "owner@example.com", PasswordHash: []byte("x"), Role: "owner", CreatedAt: t0}
	staff := &app.AdminUser{Email: "staff@example.com", PasswordHash: []byte("y"), Role: "staff", StoreID: sid, CreatedAt: t0}
	e.update(func(tx app.Tx) error {
		if err := tx.CreateAdmin(owner); err != nil {
			return err
		}
		return tx.CreateAdmin(staff)
	})
	e.same("ids", owner.ID != 0 && staff.ID != 0 && owner.ID != staff.ID, true)
	e.same("taken email", e.code(func(tx app.Tx) error { return tx.CreateAdmin(&app.AdminUser{Email: "owner@example.com"}) }), app.EConflict)
	e.view(func(tx app.Tx) error {
		u, err := tx.AdminByEmail("staff@example.com")
		e.want(err, "")
		e.same("by email", u.ID == staff.ID && u.StoreID == sid, true)
		_, err = tx.AdminByEmail("nobody@example.com")
		e.want(err, app.ENotFound)
		_, err = tx.Admin(staff.ID + 100)
		e.want(err, app.ENotFound)
		all, err := tx.Admins()
		e.want(err, "")
		e.same("all by id", len(all) == 2 && all[0].ID == owner.ID && all[1].ID == staff.ID, true)
		return nil
	})
	staff.TokenVersion, staff.Email = 3, "staff2@example.com"
	e.update(func(tx app.Tx) error { return tx.PutAdmin(staff) })
	e.view(func(tx app.Tx) error {
		u, err := tx.AdminByEmail("staff2@example.com")
		e.want(err, "")
		e.same("put", u.TokenVersion, uint64(3))
		_, err = tx.AdminByEmail("staff@example.com")
		e.want(err, app.ENotFound)
		return nil
	})
	e.same("put to a taken email", e.code(func(tx app.Tx) error {
		u := *staff
		u.Email = "owner@example.com"
		return tx.PutAdmin(&u)
	}), app.EConflict)
	e.same("put a missing one", e.code(func(tx app.Tx) error { return tx.PutAdmin(&app.AdminUser{ID: 999, Email: "z@example.com"}) }), app.ENotFound)
	e.same("delete", e.code(func(tx app.Tx) error { return tx.DeleteAdmin(staff.ID) }), "")
	e.same("delete twice", e.code(func(tx app.Tx) error { return tx.DeleteAdmin(staff.ID) }), app.ENotFound)
	e.same("email free", e.code(func(tx app.Tx) error { return tx.CreateAdmin(&app.AdminUser{Email: "staff2@example.com"}) }), "")
}
