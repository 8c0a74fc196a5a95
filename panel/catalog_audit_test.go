package panel_test

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestCatalogActionsAudited: the CSV import, the coupon, settings and reply
// forms land in the audit log (recorded by the API and panel middleware).
func TestCatalogActionsAudited(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	m, _ := e.Svc.Contact.Submit(sid, app.ContactInput{Name: "Ann", Email: "ann@example.com", Message: "Hi"})
	importCSV(e, e.OwnerToken, sid, "name,price\nCup,1\n").Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: fmt.Sprintf("/api/v1/admin/stores/%d/contact-messages/%d/reply/", sid, m.ID), Token: e.OwnerToken,
		Body: map[string]any{"message": "Hello"}}).Expect(t, 201, "")
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/", sid)
	b.submit(base+"coupons/new/", base+"coupons/", url.Values{"code": {"X1"}, "type": {"fixed"}, "value": {"1"}, "is_active": {"on"}}).redirectsTo(t, base+"coupons/")
	b.submit(base+"settings/theme/", base+"settings/theme/", url.Values{"theme_color": {"#000000"}}).redirectsTo(t, base+"settings/theme/")
	b.submit(base+"messages/", fmt.Sprintf("%smessages/%d/reply/", base, m.ID), url.Values{"message": {"Again"}}).redirectsTo(t, base+"messages/")
	page, err := e.Svc.Audit.List(app.AuditFilter{StoreID: sid}, app.ListParams{Sort: app.SortNewest, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range page.Items {
		got = append(got, x.Via+" "+x.Action+" "+x.Object)
	}
	sort.Strings(got)
	all := strings.Join(got, "\n")
	for _, want := range []string{"api products.import", "api contact-messages.reply contact-messages/" + fmt.Sprint(m.ID),
		"panel coupons.create", "panel settings.update settings/theme", "panel messages.reply messages/" + fmt.Sprint(m.ID)} {
		if !strings.Contains(all, want) {
			t.Errorf("audit log lacks %q:\n%s", want, all)
		}
	}
}
