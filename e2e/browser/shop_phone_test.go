package browser_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"storefront/e2e/browser"
)

// phone is the screen the phone tests measure: 390 x 844 px.
const phoneW, phoneH = 390, 844

// bottomJS is the bottom edge of the first element matching a selector, in
// px from the top of the page (-1: none).
const bottomJS = `(sel => { const e = document.querySelector(sel); return e ? Math.ceil(e.getBoundingClientRect().bottom + scrollY) : -1 })`

func bottom(p *browser.Page, sel string) int {
	return browser.Eval[int](p, fmt.Sprintf(`%s(%q)`, bottomJS, sel))
}

// shown reports whether the first element matching sel is rendered (not
// in a closed <details>, not display:none).
func shown(p *browser.Page, sel string) bool {
	return browser.Eval[bool](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && e.checkVisibility() })()`, sel))
}

// TestShopPhoneHeader: at 390 px the demo's <header> is at most 120 px
// high with the categories behind the menu button, which opens without
// JavaScript and does not push the page down; at 1280 px the categories
// show in the header without a button. axe-core finds no serious or
// critical violation with the menu open (390) and on the desktop header.
func TestShopPhoneHeader(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	p := browser.NewPage(t, srv)
	p.SetScripts(false)
	p.Do("viewport", chromedp.EmulateViewport(phoneW, phoneH))
	for _, path := range []string{"/", "/products/", "/products/organic-cotton-t-shirt/", "/cart/"} {
		p.Go(path)
		if h := browser.Eval[float64](p, `document.querySelector("header.site-header").getBoundingClientRect().height`); h > 120 {
			t.Errorf("%s at %d px: the header is %.0f px high, want at most 120", path, phoneW, h)
		}
		if shown(p, "details.menu nav a") {
			t.Errorf("%s at %d px: the categories show before the menu is opened", path, phoneW)
		}
	}
	p.Go("/")
	before := bottom(p, "header.site-header")
	p.Click("details.menu summary")
	if !shown(p, `details.menu nav a[href="/products/"]`) {
		t.Fatal("the menu opened without JavaScript shows no categories")
	}
	if after := bottom(p, "header.site-header"); after != before {
		t.Errorf("opening the menu moved the header's bottom from %d to %d px", before, after)
	}
	p.CheckAxe()
	p.Screenshot("menu-open")
	p.SetScripts(true)
	p.Do("viewport", chromedp.EmulateViewport(1280, 900))
	p.Go("/")
	if !shown(p, `details.menu nav a[href="/products/"]`) || shown(p, "details.menu summary") {
		t.Error("at 1280 px the categories are behind a button")
	}
	p.CheckAxe()
}

// TestShopProductFirstScreen: on a demo product page at 390 x 844 px the
// price, the variant choice and "Add to cart" end inside the first screen
// (a product with sizes, one with a flash deal and reviews, one without
// variants); axe-core at both widths on the one with reviews.
func TestShopProductFirstScreen(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	p := browser.NewPage(t, srv)
	p.Do("viewport", chromedp.EmulateViewport(phoneW, phoneH))
	for _, slug := range []string{"organic-cotton-t-shirt", "wireless-headphones", "hiking-boot", "cast-iron-skillet"} {
		p.Go("/products/" + slug + "/")
		for _, sel := range []string{"[data-price]", "fieldset.options", "form.add button[type=submit]"} {
			if b := bottom(p, sel); b > phoneH {
				p.Screenshot("first-screen-" + slug)
				t.Errorf("%s: %s ends at %d px, below the first %d px", slug, sel, b, phoneH)
			} else if b < 0 && sel != "fieldset.options" {
				t.Errorf("%s: no %s", slug, sel)
			}
		}
	}
	// the headphones have a review (the stars' label) and a deal: axe at both widths
	p.Go("/products/wireless-headphones/")
	if p.Count(`.stars [role=img][aria-label]`) == 0 {
		t.Error("no labelled review stars on the headphones' page")
	}
	for _, w := range browser.Widths {
		p.Do("viewport", chromedp.EmulateViewport(w, phoneH))
		p.CheckAxe()
	}
}

// variantFixture gives the demo's tee two colours and two sizes: S and M
// in red (M dearer), S in blue with its own picture (the product's second),
// M in blue sold out.
func variantFixture(t *testing.T, srv *browser.Server) {
	t.Helper()
	tok := srv.OwnerToken(t)
	type item struct {
		ID     uint64   `json:"id"`
		Slug   string   `json:"slug"`
		Images []string `json:"images"`
	}
	var list struct {
		Items []item `json:"items"`
	}
	srv.API(t, "GET", "/api/v1/admin/stores/1/products/?limit=100", tok, nil, 200, &list)
	i := slices.IndexFunc(list.Items, func(p item) bool { return p.Slug == "organic-cotton-t-shirt" })
	if i < 0 || len(list.Items[i].Images) < 2 {
		t.Fatalf("the demo tee among %+v", list.Items)
	}
	tee := list.Items[i]
	v := func(name, colour, size, price string, stock int, image string) map[string]any {
		m := map[string]any{"name": name, "price": price, "stock": stock, "attributes": map[string]string{"colour": colour, "size": size}}
		if image != "" {
			m["image"] = image
		}
		return m
	}
	srv.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/1/products/%d/", tee.ID), tok, map[string]any{"variants": []map[string]any{
		v("S / Red", "Red", "S", "24.00", 5, ""), v("M / Red", "Red", "M", "26.00", 5, ""),
		v("S / Blue", "Blue", "S", "24.00", 5, tee.Images[1]), v("M / Blue", "Blue", "M", "24.00", 0, tee.Images[1])}}, 200, nil)
}

// TestShopVariantByKeyboard: on a phone, a shopper picks size and colour
// with the arrow keys as in any group of radio buttons: the price follows
// the size, a colour with a size sold out moves the size to one in stock,
// the colour's own picture shows, and Add to cart adds the variant chosen.
// axe-core at both widths on the page.
func TestShopVariantByKeyboard(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	variantFixture(t, srv)
	p := browser.NewPage(t, srv)
	k := keyboard{t, p}
	p.Do("viewport", chromedp.EmulateViewport(phoneW, phoneH))
	p.Go("/products/organic-cotton-t-shirt/")
	for _, w := range browser.Widths {
		p.Do("viewport", chromedp.EmulateViewport(w, phoneH))
		p.CheckAxe()
	}
	p.Do("viewport", chromedp.EmulateViewport(phoneW, phoneH))
	if got := p.Text("fieldset.options legend"); got != "Colour" {
		t.Fatalf("first option %q, want Colour", got)
	}
	k.tabTo(`input[name="option.size"]:checked`, false)
	k.key(kb.ArrowRight)
	if got := p.Text("[data-price]"); got != "$26.00" {
		t.Errorf("price after M: %q, want $26.00", got)
	}
	k.tabTo(`input[name="option.colour"]:checked`, true)
	k.key(kb.ArrowRight)
	checked := browser.Eval[string](p, `[...document.querySelectorAll("fieldset.options input:checked")].map(e => e.value).join(" ")`)
	if checked != "Blue S" {
		t.Errorf("chosen after Blue: %q, want Blue S (M is sold out in blue)", checked)
	}
	if !browser.Eval[bool](p, `document.querySelector('input[name="option.size"][value=M]').disabled`) {
		t.Error("M is not disabled in blue")
	}
	if got := p.Text("[data-price]"); got != "$24.00" {
		t.Errorf("price after Blue: %q, want $24.00", got)
	}
	if got := p.Attr(`.thumbs a[aria-current=true]`, "data-shot"); got != "2" {
		t.Errorf("the thumbnail marked after Blue: %q, want 2 (the blue picture)", got)
	}
	if got := browser.Eval[string](p, `(() => { const s = document.querySelector(".shots"), r = s.getBoundingClientRect(); return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2).closest("li").id })()`); got != "shot-2" {
		t.Errorf("the picture shown after Blue: %q, want shot-2", got)
	}
	k.tabTo(`form.add button[type=submit]`, false)
	k.press(kb.Enter)
	if got := p.Text(".cart-name"); !strings.HasSuffix(got, "S / Blue") {
		t.Fatalf("cart line %q, want the tee S / Blue", got)
	}
}

// TestShopGallery: the thumbnails show their picture in place; a picture
// opens at full size in a dialog (with JavaScript) that closes with its
// button and with Escape; without JavaScript the picture is a link to its
// full size.
func TestShopGallery(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	p := browser.NewPage(t, srv)
	p.Go("/products/organic-cotton-t-shirt/")
	if n := p.Count(".thumbs a"); n < 2 {
		t.Fatalf("%d thumbnails", n)
	}
	p.Click(`.thumbs a[data-shot="2"]`)
	if got := p.Attr(`.thumbs a[aria-current=true]`, "data-shot"); got != "2" {
		t.Errorf("marked thumbnail %q, want 2", got)
	}
	if !strings.HasSuffix(p.URL(), "/organic-cotton-t-shirt/") {
		t.Errorf("the thumbnail navigated to %s", p.URL())
	}
	full := browser.Eval[string](p, `document.querySelector("#shot-2 a.zoom").href`) // resolved: the link is a path on this host
	if !strings.Contains(full, "/media/") {
		t.Fatalf("full-size link %q", full)
	}
	p.Click("#shot-2 a.zoom")
	if !browser.Eval[bool](p, `document.querySelector("dialog.lightbox").open`) || p.Attr("dialog.lightbox img", "src") != full {
		t.Fatal("the picture did not open at full size in the dialog")
	}
	p.CheckAxe()
	p.Click("dialog.lightbox button")
	if browser.Eval[bool](p, `document.querySelector("dialog.lightbox").open`) {
		t.Error("the dialog's button did not close it")
	}
	p.Click("#shot-1 a.zoom")
	p.Do("escape", chromedp.KeyEvent(kb.Escape))
	if browser.Eval[bool](p, `document.querySelector("dialog.lightbox").open`) {
		t.Error("Escape did not close the dialog")
	}
	p.SetScripts(false)
	p.Go("/products/organic-cotton-t-shirt/")
	p.Submit("#shot-1 a.zoom")
	if !strings.Contains(p.URL(), "/media/") {
		t.Errorf("without JavaScript the picture led to %s", p.URL())
	}
}

// TestShopLayoutSettings: the demo with product_grid_layout list,
// product_card_layout compact and product_detail_layout stacked fits 390
// and 1280 px, with no serious or critical axe-core violation, on a
// product list, the home page and a product page.
func TestShopLayoutSettings(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	srv.API(t, "PATCH", "/api/v1/admin/stores/1/config/", srv.OwnerToken(t), map[string]any{
		"product_grid_layout": "list", "product_card_layout": "compact", "product_detail_layout": "stacked"}, 200, nil)
	p := browser.NewPage(t, srv)
	for _, path := range []string{"/products/", "/", "/products/wireless-headphones/"} {
		p.Go(path)
		if path != "/products/wireless-headphones/" && p.Count("ul.grid-list.cards-compact li.card") == 0 {
			t.Errorf("%s: no list of compact cards", path)
		}
		for _, w := range browser.Widths {
			p.Do("viewport", chromedp.EmulateViewport(w, 900))
			p.CheckAxe()
		}
		p.CheckNoOverflow()
	}
	if p.Count("article.product.detail-stacked") != 1 {
		t.Error("the product page is not stacked")
	}
}
