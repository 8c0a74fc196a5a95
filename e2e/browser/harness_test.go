package browser_test

import (
	"strings"
	"testing"

	"storefront/e2e/browser"
)

// TestHarnessLogin checks the harness itself: the demo server starts, the
// owner logs in through the form, the dashboard fits both widths with no
// console errors, and a wrong password stays on the login page.
func TestHarnessLogin(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	p := browser.NewPage(t, srv)
	p.LoginOwner()
	p.WaitVisible(`header.topbar .who`)
	if got := p.Text(`header.topbar .who`); !strings.Contains(got, browser.OwnerEmail) {
		t.Fatalf("top bar: got %q, want the owner's email", got)
	}
	p.CheckNoOverflow()

	other := browser.NewPage(t, srv) // its own cookies: logged out
	other.Go("/admin/login/")
	other.Fill(`input[name=email]`, browser.OwnerEmail)
	other.Fill(`input[name=password]`, "wrong-password")
	other.Submit(`form button[type=submit]`, 401)
	if got := other.Text(`[role=alert]`); !strings.Contains(got, "Wrong email or password") {
		t.Fatalf("wrong password: got %q", got)
	}
}
