package admin_test

import (
	"fmt"
	"net/url"
	"testing"

	"storefront/testenv"
)

func TestPanelNotifications(t *testing.T) {
	e := testenv.New(t)
	a, _ := e.Store("Shop A")
	b, _ := e.Store("Shop B")
	page := fmt.Sprintf("/admin/stores/%d/notifications/", a)
	br := owner(t, e)
	t.Run("OK", func(t *testing.T) {
		br.get(page).expect(t, 200, "Allowed browser origins", "kind_low_stock")
		br.submit(page, page, url.Values{"allowed_origins": {"https://shop.example\nhttp://localhost:5173"},
			"notification_emails": {"owner@shop.example"}, "kind_order_paid": {"on"}}).redirectsTo(t, page)
		st, _ := e.Svc.Stores.Get(a)
		if fmt.Sprint(st.AllowedOrigins) != "[https://shop.example http://localhost:5173]" || fmt.Sprint(st.NotificationEmails) != "[owner@shop.example]" ||
			!st.Notifies("order_paid") || st.Notifies("low_stock") {
			t.Fatalf("got %+v", st)
		}
		br.get(page).expect(t, 200, "https://shop.example", "owner@shop.example")
	})
	t.Run("ErrBadOrigin", func(t *testing.T) {
		br.submit(page, page, url.Values{"allowed_origins": {"*"}}).expect(t, 400, "no wildcard")
	})
	t.Run("ErrWrongTenant", func(t *testing.T) {
		staff := newBrowser(t, e)
		e.Staff(b, "staff-b@example.com")
		staff.login("staff-b@example.com", "staff-password").redirectsTo(t, "/admin/")
		staff.get(page).expect(t, 404)
	})
	t.Run("ErrNoLogin", func(t *testing.T) {
		newBrowser(t, e).get(page).redirectsTo(t, "/admin/login/")
	})
}
