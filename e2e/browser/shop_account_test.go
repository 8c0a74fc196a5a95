package browser_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"storefront/e2e/browser"
	"storefront/testenv"
)

// TestShopAccount: a shopper registers in a store that asks for verified
// emails, verifies by the mailed code, saves an address, opens a ticket,
// buys (when the catalog pages are served) and requests the order's
// cancellation, seeing its status; axe-core and both widths on every
// account page.
func TestShopAccount(t *testing.T) {
	t.Parallel()
	smtp := testenv.NewSMTPServer(t)
	srv := browser.StartServer(t, browser.ServerOptions{Env: append(smtpEnv(smtp), "STOREFRONT_SHOP__DEFAULT_STORE=1")})
	st := srv.CreateStore(t, "Corner Shop", "corner")
	if st.ID != 1 {
		t.Fatalf("store id %d, want 1 (the default store)", st.ID)
	}
	srv.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/config/", st.ID), srv.OwnerToken(t),
		map[string]any{"payments_live": false, "email_otp_enabled": true}, 200, nil)
	srv.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), srv.OwnerToken(t), map[string]any{
		"name": "Trail Jacket", "price": "49.00", "stock": 5, "description": "A light jacket for wet days."}, 201, nil)
	p := browser.NewPage(t, srv)
	check := func() { t.Helper(); p.CheckAxe(); p.CheckNoOverflow() }

	p.Go("/account/register/")
	check()
	p.Fill("#f-first_name", "Dana")
	p.Fill("#f-last_name", "Diaz")
	p.Fill("#f-email", "dana@example.com")
	p.Fill("#f-password", "password123")
	p.Fill("#f-password_confirm", "password123")
	p.Submit(`form[action="/account/register/"] button[type=submit]`)
	if !strings.Contains(p.URL(), "/account/verify/") {
		t.Fatalf("after registering: %s", p.URL())
	}
	check()
	p.Fill("#f-code", mailedCode(t, smtp, "dana@example.com"))
	p.Submit(`form[action="/account/verify/"] button[type=submit]`)
	if got := p.Text(".notice"); !strings.Contains(got, "verified") {
		t.Fatalf("after verifying: %q", got)
	}
	check()

	p.Go("/account/addresses/new")
	check()
	p.Fill("#f-receiver_name", "Dana Diaz")
	p.Fill("#f-phone", "+1 555 0142")
	p.Fill("#f-address_line1", "7 Hill Road")
	p.Fill("#f-city", "Springfield")
	p.SetChecked("#f-is_default", true)
	p.Submit(`form.account-form button[type=submit]`)
	if !strings.Contains(p.Text("main"), "7 Hill Road") {
		t.Fatalf("addresses: %q", p.Text("main"))
	}
	check()

	p.Go("/account/tickets/new")
	check()
	p.Fill("#f-subject", "Sizes")
	p.Fill("#f-description", "Does the jacket run small?")
	p.Submit(`form.account-form button[type=submit]`)
	if !strings.Contains(p.Text("main"), "Does the jacket run small?") {
		t.Fatalf("ticket: %q", p.Text("main"))
	}
	check()

	if status, _, _ := srv.Request(t, "GET", "/search/?q=trail", "", "", nil); status == 404 {
		t.Log("the shop's catalog pages are not served on this branch: the purchase is skipped")
		return
	}
	buyAndCancel(t, p, check)
}

// buyAndCancel: the signed-in shopper buys the jacket (the checkout is
// filled from the default address), finds the order in the account and
// requests its cancellation, then signs out.
func buyAndCancel(t *testing.T, p *browser.Page, check func()) {
	t.Helper()
	p.Go("/search/?q=trail")
	p.Submit(`main li.card a`)
	p.Submit(`form.add button[type=submit]`)
	p.Submit(`.summary a.button`)
	if got := browser.Eval[string](p, `document.querySelector("#address").value`); !strings.Contains(got, "7 Hill Road") {
		t.Fatalf("checkout not prefilled from the default address: %q", got)
	}
	p.Submit(`.checkout-form button[type=submit]`)
	p.Submit(`button[value=success]`)
	p.Go("/account/orders/")
	check()
	p.Submit(`.account-table a`)
	check()
	p.Fill("#f-reason", "Ordered the wrong size")
	p.Submit(`form[action$="/cancel"] button[type=submit]`)
	if got := p.Text("main"); !strings.Contains(got, "Waiting for the shop") {
		t.Fatalf("order after the request: %q", got)
	}
	check()
	p.Submit(`.account-nav button[type=submit]`)
	p.GoStatus("/account/", 0)
	if !strings.Contains(p.URL(), "/account/login/") {
		t.Fatalf("signed out, /account/ shows %s", p.URL())
	}
}

var sixDigits = regexp.MustCompile(`\b(\d{6})\b`)

// smtpEnv points the server's mail at smtp: the outbox masks the codes
// (issue 38), the shopper's mail carries them.
func smtpEnv(smtp *testenv.SMTPServer) []string {
	return []string{"STOREFRONT_MAIL__SMTP__HOST=127.0.0.1", "STOREFRONT_MAIL__SMTP__PORT=" + strconv.Itoa(smtp.Port()),
		"STOREFRONT_MAIL__SMTP__FROM=shop@browser.example", "STOREFRONT_MAIL__SMTP__TLS=none"}
}

// mailedCode is the code of the first mail to email that carries one, as
// the shopper receives it.
func mailedCode(t *testing.T, smtp *testenv.SMTPServer, email string) string {
	t.Helper()
	for n := 1; ; n++ {
		for _, m := range smtp.WaitFor(t, n, 30*time.Second) {
			if len(m.To) == 1 && m.To[0] == email {
				if c := sixDigits.FindStringSubmatch(m.Parse(t).Text); c != nil {
					return c[1]
				}
			}
		}
	}
}
