package panel_test

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// staffBrowser logs in a new staff user of store sid.
func staffBrowser(t *testing.T, e *testenv.Env, sid uint64) *browser {
	t.Helper()
	email := fmt.Sprintf("panel-staff%d@example.com", sid)
	if _, err := e.Svc.Admins.Create(app.NewAdmin{Email: email, Password: "staff-password", Role: app.RoleStaff, StoreID: sid}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e)
	b.login(email, "staff-password").redirectsTo(t, "/admin/")
	return b
}

// expectForeign checks that the staff browser s (of another store) gets the
// 404 page for every GET and POST, with a valid CSRF token of its own.
func expectForeign(t *testing.T, s *browser, gets, posts []string, form url.Values) {
	t.Helper()
	token := s.csrf("/admin/")
	for _, path := range gets {
		s.get(path).expect(t, 404, "Not found")
	}
	for _, path := range posts {
		f := url.Values{"csrf": {token}}
		for k, v := range form {
			f[k] = v
		}
		s.do("POST", path, f).expect(t, 404)
	}
}

func TestPanelRequests(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	cid, _ := e.Shopper(sid, "ann@example.com")
	pr := e.Product(sid, 0, "Blue Mug", 1250, 10)
	sh := app.Shopper{StoreID: sid, CustomerID: cid}
	oCancel := e.PlaceOrder(sid, cid, app.OrderConfirmed, app.PaymentUnpaid, testenv.Line{Product: pr, Qty: 2})
	oReject := e.PlaceOrder(sid, cid, app.OrderPending, app.PaymentUnpaid, testenv.Line{Product: pr, Qty: 1})
	oRefund := e.PlaceOrder(sid, cid, app.OrderDelivered, app.PaymentPaid, testenv.Line{Product: pr, Qty: 4})
	cOK, err := e.Svc.Requests.RequestCancellation(sh, app.CancellationInput{OrderID: oCancel.ID, Reason: "Ordered <twice>"})
	if err != nil {
		t.Fatal(err)
	}
	cNo, err := e.Svc.Requests.RequestCancellation(sh, app.CancellationInput{OrderID: oReject.ID, Reason: "Changed my mind"})
	if err != nil {
		t.Fatal(err)
	}
	amount := app.Money(1250)
	rf, err := e.Svc.Requests.RequestRefund(sh, app.RefundInput{OrderID: oRefund.ID, Reason: "One arrived broken", Amount: &amount,
		ProofFiles: []string{"https://img.example/broken.jpg"}})
	if err != nil {
		t.Fatal(err)
	}
	b := owner(t, e)
	cancels := fmt.Sprintf("/admin/stores/%d/cancellations/", sid)
	refunds := fmt.Sprintf("/admin/stores/%d/refunds/", sid)
	okPath := fmt.Sprintf("%s%d/", cancels, cOK.ID)
	noPath := fmt.Sprintf("%s%d/", cancels, cNo.ID)
	rfPath := fmt.Sprintf("%s%d/", refunds, rf.ID)

	t.Run("List", func(t *testing.T) {
		p := b.get(cancels).expect(t, 200, "Cancellation requests", "Ordered &lt;twice&gt;", "Changed my mind", fmt.Sprintf("#%d", oCancel.ID))
		if strings.Contains(p.Body, "One arrived broken") {
			t.Fatalf("a refund request is listed with the cancellations")
		}
		b.get(cancels+"?status=APPROVED").expect(t, 200, "No approved cancellation requests.")
		b.get(cancels+"?status=all").expect(t, 200, "Ordered &lt;twice&gt;")
		b.get(cancels+"?status=BOGUS").expect(t, 400, "status: must be one of PENDING, APPROVED, REJECTED or all")
		b.get(refunds).expect(t, 200, "One arrived broken", "12.50 USD")
	})
	t.Run("ErrNoCSRF", func(t *testing.T) {
		b.do("POST", okPath+"approve/", url.Values{"admin_note": {"x"}}).expect(t, 403, "Forbidden")
		if r, _ := e.Svc.Requests.Get(sid, app.KindCancellation, cOK.ID); r.Status != app.RequestPending {
			t.Fatalf("got %s, want PENDING", r.Status)
		}
	})
	t.Run("ApproveCancellation", func(t *testing.T) {
		b.get(okPath).expect(t, 200, "Blue Mug", "ann@example.com", "CONFIRMED", "25.00 USD", "Approve", "Reject")
		b.submit(okPath, okPath+"approve/", url.Values{"admin_note": {"Done, sorry for the trouble."}}).redirectsTo(t, okPath)
		r, _ := e.Svc.Requests.Get(sid, app.KindCancellation, cOK.ID)
		if r.Status != app.RequestApproved || r.AdminNote != "Done, sorry for the trouble." || r.ReviewedBy == 0 {
			t.Fatalf("got %+v", r)
		}
		if o := e.Order(sid, oCancel.ID); o.Status != app.OrderCancelled {
			t.Fatalf("got order %s, want CANCELLED", o.Status)
		}
		p := b.get(okPath).expect(t, 200, "approved. The customer was told by email.", "APPROVED", "Done, sorry for the trouble.", "owner@example.com")
		if strings.Contains(p.Body, "/approve/") {
			t.Fatalf("a decided request still has the decision forms")
		}
		// a double submit of Approve ends on the request as approved; the
		// other decision now is a conflict shown on the page
		b.submit(cancels, okPath+"approve/", url.Values{}).expect(t, 303)
		b.submit(cancels, okPath+"reject/", url.Values{}).expect(t, 409, "already approved")
		b.get(cancels+"?status=APPROVED").expect(t, 200, "Ordered &lt;twice&gt;")
		b.get(fmt.Sprintf("/admin/stores/%d/orders/%d/", sid, oCancel.ID)).expect(t, 200, fmt.Sprintf("Cancellation #%d", cOK.ID), "CANCELLED", "no move to make by hand")
	})
	t.Run("RejectCancellation", func(t *testing.T) {
		p := b.submit(noPath, noPath+"reject/", url.Values{"admin_note": {strings.Repeat("x", 1001)}}).expect(t, 400, "admin_note")
		if !strings.Contains(p.Body, strings.Repeat("x", 1001)) {
			t.Fatalf("the form lost the note")
		}
		b.submit(noPath, noPath+"reject/", url.Values{"admin_note": {"Already shipped."}}).redirectsTo(t, noPath)
		if r, _ := e.Svc.Requests.Get(sid, app.KindCancellation, cNo.ID); r.Status != app.RequestRejected || r.AdminNote != "Already shipped." {
			t.Fatalf("got %+v", r)
		}
		if o := e.Order(sid, oReject.ID); o.Status != app.OrderPending {
			t.Fatalf("got order %s, want PENDING", o.Status)
		}
		b.get(cancels+"?status=REJECTED").expect(t, 200, "Changed my mind")
		if strings.Contains(b.get(cancels).Body, "Changed my mind") {
			t.Fatalf("a rejected request is still in the pending list")
		}
	})
	t.Run("ApproveRefund", func(t *testing.T) {
		b.get(rfPath).expect(t, 200, "One arrived broken", "12.50 USD", "https://img.example/broken.jpg", "STORE_CREDIT", "BANK_TRANSFER", "CASH")
		b.submit(rfPath, rfPath+"approve/", url.Values{"refund_method": {"BITCOIN"}}).expect(t, 400, "refund_method")
		b.submit(rfPath, rfPath+"approve/", url.Values{"refund_method": {"STORE_CREDIT"}, "admin_note": {"Credit added."}}).redirectsTo(t, rfPath)
		r, _ := e.Svc.Requests.Get(sid, app.KindRefund, rf.ID)
		if r.Status != app.RequestApproved || r.RefundMethod != app.RefundStoreCredit {
			t.Fatalf("got %+v", r)
		}
		if o := e.Order(sid, oRefund.ID); o.PaymentStatus != app.PaymentPartiallyRefunded || o.RefundedAmount != 1250 {
			t.Fatalf("got %s %s, want PARTIALLY_REFUNDED 12.50", o.PaymentStatus, o.RefundedAmount)
		}
		b.get(rfPath).expect(t, 200, "STORE_CREDIT", "Credit added.")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		b.get(cancels+"999/").expect(t, 404)
		b.get(fmt.Sprintf("%s%d/", refunds, cNo.ID+100)).expect(t, 404)
		b.get(fmt.Sprintf("/admin/stores/%d/cancellations/%d/", sidB, cOK.ID)).expect(t, 404)
	})
	t.Run("StaffScope", func(t *testing.T) {
		staffA := staffBrowser(t, e, sid)
		staffA.get(cancels+"?status=all").expect(t, 200, "Ordered &lt;twice&gt;")
		staffA.get(rfPath).expect(t, 200, "One arrived broken")
		pending, err := e.Svc.Requests.RequestCancellation(sh, app.CancellationInput{OrderID: oReject.ID, Reason: "Please"})
		if err != nil {
			t.Fatal(err)
		}
		path := fmt.Sprintf("%s%d/", cancels, pending.ID)
		expectForeign(t, staffBrowser(t, e, sidB), []string{cancels, refunds, path, rfPath},
			[]string{path + "approve/", path + "reject/"}, url.Values{"admin_note": {"x"}})
		if r, _ := e.Svc.Requests.Get(sid, app.KindCancellation, pending.ID); r.Status != app.RequestPending {
			t.Fatalf("staff of B decided A's request: %s", r.Status)
		}
		staffA.submit(path, path+"approve/", url.Values{}).redirectsTo(t, path)
	})
}

func TestPanelReviews(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	cid, _ := e.Shopper(sid, "ann@example.com")
	pr := e.Product(sid, 0, "Blue Mug", 1250, 10)
	mk := func(productID uint64, rating int, title string) *app.Review {
		r := &app.Review{StoreID: sid, ProductID: productID, CustomerID: cid, CustomerName: "Ann L.", Rating: rating,
			Title: title, Content: "Some <words>.", Status: app.ReviewPending, CreatedAt: e.Now(), UpdatedAt: e.Now()}
		if err := e.DB.Update(func(tx app.Tx) error { return tx.CreateReview(r) }); err != nil {
			t.Fatal(err)
		}
		return r
	}
	good := mk(pr.ID, 5, "Lovely mug")
	bad := mk(0, 1, "Slow shop")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/reviews/", sid)

	b.get(base).expect(t, 200, "Lovely mug", "Slow shop", "Blue Mug", "the store", "Some &lt;words&gt;.")
	b.get(base+"?status=APPROVED").expect(t, 200, "No approved reviews.")
	b.get(base+"?status=nope").expect(t, 400)

	t.Run("ErrNoCSRF", func(t *testing.T) {
		b.do("POST", fmt.Sprintf("%s%d/approve/", base, good.ID), url.Values{}).expect(t, 403)
	})
	t.Run("Approve", func(t *testing.T) {
		b.submit(base, fmt.Sprintf("%s%d/approve/", base, good.ID), url.Values{"status": {"PENDING"}}).redirectsTo(t, base)
		got, _ := e.Svc.Catalog.Product(sid, pr.ID)
		if got.ReviewCount != 1 {
			t.Fatalf("got %d reviews on the product, want 1", got.ReviewCount)
		}
		p := b.get(base).expect(t, 200, fmt.Sprintf("Review #%d approved", good.ID), "Slow shop")
		if strings.Contains(p.Body, "Lovely mug") {
			t.Fatalf("an approved review is still pending")
		}
		b.get(base+"?status=APPROVED").expect(t, 200, "Lovely mug")
	})
	t.Run("RejectBackToAll", func(t *testing.T) {
		b.submit(base+"?status=all", fmt.Sprintf("%s%d/reject/", base, bad.ID), url.Values{"status": {"all"}}).redirectsTo(t, base+"?status=all")
		b.get(base+"?status=REJECTED").expect(t, 200, "Slow shop")
		// an unknown list to go back to is the default list, never elsewhere
		b.submit(base, fmt.Sprintf("%s%d/reject/", base, good.ID), url.Values{"status": {"//evil.example"}}).redirectsTo(t, base)
		if got, _ := e.Svc.Catalog.Product(sid, pr.ID); got.ReviewCount != 0 {
			t.Fatalf("got %d reviews on the product, want 0", got.ReviewCount)
		}
		b.submit(base, base+"999/approve/", url.Values{}).expect(t, 404)
	})
	t.Run("PagingKeepsFilter", func(t *testing.T) {
		for i := 0; i < 30; i++ {
			mk(e.Product(sid, 0, fmt.Sprintf("Bulk %02d", i), 100, 1).ID, 4, fmt.Sprintf("Bulk review %02d", i))
		}
		p := b.get(base+"?status=all").expect(t, 200, "Bulk review 29", "Next page")
		m := regexp.MustCompile(`href="([^"]*status=all&amp;cursor=[^"]+)"`).FindStringSubmatch(p.Body)
		if m == nil {
			t.Fatalf("no next link with the filter: %s", p.Body)
		}
		p2 := b.get(strings.ReplaceAll(m[1], "&amp;", "&")).expect(t, 200, "Bulk review 00", "Lovely mug", "Slow shop", "First page")
		if strings.Contains(p2.Body, "Bulk review 29") {
			t.Fatalf("the second page repeats the first")
		}
		// a cursor of another filter is refused
		b.get(strings.ReplaceAll(strings.Replace(m[1], "status=all", "status=PENDING", 1), "&amp;", "&")).expect(t, 400)
	})
	t.Run("StaffScope", func(t *testing.T) {
		staffBrowser(t, e, sid).get(base+"?status=REJECTED").expect(t, 200, "Lovely mug")
		expectForeign(t, staffBrowser(t, e, sidB), []string{base},
			[]string{fmt.Sprintf("%s%d/approve/", base, bad.ID), fmt.Sprintf("%s%d/reject/", base, good.ID)}, nil)
		var r *app.Review
		_ = e.DB.View(func(tx app.Tx) (err error) { r, err = tx.Review(sid, bad.ID); return err })
		if r.Status != app.ReviewRejected {
			t.Fatalf("staff of B moderated A's review: %s", r.Status)
		}
	})
}

func TestPanelTickets(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	cid, _ := e.Shopper(sid, "ann@example.com")
	tk, err := e.Svc.Tickets.Create(app.Shopper{StoreID: sid, CustomerID: cid}, app.TicketInput{Subject: "Where is my parcel?", Description: "It has been <two> weeks."})
	if err != nil {
		t.Fatal(err)
	}
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/tickets/", sid)
	path := base + tk.ID + "/"

	b.get(base).expect(t, 200, "TKT-000001", "Where is my parcel?", "OPEN")
	b.get(base+"?status=OPEN").expect(t, 200, "TKT-000001")
	if strings.Contains(b.get(base+"?status=CLOSED").Body, "TKT-000001") {
		t.Fatalf("an open ticket is listed as closed")
	}
	b.get(path).expect(t, 200, "It has been &lt;two&gt; weeks.", "ann@example.com", "Send reply")

	t.Run("ErrNoCSRF", func(t *testing.T) {
		b.do("POST", path+"reply/", url.Values{"message": {"hi"}}).expect(t, 403)
		b.do("POST", path, url.Values{"status": {"CLOSED"}, "priority": {"LOW"}}).expect(t, 403)
	})
	t.Run("Reply", func(t *testing.T) {
		b.submit(path, path+"reply/", url.Values{"message": {"  "}}).expect(t, 400, "message")
		b.submit(path, path+"reply/", url.Values{"message": {"It left our warehouse today."}}).redirectsTo(t, path)
		got, _ := e.Svc.Tickets.Get(sid, tk.ID)
		if len(got.Messages) != 2 || got.Messages[1].Sender != app.SenderStaff || got.Status != app.TicketInProgress {
			t.Fatalf("got %+v", got)
		}
		b.get(path).expect(t, 200, "Reply sent to the customer.", "It left our warehouse today.", "IN_PROGRESS")
		b.get(fmt.Sprintf("/admin/stores/%d/outbox/", sid)).expect(t, 200, "Reply to your ticket TKT-000001")
	})
	t.Run("StatusAndPriority", func(t *testing.T) {
		p := b.submit(path, path, url.Values{"status": {"DONE"}, "priority": {"URGENT"}}).expect(t, 400, "status")
		if !strings.Contains(p.Body, `value="URGENT" selected`) {
			t.Fatalf("the form lost the priority chosen")
		}
		b.submit(path, path, url.Values{"status": {"CLOSED"}, "priority": {"URGENT"}}).redirectsTo(t, path)
		got, _ := e.Svc.Tickets.Get(sid, tk.ID)
		if got.Status != app.TicketClosed || got.Priority != app.PriorityUrgent {
			t.Fatalf("got %s %s, want CLOSED URGENT", got.Status, got.Priority)
		}
		p = b.get(path).expect(t, 200, "is now CLOSED, priority URGENT", "reopen it")
		if strings.Contains(p.Body, "Send reply") {
			t.Fatalf("a closed ticket offers the reply form")
		}
		b.submit(path, path+"reply/", url.Values{"message": {"More."}}).expect(t, 409)
		b.get(base+"?status=CLOSED").expect(t, 200, "TKT-000001")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		b.get(base+"not-a-uuid/").expect(t, 404)
		b.get(base+app.NewUUID()+"/").expect(t, 404)
		b.get(base+"?status=nope").expect(t, 400)
	})
	t.Run("StaffScope", func(t *testing.T) {
		staffBrowser(t, e, sid).get(path).expect(t, 200, "Where is my parcel?")
		expectForeign(t, staffBrowser(t, e, sidB), []string{base, path, fmt.Sprintf("/admin/stores/%d/tickets/%s/", sidB, tk.ID)},
			[]string{path, path + "reply/"}, url.Values{"message": {"hi"}, "status": {"OPEN"}, "priority": {"LOW"}})
		if got, _ := e.Svc.Tickets.Get(sid, tk.ID); got.Status != app.TicketClosed || len(got.Messages) != 2 {
			t.Fatalf("staff of B changed A's ticket: %+v", got)
		}
	})
}

func TestPanelMessages(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	var ids []uint64
	for _, subj := range []string{"First question", "Second question"} {
		m, err := e.Svc.Contact.Submit(sid, app.ContactInput{Name: "Bob", Email: "bob@example.com", Subject: subj, Message: "Do you ship <abroad>?"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
		e.Advance(1)
	}
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/messages/", sid)
	read := func(id uint64) bool {
		page, _ := e.Svc.Contact.List(sid, nil, false, app.ListParams{Sort: app.SortNewest, Limit: 10})
		for _, m := range page.Items {
			if m.ID == id {
				return m.IsRead
			}
		}
		t.Fatalf("message %d is gone", id)
		return false
	}
	p := b.get(base).expect(t, 200, "First question", "Second question", "bob@example.com", "Do you ship &lt;abroad&gt;?", "Mark read")
	if strings.Index(p.Body, "Second question") > strings.Index(p.Body, "First question") {
		t.Fatalf("not newest first")
	}
	b.do("POST", fmt.Sprintf("%s%d/read/", base, ids[1]), url.Values{"read": {"true"}}).expect(t, 403)
	if read(ids[1]) {
		t.Fatal("marked read without a CSRF token")
	}
	b.submit(base, fmt.Sprintf("%s%d/read/", base, ids[1]), url.Values{"read": {"true"}}).redirectsTo(t, base)
	if !read(ids[1]) {
		t.Fatal("not marked read")
	}
	p = b.get(base).expect(t, 200, fmt.Sprintf("Message #%d marked read.", ids[1]), "Mark unread")
	if strings.Index(p.Body, "Second question") < strings.Index(p.Body, "First question") {
		t.Fatalf("the read message is not after the unread one")
	}
	b.submit(base, fmt.Sprintf("%s%d/read/", base, ids[1]), url.Values{"read": {"false"}}).redirectsTo(t, base)
	if read(ids[1]) {
		t.Fatal("not marked unread")
	}
	b.submit(base, fmt.Sprintf("%s%d/read/", base, ids[1]), url.Values{"read": {"maybe"}}).expect(t, 400)
	b.submit(base, base+"999/read/", url.Values{"read": {"true"}}).expect(t, 404)

	staffBrowser(t, e, sid).get(base).expect(t, 200, "First question")
	expectForeign(t, staffBrowser(t, e, sidB), []string{base}, []string{fmt.Sprintf("%s%d/read/", base, ids[0])}, url.Values{"read": {"true"}})
	if read(ids[0]) {
		t.Fatal("staff of B marked A's message read")
	}
}

func TestPanelCustomers(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	ann, _ := e.Shopper(sid, "ann@example.com")
	e.Shopper(sid, "bob@example.com")
	other, _ := e.Shopper(sidB, "carol@example.com")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/customers/", sid)
	p := b.get(base).expect(t, 200, "ann@example.com", "bob@example.com", "5550100")
	if strings.Contains(p.Body, "carol@example.com") {
		t.Fatalf("store B's customer is listed in A")
	}
	path := fmt.Sprintf("%s%d/", base, ann)
	p = b.get(path).expect(t, 200, "ann@example.com", "Test Shopper", "not verified", "Read-only")
	// (the top bar links to the admin's own password page: look for the hash itself)
	if strings.Contains(p.Body, "password_hash") || strings.Contains(p.Body, "$2") {
		t.Fatalf("the profile page shows the password hash")
	}
	if strings.Contains(p.Body, `method="post" action="`+path) {
		t.Fatalf("the customer page has an edit form")
	}
	b.get(fmt.Sprintf("%s%d/", base, other+100)).expect(t, 404)
	b.get(base+"?cursor=bogus").expect(t, 400)
	staffBrowser(t, e, sid).get(path).expect(t, 200, "ann@example.com")
	expectForeign(t, staffBrowser(t, e, sidB), []string{base, path}, nil, nil)
}
