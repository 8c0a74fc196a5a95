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
