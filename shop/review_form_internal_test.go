package shop

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/testenv"
)

// TestReviewFormRenders renders the product page for a signed-in shopper
// (the session code fills rq.Customer; here the test does) with a refused
// review: the form, its messages next to the fields and the values kept.
func TestReviewFormRenders(t *testing.T) {
	t.Parallel()
	s, err := New(Config{}, testenv.New(t).Svc)
	if err != nil {
		t.Fatal(err)
	}
	st := &app.Store{ID: 1, Name: "Acme", Currency: "USD", Config: app.DefaultConfig("Acme")}
	a := fiber.New()
	a.Get("/p", func(c *fiber.Ctx) error {
		rq := &request{Store: st, Look: lookOf(st, english()), L: english(), csrf: strings.Repeat("ab", 16), Customer: &app.Customer{ID: 7}}
		d := &productData{P: &app.Product{ID: 3, Name: "Hammer", Slug: "hammer", Price: 1250}, Path: "/products/hammer/", Stock: 2,
			Review: reviewForm{Rating: "4", Title: "Good <b>", Content: "Hits\nnails", Errors: map[string]string{"rating": english().T("review.err.rating"), "title": "must be at most 200 characters"}}}
		return s.renderProduct(c, rq, fiber.StatusBadRequest, d)
	})
	resp, err := a.Test(httptest.NewRequest("GET", "/p", nil))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	body := string(b)
	if resp.StatusCode != 400 {
		t.Fatalf("status %d:\n%s", resp.StatusCode, body)
	}
	for _, want := range []string{`action="/products/hammer/reviews" method="post"`, `name="csrf" value="abababababababababababababababab"`,
		`value="4" required checked`, `value="Good &lt;b&gt;"`, ">Hits\nnails</textarea>", "Choose a rating from 1 to 5.",
		`id="e-title">must be at most 200 characters`, `aria-describedby="e-title"`, "<legend>Rating</legend>", `<label for="r-content">`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(body)
	}
}

// TestSubmitReview posts the review form as a signed-in shopper (the
// session code fills rq.Customer; here the test does): a refused review
// comes back with its messages, a good one redirects (PRG) and waits for
// moderation, a second one is refused.
func TestSubmitReview(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Acme")
	p := e.Product(sid, 0, "Hammer", 1250, 5)
	cid, _ := e.Shopper(sid, "ann@example.com")
	s, err := New(Config{}, e.Svc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := e.Svc.Stores.Get(sid)
	if err != nil {
		t.Fatal(err)
	}
	cust := &app.Customer{ID: cid, StoreID: sid}
	a := fiber.New()
	a.Post("/products/:slug/reviews", func(c *fiber.Ctx) error {
		rq := &request{Store: st, Look: lookOf(st, english()), L: english(), csrf: strings.Repeat("ab", 16), Customer: cust}
		if err := s.submitReview(c, rq); err != nil {
			return s.renderError(c, rq, err)
		}
		return nil
	})
	post := func(form string) (int, string, string) {
		req := httptest.NewRequest("POST", "/products/"+p.Slug+"/reviews", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := a.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Location"), string(b)
	}
	if code, _, body := post("rating=9&title=Nice"); code != 400 || !strings.Contains(body, "Choose a rating from 1 to 5.") || !strings.Contains(body, `value="Nice"`) {
		t.Fatalf("bad rating: %d\n%s", code, body)
	}
	if code, loc, _ := post("rating=5&title=Great&content=Solid"); code != 303 || loc != "/products/"+p.Slug+"/?review=sent#reviews" {
		t.Fatalf("good review: %d %q", code, loc)
	}
	page, err := e.Svc.Reviews.List(sid, "", app.ListParams{Sort: app.SortNewest, Limit: 10})
	if err != nil || len(page.Items) != 1 || page.Items[0].Status != app.ReviewPending || page.Items[0].Title != "Great" {
		t.Fatalf("stored reviews: %v %v", page.Items, err)
	}
	if code, _, body := post("rating=4"); code != 409 || !strings.Contains(body, "You have already reviewed this product.") {
		t.Fatalf("second review: %d\n%s", code, body)
	}
	if code, _, _ := post(""); code != 400 {
		t.Fatalf("empty form: %d", code)
	}
}
