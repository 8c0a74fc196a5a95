package web_test

import (
	"fmt"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

const api = "/api/v1/business/website"

type cartItem struct {
	ID        uint64  `json:"id"`
	ProductID uint64  `json:"product_id"`
	VariantID *uint64 `json:"variant_id"`
	Name      string  `json:"name"`
	UnitPrice string  `json:"unit_price"`
	Quantity  int64   `json:"quantity"`
	LineTotal string  `json:"line_total"`
	AddedVia  string  `json:"added_via"`
}

type cartData struct {
	Items     []cartItem `json:"items"`
	ItemCount int64      `json:"item_count"`
	Subtotal  string     `json:"subtotal"`
	Currency  string     `json:"currency"`
}

func variantProduct(t *testing.T, e *testenv.Env, sid uint64, name string) *app.Product {
	t.Helper()
	price := app.Money(2000)
	vp := app.Money(2500)
	p, err := e.Svc.Catalog.SaveProduct(sid, 0, app.ProductInput{Name: &name, Price: &price, Variants: &[]app.VariantInput{
		{Name: "Small", SKU: name + "-S", Stock: 5}, {Name: "Large", SKU: name + "-L", Price: &vp, Stock: 3}}}) // SKUs are unique per store
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCart(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	vp := variantProduct(t, e, sid, "Shirt")
	other := variantProduct(t, e, sid, "Hat")
	off := e.Product(sid, 0, "Gone", 100, 1)
	inactive := false
	if _, err := e.Svc.Catalog.SaveProduct(sid, off.ID, app.ProductInput{IsActive: &inactive}); err != nil {
		t.Fatal(err)
	}
	var pB *app.Product
	for i := 0; i < 5; i++ { // store B's last id is one store A does not have
		pB = e.Product(sidB, 0, fmt.Sprintf("B mug %d", i), 100, 1)
	}
	_, tok := e.Shopper(sid, "a@example.com")
	_, tok2 := e.Shopper(sid, "b@example.com")
	_, tokB := e.Shopper(sidB, "a@example.com")

	add := func(body any) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: api + "/cart/items/", Key: key, Token: tok, Body: body})
	}
	var got struct {
		Item cartItem `json:"item"`
	}
	add(map[string]any{"product_id": p.ID, "quantity": 2, "added_via": "product_page"}).Expect(t, 200, "").Decode(t, &got)
	if got.Item.Quantity != 2 || got.Item.UnitPrice != "12.50" || got.Item.LineTotal != "25.00" || got.Item.VariantID != nil {
		t.Fatalf("got %+v", got.Item)
	}
	first := got.Item.ID
	add(map[string]any{"product_id": p.ID}).Expect(t, 200, "").Decode(t, &got)
	if got.Item.ID != first || got.Item.Quantity != 3 {
		t.Fatalf("same product again: got id %d qty %d, want id %d qty 3", got.Item.ID, got.Item.Quantity, first)
	}
	large := vp.Variants[1].ID
	add(map[string]any{"product_id": vp.ID, "variant_id": large, "quantity": 1}).Expect(t, 200, "").Decode(t, &got)
	if got.Item.UnitPrice != "25.00" || got.Item.VariantID == nil || *got.Item.VariantID != large || got.Item.Name != "Shirt - Large" {
		t.Fatalf("variant line: got %+v", got.Item)
	}
	varLine := got.Item.ID

	for _, tc := range []struct {
		name  string
		body  any
		field string
	}{
		{"ZeroQuantity", map[string]any{"product_id": p.ID, "quantity": 0}, "quantity"},
		{"TooMany", map[string]any{"product_id": p.ID, "quantity": 1001}, "quantity"},
		{"LineOver1000", map[string]any{"product_id": p.ID, "quantity": 998}, "quantity"},
		{"UnknownProduct", map[string]any{"product_id": 9999}, "product_id"},
		{"NoProduct", map[string]any{"quantity": 1}, "product_id"},
		{"InactiveProduct", map[string]any{"product_id": off.ID}, "product_id"},
		{"OtherStoresProduct", map[string]any{"product_id": pB.ID}, "product_id"},
		{"VariantOfAnotherProduct", map[string]any{"product_id": vp.ID, "variant_id": other.Variants[0].ID}, "variant_id"},
		{"VariantRequired", map[string]any{"product_id": vp.ID}, "variant_id"},
		{"VariantOnPlainProduct", map[string]any{"product_id": p.ID, "variant_id": large}, "variant_id"},
		{"WrongType", map[string]any{"product_id": "x"}, "product_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := add(tc.body).Expect(t, 400, "validation_failed")
			if r.Body.Errors[tc.field] == "" {
				t.Fatalf("errors: got %v, want a message for %s", r.Body.Errors, tc.field)
			}
		})
	}

	var cart cartData
	e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &cart)
	if len(cart.Items) != 2 || cart.ItemCount != 4 || cart.Subtotal != "62.50" || cart.Currency != "USD" {
		t.Fatalf("cart: got %+v", cart)
	}
	// Prices are current: a price change shows at once.
	np := app.Money(1000)
	if _, err := e.Svc.Catalog.SaveProduct(sid, p.ID, app.ProductInput{Price: &np}); err != nil {
		t.Fatal(err)
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &cart)
	if cart.Subtotal != "55.00" {
		t.Fatalf("subtotal after price change: got %s, want 55.00", cart.Subtotal)
	}

	item := func(id uint64) string { return fmt.Sprintf("%s/cart/items/%d/", api, id) }
	e.Do(testenv.Req{Method: "PATCH", Path: item(first), Key: key, Token: tok, Body: map[string]any{"quantity": 7}}).Expect(t, 200, "").Decode(t, &got)
	if got.Item.Quantity != 7 {
		t.Fatalf("patched quantity: got %d, want 7", got.Item.Quantity)
	}
	e.Do(testenv.Req{Method: "PATCH", Path: item(first), Key: key, Token: tok, Body: map[string]any{"quantity": 0}}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "PATCH", Path: item(first), Key: key, Token: tok, Body: map[string]any{}}).Expect(t, 400, "validation_failed")
	// Another shopper's line, another store's key, unknown ids: 404.
	e.Do(testenv.Req{Method: "PATCH", Path: item(first), Key: key, Token: tok2, Body: map[string]any{"quantity": 1}}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "DELETE", Path: item(first), Key: key, Token: tok2}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "PATCH", Path: item(first), Key: keyB, Token: tokB, Body: map[string]any{"quantity": 1}}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "DELETE", Path: item(9999), Key: key, Token: tok}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "DELETE", Path: api + "/cart/items/abc/", Key: key, Token: tok}).Expect(t, 404, "not_found")

	e.Do(testenv.Req{Method: "DELETE", Path: item(varLine), Key: key, Token: tok}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "DELETE", Path: item(varLine), Key: key, Token: tok}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &cart)
	if len(cart.Items) != 1 || cart.Items[0].ID != first {
		t.Fatalf("cart after delete: got %+v", cart.Items)
	}
	// The other shopper's cart is empty.
	e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok2}).Expect(t, 200, "").Decode(t, &cart)
	if len(cart.Items) != 0 || cart.Subtotal != "0.00" {
		t.Fatalf("other shopper's cart: got %+v", cart)
	}

	t.Run("ErrUnauthorized", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key}).Expect(t, 401, "unauthorized")
		e.Do(testenv.Req{Method: "POST", Path: api + "/cart/items/", Key: key, Body: map[string]any{"product_id": p.ID}}).Expect(t, 401, "unauthorized")
		e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Token: tok}).Expect(t, 401, "invalid_api_key")
		// A token of store B with store A's key.
		e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tokB}).Expect(t, 401, "unauthorized")
	})
}
