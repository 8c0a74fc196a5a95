package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

func TestPanelCoupons(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/coupons/", sid)
	b.get(base).expect(t, 200, "No coupons yet.", "New coupon")
	b.get(base+"new/").expect(t, 200, `name="code"`, `name="max_uses"`)

	// A bad value is shown on the form, with what was typed; nothing is made.
	form := url.Values{"code": {"save10<b>"}, "type": {"percent"}, "value": {"ten"}, "max_uses": {"5"}, "is_active": {"on"}}
	b.submit(base+"new/", base, form).expect(t, 400, "must be a number", `value="save10&lt;b&gt;"`)
	if list, _ := e.Svc.Coupons.List(sid); len(list) != 0 {
		t.Fatalf("a refused form made a coupon: %+v", list)
	}
	form.Set("value", "10")
	form.Set("code", "save10")
	form.Set("ends_at", "2026-12-31T23:00")
	b.submit(base+"new/", base, form).redirectsTo(t, base)
	list, _ := e.Svc.Coupons.List(sid)
	if len(list) != 1 || list[0].Code != "SAVE10" || list[0].Value != 1000 || list[0].MaxUses != 5 || list[0].EndsAt == nil || !list[0].IsActive {
		t.Fatalf("created: %+v", list)
	}
	cp := list[0]
	// Two uses so far (orders placed with it).
	cp.Uses = 2
	if err := e.DB.Update(func(tx app.Tx) error { return tx.PutCoupon(cp) }); err != nil {
		t.Fatal(err)
	}
	b.get(base).expect(t, 200, "Coupon SAVE10 created.", "<code>SAVE10</code>", "2 / 5", "10.00 %", "until 2026-12-31 23:00 UTC", "badge ok")

	// A duplicate code is refused on the form.
	dup := url.Values{"code": {"Save10"}, "type": {"fixed"}, "value": {"3"}}
	b.submit(base+"new/", base, dup).expect(t, 409, "Save10")

	// Edit: unlimited uses, a fixed amount, no end.
	page := fmt.Sprintf("%s%d/", base, cp.ID)
	b.get(page).expect(t, 200, `value="SAVE10"`, `value="5"`, "used 2 times of 5")
	edit := url.Values{"code": {"SAVE10"}, "type": {"fixed"}, "value": {"3.50"}, "max_uses": {""}, "ends_at": {""}, "is_active": {"on"}}
	b.submit(page, page, edit).redirectsTo(t, base)
	got, _ := e.Svc.Coupons.Get(sid, cp.ID)
	if got.Type != "fixed" || got.Value != 350 || got.MaxUses != 0 || got.EndsAt != nil || got.Uses != 2 {
		t.Fatalf("edited: %+v", got)
	}
	b.get(base).expect(t, 200, "2 / ∞", "3.50 USD")

	// Deactivate from the list, then activate again.
	b.submit(base, page+"active/", url.Values{"active": {"no"}}).redirectsTo(t, base)
	if got, _ := e.Svc.Coupons.Get(sid, cp.ID); got.IsActive {
		t.Fatal("still active after Deactivate")
	}
	b.get(base).expect(t, 200, "deactivated", "badge off\">inactive", ">Activate<")
	b.submit(base, page+"active/", url.Values{"active": {"yes"}}).redirectsTo(t, base)
	if got, _ := e.Svc.Coupons.Get(sid, cp.ID); !got.IsActive {
		t.Fatal("not active after Activate")
	}

	// Another store's staff sees the 404 page; no token is 403.
	staff := newBrowser(t, e)
	e.Svc.Admins.Create(app.NewAdmin{Email: "b@example.com", Password: "staff-password", Role: app.RoleStaff, StoreID: sidB})
	staff.login("b@example.com", "staff-password")
	staff.get(base).expect(t, 404)
	staff.get(page).expect(t, 404)
	b.do("POST", page+"delete/", url.Values{"confirm": {"yes"}}).expect(t, 403)
	b.get(fmt.Sprintf("%s%d/", base, cp.ID+100)).expect(t, 404)

	// Delete needs the box ticked.
	b.submit(page, page+"delete/", url.Values{}).expect(t, 400, "tick the box")
	b.submit(page, page+"delete/", url.Values{"confirm": {"yes"}}).redirectsTo(t, base)
	if list, _ := e.Svc.Coupons.List(sid); len(list) != 0 {
		t.Fatalf("after delete: %+v", list)
	}
	if p := b.get(base); !strings.Contains(p.Body, "Coupon SAVE10 deleted.") {
		t.Fatalf("flash: %s", p.Body)
	}
}
