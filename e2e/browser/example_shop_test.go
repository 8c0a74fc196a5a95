package browser_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
)

// TestExampleShop buys through the headless example (clients/examples/shop,
// Vite + TypeScript on @storefront/client) in Chromium against a demo
// server: the catalogue, a product with sizes, the guest cart, the checkout
// on the sandbox's Pay page, and the order page the payment returns to. The
// example's build is served from its own origin, so the API calls are
// cross-origin (CORS) as in a real headless shop. make test-client builds it
// (scripts/example.sh) and sets STOREFRONT_EXAMPLE_DIST; without it the test
// skips.
func TestExampleShop(t *testing.T) {
	t.Parallel()
	dist := os.Getenv("STOREFRONT_EXAMPLE_DIST")
	if dist == "" {
		t.Skip("STOREFRONT_EXAMPLE_DIST is not set: make test-client builds the example (scripts/example.sh) and runs this")
	}
	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
	var store browser.Store
	srv.API(t, "POST", "/api/v1/admin/stores/1/rotate-key/", srv.OwnerToken(t), nil, 200, &store)
	front := httptest.NewServer(http.FileServer(http.Dir(dist)))
	t.Cleanup(front.Close)

	p := browser.NewPage(t, srv)
	open := front.URL + "/?api=" + url.QueryEscape(srv.URL) + "&key=" + url.QueryEscape(store.APIKey) + "#/"
	p.Do("open the example", chromedp.Navigate(open))
	p.WaitVisible(".grid a")
	if n := p.Count(".grid li"); n != 12 {
		t.Fatalf("the catalogue shows %d products, want a page of 12", n)
	}
	browser.Eval[string](p, `location.hash = "#/p/organic-cotton-t-shirt"`)
	p.WaitVisible("#add")
	if p.Count("#variant option") != 4 {
		t.Fatalf("the product's sizes: got %d options, want 4", p.Count("#variant option"))
	}
	p.Click("#add")
	p.WaitVisible("#checkout")
	if got := p.Text("#lines tbody"); !strings.Contains(got, "Organic Cotton T-Shirt") {
		t.Fatalf("the cart: got %q", got)
	}
	for sel, v := range map[string]string{"#receiver_name": "Ada Lovelace", "#email": "ada@example.com", "#phone": "+15550100", "#address": "1 Main St"} {
		p.Fill(sel, v)
	}
	p.Click("#pay")
	p.WaitVisible(`button[name="outcome"][value="success"]`) // the sandbox's Pay page, on the server
	p.Click(`button[name="outcome"][value="success"]`)
	p.WaitVisible("#order")
	order := p.Text("#order")
	var id uint64
	if _, err := fmt.Sscanf(order, "Order #%d: CONFIRMED", &id); err != nil {
		t.Fatalf("the order page: got %q, want Order #N: CONFIRMED", order)
	}
	var o struct {
		PaymentStatus string `json:"payment_status"`
		Subtotal      string `json:"subtotal"`
	}
	srv.API(t, "GET", fmt.Sprintf("/api/v1/admin/stores/1/orders/%d/", id), srv.OwnerToken(t), nil, 200, &o)
	if o.PaymentStatus != "PAID" || o.Subtotal != "24.00" {
		t.Fatalf("the order: got %+v, want PAID, subtotal 24.00 (one shirt)", o)
	}
}
