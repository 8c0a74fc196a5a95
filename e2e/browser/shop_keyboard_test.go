package browser_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"storefront/e2e/browser"
)

// focusJS describes the focused element as "selector-ish|visible": visible
// when its outline or box-shadow shows (a focus ring a sighted keyboard
// user can follow).
const focusJS = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return "body|no";
  const s = getComputedStyle(el);
  const ring = (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || (s.boxShadow && s.boxShadow !== "none");
  return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + "|" + (ring ? "yes" : "no");
})()`

// keyboard drives a page with keys only.
type keyboard struct {
	t *testing.T
	p *browser.Page
}

// key presses one key (kb.Tab, kb.Enter, " ", kb.ArrowDown...) or types text.
func (k keyboard) key(keys string) {
	k.t.Helper()
	k.p.Do("key "+fmt.Sprintf("%q", keys), chromedp.KeyEvent(keys))
}

// tabTo presses Tab (Shift+Tab when back) until the element matching sel
// has the focus, at most 60 times, and checks the focus is visible there.
func (k keyboard) tabTo(sel string, back bool) {
	k.t.Helper()
	match := fmt.Sprintf(`document.activeElement && document.activeElement.matches(%q)`, sel)
	for i := 0; i < 60; i++ {
		if browser.Eval[bool](k.p, match) {
			k.visibleFocus()
			return
		}
		if back {
			k.p.Do("shift+tab", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
		} else {
			k.key(kb.Tab)
		}
	}
	k.t.Fatalf("%s: no tab stop matches %s (focus on %s)", k.p.URL(), sel, browser.Eval[string](k.p, focusJS))
}

// visibleFocus fails unless the focused element shows a focus ring.
func (k keyboard) visibleFocus() {
	k.t.Helper()
	got := browser.Eval[string](k.p, focusJS)
	if !strings.HasSuffix(got, "|yes") {
		k.t.Errorf("%s: the focused element %s shows no outline or box-shadow", k.p.URL(), got)
	}
}

// press presses key on the focused element and waits for the page it loads.
func (k keyboard) press(key string) {
	k.t.Helper()
	if _, err := chromedp.RunResponse(k.p.Context(), chromedp.KeyEvent(key)); err != nil {
		k.t.Fatalf("%s: pressing %q: %v", k.p.URL(), key, err)
	}
	k.p.Screenshot("")
}

// TestShopKeyboardOnlyBuys: a shopper with a keyboard only (Tab, Shift+Tab,
// Enter, Space, arrows) searches from the home page, opens the product,
// picks a variant, adds it, checks out, pays on the sandbox page and sees
// the confirmation; the focus is visible at every stop.
func TestShopKeyboardOnlyBuys(t *testing.T) {
	t.Parallel()
	srv, _ := shopFixture(t)
	p := browser.NewPage(t, srv)
	k := keyboard{t, p}
	p.Go("/")
	k.tabTo(`a.skip`, false)
	k.tabTo(`#q`, false)
	k.key("trail")
	k.press(kb.Enter)
	if !strings.Contains(p.URL(), "/search/?q=trail") {
		t.Fatalf("after the search: %s", p.URL())
	}
	k.tabTo(`main li.card a`, false)
	k.press(kb.Enter)
	if !strings.Contains(p.Text("h1"), "Trail Jacket") {
		t.Fatalf("product page: %q", p.Text("h1"))
	}
	// the variant: arrow right from Small to Medium (a group of radio
	// buttons; the add button is reached first going forward, so come back
	// to the group with Shift+Tab)
	k.tabTo(`form.add button[type=submit]`, false)
	k.tabTo(`input[name=variant_id]:checked`, true)
	k.key(kb.ArrowRight)
	if got := browser.Eval[string](p, `document.querySelector("input[name=variant_id]:checked").parentNode.textContent`); !strings.Contains(got, "Medium") {
		t.Fatalf("variant after the arrow key: %q", got)
	}
	k.tabTo(`form.add button[type=submit]`, false)
	k.press(kb.Enter)
	if got := p.Text(".cart-name"); got != "Trail Jacket - Medium" {
		t.Fatalf("cart line: %q", got)
	}
	k.tabTo(`.summary a.button`, false)
	k.press(kb.Enter)
	for _, f := range []struct{ sel, text string }{{"#email", "keys@example.com"}, {"#receiver_name", "Kim Keys"},
		{"#phone", "+1 555 0199"}, {"#address", "3 Tab Street, Springfield"}} {
		k.tabTo(f.sel, false)
		k.key(f.text)
	}
	k.tabTo(`.checkout-form input[name=payment_method]:checked`, false)
	k.tabTo(`.checkout-form button[type=submit]`, false)
	k.press(kb.Enter)
	if !strings.Contains(p.URL(), "/sandbox/pay/") {
		t.Fatalf("after placing the order: %s", p.URL())
	}
	k.tabTo(`button[value=success]`, false)
	k.press(" ")
	if got := p.Text("h1"); got != "Thank you for your order" {
		t.Fatalf("confirmation: %q", got)
	}
	if got := p.Text(".summary-lines"); !strings.Contains(got, "Trail Jacket - Medium × 1") {
		t.Fatalf("confirmation lines: %q", got)
	}
}
