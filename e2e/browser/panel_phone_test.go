package browser_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
)

// Issue 28 points 4 and 5 beyond the sweep: on a phone the store's tabs are
// one disclosure menu (no script needed) instead of 280 px of links, and
// after an action the keyboard focus is on the result message.
func TestPanelPhoneMenuAndFocus(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	p := browser.NewPage(t, srv)
	p.LoginOwner()
	p.Go("/admin/")
	p.Submit(`main table a[href^="/admin/stores/"]`)
	store := strings.TrimPrefix(p.URL(), srv.URL)

	p.Do("phone width", chromedp.EmulateViewport(390, 900))
	if n := browser.Eval[int](p, `document.querySelectorAll("nav.storebar .tabs a").length`); n < 10 {
		t.Fatalf("the store bar has %d tabs, want them all in the page", n)
	}
	if browser.Eval[bool](p, `getComputedStyle(document.querySelector(".storebar .tabs")).display !== "none"`) {
		t.Fatal("at 390 px the row of tabs still shows")
	}
	h := browser.Eval[float64](p, `document.querySelector("nav.storebar").getBoundingClientRect().height`)
	if h > 160 {
		t.Fatalf("the store bar takes %.0f px at 390 px, want the tabs folded into a menu", h)
	}
	if got := p.Text(`.tabmenu summary`); !strings.Contains(got, "Menu") || !strings.Contains(got, "Overview") {
		t.Fatalf("menu button %q, want Menu and the current tab", got)
	}
	if browser.Eval[bool](p, `document.querySelector(".tabmenu-list a").checkVisibility() || document.querySelector(".tabmenu").open`) {
		t.Fatal("the menu is open before it is asked for")
	}
	p.Click(`.tabmenu summary`)
	p.WaitVisible(`.tabmenu-list a[href$="/orders/"]`)
	p.Screenshot("menu-open-390")
	p.Submit(`.tabmenu-list a[href$="/orders/"]`)
	if got := p.Text(`.tabmenu summary`); !strings.Contains(got, "Orders") {
		t.Fatalf("menu button %q on the orders page", got)
	}

	// An action: the page after the redirect has the message focused.
	p.Go(store)
	p.Fill(`form[action$="/name/"] input[name=name]`, "Demo shop renamed")
	p.Submit(`form[action$="/name/"] button[type=submit]`)
	focused := browser.Eval[string](p, `(function(){var e=document.activeElement; return e ? e.className + "|" + e.getAttribute("role") + "|" + e.textContent.trim() : ""})()`)
	if !strings.HasPrefix(focused, "flash ok|status|") {
		t.Fatalf("focus after the action: %q, want the result message", focused)
	}
	p.Do("desktop width", chromedp.EmulateViewport(1280, 900))
	if !browser.Eval[bool](p, `getComputedStyle(document.querySelector(".storebar .tabs")).display !== "none" && getComputedStyle(document.querySelector(".tabmenu")).display === "none"`) {
		t.Fatal("at 1280 px the tabs should show as a row, the menu hidden")
	}
}

// Shipping from the order page (issue 28 point 1) on a phone: the Ship form
// fits and passes axe, shipping lands focus on the result and shows the
// tracking link (the mail's is TestAdminOrderShip's), and marking the order
// delivered asks first.
func TestPanelShipOnPhone(t *testing.T) {
	t.Parallel()
	s := newOpsShop(t)
	p := browser.NewPage(t, s.srv)
	p.LoginOwner()
	p.Do("phone width", chromedp.EmulateViewport(390, 900))
	order := s.path("orders/%d/", s.paid1)
	p.Go(order)
	p.WaitVisible(`form#ship`)
	p.CheckPanelPage()
	p.Do("phone width", chromedp.EmulateViewport(390, 900))
	p.Fill(`form#ship input[name=carrier]`, "DHL")
	p.Fill(`form#ship input[name=tracking_number]`, "JD0146")
	p.Submit(`form#ship button[type=submit]`)
	if got := browser.Eval[string](p, `document.activeElement.className + ": " + document.activeElement.textContent.trim()`); !strings.HasPrefix(got, "flash ok: ") || !strings.Contains(got, "shipped") {
		t.Fatalf("focus after shipping: %q", got)
	}
	if got := p.Attr(`#tracking a[href*="dhl.com"]`, "href"); !strings.Contains(got, "tracking-id=JD0146") {
		t.Fatalf("tracking link %q", got)
	}
	if got := p.Text(`#fulfillment`); got != "shipped" {
		t.Fatalf("fulfilment %q", got)
	}
	p.Submit(`form[action$="/status/"] button[type=submit]`)
	if got := p.Text(`main h1`); !strings.Contains(got, "as delivered?") {
		t.Fatalf("marking delivered: got %q, want the confirm page", got)
	}
	p.CheckPanelPage()
	p.Submit(`main form button[type=submit]`)
	if got := p.Text(`#fulfillment`); got != "delivered" {
		t.Fatalf("fulfilment after delivery %q", got)
	}
}
