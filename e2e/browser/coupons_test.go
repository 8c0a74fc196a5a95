package browser_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/e2e/browser"
)

func TestCouponsPage(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{})
	st := srv.CreateStore(t, "Coupons "+long("S", 90), "coupons")
	tok := srv.OwnerToken(t)
	srv.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/coupons/", st.ID), tok,
		map[string]any{"code": long("C", 50), "type": "fixed", "value": "5.00", "min_subtotal": "30.00", "max_uses": 3}, 201, nil)
	p := browser.NewPage(t, srv)
	p.LoginOwner()
	base := fmt.Sprintf("/admin/stores/%d/coupons/", st.ID)
	p.Go(base)
	if got := p.Text(`table.coupons tbody tr td.uses`); got != "0 / 3" {
		t.Fatalf("uses: got %q, want 0 / 3", got)
	}
	p.CheckNoOverflow()
	p.Submit(`a[href$="/coupons/new/"]`)
	p.CheckNoOverflow()
	p.Fill(`input[name=code]`, "welcome")
	p.Fill(`select[name=type]`, "percent")
	p.Fill(`input[name=value]`, "150")
	p.Submit(`form.grid button.primary`, 400)
	if msg := p.Text(`label:has(input[name=value]) .ferr`); !strings.Contains(msg, "at most 100") {
		t.Fatalf("value error: got %q", msg)
	}
	p.Fill(`input[name=value]`, "15")
	p.Fill(`input[name=max_uses]`, "100")
	p.Submit(`form.grid button.primary`)
	if msg := p.Text(`.flash`); !strings.Contains(msg, "Coupon WELCOME created") {
		t.Fatalf("flash: got %q", msg)
	}
	if n := p.Count(`table.coupons tbody tr`); n != 2 {
		t.Fatalf("rows: got %d, want 2", n)
	}
	// The newest first: deactivate it from the list.
	p.Submit(`table.coupons tbody tr:first-child form button`)
	if got := p.Text(`table.coupons tbody tr:first-child td:nth-child(6)`); got != "inactive" {
		t.Fatalf("state after Deactivate: got %q", got)
	}
	p.CheckNoOverflow()
	// Edit the long one: the page fits too.
	p.Submit(`table.coupons tbody tr:last-child td.code a`)
	p.CheckNoOverflow()
}
