package web_test

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

const (
	rvWeb   = "/api/v1/business/website"
	rvAdmin = "/api/v1/admin/stores"
)

// rvEnv is testenv.New plus the index check of reviews, tickets and contact.
func rvEnv(t testing.TB, opt ...testenv.Options) *testenv.Env {
	t.Helper()
	var e *testenv.Env
	if len(opt) > 0 {
		e = testenv.NewWith(t, opt[0])
	} else {
		e = testenv.New(t)
	}
	return e
}

// rvOrder stores an order of the customer for the products, in a status.
func rvOrder(t testing.TB, e *testenv.Env, sid, cid uint64, status string, pids ...uint64) uint64 {
	t.Helper()
	o := &app.Order{StoreID: sid, CustomerID: cid, Status: status, PaymentStatus: app.PaymentPaid, Currency: "USD", CreatedAt: e.Now(), UpdatedAt: e.Now()}
	for _, pid := range pids {
		o.Items = append(o.Items, app.OrderItem{ProductID: pid, Name: "x", UnitPrice: 100, Quantity: 1, LineTotal: 100})
	}
	if err := e.DB.Update(func(tx app.Tx) error { return tx.CreateOrder(o) }); err != nil {
		t.Fatal(err)
	}
	return o.ID
}

type rvList struct {
	Items      []map[string]any `json:"items"`
	NextCursor *string          `json:"next_cursor"`
	HasMore    bool             `json:"has_more"`
	Summary    *app.SummaryView `json:"summary"`
}

// rvSubmit posts a review and returns its id.
func rvSubmit(t testing.TB, e *testenv.Env, key, tok string, body map[string]any) uint64 {
	t.Helper()
	var id string
	e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/reviews/", Key: key, Token: tok, Body: body}).Expect(t, 200, "").Decode(t, &id)
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		t.Fatalf("got review id %q, want a decimal string", id)
	}
	return n
}

func rvModerate(t testing.TB, e *testenv.Env, sid, rid uint64, action string) {
	t.Helper()
	e.Do(testenv.Req{Method: "POST", Path: testenv.Path("%s/%d/reviews/%d/%s/", rvAdmin, sid, rid, action), Token: e.OwnerToken}).Expect(t, 200, "")
}

func rvGetList(t testing.TB, e *testenv.Env, key, path string) rvList {
	t.Helper()
	var l rvList
	e.Do(testenv.Req{Method: "GET", Path: path, Key: key}).Expect(t, 200, "").Decode(t, &l)
	return l
}

func TestSubmitReview(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Red Shoe", 1250, 3)
	off := e.Product(sid, 0, "Old Shoe", 1250, 3)
	if _, err := e.Svc.Catalog.SaveProduct(sid, off.ID, app.ProductInput{IsActive: new(false)}); err != nil {
		t.Fatal(err)
	}
	pB := e.Product(sidB, 0, "Blue Shoe", 1250, 3)
	_, tok := e.Shopper(sid, "a@example.com")
	_, tok2 := e.Shopper(sid, "b@example.com")
	_, tokB := e.Shopper(sidB, "a@example.com")

	cases := []struct {
		name   string
		key    string
		token  string
		body   any
		status int
		code   string
		field  string
	}{
		{"OK", key, tok, map[string]any{"product_id": p.ID, "rating": 5, "title": "Great", "content": "Fits well", "images": []string{"https://img.example/1.jpg"}}, 200, "", ""},
		{"OKStore", key, tok, map[string]any{"rating": 4.0, "content": "Fast delivery"}, 200, "", ""},
		{"ErrDuplicate", key, tok, map[string]any{"product_id": p.ID, "rating": 3}, 409, "conflict", ""},
		{"ErrDuplicateStore", key, tok, map[string]any{"rating": 3}, 409, "conflict", ""},
		{"ErrRatingFraction", key, tok2, map[string]any{"product_id": p.ID, "rating": 4.5}, 400, "validation_failed", "rating"},
		{"ErrRatingZero", key, tok2, map[string]any{"product_id": p.ID, "rating": 0}, 400, "validation_failed", "rating"},
		{"ErrRatingSix", key, tok2, map[string]any{"product_id": p.ID, "rating": 6}, 400, "validation_failed", "rating"},
		{"ErrRatingMissing", key, tok2, map[string]any{"product_id": p.ID}, 400, "validation_failed", "rating"},
		{"ErrRatingString", key, tok2, map[string]any{"product_id": p.ID, "rating": "5"}, 400, "validation_failed", "rating"},
		{"ErrTitleLong", key, tok2, map[string]any{"product_id": p.ID, "rating": 5, "title": strings.Repeat("é", 201)}, 400, "validation_failed", "title"},
		{"ErrContentLong", key, tok2, map[string]any{"product_id": p.ID, "rating": 5, "content": strings.Repeat("a", 5001)}, 400, "validation_failed", "content"},
		{"ErrImagesMany", key, tok2, map[string]any{"product_id": p.ID, "rating": 5, "images": strings.Split(strings.Repeat("https://i.example/a,", 11)[:11*20-1], ",")}, 400, "validation_failed", "images"},
		{"ErrImagesScheme", key, tok2, map[string]any{"product_id": p.ID, "rating": 5, "images": []string{"ftp://i.example/a"}}, 400, "validation_failed", "images"},
		{"ErrProductZero", key, tok2, map[string]any{"product_id": 0, "rating": 5}, 400, "validation_failed", "product_id"},
		{"ErrProductNegative", key, tok2, map[string]any{"product_id": -1, "rating": 5}, 400, "validation_failed", "product_id"},
		{"ErrMalformed", key, tok2, `{"rating":`, 400, "validation_failed", ""},
		{"ErrUnknownProduct", key, tok2, map[string]any{"product_id": 9999, "rating": 5}, 404, "not_found", ""},
		{"ErrInactiveProduct", key, tok2, map[string]any{"product_id": off.ID, "rating": 5}, 404, "not_found", ""},
		{"ErrOtherStoreProduct", key, tok2, map[string]any{"product_id": pB.ID + 100, "rating": 5}, 404, "not_found", ""},
		{"ErrNoToken", key, "", map[string]any{"product_id": p.ID, "rating": 5}, 401, "unauthorized", ""},
		{"ErrBadToken", key, "garbage", map[string]any{"product_id": p.ID, "rating": 5}, 401, "unauthorized", ""},
		{"ErrOtherStoreToken", key, tokB, map[string]any{"product_id": p.ID, "rating": 5}, 401, "unauthorized", ""},
		{"ErrNoKey", "", tok2, map[string]any{"product_id": p.ID, "rating": 5}, 401, "invalid_api_key", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/reviews/", Key: tc.key, Token: tc.token, Body: tc.body}).Expect(t, tc.status, tc.code)
			if tc.field != "" && r.Body.Errors[tc.field] == "" {
				t.Fatalf("got errors %v, want one for %s", r.Body.Errors, tc.field)
			}
			if tc.status == 200 {
				var id string
				r.Decode(t, &id)
				if _, err := strconv.ParseUint(id, 10, 64); err != nil {
					t.Fatalf("got data %s, want a decimal string", r.Body.Data)
				}
			}
		})
	}
	t.Run("ErrCrossStoreProduct", func(t *testing.T) {
		// store B's key and shopper naming store A's product id
		e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/reviews/", Key: keyB, Token: tokB,
			Body: map[string]any{"product_id": p.ID + 50, "rating": 5}}).Expect(t, 404, "not_found")
	})
	t.Run("ErrEmailNotVerified", func(t *testing.T) {
		if _, err := e.Svc.Stores.PatchConfig(sid, []byte(`{"email_otp_enabled":true}`)); err != nil {
			t.Fatal(err)
		}
		defer e.Svc.Stores.PatchConfig(sid, []byte(`{"email_otp_enabled":false}`))
		e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/reviews/", Key: key, Token: tok2,
			Body: map[string]any{"product_id": p.ID, "rating": 5}}).Expect(t, 403, "email_not_verified")
	})
	t.Run("PendingNotVisible", func(t *testing.T) {
		l := rvGetList(t, e, key, rvWeb+"/products/red-shoe/reviews/")
		if len(l.Items) != 0 || l.Summary == nil || l.Summary.TotalReviews != 0 {
			t.Fatalf("got %d items, summary %+v; want none before approval", len(l.Items), l.Summary)
		}
		l = rvGetList(t, e, key, rvWeb+"/reviews/store/")
		if len(l.Items) != 0 {
			t.Fatalf("got %d store reviews, want none before approval", len(l.Items))
		}
	})
}

func TestReviewDuplicateConcurrent(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Red Shoe", 1250, 3)
	_, tok := e.Shopper(sid, "a@example.com")
	const n = 12
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			statuses[i] = e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/reviews/", Key: key, Token: tok,
				Body: map[string]any{"product_id": p.ID, "rating": 1 + i%5}}).Status
		}(i)
	}
	wg.Wait()
	okCount, conflicts := 0, 0
	for _, st := range statuses {
		switch st {
		case 200:
			okCount++
		case 409:
			conflicts++
		}
	}
	if okCount != 1 || conflicts != n-1 {
		t.Fatalf("got %d ok and %d conflicts (%v), want 1 and %d", okCount, conflicts, statuses, n-1)
	}
}

func TestReviewVerifiedPurchase(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Red Shoe", 1250, 3)
	other := e.Product(sid, 0, "Blue Shoe", 1250, 3)
	cDelivered, tokDelivered := e.Shopper(sid, "delivered@example.com")
	cCompleted, tokCompleted := e.Shopper(sid, "completed@example.com")
	cPending, tokPending := e.Shopper(sid, "pending@example.com")
	cOther, tokOther := e.Shopper(sid, "other@example.com")
	_, tokNone := e.Shopper(sid, "none@example.com")
	rvOrder(t, e, sid, cDelivered, app.OrderDelivered, other.ID, p.ID)
	// the matching order is old: the walk must page past newer ones
	rvOrder(t, e, sid, cCompleted, app.OrderCompleted, p.ID)
	for i := 0; i < 120; i++ {
		rvOrder(t, e, sid, cCompleted, app.OrderCancelled, p.ID)
	}
	rvOrder(t, e, sid, cPending, app.OrderPending, p.ID)
	rvOrder(t, e, sid, cPending, app.OrderConfirmed, p.ID)
	rvOrder(t, e, sid, cOther, app.OrderDelivered, other.ID)

	want := map[string]bool{tokDelivered: true, tokCompleted: true, tokPending: false, tokOther: false, tokNone: false}
	names := map[string]string{tokDelivered: "delivered", tokCompleted: "completed", tokPending: "pending", tokOther: "other product", tokNone: "no order"}
	ids := map[uint64]string{}
	for tok := range want {
		ids[rvSubmit(t, e, key, tok, map[string]any{"product_id": p.ID, "rating": 4})] = tok
	}
	// store reviews: verified by any delivered or completed order
	storeRid := rvSubmit(t, e, key, tokOther, map[string]any{"rating": 5})
	var l rvList
	e.Do(testenv.Req{Method: "GET", Path: testenv.Path("%s/%d/reviews/?limit=100", rvAdmin, sid), Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &l)
	if len(l.Items) != len(want)+1 {
		t.Fatalf("got %d reviews, want %d", len(l.Items), len(want)+1)
	}
	for _, it := range l.Items {
		id := uint64(it["id"].(float64))
		got := it["is_verified_purchase"].(bool)
		if id == storeRid {
			if !got || it["product_id"] != nil {
				t.Fatalf("store review: got verified %v product_id %v, want true and null", got, it["product_id"])
			}
			continue
		}
		tok := ids[id]
		if got != want[tok] {
			t.Errorf("%s: got is_verified_purchase %v, want %v", names[tok], got, want[tok])
		}
		if it["status"] != app.ReviewPending || it["customer_name"] != "Test S." {
			t.Errorf("got status %v name %v, want PENDING and \"Test S.\"", it["status"], it["customer_name"])
		}
	}
}

func TestReviewSummaryAndModeration(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	cat := e.Category(sid, "Shoes")
	p := e.Product(sid, cat.ID, "Red Shoe", 1250, 3)
	q := e.Product(sid, cat.ID, "Blue Shoe", 1250, 3)
	ratings := []int{5, 4, 2, 5, 1}
	rids := make([]uint64, len(ratings))
	for i, r := range ratings {
		_, tok := e.Shopper(sid, fmt.Sprintf("s%d@example.com", i))
		rids[i] = rvSubmit(t, e, key, tok, map[string]any{"product_id": p.ID, "rating": r, "title": fmt.Sprint("t", i)})
		e.Advance(1e9)
	}
	_, tokQ := e.Shopper(sid, "q@example.com")
	qrid := rvSubmit(t, e, key, tokQ, map[string]any{"product_id": q.ID, "rating": 3})

	check := func(t *testing.T, avg float64, total int64, breakdown map[string]int64, items int) {
		t.Helper()
		l := rvGetList(t, e, key, rvWeb+"/products/red-shoe/reviews/")
		s := l.Summary
		if s == nil || s.AverageRating != avg || s.TotalReviews != total || len(l.Items) != items {
			t.Fatalf("got summary %+v and %d items, want average %v total %d and %d items", s, len(l.Items), avg, total, items)
		}
		for k := 1; k <= 5; k++ {
			ks := strconv.Itoa(k)
			if got, present := s.RatingBreakdown[ks]; !present || got != breakdown[ks] {
				t.Fatalf("got breakdown %v, want %v with every key 1..5", s.RatingBreakdown, breakdown)
			}
		}
		var prod map[string]any
		e.Do(testenv.Req{Method: "GET", Path: rvWeb + "/products/red-shoe/", Key: key}).Expect(t, 200, "").Decode(t, &prod)
		if prod["average_rating"] != avg || prod["review_count"] != float64(total) {
			t.Fatalf("got product average %v count %v, want %v %d", prod["average_rating"], prod["review_count"], avg, total)
		}
	}
	t.Run("Empty", func(t *testing.T) { check(t, 0, 0, map[string]int64{}, 0) })
	t.Run("Approve", func(t *testing.T) {
		rvModerate(t, e, sid, rids[0], "approve")
		rvModerate(t, e, sid, rids[1], "approve")
		rvModerate(t, e, sid, rids[2], "approve")
		rvModerate(t, e, sid, rids[2], "approve") // again: no double count
		check(t, 3.67, 3, map[string]int64{"5": 1, "4": 1, "2": 1}, 3)
	})
	t.Run("RejectApproved", func(t *testing.T) {
		rvModerate(t, e, sid, rids[1], "reject")
		check(t, 3.5, 2, map[string]int64{"5": 1, "2": 1}, 2)
	})
	t.Run("RejectPending", func(t *testing.T) {
		rvModerate(t, e, sid, rids[4], "reject")
		check(t, 3.5, 2, map[string]int64{"5": 1, "2": 1}, 2)
	})
	t.Run("ReapproveRejected", func(t *testing.T) {
		rvModerate(t, e, sid, rids[1], "approve")
		rvModerate(t, e, sid, rids[3], "approve")
		check(t, 4, 4, map[string]int64{"5": 2, "4": 1, "2": 1}, 4)
	})
	t.Run("ProductsRatingSort", func(t *testing.T) {
		rvModerate(t, e, sid, qrid, "approve")
		for _, path := range []string{rvWeb + "/products/?sort=rating_desc", testenv.Path("%s/categories/%d/products/?sort=rating_desc", rvWeb, cat.ID)} {
			l := rvGetList(t, e, key, path)
			if len(l.Items) != 2 || l.Items[0]["slug"] != "red-shoe" || l.Items[1]["average_rating"] != 3.0 {
				t.Fatalf("%s: got %v, want red-shoe (4.00) before blue-shoe (3.00)", path, l.Items)
			}
		}
	})
	t.Run("FieldsReviews", func(t *testing.T) {
		l := rvGetList(t, e, key, rvWeb+"/products/?fields=name,reviews")
		for _, it := range l.Items {
			revs, _ := it["reviews"].([]any)
			want := map[string]int{"Red Shoe": 4, "Blue Shoe": 1}[it["name"].(string)]
			if len(revs) != want {
				t.Fatalf("%v: got %d reviews, want %d", it["name"], len(revs), want)
			}
			if it["name"] == "Red Shoe" {
				first := revs[0].(map[string]any)
				if first["title"] != "t3" || first["product_id"] != float64(p.ID) {
					t.Fatalf("got newest review %v, want t3", first)
				}
			}
		}
		var prod map[string]any
		e.Do(testenv.Req{Method: "GET", Path: rvWeb + "/products/blue-shoe/?fields=reviews", Key: key}).Expect(t, 200, "").Decode(t, &prod)
		if revs, _ := prod["reviews"].([]any); len(revs) != 1 {
			t.Fatalf("got %v, want one review", prod)
		}
	})
}

func TestProductReviewsList(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	p := e.Product(sid, 0, "Red Shoe", 1250, 3)
	ratings := []int{3, 5, 1, 5, 2, 4, 3, 1, 5}
	for i, r := range ratings {
		_, tok := e.Shopper(sid, fmt.Sprintf("s%d@example.com", i))
		rid := rvSubmit(t, e, key, tok, map[string]any{"product_id": p.ID, "rating": r, "title": fmt.Sprint(i)})
		rvModerate(t, e, sid, rid, "approve")
		e.Advance(1e9)
	}
	_, tok := e.Shopper(sid, "store@example.com")
	srid := rvSubmit(t, e, key, tok, map[string]any{"rating": 2, "title": "store"})
	rvModerate(t, e, sid, srid, "approve")

	walk := func(t *testing.T, base string) []map[string]any {
		t.Helper()
		var out []map[string]any
		cursor := ""
		for pages := 0; pages < 20; pages++ {
			path := base
			if cursor != "" {
				path += "&cursor=" + url.QueryEscape(cursor)
			}
			l := rvGetList(t, e, key, path)
			if l.Summary == nil {
				t.Fatalf("page without summary")
			}
			out = append(out, l.Items...)
			if !l.HasMore {
				if l.NextCursor != nil {
					t.Fatalf("has_more false with a cursor")
				}
				return out
			}
			cursor = *l.NextCursor
		}
		t.Fatalf("walk did not end")
		return nil
	}
	for _, tc := range []struct {
		sort string
		want string // titles in order
	}{
		{"", "876543210"},
		{"newest", "876543210"},
		{"rating_desc", "831560472"},
		{"rating_asc", "724605831"},
	} {
		t.Run("Sort_"+tc.sort, func(t *testing.T) {
			path := rvWeb + "/products/red-shoe/reviews/?limit=2"
			if tc.sort != "" {
				path += "&sort=" + tc.sort
			}
			items := walk(t, path)
			got := ""
			for _, it := range items {
				got += it["title"].(string)
			}
			if got != tc.want {
				t.Fatalf("got order %s, want %s", got, tc.want)
			}
		})
	}
	t.Run("ItemShape", func(t *testing.T) {
		l := rvGetList(t, e, key, rvWeb+"/products/red-shoe/reviews/?limit=1")
		it := l.Items[0]
		for _, f := range []string{"id", "product_id", "rating", "title", "content", "images", "customer_name", "is_verified_purchase", "created_at"} {
			if _, present := it[f]; !present {
				t.Fatalf("got %v, want field %s", it, f)
			}
		}
		if _, leaked := it["customer_id"]; leaked {
			t.Fatalf("public review shows customer_id: %v", it)
		}
		if it["created_at"] != "2026-11-21T10:00:08Z" {
			t.Fatalf("got created_at %v", it["created_at"])
		}
		l = rvGetList(t, e, key, rvWeb+"/products/red-shoe/reviews/?limit=1&fields=rating")
		if len(l.Items[0]) != 2 || l.Summary == nil {
			t.Fatalf("fields=rating: got %v", l.Items[0])
		}
	})
	t.Run("StoreReviews", func(t *testing.T) {
		l := rvGetList(t, e, key, rvWeb+"/reviews/store/")
		if len(l.Items) != 1 || l.Items[0]["title"] != "store" || l.Items[0]["product_id"] != nil {
			t.Fatalf("got %v, want the one store review", l.Items)
		}
		if s := l.Summary; s.TotalReviews != 1 || s.AverageRating != 2 || s.RatingBreakdown["2"] != 1 {
			t.Fatalf("got summary %+v", s)
		}
		l = rvGetList(t, e, keyB, rvWeb+"/reviews/store/")
		if len(l.Items) != 0 || l.Summary.TotalReviews != 0 {
			t.Fatalf("store B sees %v", l)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		l := rvGetList(t, e, key, rvWeb+"/products/red-shoe/reviews/?limit=2&sort=rating_desc")
		for _, tc := range []struct {
			name, key, path string
			status          int
			code            string
		}{
			{"UnknownSlug", key, "/products/nope/reviews/", 404, "not_found"},
			{"CrossStore", keyB, "/products/red-shoe/reviews/", 404, "not_found"},
			{"NoKey", "", "/products/red-shoe/reviews/", 401, "invalid_api_key"},
			{"BadSort", key, "/products/red-shoe/reviews/?sort=price_asc", 400, "validation_failed"},
			{"BadLimit", key, "/products/red-shoe/reviews/?limit=0", 400, "validation_failed"},
			{"CursorOtherSort", key, "/products/red-shoe/reviews/?sort=newest&cursor=" + url.QueryEscape(*l.NextCursor), 400, "validation_failed"},
			{"CursorTampered", key, "/products/red-shoe/reviews/?sort=rating_desc&cursor=" + url.QueryEscape(*l.NextCursor+"x"), 400, "validation_failed"},
			{"CursorOtherStore", keyB, "/reviews/store/?sort=rating_desc&cursor=" + url.QueryEscape(*l.NextCursor), 400, "validation_failed"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e.Do(testenv.Req{Method: "GET", Path: rvWeb + tc.path, Key: tc.key}).Expect(t, tc.status, tc.code)
			})
		}
	})
	t.Run("LimitClamped", func(t *testing.T) {
		for i := 0; i < 55; i++ {
			_, tok := e.Shopper(sid, fmt.Sprintf("bulk%d@example.com", i))
			rvModerate(t, e, sid, rvSubmit(t, e, key, tok, map[string]any{"product_id": p.ID, "rating": 5}), "approve")
		}
		if l := rvGetList(t, e, key, rvWeb+"/products/red-shoe/reviews/?limit=500"); len(l.Items) != 50 || !l.HasMore {
			t.Fatalf("got %d items has_more %v, want 50 and true", len(l.Items), l.HasMore)
		}
		if l := rvGetList(t, e, key, rvWeb+"/products/red-shoe/reviews/"); len(l.Items) != 20 {
			t.Fatalf("got %d items by default, want 20", len(l.Items))
		}
	})
}

func TestReviewInactiveProductHidden(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Red Shoe", 1250, 3)
	_, tok := e.Shopper(sid, "a@example.com")
	rid := rvSubmit(t, e, key, tok, map[string]any{"product_id": p.ID, "rating": 5})
	rvModerate(t, e, sid, rid, "approve")
	if _, err := e.Svc.Catalog.SaveProduct(sid, p.ID, app.ProductInput{IsActive: new(false)}); err != nil {
		t.Fatal(err)
	}
	e.Do(testenv.Req{Method: "GET", Path: rvWeb + "/products/red-shoe/reviews/", Key: key}).Expect(t, 404, "not_found")
	// moderation of a deleted product's review still works and keeps the summary
	if err := e.Svc.Catalog.DeleteProduct(sid, p.ID); err != nil {
		t.Fatal(err)
	}
	rvModerate(t, e, sid, rid, "reject")
}
