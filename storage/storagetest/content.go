package storagetest

import (
	"encoding/json"
	"fmt"
	"time"

	"storefront/app"
)

func testReviews(e *env) {
	a, b := e.store("a"), e.store("b")
	mk := func(pid, cid uint64, rating int, status string) *app.Review {
		return &app.Review{StoreID: a, ProductID: pid, CustomerID: cid, CustomerName: "N", Rating: rating, Title: "t",
			Content: "c", Images: []string{}, Status: status, CreatedAt: t0, UpdatedAt: t0}
	}
	var r []*app.Review
	e.update(func(tx app.Tx) error {
		for _, x := range []*app.Review{
			mk(1, 1, 4, app.ReviewApproved),
			mk(1, 2, 5, app.ReviewApproved),
			mk(1, 3, 2, app.ReviewPending),
			mk(1, 4, 1, app.ReviewApproved),
			mk(0, 1, 3, app.ReviewApproved), // a store review
			mk(2, 1, 5, app.ReviewRejected),
		} {
			if err := tx.CreateReview(x); err != nil {
				return err
			}
			r = append(r, x)
		}
		return nil
	})
	e.same("second review of a product", e.code(func(tx app.Tx) error { return tx.CreateReview(mk(1, 2, 3, app.ReviewPending)) }), app.EConflict)
	e.same("second store review", e.code(func(tx app.Tx) error { return tx.CreateReview(mk(0, 1, 3, app.ReviewPending)) }), app.EConflict)
	e.same("same shopper, other product", e.code(func(tx app.Tx) error { return tx.CreateReview(mk(3, 2, 3, app.ReviewPending)) }), "")
	rid := func(x *app.Review) string { return fmt.Sprint(x.ID) }
	moderation := func(status string) []string {
		return sorted(e, rid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Review], error) { return tx.Reviews(a, status, lp) })
	}
	e.same("pending", moderation(app.ReviewPending)[1:], ids(r[2].ID)) // [0] is the one made above
	e.same("approved", moderation(app.ReviewApproved), ids(r[4].ID, r[3].ID, r[1].ID, r[0].ID))
	e.same("all", len(moderation("")), 7)
	public := func(pid uint64, sort string) []string {
		return sorted(e, func(v json.RawMessage) string {
			var x struct {
				ID     uint64 `json:"id"`
				Rating int    `json:"rating"`
			}
			if err := json.Unmarshal(v, &x); err != nil {
				e.t.Fatalf("public view %s: %v", v, err)
			}
			return fmt.Sprint(x.ID)
		}, func(tx app.Tx, lp app.ListParams) (app.Page[json.RawMessage], error) {
			lp.Sort = sort
			return tx.ApprovedReviews(a, pid, lp)
		})
	}
	testPublicReviews(e, a, b, r, public, rid)
	testReviewModeration(e, a, r, public, mk)
	testReviewSummaries(e, a, b)
}

// testPublicReviews checks the public lists' orders and a customer's reviews.
func testPublicReviews(e *env, a, b uint64, r []*app.Review, public func(uint64, string) []string, rid func(*app.Review) string) {
	e.same("public newest", public(1, app.SortNewest), ids(r[3].ID, r[1].ID, r[0].ID))
	e.same("public rating desc", public(1, app.SortRatingDesc), ids(r[1].ID, r[0].ID, r[3].ID))
	e.same("public rating asc", public(1, app.SortRatingAsc), ids(r[3].ID, r[0].ID, r[1].ID))
	e.same("store reviews", public(0, app.SortNewest), ids(r[4].ID))
	e.same("rejected not public", public(2, app.SortNewest), ids())
	e.view(func(tx app.Tx) error {
		// Customer 1's reviews, any status, newest first; a limit; none in store b.
		mine, err := tx.CustomerReviews(a, 1, 10)
		e.want(err, "")
		got := []string{}
		for _, x := range mine {
			got = append(got, rid(x))
		}
		e.same("customer reviews", got, ids(r[5].ID, r[4].ID, r[0].ID))
		two, _ := tx.CustomerReviews(a, 1, 2)
		e.same("customer reviews limit", len(two), 2)
		none, err := tx.CustomerReviews(b, 1, 10)
		e.want(err, "")
		e.same("customer reviews other store", len(none), 0)
		pg, err := tx.ApprovedReviews(b, 1, app.ListParams{})
		e.same("other store", len(pg.Items), 0)
		e.want(err, "")
		_, err = tx.Review(b, r[0].ID)
		e.want(err, app.ENotFound)
		return nil
	})
}

// testReviewModeration checks that approving adds to the public lists,
// rejecting removes and the public view follows the review's text.
func testReviewModeration(e *env, a uint64, r []*app.Review, public func(uint64, string) []string, mk func(pid, cid uint64, rating int, status string) *app.Review) {
	// Approving adds to the public lists; rejecting removes; the public view
	// follows the review's text.
	r[2].Status = app.ReviewApproved
	r[0].Status = app.ReviewRejected
	r[1].Title = "edited"
	e.update(func(tx app.Tx) error {
		for _, x := range r[:3] {
			if err := tx.PutReview(x); err != nil {
				return err
			}
		}
		return nil
	})
	e.same("public after moderation", public(1, app.SortNewest), ids(r[3].ID, r[2].ID, r[1].ID))
	e.view(func(tx app.Tx) error {
		pg, err := tx.ApprovedReviews(a, 1, app.ListParams{Sort: app.SortRatingDesc, Limit: 1})
		var v app.ReviewView
		if err == nil {
			err = json.Unmarshal(pg.Items[0], &v)
		}
		e.same("public view is the review's", v.Title+"/"+fmt.Sprint(v.Rating), "edited/5")
		return err
	})
	e.same("put a missing one", e.code(func(tx app.Tx) error {
		x := mk(9, 9, 1, app.ReviewPending)
		x.ID = 999
		return tx.PutReview(x)
	}), app.ENotFound)
}

// testReviewSummaries checks summaries: zero when none, per product (0: the store).
func testReviewSummaries(e *env, a, b uint64) {
	// Summaries: zero when none, per product (0: the store).
	e.update(func(tx app.Tx) error {
		return tx.PutReviewSummary(a, 1, app.ReviewSummary{Counts: [5]int64{1, 0, 0, 1, 2}})
	})
	e.view(func(tx app.Tx) error {
		s, err := tx.ReviewSummary(a, 1)
		e.want(err, "")
		e.same("summary", s.Counts, [5]int64{1, 0, 0, 1, 2})
		s, err = tx.ReviewSummary(a, 0)
		e.want(err, "")
		e.same("none", s.Counts, [5]int64{})
		s, err = tx.ReviewSummary(b, 1)
		e.same("other store", s.Counts, [5]int64{})
		return err
	})
}

func ticket(sid, cid uint64, status string) *app.Ticket {
	return &app.Ticket{ID: app.NewUUID(), StoreID: sid, CustomerID: cid, Subject: "s", Description: "d", Category: app.TicketGeneral,
		Priority: "LOW", Status: status, Images: []string{}, Messages: []app.TicketMessage{}, CreatedAt: t0, UpdatedAt: t0, LastActivityAt: t0}
}

func testTickets(e *env) {
	a, b := e.store("a"), e.store("b")
	var tk []*app.Ticket
	e.update(func(tx app.Tx) error {
		for _, x := range []*app.Ticket{ticket(a, 1, app.TicketOpen), ticket(a, 2, app.TicketOpen), ticket(a, 1, app.TicketResolved), ticket(b, 1, app.TicketOpen)} {
			if err := tx.CreateTicket(x); err != nil {
				return err
			}
			tk = append(tk, x)
		}
		return nil
	})
	e.same("numbers per store", fmt.Sprint(tk[0].Number, tk[1].Number, tk[2].Number, tk[3].Number), "1 2 3 1")
	tid := func(x *app.Ticket) string { return x.ID }
	list := func(status string) []string {
		return sorted(e, tid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Ticket], error) { return tx.Tickets(a, status, lp) })
	}
	e.same("all newest first", list(""), []string{tk[2].ID, tk[1].ID, tk[0].ID})
	e.same("open", list(app.TicketOpen), []string{tk[1].ID, tk[0].ID})
	e.same("a customer's", sorted(e, tid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Ticket], error) {
		return tx.CustomerTickets(a, 1, lp)
	}), []string{tk[2].ID, tk[0].ID})
	e.view(func(tx app.Tx) error {
		got, err := tx.Ticket(a, tk[0].ID)
		e.want(err, "")
		e.same("get", got.Number, uint64(1))
		_, err = tx.Ticket(b, tk[0].ID)
		e.want(err, app.ENotFound)
		return nil
	})
	tk[0].Status = app.TicketClosed
	tk[0].Messages = append(tk[0].Messages, app.TicketMessage{Message: "m"})
	e.update(func(tx app.Tx) error { return tx.PutTicket(tk[0]) })
	e.same("open after a move", list(app.TicketOpen), []string{tk[1].ID})
	e.same("closed", list(app.TicketClosed), []string{tk[0].ID})
	e.same("put a missing one", e.code(func(tx app.Tx) error { return tx.PutTicket(ticket(a, 1, app.TicketOpen)) }), app.ENotFound)
}

func testContact(e *env) {
	a, b := e.store("a"), e.store("b")
	var m []*app.ContactMessage
	e.update(func(tx app.Tx) error {
		for i, read := range []bool{false, true, false, true} {
			x := &app.ContactMessage{StoreID: a, Name: "n", Email: "e@example.com", Subject: fmt.Sprint(i), Message: "m",
				Metadata: map[string]string{}, IsRead: read, CreatedAt: t0, UpdatedAt: t0}
			if err := tx.CreateContactMessage(x); err != nil {
				return err
			}
			m = append(m, x)
		}
		return tx.CreateContactMessage(&app.ContactMessage{StoreID: b, Name: "n", Email: "e@example.com", CreatedAt: t0})
	})
	mid := func(x *app.ContactMessage) string { return fmt.Sprint(x.ID) }
	list := func(read *bool, unreadFirst bool) []string {
		return sorted(e, mid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.ContactMessage], error) {
			return tx.ContactMessages(a, read, unreadFirst, lp)
		})
	}
	yes, no := true, false
	e.same("all newest first", list(nil, false), ids(m[3].ID, m[2].ID, m[1].ID, m[0].ID))
	e.same("unread first", list(nil, true), ids(m[2].ID, m[0].ID, m[3].ID, m[1].ID))
	e.same("read", list(&yes, false), ids(m[3].ID, m[1].ID))
	e.same("unread", list(&no, false), ids(m[2].ID, m[0].ID))
	m[0].IsRead = true
	e.update(func(tx app.Tx) error { return tx.PutContactMessage(m[0]) })
	e.same("unread after marking", list(&no, false), ids(m[2].ID))
	e.view(func(tx app.Tx) error {
		x, err := tx.ContactMessage(a, m[0].ID)
		e.want(err, "")
		e.same("marked", x.IsRead, true)
		_, err = tx.ContactMessage(b, m[3].ID)
		e.want(err, app.ENotFound)
		return nil
	})
	e.same("put a missing one", e.code(func(tx app.Tx) error {
		return tx.PutContactMessage(&app.ContactMessage{StoreID: a, ID: 999})
	}), app.ENotFound)
}

func testOutbox(e *env) {
	a, b := e.store("a"), e.store("b")
	var m []*app.Mail
	e.update(func(tx app.Tx) error {
		for i := range 3 {
			x := &app.Mail{StoreID: a, To: "x@example.com", Subject: fmt.Sprint(i), Text: "t", CreatedAt: t0}
			if err := tx.AddOutbox(x); err != nil {
				return err
			}
			m = append(m, x)
		}
		return tx.AddOutbox(&app.Mail{StoreID: b, To: "y@example.com", CreatedAt: t0})
	})
	got := sorted(e, func(x *app.Mail) string { return x.Subject }, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Mail], error) {
		return tx.Outbox(a, lp)
	})
	e.same("newest first", got, []string{"2", "1", "0"})
}

func post(sid uint64, title, status string, published *time.Time) *app.BlogPost {
	return &app.BlogPost{StoreID: sid, Title: title, Slug: app.Slugify(title), Content: "c", Tags: []string{}, Status: status,
		PublishedAt: published, CreatedAt: t0, UpdatedAt: t0}
}

func testBlogPosts(e *env) {
	a, b := e.store("a"), e.store("b")
	at := func(h int) *time.Time { x := t0.Add(time.Duration(h) * time.Hour); return &x }
	p := []*app.BlogPost{
		post(a, "First", app.PostPublished, at(5)),
		post(a, "Draft", app.PostDraft, nil),
		post(a, "Second", app.PostPublished, at(1)),
		post(a, "Third", app.PostPublished, at(9)),
	}
	e.update(func(tx app.Tx) error {
		for _, x := range p {
			if err := tx.PutBlogPost(x); err != nil {
				return err
			}
		}
		return nil
	})
	e.same("taken slug", e.code(func(tx app.Tx) error { return tx.PutBlogPost(post(a, "First", app.PostDraft, nil)) }), app.EConflict)
	e.same("same slug, other store", e.code(func(tx app.Tx) error { return tx.PutBlogPost(post(b, "First", app.PostDraft, nil)) }), "")
	pid := func(x *app.BlogPost) string { return fmt.Sprint(x.ID) }
	all := func() []string {
		return sorted(e, pid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.BlogPost], error) { return tx.BlogPosts(a, lp) })
	}
	published := func() []string {
		return sorted(e, pid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.BlogPost], error) { return tx.PublishedPosts(a, lp) })
	}
	e.same("all by id, newest first", all(), ids(p[3].ID, p[2].ID, p[1].ID, p[0].ID))
	e.same("published, newest published_at first", published(), ids(p[3].ID, p[0].ID, p[2].ID))
	e.view(func(tx app.Tx) error {
		x, err := tx.BlogPostBySlug(a, "draft")
		e.want(err, "")
		e.same("draft by slug", x.ID, p[1].ID)
		_, err = tx.BlogPost(b, p[3].ID+100)
		e.want(err, app.ENotFound)
		_, err = tx.BlogPostBySlug(a, "nope")
		e.want(err, app.ENotFound)
		return nil
	})
	// Unpublishing leaves the published list; a new slug frees the old.
	p[3].Status, p[3].PublishedAt, p[3].Slug = app.PostDraft, nil, "third-draft"
	e.update(func(tx app.Tx) error { return tx.PutBlogPost(p[3]) })
	e.same("after unpublishing", published(), ids(p[0].ID, p[2].ID))
	e.same("old slug free", e.code(func(tx app.Tx) error { return tx.PutBlogPost(post(a, "Third", app.PostDraft, nil)) }), "")
	e.same("update a missing one", e.code(func(tx app.Tx) error {
		x := post(a, "Ghost", app.PostDraft, nil)
		x.ID = 999
		return tx.PutBlogPost(x)
	}), app.ENotFound)
	e.same("delete", e.code(func(tx app.Tx) error { return tx.DeleteBlogPost(a, p[0].ID) }), "")
	e.same("delete twice", e.code(func(tx app.Tx) error { return tx.DeleteBlogPost(a, p[0].ID) }), app.ENotFound)
	e.same("after delete", published(), ids(p[2].ID))
	e.same("deleted slug free", e.code(func(tx app.Tx) error { return tx.PutBlogPost(post(a, "First", app.PostDraft, nil)) }), "")
}

func testFlashDeals(e *env) {
	a, b := e.store("a"), e.store("b")
	h := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }
	mk := func(pid uint64, start, end int) *app.FlashDeal {
		return &app.FlashDeal{StoreID: a, Title: "d", ProductID: pid, DealPrice: 50, StartsAt: h(start), EndsAt: h(end), CreatedAt: t0, UpdatedAt: t0}
	}
	d := []*app.FlashDeal{mk(1, -1, 5), mk(2, -2, 2), mk(1, 1, 3), mk(3, -5, -1), mk(1, -1, 9)}
	e.update(func(tx app.Tx) error {
		for _, x := range d {
			if err := tx.PutFlashDeal(x); err != nil {
				return err
			}
		}
		return nil
	})
	did := func(x *app.FlashDeal) string { return fmt.Sprint(x.ID) }
	active := func(keep func(*app.FlashDeal) (bool, error)) []string {
		return sorted(e, did, func(tx app.Tx, lp app.ListParams) (app.Page[*app.FlashDeal], error) {
			return tx.ActiveFlashDeals(a, t0, lp, keep)
		})
	}
	all := func(*app.FlashDeal) (bool, error) { return true, nil }
	e.same("all by id, newest first", sorted(e, did, func(tx app.Tx, lp app.ListParams) (app.Page[*app.FlashDeal], error) {
		return tx.FlashDeals(a, lp)
	}), ids(d[4].ID, d[3].ID, d[2].ID, d[1].ID, d[0].ID))
	e.same("running now, soonest end first", active(all), ids(d[1].ID, d[0].ID, d[4].ID))
	e.same("kept", active(func(x *app.FlashDeal) (bool, error) { return x.ProductID == 1, nil }), ids(d[0].ID, d[4].ID))
	e.view(func(tx app.Tx) error {
		list, err := tx.ProductFlashDeals(a, 1)
		e.want(err, "")
		var got []string
		for _, x := range list {
			got = append(got, did(x))
		}
		e.same("a product's, any time", got, ids(d[0].ID, d[2].ID, d[4].ID))
		list, _ = tx.ProductFlashDeals(b, 1)
		e.same("other store", len(list), 0)
		_, err = tx.FlashDeal(b, d[0].ID)
		e.want(err, app.ENotFound)
		return nil
	})
	// Moving a deal's end and product moves it in both indexes.
	d[1].EndsAt, d[1].ProductID = h(20), 1
	e.update(func(tx app.Tx) error { return tx.PutFlashDeal(d[1]) })
	e.same("after a move", active(all), ids(d[0].ID, d[4].ID, d[1].ID))
	e.view(func(tx app.Tx) error {
		list, err := tx.ProductFlashDeals(a, 2)
		e.same("left product 2", len(list), 0)
		return err
	})
	e.same("update a missing one", e.code(func(tx app.Tx) error {
		x := mk(1, 0, 1)
		x.ID = 999
		return tx.PutFlashDeal(x)
	}), app.ENotFound)
	e.same("delete", e.code(func(tx app.Tx) error { return tx.DeleteFlashDeal(a, d[0].ID) }), "")
	e.same("delete twice", e.code(func(tx app.Tx) error { return tx.DeleteFlashDeal(a, d[0].ID) }), app.ENotFound)
	e.same("after delete", active(all), ids(d[4].ID, d[1].ID))
}

func bundle(sid uint64, name string, active bool) *app.Bundle {
	return &app.Bundle{StoreID: sid, Name: name, Slug: app.Slugify(name), Images: []string{},
		Items: []app.BundleItem{{ProductID: 1, Quantity: 1}}, Price: 100, IsActive: active, CreatedAt: t0, UpdatedAt: t0}
}

func testBundles(e *env) {
	a, b := e.store("a"), e.store("b")
	x := []*app.Bundle{bundle(a, "One", true), bundle(a, "Two", false), bundle(a, "Three", true), bundle(a, "Four", true)}
	e.update(func(tx app.Tx) error {
		for _, y := range x {
			if err := tx.PutBundle(y); err != nil {
				return err
			}
		}
		return nil
	})
	e.same("taken slug", e.code(func(tx app.Tx) error { return tx.PutBundle(bundle(a, "One", true)) }), app.EConflict)
	e.same("same slug, other store", e.code(func(tx app.Tx) error { return tx.PutBundle(bundle(b, "One", true)) }), "")
	bid := func(y *app.Bundle) string { return fmt.Sprint(y.ID) }
	active := func(keep func(*app.Bundle) (bool, error)) []string {
		return sorted(e, bid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Bundle], error) {
			return tx.ActiveBundles(a, lp, keep)
		})
	}
	all := func(*app.Bundle) (bool, error) { return true, nil }
	e.same("all newest first", sorted(e, bid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.Bundle], error) {
		return tx.Bundles(a, lp)
	}), ids(x[3].ID, x[2].ID, x[1].ID, x[0].ID))
	e.same("active newest first", active(all), ids(x[3].ID, x[2].ID, x[0].ID))
	e.same("kept", active(func(y *app.Bundle) (bool, error) { return y.Name != "Three", nil }), ids(x[3].ID, x[0].ID))
	x[0].IsActive, x[1].IsActive, x[1].Slug = false, true, "two-b"
	e.update(func(tx app.Tx) error {
		if err := tx.PutBundle(x[0]); err != nil {
			return err
		}
		return tx.PutBundle(x[1])
	})
	e.same("after toggling", active(all), ids(x[3].ID, x[2].ID, x[1].ID))
	e.same("old slug free", e.code(func(tx app.Tx) error { return tx.PutBundle(bundle(a, "Two", false)) }), "")
	e.view(func(tx app.Tx) error {
		y, err := tx.Bundle(a, x[1].ID)
		e.want(err, "")
		e.same("get", y.Slug, "two-b")
		_, err = tx.Bundle(b, x[1].ID+100)
		e.want(err, app.ENotFound)
		return nil
	})
	e.same("update a missing one", e.code(func(tx app.Tx) error {
		y := bundle(a, "Ghost", true)
		y.ID = 999
		return tx.PutBundle(y)
	}), app.ENotFound)
	e.same("delete", e.code(func(tx app.Tx) error { return tx.DeleteBundle(a, x[3].ID) }), "")
	e.same("delete twice", e.code(func(tx app.Tx) error { return tx.DeleteBundle(a, x[3].ID) }), app.ENotFound)
	e.same("after delete", active(all), ids(x[2].ID, x[1].ID))
}
