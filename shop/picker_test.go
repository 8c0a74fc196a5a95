package shop_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/shop"
	"storefront/testenv"
)

// pickerProduct is a tee in two colours and three sizes: XL sold out in
// both colours, Blue M sold out, Blue with its own picture; a flash deal on
// Red M.
func pickerProduct(t *testing.T) (env *testenv.Env, sid uint64, p *app.Product) {
	env = newEnv(t, shop.Config{})
	sid, _ = env.Store("Acme")
	p = env.Product(sid, 0, "Tee", 2000, 0)
	tee, back, blue := storedPicture(t, env, sid, "a1"), storedPicture(t, env, sid, "b2"), storedPicture(t, env, sid, "c3")
	var vs []app.VariantInput
	for _, c := range []string{"Red", "Blue"} {
		for i, size := range []string{"S", "M", "XL"} {
			stock := []int64{10, 2, 0}[i]
			if c == "Blue" && size == "M" {
				stock = 0
			}
			vi := app.VariantInput{Name: c + " " + size, Stock: stock, Attributes: map[string]string{"colour": c, "size": size}}
			if c == "Blue" {
				vi.Image = ptr(blue)
			}
			vs = append(vs, vi)
		}
	}
	p = editProduct(t, env, sid, p.ID, app.ProductInput{Images: &[]string{tee, back}, Variants: &vs})
	title, price := "Red M", app.Money(1500)
	starts, ends := env.Now().Add(-time.Hour).Format(time.RFC3339), env.Now().Add(time.Hour).Format(time.RFC3339)
	if _, err := env.Svc.Content.SaveDeal(sid, 0, app.FlashDealInput{Title: &title, ProductID: &p.ID, VariantID: &p.Variants[1].ID,
		DealPrice: &price, StartsAt: &starts, EndsAt: &ends}); err != nil {
		t.Fatal(err)
	}
	return env, sid, p
}

// storedPicture stores a picture (made-up renditions, named by hex twice
// 32 times) in store sid's media store and returns its URL: the shop shows
// stored pictures only.
func storedPicture(t *testing.T, e *testenv.Env, sid uint64, hex string) string {
	t.Helper()
	u, err := e.Svc.Catalog.StoreMedia(sid, app.Media{Hash: strings.Repeat(hex, 32), Ext: "jpg",
		Files: map[int][]byte{160: []byte("s"), 480: []byte("m"), 1200: []byte("l")}})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

var variantDataRE = regexp.MustCompile(`(?s)<script type="application/json" data-variants>(.*?)</script>`)

// TestVariantPicker: one fieldset per option by its name, one radio per
// value, the first variant in stock chosen, values no stock has (with the
// values chosen before them) disabled; the script's data carries each
// variant's price (its deal's), stock and picture; the gallery has the
// variant's picture, thumbnails and full-size links.
func TestVariantPicker(t *testing.T) {
	t.Parallel()
	e, sid, p := pickerProduct(t)
	br := newBrowser(t, e, hostOf("Acme"))
	pg := br.get("/products/tee/").expect(t, 200,
		`<fieldset class="options"><legend>Colour</legend>`, `<legend>Size</legend>`,
		`name="option.colour" value="Red" required checked>`, `name="option.colour" value="Blue" required>`,
		`name="option.size" value="S" required checked>`, `name="option.size" value="M" required>`,
		`name="option.size" value="XL" required disabled>`, // no XL in stock in red
		// the gallery: the product's two pictures and Blue's, thumbnails linking to their slides, each picture to its full size
		fmt.Sprintf(`<li id="shot-3"><a class="zoom" href="/media/%d/%s-1200.jpg">`, sid, strings.Repeat("c3", 32)), `(open at full size)`,
		`<ul class="thumbs" aria-label="Choose a picture">`, `<a href="#shot-2" data-shot="2" aria-label="Show picture 2">`,
		`href="#shot-1" data-shot="1" aria-label="Show picture 1" aria-current="true">`).
		lacks(t, `name="variant_id"`, `<select`)
	m := variantDataRE.FindStringSubmatch(pg.Body)
	if m == nil {
		t.Fatal("no variant data")
	}
	var data []struct {
		ID    uint64   `json:"id"`
		Opts  []string `json:"opts"`
		Price string   `json:"price"`
		Was   string   `json:"was"`
		Stock string   `json:"stock"`
		In    bool     `json:"in"`
		Shot  int      `json:"shot"`
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatalf("variant data %s: %v", m[1], err)
	}
	want := []string{
		"Red S $20.00 - In stock|true|-1", "Red M $15.00 $20.00 Only 2 left|true|-1", "Red XL $20.00 - Out of stock|false|-1",
		"Blue S $20.00 - In stock|true|2", "Blue M $20.00 - Out of stock|false|2", "Blue XL $20.00 - Out of stock|false|2"}
	for i, v := range data {
		was := v.Was
		if was == "" {
			was = "-"
		}
		got := fmt.Sprintf("%s %s %s %s %s|%v|%d", v.Opts[0], v.Opts[1], v.Price, was, v.Stock, v.In, v.Shot)
		if i >= len(want) || got != want[i] || v.ID != p.Variants[i].ID {
			t.Errorf("variant %d: %q (id %d), want %q", i, got, v.ID, want[i])
		}
	}
}

// TestVariantPickerFallback: variants that do not each name one
// combination of the same options are chosen by themselves (variant_id),
// a sold-out one disabled, the price and stock shown the chosen one's; a
// product without variants has no picker.
func TestVariantPickerFallback(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	sid, _ := e.Store("Acme")
	p := e.Product(sid, 0, "Hammer", 1250, 5)
	vs := []app.VariantInput{{Name: "Small", Stock: 0}, {Name: "Large", Stock: 2, Price: ptr(app.Money(1400)), Attributes: map[string]string{"size": "L"}}}
	p = editProduct(t, e, sid, p.ID, app.ProductInput{Variants: &vs})
	e.Product(sid, 0, "Saw", 3000, 5)
	br := newBrowser(t, e, hostOf("Acme"))
	br.get("/products/hammer/").expect(t, 200, `<legend>Option</legend>`,
		fmt.Sprintf(`name="variant_id" value="%d" required disabled><span>Small (Out of stock)</span>`, p.Variants[0].ID),
		fmt.Sprintf(`name="variant_id" value="%d" required checked><span>Large – $14.00</span>`, p.Variants[1].ID),
		// the price and stock shown are the chosen variant's: what the form adds without JavaScript
		`<span data-price>$14.00</span>`, "Only 2 left").lacks(t, "option.size", "$12.50</span>")
	br.get("/products/saw/").expect(t, 200, `action="/cart/add"`).lacks(t, "<fieldset class=\"options\"", "data-variants", `class="thumbs"`)
}

// TestVariantPickerNoScript: without JavaScript the add form posts the
// values chosen and the cart adds the variant they name; a combination no
// variant has, or one sold out, is refused with the cart's message.
func TestVariantPickerNoScript(t *testing.T) {
	t.Parallel()
	e, _, p := pickerProduct(t)
	br := newBrowser(t, e, hostOf("Acme"))
	form := func(colour, size string) url.Values {
		return url.Values{"product_id": {fmt.Sprint(p.ID)}, "quantity": {"2"}, "option.colour": {colour}, "option.size": {size}}
	}
	br.post("/products/tee/", "/cart/add", form("Red", "M")).expect(t, 303)
	br.get("/cart/").expect(t, 200, "Tee - Red M", "$30.00")
	// a sold-out combination is added as a sold-out variant is: the cart says so and leaves it out of the total
	br.post("/products/tee/", "/cart/add", form("Blue", "M")).expect(t, 303)
	br.get("/cart/").expect(t, 200, "Tee - Blue M: Out of stock", "$30.00")
	for name, c := range map[string]struct {
		form url.Values
		want string
	}{
		"Unknown":  {form("Green", "M"), "no variant has the options chosen"},
		"Missing":  {url.Values{"product_id": {fmt.Sprint(p.ID)}, "option.colour": {"Red"}}, "no variant has the options chosen"},
		"Too long": {form(strings.Repeat("x", 9000), "M"), "too"},
	} {
		t.Run(name, func(t *testing.T) {
			pg := br.post("/products/tee/", "/cart/add", c.form)
			if pg.Status != 400 && pg.Status != 409 {
				t.Fatalf("status %d, want a 4xx with the form's message", pg.Status)
			}
			if !strings.Contains(strings.ToLower(pg.Body), c.want) {
				t.Fatalf("page lacks %q", c.want)
			}
		})
	}
}

// TestProductLD: the Product JSON-LD's brand is the shop's name (products
// have no brand field); its offer lists each delivery option that ships
// with its fee for one unit and its countries (else the store's), no
// pickup; the return policy links the shipping and returns page, and is
// left out without one.
func TestProductLD(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	sid, _ := e.Store("Acme")
	e.Product(sid, 0, "Lamp", 2000, 5)
	br := newBrowser(t, e, hostOf("Acme"))
	offerOf := func() (map[string]any, map[string]any) {
		prod := ldOfType(jsonLD(t, br.get("/products/lamp/").expect(t, 200).Body), "Product")
		offer, _ := prod["offers"].(map[string]any)
		return prod, offer
	}
	if _, offer := offerOf(); offer["hasMerchantReturnPolicy"] != nil {
		t.Fatalf("a return policy without a returns page: %v", offer)
	}
	patchConfig(t, e, sid, `{"store": {"name": "Acme Lights", "country": "DE"}, "pages": {"shipping": "Returns within 30 days."},
		"delivery_options": [
		{"id": "standard", "name": "Standard", "fee": "4.99", "free_over": "15.00", "countries": ["DE", "AT"]},
		{"id": "express", "name": "Express", "fee": "9.99"},
		{"id": "pickup", "name": "Pick up", "fee": "0.00", "needs_address": false}]}`)
	prod, offer := offerOf()
	if b, _ := prod["brand"].(map[string]any); b["@type"] != "Brand" || b["name"] != "Acme Lights" {
		t.Errorf("brand %v", prod["brand"])
	}
	ship, _ := json.Marshal(offer["shippingDetails"])
	want := `[{"@type":"OfferShippingDetails","shippingDestination":[{"@type":"DefinedRegion","addressCountry":"DE"},{"@type":"DefinedRegion","addressCountry":"AT"}],"shippingRate":{"@type":"MonetaryAmount","currency":"USD","value":"0.00"}},` +
		`{"@type":"OfferShippingDetails","shippingDestination":[{"@type":"DefinedRegion","addressCountry":"DE"}],"shippingRate":{"@type":"MonetaryAmount","currency":"USD","value":"9.99"}}]`
	if string(ship) != want {
		t.Errorf("shippingDetails\n%s\nwant\n%s", ship, want)
	}
	ret, _ := json.Marshal(offer["hasMerchantReturnPolicy"])
	if string(ret) != `{"@type":"MerchantReturnPolicy","applicableCountry":"DE","merchantReturnLink":"http://`+hostOf("Acme")+`/shipping/"}` {
		t.Errorf("hasMerchantReturnPolicy %s", ret)
	}
}

// TestLayoutSettings: product_grid_layout list and product_card_layout
// compact class the product grids, product_detail_layout stacked the
// product page; other values read as the defaults.
func TestLayoutSettings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	sid, _ := e.Store("Acme")
	e.Product(sid, 0, "Lamp", 2000, 5)
	br := newBrowser(t, e, hostOf("Acme"))
	br.get("/products/").expect(t, 200, `<ul class="grid">`)
	br.get("/products/lamp/").expect(t, 200, `<article class="product">`)
	patchConfig(t, e, sid, `{"product_grid_layout": "list", "product_card_layout": "compact", "product_detail_layout": "stacked"}`)
	for _, path := range []string{"/products/", "/", "/search/?q=lamp"} {
		br.get(path).expect(t, 200, `<ul class="grid grid-list cards-compact">`)
	}
	br.get("/products/lamp/").expect(t, 200, `<article class="product detail-stacked">`)
	patchConfig(t, e, sid, `{"product_grid_layout": "masonry", "product_card_layout": "default", "product_detail_layout": "wide"}`)
	br.get("/products/").expect(t, 200, `<ul class="grid">`)
	br.get("/products/lamp/").expect(t, 200, `<article class="product">`)
}

// TestHeaderMarkup: the categories sit in a <details> menu (it opens
// without JavaScript), account and cart in their own navigation, the
// announcement bar in a labelled region before the header.
func TestHeaderMarkup(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	sid, _ := e.Store("Acme")
	patchConfig(t, e, sid, `{"announcement_bar": [{"text": "Free delivery over $50"}],
		"navigation": [{"label": "Lamps", "url": "/categories/1/lamps/"}]}`)
	br := newBrowser(t, e, hostOf("Acme"))
	pg := br.get("/").expect(t, 200, `<section class="announce" aria-label="Announcements"><p>Free delivery over $50</p></section>
<header class="site-header">`, `<details class="menu">`, `<summary>Menu</summary>`, `<nav aria-label="Main">`,
		`<li><a href="/categories/1/lamps/">Lamps</a></li>`, `<nav class="tools" aria-label="Account and cart">`, `<a href="/cart/">Cart<span class="cart-count" data-cart-count hidden></span></a>`)
	menu := pg.Body[strings.Index(pg.Body, `<details class="menu">`):strings.Index(pg.Body, `</details>`)]
	if !strings.Contains(menu, "Lamps") || !strings.Contains(menu, "/products/") || strings.Contains(menu, "/cart/") {
		t.Fatalf("the menu holds %s", menu)
	}
}
