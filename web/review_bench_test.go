package web_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

// rvSeedApproved stores n approved reviews of a product directly in storage,
// in transactions of 2000, with the summary and the product's rating as
// moderation would leave them.
func rvSeedApproved(b testing.TB, e *testenv.Env, sid, pid uint64, n int) {
	b.Helper()
	const batch = 2000
	var sum app.ReviewSummary
	for start := 0; start < n; start += batch {
		err := e.DB.Update(func(tx app.Tx) error {
			for i := start; i < min(start+batch, n); i++ {
				rating := 1 + (i*7)%5
				r := &app.Review{StoreID: sid, ProductID: pid, CustomerID: uint64(1_000_000 + i), CustomerName: "Bench B.",
					Rating: rating, Title: fmt.Sprint("Review ", i), Content: "Solid product, would buy again.",
					Images: []string{}, Status: app.ReviewApproved, CreatedAt: e.Now(), UpdatedAt: e.Now()}
				if err := tx.CreateReview(r); err != nil {
					return err
				}
				sum.Add(rating, 1)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	err := e.DB.Update(func(tx app.Tx) error {
		if err := tx.PutReviewSummary(sid, pid, sum); err != nil {
			return err
		}
		p, err := tx.Product(sid, pid)
		if err != nil {
			return err
		}
		for i, c := range sum.Counts {
			p.ReviewCount += c
			p.RatingSum += c * int64(i+1)
		}
		return tx.PutProduct(p)
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkProductReviews reads a product's reviews page with 10k approved
// reviews: page 1, a page ~9000 reviews deep (cursor walked first), and page
// 1 of a product with 10 reviews. The summary is one record read, so all
// three cost about the same; Interleaved reports the deep/page1 ratio.
func BenchmarkProductReviews(b *testing.B) {
	e := rvEnv(b)
	sid, key := e.Store("Bench")
	big := e.Product(sid, 0, "Big Seller", 1000, 5)
	small := e.Product(sid, 0, "Niche Item", 1000, 5)
	rvSeedApproved(b, e, sid, big.ID, 10_000)
	rvSeedApproved(b, e, sid, small.ID, 10)

	page1 := rvWeb + "/products/big-seller/reviews/"
	cursor := ""
	for depth := 0; depth < 9000; depth += 50 {
		path := page1 + "?limit=50"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		l := rvGetList(b, e, key, path)
		if l.Summary == nil || l.Summary.TotalReviews != 10_000 || l.NextCursor == nil {
			b.Fatalf("walk at %d: summary %+v cursor %v", depth, l.Summary, l.NextCursor)
		}
		cursor = *l.NextCursor
	}
	deep := page1 + "?cursor=" + url.QueryEscape(cursor)
	if l := rvGetList(b, e, key, deep); len(l.Items) != 20 || l.Items[0]["title"] != "Review 999" {
		b.Fatalf("deep page starts at %v, want Review 999", l.Items[0]["title"])
	}
	get := func(b *testing.B, path string) {
		if r := e.Do(testenv.Req{Method: "GET", Path: path, Key: key}); r.Status != 200 {
			b.Fatalf("got %d: %s", r.Status, r.Raw)
		}
	}
	b.Run("HTTP/Page1", func(b *testing.B) {
		for b.Loop() {
			get(b, page1)
		}
	})
	b.Run("HTTP/Deep9000", func(b *testing.B) {
		for b.Loop() {
			get(b, deep)
		}
	})
	b.Run("HTTP/SmallProduct", func(b *testing.B) {
		for b.Loop() {
			get(b, rvWeb+"/products/niche-item/reviews/")
		}
	})
	// service level, without HTTP: the storage cost alone
	lp := app.ListParams{Sort: app.SortNewest, Limit: app.ReviewsDefaultLimit}
	_, deepPage, _, err := e.Svc.Reviews.ProductReviews(sid, "big-seller", app.ListParams{Sort: app.SortNewest, Limit: 9000})
	if err != nil {
		b.Fatal(err)
	}
	deepLP := lp
	deepLP.After = deepPage.Next
	b.Run("Service/Page1", func(b *testing.B) {
		for b.Loop() {
			if _, _, _, err := e.Svc.Reviews.ProductReviews(sid, "big-seller", lp); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Service/Deep9000", func(b *testing.B) {
		for b.Loop() {
			if _, _, _, err := e.Svc.Reviews.ProductReviews(sid, "big-seller", deepLP); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Interleaved", func(b *testing.B) {
		var t1, t2 time.Duration
		n := 0
		for b.Loop() {
			s := time.Now()
			get(b, page1)
			t1 += time.Since(s)
			s = time.Now()
			get(b, deep)
			t2 += time.Since(s)
			n++
		}
		b.ReportMetric(float64(t1.Nanoseconds())/float64(n), "page1-ns/op")
		b.ReportMetric(float64(t2.Nanoseconds())/float64(n), "deep-ns/op")
		b.ReportMetric(float64(t2)/float64(t1), "deep/page1")
	})
}
