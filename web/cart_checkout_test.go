package web_test

import (
	"testing"

	"storefront/testenv"
)

// TestShopperCartCheckout: a signed-in shopper starts a payment from the
// cart the server holds (from_cart: true) without resending its lines; the
// order has the cart's lines at the server's prices, and paying empties them.
// The error rows: from_cart with items, with cart_token, without a shopper,
// and an empty cart.
func TestShopperCartCheckout(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	q := e.Product(sid, 0, "Plate", 800, 10)
	_, tok := e.Shopper(sid, "a@example.com")
	_, emptyTok := e.Shopper(sid, "b@example.com")
	for _, add := range []map[string]any{{"product_id": p.ID, "quantity": 2}, {"product_id": q.ID}} {
		e.Do(testenv.Req{Method: "POST", Path: api + "/cart/items/", Key: key, Token: tok, Body: add}).Expect(t, 200, "")
	}
	body := func(extra map[string]any) map[string]any {
		b := order(1, p)
		delete(b, "items")
		b["from_cart"] = true
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	guestCart := newGuestCart(t, e, key)
	for _, tc := range []struct {
		name, tok, field string
		body             map[string]any
	}{
		{"WithItems", tok, "items", body(map[string]any{"items": order(1, p)["items"]})},
		{"WithCartToken", tok, "from_cart", body(map[string]any{"cart_token": guestCart})},
		{"Guest", "", "from_cart", body(nil)},
		{"EmptyCart", emptyTok, "from_cart", body(nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tc.tok, Body: tc.body}).Expect(t, 400, "validation_failed")
			if r.Body.Errors[tc.field] == "" {
				t.Fatalf("got errors %v, want one on %s", r.Body.Errors, tc.field)
			}
		})
	}

	in := initiate(t, e, key, tok, body(nil))
	if o := adminOrder(t, e, sid, in.OrderID); len(o.Items) != 2 || o.Subtotal != "33.00" || o.Total != "33.00" {
		t.Fatalf("order: got %+v, want the cart's 2 lines, 33.00", o)
	}
	if v := verify(t, e, key, in.PaymentSessionID, sandbox(t, e, in, "success")); !v.Success {
		t.Fatalf("verify: got %+v", v)
	}
	var cart cartData
	e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &cart)
	if len(cart.Items) != 0 {
		t.Fatalf("cart after payment: got %+v, want empty", cart.Items)
	}
	if got := stock(t, e, sid, p.ID); got != 8 {
		t.Fatalf("stock: got %d, want 8", got)
	}
}
