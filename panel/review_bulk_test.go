package panel_test

import (
	"fmt"
	"net/url"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

func TestPanelReviewsBulk(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	cid, _ := e.Shopper(sid, "ann@example.com")
	cidB, _ := e.Shopper(sidB, "bob@example.com")
	mk := func(store, cust uint64, title string) *app.Review {
		r := &app.Review{StoreID: store, ProductID: e.Product(store, 0, title, 100, 1).ID, CustomerID: cust, CustomerName: "Ann L.", Rating: 4,
			Title: title, Status: app.ReviewPending, CreatedAt: e.Now(), UpdatedAt: e.Now()}
		if err := e.DB.Update(func(tx app.Tx) error { return tx.CreateReview(r) }); err != nil {
			t.Fatal(err)
		}
		return r
	}
	r1, r2, r3 := mk(sid, cid, "First"), mk(sid, cid, "Second"), mk(sid, cid, "Third")
	other := mk(sidB, cidB, "Other store")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/reviews/", sid)
	ids := func(rs ...*app.Review) []string {
		var out []string
		for _, r := range rs {
			out = append(out, fmt.Sprint(r.ID))
		}
		return out
	}
	status := func(store, id uint64) string {
		var st string
		e.DB.View(func(tx app.Tx) error {
			r, err := tx.Review(store, id)
			if err == nil {
				st = r.Status
			}
			return err
		})
		return st
	}
	b.get(base).expect(t, 200, "Approve selected", `form="bulk-reviews"`)
	t.Run("Approve", func(t *testing.T) {
		b.submit(base, base+"bulk/", url.Values{"action": {"approve"}, "ids": ids(r1, r2), "status": {"PENDING"}}).redirectsTo(t, base)
		b.get(base).expect(t, 200, "2 reviews approved", "Third")
		if status(sid, r1.ID) != app.ReviewApproved || status(sid, r2.ID) != app.ReviewApproved || status(sid, r3.ID) != app.ReviewPending {
			t.Fatal("wrong reviews approved")
		}
	})
	t.Run("RejectMissingNotFound", func(t *testing.T) {
		// ids are per store: 999 names no review of this store
		b.submit(base, base+"bulk/", url.Values{"action": {"reject"}, "ids": append(ids(r3), "999")}).redirectsTo(t, base)
		b.get(base).expect(t, 200, "1 reviews rejected", "1 were not found")
		if status(sid, r3.ID) != app.ReviewRejected || status(sidB, other.ID) != app.ReviewPending {
			t.Fatal("a review of the other store was moderated")
		}
	})
	t.Run("ErrNoneSelected", func(t *testing.T) {
		b.submit(base, base+"bulk/", url.Values{"action": {"approve"}}).redirectsTo(t, base)
		b.get(base).expect(t, 200, "Select at least one review.")
	})
	t.Run("ErrBadAction", func(t *testing.T) {
		b.submit(base, base+"bulk/", url.Values{"action": {"delete"}, "ids": ids(r1)}).expect(t, 400)
	})
	t.Run("ErrBadID", func(t *testing.T) {
		b.submit(base, base+"bulk/", url.Values{"action": {"approve"}, "ids": {"x"}}).expect(t, 400)
	})
	t.Run("ErrNoCSRF", func(t *testing.T) {
		b.do("POST", base+"bulk/", url.Values{"action": {"approve"}, "ids": ids(r3)}).expect(t, 403)
	})
	t.Run("ErrOtherStore", func(t *testing.T) {
		bb := fmt.Sprintf("/admin/stores/%d/reviews/", sidB)
		staff := newBrowser(t, e)
		e.Svc.Admins.Create(app.NewAdmin{Email: "a@example.com", Password: "staff-password", Role: app.RoleStaff, StoreID: sid})
		staff.login("a@example.com", "staff-password")
		staff.submit(base, bb+"bulk/", url.Values{"action": {"approve"}, "ids": ids(other)}).expect(t, 404)
		if status(sidB, other.ID) != app.ReviewPending {
			t.Fatal("another store's staff moderated its review")
		}
	})
}
