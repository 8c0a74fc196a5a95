package web_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

type guestCartData struct {
	CartToken string `json:"cart_token"`
	cartData
}

// newGuestCart makes a guest cart with key and returns its token.
func newGuestCart(t *testing.T, e *testenv.Env, key string) string {
	t.Helper()
	var g guestCartData
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/cart/", Key: key}).Expect(t, 201, "")
	r.Decode(t, &g)
	if !strings.HasPrefix(g.CartToken, "gc_") || len(g.CartToken) != 67 || len(g.Items) != 0 || g.Subtotal != "0.00" || g.Currency != "USD" {
		t.Fatalf("new guest cart: got %+v", g)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Fatalf("Cache-Control: got %q, want no-store", cc)
	}
	return g.CartToken
}

// guestReq is a request with the store key and a guest cart token.
func guestReq(method, path, key, cartToken string, body any) testenv.Req {
	return testenv.Req{Method: method, Path: api + path, Key: key, Body: body, Header: map[string]string{"X-Cart-Token": cartToken}}
}

func guestCart(t *testing.T, e *testenv.Env, key, cartToken string) cartData {
	t.Helper()
	var c cartData
	e.Do(guestReq("GET", "/cart/", key, cartToken, nil)).Expect(t, 200, "").Decode(t, &c)
	return c
}

func guestAdd(t *testing.T, e *testenv.Env, key, cartToken string, body map[string]any) cartItem {
	t.Helper()
	var got struct {
		Item cartItem `json:"item"`
	}
	e.Do(guestReq("POST", "/cart/items/", key, cartToken, body)).Expect(t, 200, "").Decode(t, &got)
	return got.Item
}

func TestGuestCart(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	vp := variantProduct(t, e, sid, "Shirt")
	tok := newGuestCart(t, e, key)
	other := newGuestCart(t, e, key)
	if tok == other {
		t.Fatal("two guest carts got the same token")
	}

	it := guestAdd(t, e, key, tok, map[string]any{"product_id": p.ID, "quantity": 2, "added_via": "product_page"})
	if it.Quantity != 2 || it.UnitPrice != "12.50" || it.LineTotal != "25.00" || it.VariantID != nil {
		t.Fatalf("add: got %+v", it)
	}
	if again := guestAdd(t, e, key, tok, map[string]any{"product_id": p.ID}); again.ID != it.ID || again.Quantity != 3 {
		t.Fatalf("same product again: got id %d qty %d, want id %d qty 3", again.ID, again.Quantity, it.ID)
	}
	large := vp.Variants[1].ID
	vl := guestAdd(t, e, key, tok, map[string]any{"product_id": vp.ID, "variant_id": large})
	if vl.VariantID == nil || *vl.VariantID != large || vl.Name != "Shirt - Large" {
		t.Fatalf("variant line: got %+v", vl)
	}
	c := guestCart(t, e, key, tok)
	if len(c.Items) != 2 || c.ItemCount != 4 || c.Subtotal != "62.50" {
		t.Fatalf("cart: got %+v", c)
	}
	var patched struct {
		Item cartItem `json:"item"`
	}
	e.Do(guestReq("PATCH", fmt.Sprintf("/cart/items/%d/", it.ID), key, tok, map[string]any{"quantity": 5})).Expect(t, 200, "").Decode(t, &patched)
	if patched.Item.Quantity != 5 || patched.Item.LineTotal != "62.50" {
		t.Fatalf("patch: got %+v", patched.Item)
	}
	e.Do(guestReq("DELETE", fmt.Sprintf("/cart/items/%d/", vl.ID), key, tok, nil)).Expect(t, 200, "")
	if c := guestCart(t, e, key, tok); len(c.Items) != 1 || c.ItemCount != 5 {
		t.Fatalf("after delete: got %+v", c)
	}
	if c := guestCart(t, e, key, other); len(c.Items) != 0 {
		t.Fatalf("the other guest cart: got %+v, want empty", c)
	}

	line := fmt.Sprintf("/cart/items/%d/", it.ID)
	for _, tc := range []struct {
		name   string
		req    testenv.Req
		status int
		code   string
	}{
		{"ErrNoKey", testenv.Req{Method: "POST", Path: api + "/cart/"}, 401, "invalid_api_key"},
		{"ErrNoTokenAtAll", testenv.Req{Method: "GET", Path: api + "/cart/", Key: key}, 401, "unauthorized"},
		{"ErrUnknownToken", guestReq("GET", "/cart/", key, "gc_"+strings.Repeat("0", 64), nil), 404, "not_found"},
		{"ErrLongToken", guestReq("GET", "/cart/", key, strings.Repeat("x", 500), nil), 404, "not_found"},
		{"ErrOtherStoresToken", guestReq("GET", "/cart/", keyB, tok, nil), 404, "not_found"},
		{"ErrOtherStoresTokenAdd", guestReq("POST", "/cart/items/", keyB, tok, map[string]any{"product_id": p.ID}), 404, "not_found"},
		{"ErrUnknownTokenPatch", guestReq("PATCH", line, key, "gc_nope", map[string]any{"quantity": 1}), 404, "not_found"},
		{"ErrUnknownTokenDelete", guestReq("DELETE", line, key, "gc_nope", nil), 404, "not_found"},
		{"ErrAnotherCartsLinePatch", guestReq("PATCH", line, key, other, map[string]any{"quantity": 1}), 404, "not_found"},
		{"ErrAnotherCartsLineDelete", guestReq("DELETE", line, key, other, nil), 404, "not_found"},
		{"ErrZeroQuantity", guestReq("POST", "/cart/items/", key, tok, map[string]any{"product_id": p.ID, "quantity": 0}), 400, "validation_failed"},
		{"ErrLineOver1000", guestReq("POST", "/cart/items/", key, tok, map[string]any{"product_id": p.ID, "quantity": 996}), 400, "validation_failed"},
		{"ErrVariantRequired", guestReq("POST", "/cart/items/", key, tok, map[string]any{"product_id": vp.ID}), 400, "validation_failed"},
		{"ErrPatchNoQuantity", guestReq("PATCH", line, key, tok, map[string]any{}), 400, "validation_failed"},
	} {
		t.Run(tc.name, func(t *testing.T) { e.Do(tc.req).Expect(t, tc.status, tc.code) })
	}
	if c := guestCart(t, e, key, tok); len(c.Items) != 1 || c.ItemCount != 5 {
		t.Fatalf("after the refused requests: got %+v, want the cart unchanged", c)
	}
	// variant_id null is the product itself (one nullable convention).
	if it := guestAdd(t, e, key, other, map[string]any{"product_id": p.ID, "variant_id": nil}); it.VariantID != nil || it.Quantity != 1 {
		t.Fatalf("variant_id null: got %+v", it)
	}
}

// TestGuestCartLineLimit: a guest cart holds at most 100 lines, as a
// shopper's does.
func TestGuestCartLineLimit(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	tok := newGuestCart(t, e, key)
	for i := range app.MaxCartLines {
		pr := e.Product(sid, 0, fmt.Sprintf("P%d", i), 100, 5)
		e.Do(guestReq("POST", "/cart/items/", key, tok, map[string]any{"product_id": pr.ID})).Expect(t, 200, "")
	}
	extra := e.Product(sid, 0, "One too many", 100, 5)
	r := e.Do(guestReq("POST", "/cart/items/", key, tok, map[string]any{"product_id": extra.ID})).Expect(t, 400, "validation_failed")
	if !strings.Contains(r.Body.Errors["product_id"], "100 lines") {
		t.Fatalf("errors: got %v", r.Body.Errors)
	}
}

// TestGuestCartExpiry: a guest cart is not_found after 30 days without use;
// every use moves that on.
func TestGuestCartExpiry(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	tok := newGuestCart(t, e, key)
	guestAdd(t, e, key, tok, map[string]any{"product_id": p.ID})
	e.Advance(20 * 24 * time.Hour)
	guestCart(t, e, key, tok) // a read is a use too
	e.Advance(20 * 24 * time.Hour)
	if c := guestCart(t, e, key, tok); len(c.Items) != 1 {
		t.Fatalf("used 20 days ago: got %+v", c)
	}
	e.Advance(app.GuestCartIdle)
	e.Do(guestReq("GET", "/cart/", key, tok, nil)).Expect(t, 404, "not_found")
	e.Do(guestReq("POST", "/cart/items/", key, tok, map[string]any{"product_id": p.ID})).Expect(t, 404, "not_found")
	body := order(1, p)
	delete(body, "items")
	body["cart_token"] = tok
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: body}).Expect(t, 404, "not_found")
}

// TestGuestCartSweep: the sweep deletes idle guest carts with their lines
// and leaves the others.
func TestGuestCartSweep(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	old := newGuestCart(t, e, key)
	guestAdd(t, e, key, old, map[string]any{"product_id": p.ID, "quantity": 2})
	var g *app.GuestCart
	if err := e.DB.View(func(tx app.Tx) (err error) { g, err = tx.GuestCart(sid, app.HashCartToken(old)); return err }); err != nil {
		t.Fatal(err)
	}
	if g.Owner() == 0 {
		t.Fatal("a guest cart without an owner id")
	}
	e.Advance(app.GuestCartIdle - time.Hour)
	fresh := newGuestCart(t, e, key)
	if n, err := e.Svc.Carts.SweepGuests(); err != nil || n != 0 {
		t.Fatalf("sweep before 30 days: got %d, %v, want 0", n, err)
	}
	e.Advance(time.Hour)
	if n, err := e.Svc.Carts.SweepGuests(); err != nil || n != 1 {
		t.Fatalf("sweep: got %d, %v, want 1", n, err)
	}
	err := e.DB.View(func(tx app.Tx) error {
		if _, err := tx.GuestCart(sid, app.HashCartToken(old)); !app.IsNotFound(err) {
			t.Fatalf("swept cart: got %v, want not_found", err)
		}
		items, err := tx.CartItems(sid, g.Owner())
		if len(items) != 0 {
			t.Fatalf("swept cart's lines: got %d, want 0", len(items))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	guestCart(t, e, key, fresh)
}

// TestGuestCartCreationLimit: ratelimit.guest_carts_per_hour per store and
// client address.
func TestGuestCartCreationLimit(t *testing.T) {
	t.Parallel()
	e := testenv.NewWith(t, testenv.Options{App: app.Options{GuestCartsPerHour: 2}})
	_, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	newGuestCart(t, e, key)
	newGuestCart(t, e, key)
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/cart/", Key: key}).Expect(t, 429, "rate_limited")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	newGuestCart(t, e, keyB) // another store's budget
	e.Advance(app.GuestCartsWindow)
	newGuestCart(t, e, key)
}

// TestGuestCartMerge: at login and at register with X-Cart-Token, the guest
// cart goes into the shopper's: quantities add up to the stock, and the
// guest cart is gone.
func TestGuestCartMerge(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 1250, 5)
	q := e.Product(sid, 0, "Plate", 800, 10)
	vp := variantProduct(t, e, sid, "Shirt")
	_, tok := e.Shopper(sid, "a@example.com")
	e.Do(testenv.Req{Method: "POST", Path: api + "/cart/items/", Key: key, Token: tok, Body: map[string]any{"product_id": p.ID, "quantity": 2}}).Expect(t, 200, "")
	cart := newGuestCart(t, e, key)
	guestAdd(t, e, key, cart, map[string]any{"product_id": p.ID, "quantity": 4})
	guestAdd(t, e, key, cart, map[string]any{"product_id": q.ID, "quantity": 3})
	guestAdd(t, e, key, cart, map[string]any{"product_id": vp.ID, "variant_id": vp.Variants[1].ID, "quantity": 9}) // stock 3
	login := func(k, cartToken string) {
		t.Helper()
		e.Do(testenv.Req{Method: "POST", Path: "/api/v1/customer/auth/login/", Key: k, Header: map[string]string{"X-Cart-Token": cartToken},
			Body: map[string]any{"email": "a@example.com", "password": "password123"}}).Expect(t, 200, "")
	}
	login(key, cart)
	var c cartData
	e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &c)
	got := map[uint64]int64{}
	for _, it := range c.Items {
		got[it.ProductID] = it.Quantity
	}
	if len(c.Items) != 3 || got[p.ID] != 5 || got[q.ID] != 3 || got[vp.ID] != 3 {
		t.Fatalf("merged cart: got %v, want mug 5 (2+4 up to stock 5), plate 3, shirt 3 (stock)", got)
	}
	e.Do(guestReq("GET", "/cart/", key, cart, nil)).Expect(t, 404, "not_found")
	t.Run("UnknownOrForeignTokenMergesNothing", func(t *testing.T) {
		foreign := newGuestCart(t, e, keyB)
		login(key, foreign)
		login(key, "gc_nope")
		var after cartData
		e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &after)
		if after.ItemCount != c.ItemCount {
			t.Fatalf("cart: got %d units, want %d", after.ItemCount, c.ItemCount)
		}
		guestCart(t, e, keyB, foreign) // still there
	})
	t.Run("Register", func(t *testing.T) {
		cart := newGuestCart(t, e, key)
		guestAdd(t, e, key, cart, map[string]any{"product_id": q.ID, "quantity": 2})
		var res struct {
			AccessToken string `json:"access_token"`
		}
		e.Do(testenv.Req{Method: "POST", Path: "/api/v1/customer/auth/register/", Key: key, Header: map[string]string{"X-Cart-Token": cart},
			Body: map[string]any{"email": "new@example.com", "password": "password123", "password_confirm": "password123", "first_name": "New", "last_name": "Shopper"}}).Expect(t, 200, "").Decode(t, &res)
		var c cartData
		e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: res.AccessToken}).Expect(t, 200, "").Decode(t, &c)
		if len(c.Items) != 1 || c.Items[0].ProductID != q.ID || c.Items[0].Quantity != 2 {
			t.Fatalf("registered shopper's cart: got %+v", c.Items)
		}
		e.Do(guestReq("GET", "/cart/", key, cart, nil)).Expect(t, 404, "not_found")
	})
}

// TestGuestCartCheckout: payment/initiate/ with cart_token orders the
// cart's lines at the server's prices; the cart empties when it is paid.
func TestGuestCartCheckout(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	q := e.Product(sid, 0, "Plate", 800, 10)
	cart := newGuestCart(t, e, key)
	guestAdd(t, e, key, cart, map[string]any{"product_id": p.ID, "quantity": 2})
	guestAdd(t, e, key, cart, map[string]any{"product_id": q.ID, "quantity": 1})
	body := func(cartToken string) map[string]any {
		b := order(1, p)
		delete(b, "items")
		b["cart_token"] = cartToken
		return b
	}
	initiateReq := func(k string, b map[string]any) testenv.Req {
		return testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: k, Body: b}
	}
	both := body(cart)
	both["items"] = order(1, p)["items"]
	r := e.Do(initiateReq(key, both)).Expect(t, 400, "validation_failed")
	if r.Body.Errors["items"] == "" {
		t.Fatalf("items and cart_token: got errors %v", r.Body.Errors)
	}
	e.Do(initiateReq(keyB, body(cart))).Expect(t, 404, "not_found")
	e.Do(initiateReq(key, body("gc_nope"))).Expect(t, 404, "not_found")
	empty := newGuestCart(t, e, key)
	if r := e.Do(initiateReq(key, body(empty))).Expect(t, 400, "validation_failed"); r.Body.Errors["cart_token"] == "" {
		t.Fatalf("empty cart: got errors %v", r.Body.Errors)
	}

	in := initiate(t, e, key, "", body(cart))
	o := adminOrder(t, e, sid, in.OrderID)
	if len(o.Items) != 2 || o.Subtotal != "33.00" || o.Total != "33.00" {
		t.Fatalf("order: got %+v, want the cart's 2 lines, 33.00", o)
	}
	if c := guestCart(t, e, key, cart); len(c.Items) != 2 {
		t.Fatalf("cart before payment: got %d lines, want 2", len(c.Items))
	}
	if v := verify(t, e, key, in.PaymentSessionID, sandbox(t, e, in, "success")); !v.Success {
		t.Fatalf("verify: got %+v", v)
	}
	if c := guestCart(t, e, key, cart); len(c.Items) != 0 {
		t.Fatalf("cart after payment: got %+v, want empty", c.Items)
	}
	if got := stock(t, e, sid, p.ID); got != 8 {
		t.Fatalf("stock: got %d, want 8", got)
	}
	// Items as before, variant_id null being the product itself.
	withItems := order(1, q)
	withItems["items"] = []map[string]any{{"product_id": q.ID, "variant_id": nil, "quantity": 1}}
	initiate(t, e, key, "", withItems)
}

// statuses sends req(i) for i in [0, n) at once and counts the statuses.
func statuses(e *testenv.Env, n int, req func(i int) testenv.Req) map[int]int {
	var mu sync.Mutex
	got := map[int]int{}
	testenv.Burst(n, func(i int) {
		r := e.Do(req(i))
		mu.Lock()
		got[r.Status]++
		mu.Unlock()
	})
	return got
}

// TestGuestCartConcurrent: parallel adds to one guest cart keep its line
// and quantity limits, and parallel logins with one cart token merge it
// once, never past the stock.
func TestGuestCartConcurrent(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 5)
	q := e.Product(sid, 0, "Plate", 800, 2)
	t.Run("AddsKeepTheLineLimit", func(t *testing.T) {
		cart := newGuestCart(t, e, key)
		n := app.MaxCartLines + 20
		ids := make([]uint64, n)
		for i := range ids {
			ids[i] = e.Product(sid, 0, fmt.Sprintf("Line %d", i), 100, 1).ID
		}
		got := statuses(e, n, func(i int) testenv.Req {
			return guestReq("POST", "/cart/items/", key, cart, map[string]any{"product_id": ids[i]})
		})
		if got[200] != app.MaxCartLines || got[400] != 20 {
			t.Fatalf("statuses: got %v, want 100 x 200 and 20 x 400", got)
		}
		if c := guestCart(t, e, key, cart); len(c.Items) != app.MaxCartLines {
			t.Fatalf("lines: got %d, want %d", len(c.Items), app.MaxCartLines)
		}
	})
	t.Run("AddsKeepTheQuantityLimit", func(t *testing.T) {
		cart := newGuestCart(t, e, key)
		got := statuses(e, 10, func(int) testenv.Req {
			return guestReq("POST", "/cart/items/", key, cart, map[string]any{"product_id": p.ID, "quantity": 300})
		})
		c := guestCart(t, e, key, cart)
		if got[200] != 3 || got[400] != 7 || len(c.Items) != 1 || c.Items[0].Quantity != 900 {
			t.Fatalf("statuses %v, cart %+v: want 3 adds of 300 in one line", got, c.Items)
		}
	})
	t.Run("MergeOnce", func(t *testing.T) {
		_, tok := e.Shopper(sid, "merge@example.com")
		e.Do(testenv.Req{Method: "POST", Path: api + "/cart/items/", Key: key, Token: tok, Body: map[string]any{"product_id": p.ID}}).Expect(t, 200, "")
		cart := newGuestCart(t, e, key)
		guestAdd(t, e, key, cart, map[string]any{"product_id": p.ID, "quantity": 3})
		guestAdd(t, e, key, cart, map[string]any{"product_id": q.ID, "quantity": 2})
		other := newGuestCart(t, e, key)
		guestAdd(t, e, key, other, map[string]any{"product_id": q.ID, "quantity": 2})
		// 5 at once: the login limit counts attempts per email (5) before it
		// gives the successful ones back.
		got := statuses(e, 5, func(i int) testenv.Req {
			c := cart
			if i == 4 {
				c = other
			}
			return testenv.Req{Method: "POST", Path: "/api/v1/customer/auth/login/", Key: key, Header: map[string]string{"X-Cart-Token": c},
				Body: map[string]any{"email": "merge@example.com", "password": "password123"}}
		})
		if got[200] != 5 {
			t.Fatalf("logins: got %v, want 5 x 200", got)
		}
		var c cartData
		e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &c)
		qty := map[uint64]int64{}
		for _, it := range c.Items {
			qty[it.ProductID] = it.Quantity
		}
		// Mug: 1 + 3 merged once (twice would reach the stock, 5); plate: up to its stock, 2.
		if len(c.Items) != 2 || qty[p.ID] != 4 || qty[q.ID] != 2 {
			t.Fatalf("merged cart: got %v, want mug 4, plate 2", qty)
		}
		e.Do(guestReq("GET", "/cart/", key, cart, nil)).Expect(t, 404, "not_found")
		e.Do(guestReq("GET", "/cart/", key, other, nil)).Expect(t, 404, "not_found")
	})
}
