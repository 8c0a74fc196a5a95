package shop_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"storefront/app"
	"storefront/shop"
	"storefront/testenv"
)

const api = "/api/v1/business/website"

// dealOf is the deal members of a product as the API writes them.
type dealOf struct {
	ID         uint64  `json:"id"`
	Price      string  `json:"price"`
	DealPrice  *string `json:"deal_price"`
	DealEndsAt *string `json:"deal_ends_at"`
}

func (d dealOf) String() string {
	s := func(p *string) string {
		if p == nil {
			return "null"
		}
		return *p
	}
	return s(d.DealPrice) + " until " + s(d.DealEndsAt)
}

// apiDeals reads the product's deal through every product read of the API.
func apiDeals(t *testing.T, e *testenv.Env, key string, p *app.Product) map[string]string {
	t.Helper()
	out := map[string]string{}
	one := func(name, path string) {
		var d dealOf
		e.Do(testenv.Req{Method: "GET", Path: path, Key: key}).Expect(t, 200, "").Decode(t, &d)
		out[name] = d.String()
	}
	list := func(name, path string) {
		var l struct{ Items []dealOf }
		e.Do(testenv.Req{Method: "GET", Path: path, Key: key}).Expect(t, 200, "").Decode(t, &l)
		for _, d := range l.Items {
			if d.ID == p.ID {
				out[name] = d.String()
			}
		}
	}
	one("detail", api+"/products/"+p.Slug+"/")
	one("detail fields", api+"/products/"+p.Slug+"/?fields=deal_price,deal_ends_at")
	one("detail reviews", api+"/products/"+p.Slug+"/?fields=deal_price,deal_ends_at,reviews")
	list("list", api+"/products/")
	list("list fields", api+"/products/?fields=name,deal_price,deal_ends_at")
	list("list variants", api+"/products/?fields=variants,deal_price,deal_ends_at")
	list("search", api+"/products/?q="+url.QueryEscape(p.Name))
	list("category", fmt.Sprintf("%s/categories/%d/products/", api, p.CategoryID))
	return out
}

// TestOnePrice: a product with a running flash deal shows one amount on
// every surface: the API's product reads (list, detail, category, search,
// fields=), the shop's product, category, search and list pages, the
// JSON-LD offer, the quote, and the order placed. The deal starting and
// ending shows at once, whatever was cached; a deal that ended between the
// quote and the payment is a price change.
func TestOnePrice(t *testing.T) {
	e := newEnv(t, shop.Config{})
	sid, key := e.Store("Acme")
	host := hostOf("Acme")
	cat := e.Category(sid, "Tools")
	p := e.Product(sid, cat.ID, "Hammer", 1250, 5)
	e.Product(sid, cat.ID, "Saw", 3000, 5)
	start, end := e.Now().Add(time.Hour), e.Now().Add(3*time.Hour)
	title, price := "Hammer time", app.Money(999)
	starts, ends := start.Format(time.RFC3339), end.Format(time.RFC3339)
	if _, err := e.Svc.Content.SaveDeal(sid, 0, app.FlashDealInput{Title: &title, ProductID: &p.ID, DealPrice: &price, StartsAt: &starts, EndsAt: &ends}); err != nil {
		t.Fatal(err)
	}
	guest := newBrowser(t, e, host)
	pages := []string{"/products/" + p.Slug + "/", fmt.Sprintf("/categories/%d/%s/", cat.ID, cat.Slug), "/search/?q=hammer", "/products/"}
	// before the deal: the regular price everywhere (and cached)
	for name, got := range apiDeals(t, e, key, p) {
		if got != "null until null" {
			t.Errorf("%s before the deal: %s", name, got)
		}
	}
	for _, path := range pages {
		guest.get(path).expect(t, 200, "$12.50").lacks(t, "$9.99", "Deal ends")
	}
	// the deal runs: every surface at once, caches or not
	e.Advance(time.Hour)
	want := "9.99 until " + end.UTC().Format(time.RFC3339)
	for name, got := range apiDeals(t, e, key, p) {
		if got != want {
			t.Errorf("%s during the deal: %s, want %s", name, got, want)
		}
	}
	for _, path := range pages {
		guest.get(path).expect(t, 200, "$9.99", "<s><span class=\"visually-hidden\">Was </span>$12.50</s>", "Deal ends "+end.UTC().Format("2 Jan 2006, 15:04 UTC"))
	}
	prod := guest.get(pages[0])
	offer, _ := ldOfType(jsonLD(t, prod.Body), "Product")["offers"].(map[string]any)
	if offer["price"] != "9.99" || offer["priceValidUntil"] != end.UTC().Format(time.RFC3339) {
		t.Errorf("JSON-LD offer %v", offer)
	}
	var q struct {
		Items []struct {
			UnitPrice string `json:"unit_price"`
		} `json:"items"`
		Total string `json:"total"`
	}
	items := []map[string]any{{"product_id": p.ID, "quantity": 2}}
	e.Do(testenv.Req{Method: "POST", Path: api + "/payment/quote/", Key: key, Body: map[string]any{"items": items}}).Expect(t, 200, "").Decode(t, &q)
	if len(q.Items) != 1 || q.Items[0].UnitPrice != "9.99" || q.Total != "19.98" {
		t.Errorf("quote %+v", q)
	}
	b := newBrowser(t, e, host)
	add(b, p.ID, 0, 2)
	b.get("/cart/").expect(t, 200, "$9.99", "$19.98")
	placed := b.do("POST", "/checkout/", checkoutForm(b.get("/checkout/").expect(t, 200, "$19.98").Body, app.WalletA)).expect(t, 303)
	o := e.Order(sid, orderIDOf(t, pay(t, b, placed.Location, app.OutcomeSuccess).Body))
	if o.Items[0].UnitPrice != 999 || o.Subtotal != 1998 {
		t.Errorf("order %+v", o)
	}
	// the deal ends: the regular price again everywhere, and the quote's
	// price is a change
	e.Advance(2 * time.Hour)
	for name, got := range apiDeals(t, e, key, p) {
		if got != "null until null" {
			t.Errorf("%s after the deal: %s", name, got)
		}
	}
	for _, path := range pages {
		guest.get(path).expect(t, 200, "$12.50").lacks(t, "$9.99", "Deal ends")
	}
	body := map[string]any{"receiver_name": "Ada Lovelace", "phone": "+15550100", "address": "1 Main St", "email": "ada@example.com",
		"currency": "USD", "payment_method": app.WalletA, "callback_url": "https://shop.example/return",
		"items": []map[string]any{{"product_id": p.ID, "quantity": 2, "unit_price": "9.99"}}}
	r := e.Do(testenv.Req{Method: "POST", Path: api + "/payment/initiate/", Key: key, Body: body}).Expect(t, 409, "price_changed")
	if r.Body.Errors["items[0].unit_price"] != "12.50" {
		t.Errorf("price_changed: %s", r.Raw)
	}
}

// TestBundleNoPrice: a bundle is ordered as its items at their own prices,
// so the shop shows it without a price of its own (a price the cart would
// not charge): its items, each linked to its page.
func TestBundleNoPrice(t *testing.T) {
	e := newEnv(t, shop.Config{})
	sid, _ := e.Store("Acme")
	lamp := e.Product(sid, 0, "Lamp", 1000, 5)
	mug := e.Product(sid, 0, "Mug", 700, 5)
	name, price, active := "Desk set", app.Money(1234), true
	items := []app.BundleItem{{ProductID: lamp.ID, Quantity: 1}, {ProductID: mug.ID, Quantity: 2}}
	if _, err := e.Svc.Content.SaveBundle(sid, 0, app.BundleInput{Name: &name, Items: &items, Price: &price, IsActive: &active}); err != nil {
		t.Fatal(err)
	}
	newBrowser(t, e, hostOf("Acme")).get("/").expect(t, 200, "Desk set", `1 × <a href="/products/lamp/">Lamp</a>`, `2 × <a href="/products/mug/">Mug</a>`).
		lacks(t, "$12.34", "$24.00")
}
