package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

type initiated struct {
	RedirectURL      string `json:"redirect_url"`
	OrderID          uint64 `json:"order_id"`
	PaymentSessionID string `json:"payment_session_id"`
}

type verified struct {
	Success bool   `json:"success"`
	OrderID uint64 `json:"order_id"`
	Status  string `json:"status"`
	Message string `json:"message"`
}

type orderData struct {
	ID            uint64 `json:"id"`
	Status        string `json:"status"`
	PaymentStatus string `json:"payment_status"`
	Subtotal      string `json:"subtotal"`
	Discount      string `json:"discount"`
	DeliveryFee   string `json:"delivery_fee"`
	Total         string `json:"total"`
	CouponCode    string `json:"coupon_code"`
	Items         []struct {
		ProductID uint64 `json:"product_id"`
		Quantity  int64  `json:"quantity"`
		LineTotal string `json:"line_total"`
	} `json:"items"`
	CustomerID *uint64 `json:"customer_id"`
}

const callback = "https://shop.example/return?from=test"

// order is a checkout body for quantity units of each product.
func order(qty int64, products ...*app.Product) map[string]any {
	items := []map[string]any{}
	for _, p := range products {
		items = append(items, map[string]any{"product_id": p.ID, "quantity": qty, "unit_price": p.Price.String()})
	}
	return map[string]any{
		"receiver_name": "Ada Lovelace", "phone": "+15550100", "address": "1 Main St", "email": "ada@example.com",
		"delivery_fee": "0.00", "currency": "USD", "items": items, "payment_method": "WALLET_A", "callback_url": callback,
	}
}

func initiate(t *testing.T, e *testenv.Env, key, tok string, body map[string]any) initiated {
	t.Helper()
	var out initiated
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: body}).Expect(t, 200, "").Decode(t, &out)
	if out.OrderID == 0 || out.PaymentSessionID == "" || out.RedirectURL != "http://shop.test/sandbox/pay/"+out.PaymentSessionID+"/" {
		t.Fatalf("initiate: got %+v", out)
	}
	return out
}

// sandbox opens the sandbox page, presses a button and returns the query of
// the 303 to callback_url: the provider params.
func sandbox(t *testing.T, e *testenv.Env, in initiated, outcome string) map[string]string {
	t.Helper()
	path := strings.TrimPrefix(in.RedirectURL, "http://shop.test")
	page := e.Do(testenv.Req{Method: "GET", Path: path})
	if page.Status != 200 || !strings.Contains(string(page.Raw), `name="outcome" value="success"`) {
		t.Fatalf("sandbox page: got %d %s", page.Status, page.Raw)
	}
	r := e.Do(testenv.Req{Method: "POST", Path: path, Body: "outcome=" + outcome, Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("sandbox post: got %d, want 303: %s", r.Status, r.Raw)
	}
	loc, err := url.Parse(r.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), "https://shop.example/return?") {
		t.Fatalf("Location: got %q", r.Header.Get("Location"))
	}
	params := map[string]string{}
	for k, v := range loc.Query() {
		if k != "from" {
			params[k] = v[0]
		}
	}
	if loc.Query().Get("from") != "test" || params["payment_session_id"] != in.PaymentSessionID || params["outcome"] != outcome {
		t.Fatalf("callback query: got %v", loc.Query())
	}
	return params
}

func verify(t *testing.T, e *testenv.Env, key, session string, params map[string]string) verified {
	t.Helper()
	var v verified
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/verify/", Key: key, Body: map[string]any{"payment_session_id": session, "provider_params": params}}).Expect(t, 200, "").Decode(t, &v)
	return v
}

func adminOrder(t *testing.T, e *testenv.Env, sid, oid uint64) orderData {
	t.Helper()
	var o orderData
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/%d/", sid, oid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &o)
	return o
}

func stock(t *testing.T, e *testenv.Env, sid, pid uint64) int64 {
	t.Helper()
	p, err := e.Svc.Catalog.Product(sid, pid)
	if err != nil {
		t.Fatal(err)
	}
	return p.Stock
}

func TestCheckoutGuestThroughSandbox(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	in := initiate(t, e, key, "", order(2, p))
	if got := stock(t, e, sid, p.ID); got != 8 {
		t.Fatalf("stock after initiation: got %d, want 8 (reserved)", got)
	}
	page := e.Do(testenv.Req{Method: "GET", Path: strings.TrimPrefix(in.RedirectURL, "http://shop.test")})
	for _, want := range []string{"Shop A", "25.00 USD", "WALLET_A", ">Pay<", ">Fail<"} {
		if !strings.Contains(string(page.Raw), want) {
			t.Fatalf("sandbox page lacks %q: %s", want, page.Raw)
		}
	}
	params := sandbox(t, e, in, "success")
	if params["amount"] != "25.00" || params["transaction_id"] == "" || len(params["signature"]) != 64 {
		t.Fatalf("params: got %v", params)
	}
	v := verify(t, e, key, in.PaymentSessionID, params)
	if !v.Success || v.Status != "CONFIRMED" || v.OrderID != in.OrderID {
		t.Fatalf("verify: got %+v", v)
	}
	o := adminOrder(t, e, sid, in.OrderID)
	if o.Status != "CONFIRMED" || o.PaymentStatus != "PAID" || o.Total != "25.00" || o.CustomerID != nil {
		t.Fatalf("order: got %+v", o)
	}
	// Verified again: the same outcome, nothing changes.
	if v2 := verify(t, e, key, in.PaymentSessionID, params); v2 != v {
		t.Fatalf("second verify: got %+v, want %+v", v2, v)
	}
	// The paid session's page no longer offers the buttons; a POST is refused.
	path := strings.TrimPrefix(in.RedirectURL, "http://shop.test")
	if r := e.Do(testenv.Req{Method: "GET", Path: path}); strings.Contains(string(r.Raw), `value="success"`) {
		t.Fatalf("paid session still payable: %s", r.Raw)
	}
	if r := e.Do(testenv.Req{Method: "POST", Path: path, Body: "outcome=success", Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}); r.Status != 409 {
		t.Fatalf("pay a paid session: got %d, want 409", r.Status)
	}
	if r := e.Do(testenv.Req{Method: "GET", Path: "/sandbox/pay/ps_nope/"}); r.Status != 404 {
		t.Fatalf("unknown sandbox session: got %d, want 404", r.Status)
	}
	if got := stock(t, e, sid, p.ID); got != 8 {
		t.Fatalf("stock after payment: got %d, want 8", got)
	}
}

func TestCheckoutShopper(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	q := e.Product(sid, 0, "Plate", 800, 10)
	_, tok := e.Shopper(sid, "a@example.com")
	_, tok2 := e.Shopper(sid, "b@example.com")
	_, tokB := e.Shopper(sidB, "a@example.com")
	for _, pr := range []*app.Product{p, q} {
		e.Do(testenv.Req{Method: "POST", Path: api + "/cart/items/", Key: key, Token: tok, Body: map[string]any{"product_id": pr.ID}}).Expect(t, 200, "")
	}
	body := order(1, p)
	delete(body, "email") // a shopper's order falls back to the account's email
	in := initiate(t, e, key, tok, body)
	guest := initiate(t, e, key, "", order(1, q))
	v := verify(t, e, key, in.PaymentSessionID, sandbox(t, e, in, "success"))
	if !v.Success || v.Status != "CONFIRMED" {
		t.Fatalf("verify: got %+v", v)
	}
	var cart cartData
	e.Do(testenv.Req{Method: "GET", Path: api + "/cart/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &cart)
	if len(cart.Items) != 1 || cart.Items[0].ProductID != q.ID {
		t.Fatalf("cart after paying for the mug: got %+v, want only the plate", cart.Items)
	}
	var list struct {
		Items   []orderData `json:"items"`
		HasMore bool        `json:"has_more"`
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/orders/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &list)
	if len(list.Items) != 1 || list.Items[0].ID != in.OrderID || list.Items[0].PaymentStatus != "PAID" {
		t.Fatalf("orders: got %+v", list)
	}
	var od orderData
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/orders/%d/", api, in.OrderID), Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &od)
	if od.Status != "CONFIRMED" || od.Total != "12.50" || len(od.Items) != 1 {
		t.Fatalf("order: got %+v", od)
	}
	for _, tc := range []struct {
		name      string
		key, tok  string
		oid       uint64
		status    int
		errorCode string
	}{
		{"ErrAnotherShopper", key, tok2, in.OrderID, 404, "not_found"},
		{"ErrGuestOrder", key, tok, guest.OrderID, 404, "not_found"},
		{"ErrUnknown", key, tok, 999, 404, "not_found"},
		{"ErrNoToken", key, "", in.OrderID, 401, "unauthorized"},
		{"ErrOtherStoreKey", keyB, tok, in.OrderID, 401, "unauthorized"},
		{"ErrOtherStoresShopper", keyB, tokB, in.OrderID, 404, "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("%s/orders/%d/", api, tc.oid), Key: tc.key, Token: tc.tok}).Expect(t, tc.status, tc.errorCode)
		})
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/orders/", Key: key, Token: tok2}).Expect(t, 200, "").Decode(t, &list)
	if len(list.Items) != 0 {
		t.Fatalf("other shopper's orders: got %+v", list.Items)
	}
}

func TestCheckoutOrdersPaging(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 100, 100)
	_, tok := e.Shopper(sid, "a@example.com")
	var ids []uint64
	for i := 0; i < 5; i++ {
		ids = append(ids, initiate(t, e, key, tok, order(1, p)).OrderID)
	}
	var seen []uint64
	cursor := ""
	for {
		path := api + "/orders/?limit=2"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		var l struct {
			Items      []orderData `json:"items"`
			NextCursor *string     `json:"next_cursor"`
			HasMore    bool        `json:"has_more"`
		}
		e.Do(testenv.Req{Method: "GET", Path: path, Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &l)
		for _, o := range l.Items {
			seen = append(seen, o.ID)
		}
		if !l.HasMore {
			break
		}
		cursor = *l.NextCursor
	}
	if fmt.Sprint(seen) != fmt.Sprint([]uint64{ids[4], ids[3], ids[2], ids[1], ids[0]}) {
		t.Fatalf("orders newest first: got %v (made %v)", seen, ids)
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/orders/?cursor=bogus", Key: key, Token: tok}).Expect(t, 400, "validation_failed")
}

func TestVerifyFailures(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	in := initiate(t, e, key, "", order(1, p))
	good := sandbox(t, e, in, "success")
	tamper := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range good {
			m[a] = b
		}
		m[k] = v
		return m
	}
	for _, tc := range []struct {
		name   string
		params map[string]string
	}{
		{"ForgedSignature", tamper("signature", strings.Repeat("ab", 32))},
		{"ChangedAmount", tamper("amount", "0.01")},
		{"OutcomeFlipped", tamper("outcome", "failure")},
		{"NoParams", map[string]string{}},
		{"OtherSession", tamper("payment_session_id", "ps_other")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := verify(t, e, key, in.PaymentSessionID, tc.params)
			if v.Success || v.Status != "PENDING" || v.Message == "" {
				t.Fatalf("got %+v, want success false on a PENDING order", v)
			}
			// decisions §6: a wrong signature or amount is a failed payment
			if o := adminOrder(t, e, sid, in.OrderID); o.Status != "PENDING" || o.PaymentStatus != "FAILED" {
				t.Fatalf("got %+v, want PENDING and FAILED", o)
			}
		})
	}
	// Another store's key, an unknown session: 404; a missing session id: 400.
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/verify/", Key: keyB, Body: map[string]any{"payment_session_id": in.PaymentSessionID, "provider_params": good}}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/verify/", Key: key, Body: map[string]any{"payment_session_id": "ps_nope", "provider_params": good}}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/verify/", Key: key, Body: map[string]any{"provider_params": good}}).Expect(t, 400, "validation_failed")
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/verify/", Body: map[string]any{"payment_session_id": in.PaymentSessionID}}).Expect(t, 401, "invalid_api_key")

	// A failed payment: PENDING, FAILED; verified again: the same; then paid.
	failed := sandbox(t, e, in, "failure")
	v := verify(t, e, key, in.PaymentSessionID, failed)
	if v.Success || v.Status != "PENDING" {
		t.Fatalf("failure: got %+v", v)
	}
	if o := adminOrder(t, e, sid, in.OrderID); o.Status != "PENDING" || o.PaymentStatus != "FAILED" {
		t.Fatalf("after failure: got %s/%s, want PENDING/FAILED", o.Status, o.PaymentStatus)
	}
	if v2 := verify(t, e, key, in.PaymentSessionID, failed); v2 != v {
		t.Fatalf("failure verified again: got %+v, want %+v", v2, v)
	}
	retry := sandbox(t, e, in, "success")
	if v := verify(t, e, key, in.PaymentSessionID, retry); !v.Success || v.Status != "CONFIRMED" {
		t.Fatalf("retry: got %+v", v)
	}
	// The earlier failure, replayed after the payment, changes nothing.
	if v := verify(t, e, key, in.PaymentSessionID, failed); !v.Success || v.Status != "CONFIRMED" {
		t.Fatalf("replayed failure after payment: got %+v", v)
	}
	if o := adminOrder(t, e, sid, in.OrderID); o.PaymentStatus != "PAID" {
		t.Fatalf("payment status: got %s, want PAID", o.PaymentStatus)
	}
	if got := stock(t, e, sid, p.ID); got != 9 {
		t.Fatalf("stock: got %d, want 9", got)
	}
}

func TestVerifyConcurrent(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	_, tok := e.Shopper(sid, "a@example.com")
	e.Do(testenv.Req{Method: "POST", Path: api + "/cart/items/", Key: key, Token: tok, Body: map[string]any{"product_id": p.ID}}).Expect(t, 200, "")
	in := initiate(t, e, key, tok, order(1, p))
	paid := sandbox(t, e, in, "success")
	failed := sandbox(t, e, in, "failure")
	var wg sync.WaitGroup
	results := make([]verified, 8)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			params := paid
			if i%2 == 1 {
				params = failed
			}
			results[i] = verify(t, e, key, in.PaymentSessionID, params)
		}(i)
	}
	wg.Wait()
	for i, r := range results {
		if i%2 == 0 && (!r.Success || r.Status != "CONFIRMED") {
			t.Fatalf("verification %d of the paid attempt: got %+v", i, r)
		}
	}
	o := adminOrder(t, e, sid, in.OrderID)
	if o.Status != "CONFIRMED" || o.PaymentStatus != "PAID" {
		t.Fatalf("order: got %s/%s", o.Status, o.PaymentStatus)
	}
	if got := stock(t, e, sid, p.ID); got != 9 {
		t.Fatalf("stock: got %d, want 9", got)
	}
}

func TestCheckoutLastUnits(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Rare", 5000, 5)
	var wg sync.WaitGroup
	var okN, soldOut, other atomic.Int32
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p)})
			switch {
			case r.Status == 200:
				okN.Add(1)
			case r.Status == 409 && r.Body.ErrorCode == "out_of_stock" && r.Body.Errors["items[0].quantity"] != "":
				soldOut.Add(1)
			default:
				other.Add(1)
			}
		}()
	}
	wg.Wait()
	if okN.Load() != 5 || soldOut.Load() != 45 || other.Load() != 0 {
		t.Fatalf("got %d ok, %d out_of_stock, %d other; want 5, 45, 0", okN.Load(), soldOut.Load(), other.Load())
	}
	if got := stock(t, e, sid, p.ID); got != 0 {
		t.Fatalf("stock: got %d, want 0", got)
	}
	var l struct {
		Items []orderData `json:"items"`
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/?status=PENDING", sid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 5 {
		t.Fatalf("pending orders: got %d, want 5", len(l.Items))
	}
	// The public product shows it sold out.
	var doc struct {
		Stock   int64 `json:"stock"`
		InStock bool  `json:"in_stock"`
	}
	e.Do(testenv.Req{Method: "GET", Path: api + "/products/rare/", Key: key}).Expect(t, 200, "").Decode(t, &doc)
	if doc.Stock != 0 || doc.InStock {
		t.Fatalf("product doc: got %+v", doc)
	}
}

func TestCheckoutVariantsAndMoney(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	vp := variantProduct(t, e, sid, "Shirt")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/config/", sid), Token: e.OwnerToken,
		Body: map[string]any{"delivery_options": []map[string]any{{"id": "standard", "name": "Standard", "fee": "5.00"}, {"id": "express", "name": "Express", "fee": "15.00"}}}}).Expect(t, 200, "")
	body := order(2, p)
	body["items"] = append(body["items"].([]map[string]any), map[string]any{"product_id": vp.ID, "variant_id": vp.Variants[1].ID, "quantity": 1, "unit_price": "25.00"})
	body["delivery_fee"] = "15.00"
	in := initiate(t, e, key, "", body)
	o := adminOrder(t, e, sid, in.OrderID)
	if o.Subtotal != "50.00" || o.DeliveryFee != "15.00" || o.Total != "65.00" || len(o.Items) != 2 {
		t.Fatalf("order money: got %+v", o)
	}
	pv, _ := e.Svc.Catalog.Product(sid, vp.ID)
	if pv.Variants[1].Stock != 2 || pv.Variants[0].Stock != 5 {
		t.Fatalf("variant stock: got %+v", pv.Variants)
	}
	// Omitted delivery_fee: the first option.
	body = order(1, p)
	delete(body, "delivery_fee")
	o = adminOrder(t, e, sid, initiate(t, e, key, "", body).OrderID)
	if o.DeliveryFee != "5.00" || o.Total != "17.50" {
		t.Fatalf("default delivery: got %+v", o)
	}
}

func TestCheckoutPriceChanged(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	for _, tc := range []struct {
		name        string
		edit        func(map[string]any)
		field, want string
	}{
		{"UnitPrice", func(b map[string]any) { b["items"].([]map[string]any)[0]["unit_price"] = "10.00" }, "items[0].unit_price", "12.50"},
		{"DeliveryFee", func(b map[string]any) { b["delivery_fee"] = "4.99" }, "delivery_fee", "0.00"},
		{"Currency", func(b map[string]any) { b["currency"] = "EUR" }, "currency", "USD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := order(1, p)
			tc.edit(b)
			r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: b}).Expect(t, 409, "price_changed")
			if r.Body.Errors[tc.field] != tc.want {
				t.Fatalf("errors[%s]: got %q, want %q (%v)", tc.field, r.Body.Errors[tc.field], tc.want, r.Body.Errors)
			}
		})
	}
	if got := stock(t, e, sid, p.ID); got != 10 {
		t.Fatalf("stock after refused checkouts: got %d, want 10", got)
	}
	var l struct {
		Items []orderData `json:"items"`
	}
	e.Do(testenv.Req{Method: "GET", Path: fmt.Sprintf("/api/v1/admin/stores/%d/orders/", sid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != 0 {
		t.Fatalf("orders after refused checkouts: got %d, want 0", len(l.Items))
	}
}

func TestCheckoutValidation(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Mug", 1250, 1)
	vp := variantProduct(t, e, sid, "Shirt")
	e.Product(sidB, 0, "B", 100, 1)
	for _, tc := range []struct {
		name   string
		key    string
		edit   func(map[string]any)
		status int
		code   string
		field  string
	}{
		{"NoReceiver", key, func(b map[string]any) { delete(b, "receiver_name") }, 400, "validation_failed", "receiver_name"},
		{"GuestNeedsEmail", key, func(b map[string]any) { delete(b, "email") }, 400, "validation_failed", "email"},
		{"BadCallback", key, func(b map[string]any) { b["callback_url"] = "javascript:alert(1)" }, 400, "validation_failed", "callback_url"},
		{"UnknownMethod", key, func(b map[string]any) { b["payment_method"] = "CASH" }, 400, "validation_failed", "payment_method"},
		{"NoItems", key, func(b map[string]any) { b["items"] = []any{} }, 400, "validation_failed", "items"},
		{"ZeroQuantity", key, func(b map[string]any) { b["items"].([]map[string]any)[0]["quantity"] = 0 }, 400, "validation_failed", "items[0].quantity"},
		{"UnknownProduct", key, func(b map[string]any) { b["items"].([]map[string]any)[0]["product_id"] = 999 }, 400, "validation_failed", "items[0].product_id"},
		{"VariantRequired", key, func(b map[string]any) { b["items"].([]map[string]any)[0]["product_id"] = vp.ID }, 400, "validation_failed", "items[0].variant_id"},
		{"UnknownCoupon", key, func(b map[string]any) { b["coupon_code"] = "NOPE" }, 400, "validation_failed", "coupon_code"},
		{"OutOfStock", key, func(b map[string]any) { b["items"].([]map[string]any)[0]["quantity"] = 2 }, 409, "out_of_stock", "items[0].quantity"},
		{"OtherStoresProduct", keyB, func(b map[string]any) { b["items"].([]map[string]any)[0]["product_id"] = 2 }, 400, "validation_failed", "items[0].product_id"},
		{"NoKey", "", func(map[string]any) {}, 401, "invalid_api_key", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := order(1, p)
			tc.edit(b)
			r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: tc.key, Body: b}).Expect(t, tc.status, tc.code)
			if tc.field != "" && r.Body.Errors[tc.field] == "" {
				t.Fatalf("errors: got %v, want %s", r.Body.Errors, tc.field)
			}
		})
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: "garbage", Body: order(1, p)}).Expect(t, 401, "unauthorized")
	// A method the store turned off.
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/config/", sid), Token: e.OwnerToken,
		Body: map[string]any{"payment_methods": []map[string]string{{"code": "WALLET_B", "name": "Wallet B"}}}}).Expect(t, 200, "")
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p)}).Expect(t, 400, "validation_failed")
	if r.Body.Errors["payment_method"] == "" {
		t.Fatalf("errors: got %v", r.Body.Errors)
	}
	b := order(1, p)
	b["payment_method"] = "WALLET_B"
	initiate(t, e, key, "", b)
	// email_otp_enabled: an unverified shopper may not order; a guest may.
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/admin/stores/%d/config/", sidB), Token: e.OwnerToken, Body: map[string]any{"email_otp_enabled": true}}).Expect(t, 200, "")
	_, tokB := e.Shopper(sidB, "x@example.com")
	b = order(1, &app.Product{ID: 1, Price: 100})
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: keyB, Token: tokB, Body: b}).Expect(t, 403, "email_not_verified")
	initiate(t, e, keyB, "", b)
}

func TestCheckoutIdempotencyKey(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	h := map[string]string{"Idempotency-Key": "order-123"}
	var first, again initiated
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(2, p), Header: h}).Expect(t, 200, "").Decode(t, &first)
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(2, p), Header: h}).Expect(t, 200, "").Decode(t, &again)
	if first != again {
		t.Fatalf("retry: got %+v, want %+v", again, first)
	}
	if got := stock(t, e, sid, p.ID); got != 8 {
		t.Fatalf("stock after a retried checkout: got %d, want 8", got)
	}
	// The same request re-serialized (other key order, spacing) is the same request.
	raw, _ := json.Marshal(order(2, p))
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	var sb strings.Builder
	sb.WriteString("{ ")
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(keys)))
	for i, k := range keys {
		if i > 0 {
			sb.WriteString(",\n ")
		}
		fmt.Fprintf(&sb, "%q: %s", k, m[k])
	}
	sb.WriteString(" }")
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: sb.String(), Header: h}).Expect(t, 200, "").Decode(t, &again)
	if first != again {
		t.Fatalf("re-serialized retry: got %+v, want %+v", again, first)
	}
	// Guests share a store's namespace: the same key with another body is
	// another guest's order, not a conflict (no guest can block another's key).
	var other initiated
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(3, p), Header: h}).Expect(t, 200, "").Decode(t, &other)
	if other.OrderID == first.OrderID {
		t.Fatalf("another guest body replayed order %d", first.OrderID)
	}
	// A shopper's key with another body is a conflict.
	_, tok := e.Shopper(sid, "ada@example.com")
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: order(1, p), Header: h}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: tok, Body: order(2, p), Header: h}).Expect(t, 409, "conflict")
	if got := stock(t, e, sid, p.ID); got != 4 {
		t.Fatalf("stock: got %d, want 4", got)
	}
	// Concurrent retries of one key make one order.
	h2 := map[string]string{"Idempotency-Key": "order-456"}
	ids := make([]uint64, 10)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var r initiated
			e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p), Header: h2}).Expect(t, 200, "").Decode(t, &r)
			ids[i] = r.OrderID
		}(i)
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("concurrent retries made orders %v", ids)
		}
	}
	if got := stock(t, e, sid, p.ID); got != 3 {
		t.Fatalf("stock: got %d, want 3", got)
	}
	// Without the key, the same body is a second order.
	a := initiate(t, e, key, "", order(1, p))
	b := initiate(t, e, key, "", order(1, p))
	if a.OrderID == b.OrderID {
		t.Fatalf("two orders without a key share id %d", a.OrderID)
	}
}

// TestIdempotentReplayByteIdentical: a retried initiation answers exactly the
// bytes of the first answer, for a guest and for a signed-in shopper (the
// stored record keeps only what the answer needs, in a compact form).
func TestIdempotentReplayByteIdentical(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	_, tok := e.Shopper(sid, "ada@example.com")
	for _, who := range []struct{ name, token, idem string }{{"guest", "", "replay-guest-1"}, {"shopper", tok, "replay-shopper-1"}} {
		h := map[string]string{"Idempotency-Key": who.idem}
		first := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: who.token, Body: order(1, p), Header: h}).Expect(t, 200, "")
		again := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Token: who.token, Body: order(1, p), Header: h}).Expect(t, 200, "")
		if !bytes.Equal(first.Raw, again.Raw) {
			t.Errorf("%s: replay differs:\n%s\n%s", who.name, first.Raw, again.Raw)
		}
		var r initiated
		first.Decode(t, &r)
		if r.OrderID == 0 || r.PaymentSessionID == "" || r.RedirectURL == "" {
			t.Errorf("%s: incomplete answer %s", who.name, first.Raw)
		}
	}
}

func TestExpirePending(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	old := initiate(t, e, key, "", order(3, p))
	paid := initiate(t, e, key, "", order(1, p))
	params := sandbox(t, e, old, "success")
	if v := verify(t, e, key, paid.PaymentSessionID, sandbox(t, e, paid, "success")); !v.Success {
		t.Fatalf("verify: %+v", v)
	}
	e.Advance(20 * time.Minute)
	fresh := initiate(t, e, key, "", order(2, p))
	if got := stock(t, e, sid, p.ID); got != 4 {
		t.Fatalf("stock: got %d, want 4", got)
	}
	e.Advance(11 * time.Minute) // old is 31 minutes old, fresh 11
	n, err := e.Svc.Orders.ExpirePending()
	if err != nil || n != 1 {
		t.Fatalf("ExpirePending: got %d, %v; want 1", n, err)
	}
	if got := stock(t, e, sid, p.ID); got != 7 {
		t.Fatalf("stock after expiry: got %d, want 7", got)
	}
	if o := adminOrder(t, e, sid, old.OrderID); o.Status != "CANCELLED" {
		t.Fatalf("expired order: got %s", o.Status)
	}
	if o := adminOrder(t, e, sid, fresh.OrderID); o.Status != "PENDING" {
		t.Fatalf("fresh order: got %s", o.Status)
	}
	if n, _ := e.Svc.Orders.ExpirePending(); n != 0 {
		t.Fatalf("second run cancelled %d, want 0", n)
	}
	if got := stock(t, e, sid, p.ID); got != 7 {
		t.Fatalf("stock after a second run: got %d, want 7 (released once)", got)
	}
	// A payment arriving after expiry is refused: the order stays CANCELLED
	// (its stock stays released) but is marked PAID, so the store sees it owes
	// a refund; verifying again changes nothing more.
	for i := 0; i < 2; i++ {
		v := verify(t, e, key, old.PaymentSessionID, params)
		if v.Success || v.Status != "CANCELLED" {
			t.Fatalf("verify of an expired order: got %+v", v)
		}
		if o := adminOrder(t, e, sid, old.OrderID); o.Status != "CANCELLED" || o.PaymentStatus != "PAID" {
			t.Fatalf("expired order paid late: got %s/%s, want CANCELLED/PAID", o.Status, o.PaymentStatus)
		}
		if got := stock(t, e, sid, p.ID); got != 7 {
			t.Fatalf("stock after a late payment: got %d, want 7", got)
		}
	}
	path := strings.TrimPrefix(old.RedirectURL, "http://shop.test")
	if r := e.Do(testenv.Req{Method: "POST", Path: path, Body: "outcome=success", Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}); r.Status != 409 {
		t.Fatalf("sandbox pay of an expired order: got %d, want 409", r.Status)
	}
	e.Advance(time.Hour)
	if n, _ := e.Svc.Orders.ExpirePending(); n != 1 {
		t.Fatalf("fresh order expiry: got %d, want 1", n)
	}
	if got := stock(t, e, sid, p.ID); got != 9 {
		t.Fatalf("final stock: got %d, want 9", got)
	}
}

// An order whose total could not be stored (over app.MaxMoney) is refused
// before anything is written, so it can never block reads or the expiry job.
func TestOrderOverMaxMoney(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Yacht", 600_000_000_00, 2)
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(2, p)}).Expect(t, 400, "validation_failed")
	if r.Body.Errors["items"] == "" {
		t.Fatalf("want errors.items: %s", r.Raw)
	}
	if got := stock(t, e, sid, p.ID); got != 2 {
		t.Fatalf("stock after a refused order: got %d, want 2", got)
	}
	initiate(t, e, key, "", order(1, p)) // one unit is within the limit
	e.Advance(time.Hour)
	if n, err := e.Svc.Orders.ExpirePending(); n != 1 || err != nil {
		t.Fatalf("ExpirePending: got %d, %v; want 1", n, err)
	}
}

// Idempotency keys are remembered for IdempotencyKeep, then pruned by the
// hourly sweep: the same key then makes a new order.
func TestIdempotencyKeysPruned(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	h := map[string]string{"Idempotency-Key": "weekly-1"}
	var first, again initiated
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p), Header: h}).Expect(t, 200, "").Decode(t, &first)
	e.Advance(app.IdempotencyKeep - time.Hour)
	if n, err := e.Svc.Orders.SweepIdempotency(); err != nil || n != 0 {
		t.Fatalf("swept %d, %v within the week", n, err)
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p), Header: h}).Expect(t, 200, "").Decode(t, &again)
	if again.OrderID != first.OrderID {
		t.Fatalf("within the window: got order %d, want %d", again.OrderID, first.OrderID)
	}
	e.Advance(2 * time.Hour)
	if n, err := e.Svc.Orders.SweepIdempotency(); err != nil || n != 1 {
		t.Fatalf("swept %d, %v after the week, want 1", n, err)
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: order(1, p), Header: h}).Expect(t, 200, "").Decode(t, &again)
	if again.OrderID == first.OrderID {
		t.Fatalf("after pruning the key still replays order %d", first.OrderID)
	}
}
