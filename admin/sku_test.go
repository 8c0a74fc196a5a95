package admin_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/testenv"
)

// SKUs are unique per store (any case): 409 naming the other product.
func TestProductSKUUnique(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	products := fmt.Sprintf("%s/stores/%d/products/", api, sid)
	create := func(path, name, sku string) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken,
			Body: fmt.Sprintf(`{"name":%q,"price":"10.00","variants":[{"name":"M","sku":%q,"stock":1}]}`, name, sku)})
	}
	var first struct {
		ID uint64 `json:"id"`
	}
	create(products, "Red Shirt", "SHIRT-RED-M").Expect(t, 201, "").Decode(t, &first)
	t.Run("ErrTaken", func(t *testing.T) {
		r := create(products, "Blue Shirt", "shirt-red-m").Expect(t, 409, "conflict")
		if !strings.Contains(r.Body.Message, "Red Shirt") || !strings.Contains(r.Body.Errors["variants[0].sku"], "Red Shirt") {
			t.Fatalf("the other product is not named: %s", r.Raw)
		}
	})
	t.Run("ErrTakenOnPatch", func(t *testing.T) {
		var other struct {
			ID uint64 `json:"id"`
		}
		create(products, "Green Shirt", "SHIRT-GREEN-M").Expect(t, 201, "").Decode(t, &other)
		e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s%d/", products, other.ID), Token: e.OwnerToken,
			Body: `{"variants":[{"name":"M","sku":"SHIRT-RED-M","stock":1}]}`}).Expect(t, 409, "conflict")
	})
	t.Run("ErrTwiceInOneProduct", func(t *testing.T) {
		e.Do(testenv.Req{Method: "POST", Path: products, Token: e.OwnerToken,
			Body: `{"name":"Socks","price":"5.00","variants":[{"name":"S","sku":"SOCK-1","stock":1},{"name":"M","sku":"sock-1","stock":1}]}`}).Expect(t, 400, "validation_failed")
	})
	t.Run("SameProductKeepsItsSKU", func(t *testing.T) {
		e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s%d/", products, first.ID), Token: e.OwnerToken,
			Body: `{"name":"Red Shirt!"}`}).Expect(t, 200, "")
	})
	t.Run("OtherStoreMayUseIt", func(t *testing.T) {
		create(fmt.Sprintf("%s/stores/%d/products/", api, sidB), "Shirt", "SHIRT-RED-M").Expect(t, 201, "")
	})
	t.Run("PrefixIsNotTheSame", func(t *testing.T) {
		create(products, "Red Shirt L", "SHIRT-RED").Expect(t, 201, "")
	})
}
