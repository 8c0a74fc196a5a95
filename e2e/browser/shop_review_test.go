package browser_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"storefront/e2e/browser"
)

var orderNumber = regexp.MustCompile(`Order number: (\d+)`)

// TestShopReview: a shopper signs up, buys the jacket with the sandbox, the
// store delivers the order (admin API), and the shopper reviews it on the
// product page; once the store approves it, the review shows as a verified
// purchase. axe-core and both widths on the product page with the form.
func TestShopReview(t *testing.T) {
	t.Parallel()
	srv, _ := shopFixture(t)
	p := browser.NewPage(t, srv)
	p.Go("/account/register/")
	p.Fill("#f-first_name", "Rita")
	p.Fill("#f-last_name", "Reviewer")
	p.Fill("#f-email", "rita@example.com")
	p.Fill("#f-password", "password123")
	p.Fill("#f-password_confirm", "password123")
	p.Submit(`form[action="/account/register/"] button[type=submit]`)

	p.Go("/search/?q=trail")
	p.Submit(`main li.card a`)
	product := strings.TrimPrefix(p.URL(), srv.URL)
	p.Submit(`form.add button[type=submit]`)
	p.Submit(`.summary a.button`)
	p.Fill(`#receiver_name`, "Rita Reviewer")
	p.Fill(`#phone`, "+1 555 0150")
	p.Fill(`#address`, "9 Review Lane, Springfield")
	p.Submit(`.checkout-form button[type=submit]`)
	p.Submit(`button[value=success]`)
	m := orderNumber.FindStringSubmatch(p.Text("main"))
	if m == nil {
		t.Fatalf("no order number on the confirmation: %q", p.Text("main"))
	}
	srv.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/1/orders/%s/", m[1]), srv.OwnerToken(t), map[string]any{"status": "DELIVERED"}, 200, nil)

	p.Go(product + "#reviews")
	p.CheckAxe()
	p.CheckNoOverflow()
	p.SetChecked(`.review-form input[name=rating][value="5"]`, true)
	p.Fill(`#r-title`, "Dry all day")
	p.Fill(`#r-content`, "Kept me dry on a wet hike.")
	p.Submit(`.review-form button[type=submit]`)
	if got := p.Text("#reviews"); !strings.Contains(got, "will appear once it is approved") {
		t.Fatalf("after the review: %q", got)
	}
	p.CheckAxe()

	var reviews struct {
		Items []struct {
			ID uint64 `json:"id"`
		} `json:"items"`
	}
	srv.API(t, "GET", "/api/v1/admin/stores/1/reviews/", srv.OwnerToken(t), nil, 200, &reviews)
	if len(reviews.Items) != 1 {
		t.Fatalf("%d reviews, want 1", len(reviews.Items))
	}
	srv.API(t, "POST", fmt.Sprintf("/api/v1/admin/stores/1/reviews/%d/approve/", reviews.Items[0].ID), srv.OwnerToken(t), nil, 200, nil)
	p.Go(product)
	if got := p.Text("#reviews"); !strings.Contains(got, "Dry all day") || !strings.Contains(got, "Verified purchase") {
		t.Fatalf("the approved review: %q", got)
	}
}
