package browser_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"storefront/e2e/browser"
)

// TestShopGuestFollowsOrderLink: a guest buys, follows the order's own link
// from the order mail (the same as the thank-you page's) in a fresh browser
// (no cookie of the purchase), sees the order and asks to cancel it;
// axe-core at both widths on the order page.
func TestShopGuestFollowsOrderLink(t *testing.T) {
	t.Parallel()
	srv, _ := shopFixture(t)
	p := browser.NewPage(t, srv)
	p.Go("/search/?q=trail")
	p.Submit(`main li.card a`)
	p.Submit(`form.add button[type=submit]`)
	p.Submit(`.summary a.button`)
	p.Fill(`#email`, "guest@example.com")
	p.Fill(`#receiver_name`, "Grace Guest")
	p.Fill(`#phone`, "+1 555 0142")
	p.Fill(`#address`, "7 Hill Road, Springfield")
	p.Submit(`.checkout-form button[type=submit]`)
	p.Submit(`button[value=success]`)
	link := p.Attr(`main a[href^="/orders/"]`, "href")
	if !strings.HasPrefix(link, "/orders/") {
		t.Fatalf("no order link on the thank-you page: %q", link)
	}

	var outbox struct {
		Items []struct{ Kind, Text string }
	}
	srv.API(t, "GET", "/api/v1/admin/stores/1/outbox/", srv.OwnerToken(t), nil, 200, &outbox)
	mailed := ""
	for _, m := range outbox.Items {
		if m.Kind == "order_confirmation" {
			if _, rest, ok := strings.Cut(m.Text, "See your order and its status: "); ok {
				mailed, _, _ = strings.Cut(rest, "\n")
			}
		}
	}
	if mailed != srv.URL+link {
		t.Fatalf("the order mail links %q, want %q", mailed, srv.URL+link)
	}

	q := browser.NewPage(t, srv) // another browser: the link alone
	q.Go(strings.TrimPrefix(mailed, srv.URL))
	if got := q.Text("h1"); !strings.HasPrefix(got, "Order #") {
		t.Fatalf("order page: %q", got)
	}
	if got := q.Text("main"); !strings.Contains(got, "Grace Guest") || !strings.Contains(got, "Trail Jacket") {
		t.Fatalf("order page: %q", got)
	}
	for _, w := range browser.Widths {
		q.Do("viewport", chromedp.EmulateViewport(w, 900))
		q.CheckAxe()
	}
	q.Fill(`form[action$="/cancel"] textarea[name=reason]`, "Ordered twice")
	q.Submit(`form[action$="/cancel"] button[type=submit]`)
	if got := q.Text("main"); !strings.Contains(got, "Waiting for the shop") {
		t.Fatalf("after the cancellation request: %q", got)
	}
}
