package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

func TestPanelNotifications(t *testing.T) {
	t.Parallel()
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
		// The panel names the line as a person counts it, not the API's 0-based path.
		pg := br.submit(page, page, url.Values{"allowed_origins": {"https://ok.example\nhttps://shop.example/app"}}).expect(t, 400, "Allowed origin 2")
		if strings.Contains(pg.Body, "allowed_origins[1]") {
			t.Fatalf("the page shows the 0-based path: %s", pg.Body)
		}
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

func TestPanelWebhooksAndMail(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	a, _ := e.Store("Shop A")
	b, _ := e.Store("Shop B")
	br := owner(t, e)
	hooks := fmt.Sprintf("/admin/stores/%d/webhooks/", a)
	t.Run("CreateShowsSecretOnce", func(t *testing.T) {
		p := br.submit(hooks, hooks, url.Values{"url": {"https://hooks.example/x"}, "event_order.paid": {"on"}})
		p.redirectsTo(t, hooks+"1/")
		br.get(p.Header.Get("Location")).expect(t, 200, "whsec_", "order.paid", "No deliveries yet.")
		if page := br.get(hooks + "1/"); strings.Contains(page.Body, "whsec_") {
			t.Fatal("secret shown twice")
		}
	})
	t.Run("ErrNoEvents", func(t *testing.T) {
		br.submit(hooks, hooks, url.Values{"url": {"https://hooks.example/x"}}).expect(t, 400, "name at least one event type")
	})
	t.Run("Disable", func(t *testing.T) {
		br.submit(hooks+"1/", hooks+"1/enabled/", url.Values{"enabled": {"false"}}).redirectsTo(t, hooks+"1/")
		br.get(hooks+"1/").expect(t, 200, "disabled by an admin")
	})
	t.Run("Edit", func(t *testing.T) {
		br.get(hooks+"1/").expect(t, 200, `name="url" value="https://hooks.example/x"`, `name="event_order.paid" checked`)
		br.submit(hooks+"1/", hooks+"1/", url.Values{"url": {"https://hooks.example/y"}, "event_order.created": {"on"}}).redirectsTo(t, hooks+"1/")
		br.get(hooks+"1/").expect(t, 200, "Endpoint saved.", "<code>https://hooks.example/y</code>", `name="event_order.created" checked`)
		br.submit(hooks+"1/", hooks+"1/", url.Values{"url": {"https://hooks.example/z"}}).expect(t, 400, "name at least one event type", `value="https://hooks.example/z"`)
		br.submit(hooks+"1/", hooks+"1/", url.Values{"url": {"not a url"}, "event_order.paid": {"on"}}).expect(t, 400)
	})
	t.Run("DeleteConfirmed", func(t *testing.T) {
		br.submit(hooks, hooks, url.Values{"url": {"https://hooks.example/del"}, "event_order.paid": {"on"}}).redirectsTo(t, hooks+"2/")
		br.submit(hooks+"2/", hooks+"2/delete/", url.Values{}).redirectsTo(t, hooks+"2/delete/")
		br.get(hooks+"2/delete/").expect(t, 200, "Delete the webhook endpoint https://hooks.example/del?", "cannot be undone")
		br.get(hooks+"2/").expect(t, 200) // still there
		br.submit(hooks+"2/delete/", hooks+"2/delete/", url.Values{"confirm": {"yes"}}).redirectsTo(t, hooks)
		br.get(hooks+"2/").expect(t, 404)
	})
	t.Run("OutboxRetry", func(t *testing.T) {
		e.Svc.SendMail(app.Mail{StoreID: a, To: "x@example.com", Subject: "Hi", Text: "Hi"})
		out := fmt.Sprintf("/admin/stores/%d/outbox/", a)
		br.get(out).expect(t, 200, "queued", "Retry now")
		br.submit(out, out+"1/retry/", url.Values{}).redirectsTo(t, out)
	})
	t.Run("Templates", func(t *testing.T) {
		list := fmt.Sprintf("/admin/stores/%d/mail-templates/", a)
		br.get(list).expect(t, 200, "order_confirmation", "owner_low_stock")
		one := list + "order_confirmation/"
		pg := br.get(one).expect(t, 200, "srcdoc=", "Blue mug", "Send me a test")
		// The sandboxed preview takes the page's policy: inline styles
		// allowed there (a mail is styled inline), on no other page.
		if csp := pg.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "style-src 'self' 'unsafe-inline'") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("mail template page CSP %q: want the panel's with inline styles", csp)
		}
		if csp := br.get(list).Header.Get("Content-Security-Policy"); strings.Contains(csp, "unsafe-inline") {
			t.Errorf("mail templates list CSP %q: inline styles allowed", csp)
		}
		br.submit(one, one, url.Values{"subject": {"Hooray {{.Order.ID}}"}, "html": {"<p>x</p>"}, "text": {"x"}, "preview": {"1"}}).expect(t, 200, "Hooray 1042")
		br.submit(one, one, url.Values{"subject": {"x"}, "html": {"<script>x</script>"}, "text": {"x"}}).expect(t, 400, "must not contain scripts")
		br.submit(one, one, url.Values{"subject": {"Hooray {{.Order.ID}}"}, "html": {"<p>x</p>"}, "text": {"x"}}).redirectsTo(t, one)
		br.get(list).expect(t, 200, "overridden")
		br.submit(one, one+"test/", url.Values{}).redirectsTo(t, fmt.Sprintf("/admin/stores/%d/outbox/", a))
		br.submit(one, one+"reset/", url.Values{}).redirectsTo(t, one)
	})
	t.Run("ErrWrongTenant", func(t *testing.T) {
		staff := newBrowser(t, e)
		e.Staff(b, "staff-b2@example.com")
		staff.login("staff-b2@example.com", "staff-password").redirectsTo(t, "/admin/")
		staff.get(hooks).expect(t, 404)
		staff.get(fmt.Sprintf("/admin/stores/%d/mail-templates/", a)).expect(t, 404)
	})
}
