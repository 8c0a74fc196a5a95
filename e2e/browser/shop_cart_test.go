package browser_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
)

// until waits (on the page's own frames, no sleep) until the JavaScript
// condition expr holds, failing the test after 30 seconds (a busy machine).
func until(p *browser.Page, what, expr string) {
	p.T.Helper()
	if _, err := chromedp.Run(p.Context(), chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		p.T.Fatalf("waiting for %s (%s): %v; main: %s", what, expr, err, p.Text("main"))
	}
}

// axeBoth runs axe-core at each width of browser.Widths (390 and 1280 px),
// then the overflow check.
func axeBoth(p *browser.Page) {
	p.T.Helper()
	for _, w := range browser.Widths {
		p.Do("viewport", chromedp.EmulateViewport(w, 900))
		p.CheckAxe()
	}
	p.Do("viewport", chromedp.EmulateViewport(browser.Widths[0], 900))
	p.CheckNoOverflow()
}

// cartFixture is shopFixture with two delivery options and a coupon.
func cartFixture(t *testing.T) (*browser.Server, product) {
	srv, jacket := shopFixture(t)
	tok := srv.OwnerToken(t)
	srv.API(t, "PATCH", "/api/v1/admin/stores/1/config/", tok, map[string]any{"delivery_options": []map[string]any{
		{"id": "standard", "name": "Standard", "fee": "5.00"},
		{"id": "pickup", "name": "Pick up in store", "fee": "0.00", "needs_address": false}}}, 200, nil)
	srv.API(t, "POST", "/api/v1/admin/stores/1/coupons/", tok, map[string]any{"code": "SAVE10", "type": "percent", "value": "10"}, 201, nil)
	return srv, jacket
}

// addJacket adds n of the jacket's Medium size on its product page.
func addJacket(p *browser.Page, jacket product, n int) {
	p.T.Helper()
	p.Go("/search/?q=trail")
	p.Submit(`main li.card a`)
	p.SetChecked(fmt.Sprintf(`input[name=variant_id][value="%d"]`, jacket.Variants[1].ID), true)
	p.Fill(`form.add input[name=quantity]`, fmt.Sprint(n))
	p.Submit(`form.add button[type=submit]`)
}

const grandJS = `document.querySelector(".totals dd.grand") && document.querySelector(".totals dd.grand").textContent.trim()`

// TestShopCartReacts: with JavaScript the cart changes without its Update
// button: the steppers (named for screen readers, rapid clicks coalesced),
// a typed quantity, the delivery choice, a coupon and removal update the
// lines and totals from the server and say so in the live region; the
// header's count follows on a cached page; checkout right after a change
// has the new quantity. axe-core and both widths.
func TestShopCartReacts(t *testing.T) {
	t.Parallel()
	srv, jacket := cartFixture(t)
	p := browser.NewPage(t, srv)
	p.Go("/")
	if p.Attr(`[data-cart-count]`, "hidden") == "" && p.Text(`[data-cart-count]`) != "" {
		t.Fatalf("a count before any cart: %q", p.Text(`[data-cart-count]`))
	}
	addJacket(p, jacket, 1)
	if got := p.Attr(`.qty button.step[aria-label^="Increase"]`, "aria-label"); got != "Increase quantity of Trail Jacket - Medium" {
		t.Fatalf("stepper name %q", got)
	}
	if got := p.Attr(`.qty button.step[aria-label^="Decrease"]`, "aria-label"); got != "Decrease quantity of Trail Jacket - Medium" {
		t.Fatalf("stepper name %q", got)
	}
	// rapid clicks: one request at a time, the last value wins
	p.Do("three clicks", chromedp.Evaluate[chromedp.Void](`(() => { const b = document.querySelector('.qty button.step[aria-label^="Increase"]'); b.click(); b.click(); b.click(); })()`))
	until(p, "4 × $52.00", grandJS+` === "$213.00"`)
	until(p, "the live region", `document.getElementById("cart-live").textContent.includes("Total: $213.00")`)
	if v := p.Attr(`.qty input[name=quantity]`, "value"); v != "4" {
		t.Fatalf("quantity %q, want 4", v)
	}
	until(p, "the header's count", `document.querySelector("[data-cart-count]").textContent === "4"`)
	// a typed quantity
	p.Do("type 2", chromedp.Evaluate[chromedp.Void](`(() => { const i = document.querySelector('.qty input[name=quantity]'); i.value = "2"; i.dispatchEvent(new Event("change", {bubbles: true})); })()`))
	until(p, "2 × $52.00", grandJS+` === "$109.00"`)
	// the delivery choice
	p.Click(`#delivery-pickup`)
	until(p, "pickup", grandJS+` === "$104.00"`)
	// a coupon, applied with its button: no page load
	p.Fill(`#coupon`, "save10")
	p.Click(`form.coupon button[type=submit]`)
	until(p, "the coupon", `document.querySelector("#cart-view").textContent.includes("Coupon SAVE10") && `+grandJS+` === "$93.60"`)
	if !strings.HasSuffix(p.URL(), "/cart/?delivery=pickup") {
		t.Fatalf("the address is %s", p.URL())
	}
	axeBoth(p)
	// a cached page shows the count (the page holds none: the cookie does)
	p.Go("/products/")
	until(p, "the count on another page", `document.querySelector("[data-cart-count]").textContent === "2" && !document.querySelector("[data-cart-count]").hidden`)
	// checkout right after a change: the new quantity
	p.Go("/cart/")
	p.Click(`.qty button.step[aria-label^="Increase"]`)
	// Clicked in the page, found and clicked in one step: the increase's
	// answer replaces the cart's markup, and chromedp's click (find the node,
	// then its box, then the mouse) failed now and then on a busy machine
	// with "Could not find node with given id".
	resp, err := chromedp.RunResponse(p.Context(), chromedp.Evaluate[chromedp.Void](`document.querySelector('#cart-view a[href^="/checkout/"]').click()`))
	if err != nil || resp.Status != 200 {
		t.Fatalf("checkout right after the increase: %v %v", resp, err)
	}
	until(p, "the checkout with 3", `document.querySelector("main").textContent.includes("Trail Jacket - Medium × 3") && `+grandJS+` === "$145.40"`)
	// removal: the cart says it is empty, the count goes
	p.Go("/cart/")
	p.Click(`form.remove button[type=submit]`)
	until(p, "the empty cart", `document.querySelector("#cart-view").textContent.includes("Your cart is empty") && document.querySelector("[data-cart-count]").hidden`)
	if got := p.Text("#cart-view"); strings.Contains(got, "Added to your cart") || strings.Contains(got, "was updated") {
		t.Fatalf("a stale notice: %q", got)
	}
	axeBoth(p)
}

// TestShopExpiredSession: a form sent after the browser's cookies went (an
// expired session) comes back with what was typed and a note, not an error
// page; sent again, it goes.
func TestShopExpiredSession(t *testing.T) {
	t.Parallel()
	srv, _ := shopFixture(t)
	p := browser.NewPage(t, srv)
	p.Go("/account/register/")
	p.Fill(`#f-first_name`, "Grace")
	p.Fill(`#f-email`, "grace@example.com")
	p.Fill(`#f-password`, "a-long-password")
	p.Fill(`#f-password_confirm`, "a-long-password")
	if _, err := chromedp.Call(p.Context(), network.ClearBrowserCookies, cdp.Empty{}); err != nil {
		t.Fatalf("clearing the cookies: %v", err)
	}
	p.Submit(`form.account-form button[type=submit]`, 403)
	if got := p.Text(`[role=alert]`); !strings.Contains(got, "Your session expired; please check and send again.") {
		t.Fatalf("note %q", got)
	}
	if got := p.Attr(`#f-first_name`, "value"); got != "Grace" {
		t.Fatalf("name %q", got)
	}
	axeBoth(p)
	p.Fill(`#f-password`, "a-long-password")
	p.Fill(`#f-password_confirm`, "a-long-password")
	p.Submit(`form.account-form button[type=submit]`)
	if got := p.URL(); !strings.Contains(got, "/account/") || strings.Contains(got, "/register") {
		t.Fatalf("registered: at %q", got)
	}
	// The contact form is one a browser may send before it has a cookie
	// (it came from a cached page without a token): cleared cookies do
	// not stop it.
	p.Go("/contact/")
	p.Fill(`#c-name`, "Grace Guest")
	p.Fill(`#c-email`, "grace@example.com")
	p.Fill(`#c-message`, "Do you ship to Norway?")
	if _, err := chromedp.Call(p.Context(), network.ClearBrowserCookies, cdp.Empty{}); err != nil {
		t.Fatalf("clearing the cookies: %v", err)
	}
	p.Submit(`form.contact button[type=submit]`)
	if got := p.Text(`main`); !strings.Contains(got, "Your message has been sent") {
		t.Fatalf("sent: %q", got)
	}
}

// TestShopCheckoutKeptAfterFailedPayment: after a failed payment the
// checkout form comes back with what the shopper typed.
func TestShopCheckoutKeptAfterFailedPayment(t *testing.T) {
	t.Parallel()
	srv, jacket := cartFixture(t)
	p := browser.NewPage(t, srv)
	addJacket(p, jacket, 1)
	p.Submit(`.summary a.button`)
	p.Fill(`#email`, "grace@example.com")
	p.Fill(`#receiver_name`, "Grace Guest")
	p.Fill(`#phone`, "+1 555 0142")
	p.Fill(`#address`, "7 Hill Road, Springfield")
	p.Submit(`.checkout-form button[type=submit]`)
	p.Submit(`button[value=failure]`)
	if got := p.Text("h1"); got != "Payment not completed" {
		t.Fatalf("after the failure: %q", got)
	}
	p.Submit(`main a[href="/cart/"]`)
	p.Submit(`.summary a.button`)
	for sel, want := range map[string]string{"#email": "grace@example.com", "#receiver_name": "Grace Guest", "#phone": "+1 555 0142",
		"#address": "7 Hill Road, Springfield"} {
		if got := browser.Eval[string](p, `document.querySelector("`+sel+`").value`); got != want {
			t.Fatalf("%s: %q, want %q", sel, got, want)
		}
	}
	axeBoth(p)
}
