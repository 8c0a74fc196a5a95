package panel

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// registerNotifyRoutes mounts the panel pages of issue 10: notification and
// CORS settings, mail templates, webhooks. st is the store path prefix.
func (p *panel) registerNotifyRoutes(r fiber.Router, st string) {
	r.Get(st+"/notifications", p.store(p.notificationsPage))
	r.Post(st+"/notifications", p.store(p.saveNotifications))
	p.registerMailRoutes(r, st)
	p.registerWebhookRoutes(r, st)
}

type notifyKind struct {
	Kind, Label string
	On          bool
}

type notificationsData struct {
	Origins string // one per line
	Emails  string // one per line
	Kinds   []notifyKind
}

var notifyLabels = map[string]string{
	app.NotifyOrderPaid:             "An order is paid",
	app.NotifyCancellationRequested: "A shopper asks to cancel an order",
	app.NotifyRefundRequested:       "A shopper asks for a refund",
	app.NotifyTicketCreated:         "A new support ticket",
	app.NotifyTicketReplied:         "A shopper replies to a ticket",
	app.NotifyContactReceived:       "A contact-form message",
	app.NotifyLowStock:              "A product's stock falls under its low-stock threshold",
}

// notificationsPage serves GET /admin/stores/{id}/notifications/: allowed
// origins (CORS), owner notification addresses and kinds.
func (p *panel) notificationsPage(c *fiber.Ctx, v *view) error {
	st := v.Store
	return p.showNotifications(c, v, fiber.StatusOK, strings.Join(st.AllowedOrigins, "\n"), strings.Join(st.NotificationEmails, "\n"), st.Notifications())
}

func (p *panel) showNotifications(c *fiber.Ctx, v *view, status int, origins, emails string, on map[string]bool) error {
	d := notificationsData{Origins: origins, Emails: emails}
	for _, k := range app.NotificationKinds {
		d.Kinds = append(d.Kinds, notifyKind{Kind: k, Label: notifyLabels[k], On: on[k]})
	}
	v.Title, v.Tab, v.Data = "Notifications and CORS", "notifications", d
	return p.render(c, status, "notifications", v)
}

// saveNotifications serves POST /admin/stores/{id}/notifications/.
func (p *panel) saveNotifications(c *fiber.Ctx, v *view) error {
	names := []string{"allowed_origins", "notification_emails"}
	for _, k := range app.NotificationKinds {
		names = append(names, "kind_"+k)
	}
	fv := readForm(c, nil, names...)
	origins, emails := strings.TrimSpace(fv["allowed_origins"]), fv["notification_emails"]
	in := app.StoreSettingsInput{Notifications: map[string]bool{}}
	ol, el := lines(origins), lines(emails)
	in.AllowedOrigins, in.NotificationEmails = &ol, &el
	for _, k := range app.NotificationKinds {
		in.Notifications[k] = fv.On("kind_" + k)
	}
	st, err := p.h.svc.Stores.SetSettingsBy(v.Store.ID, in, v.Admin)
	if err != nil {
		return p.showNotifications(c, v, p.formError(c, v, err), origins, emails, in.Notifications)
	}
	return p.redirect(c, v, storePath(st, "notifications/"), ok1("Settings saved."))
}

// splitTrim splits s at sep into its trimmed, non-blank parts (never nil).
func splitTrim(s, sep string) []string {
	out := []string{}
	for _, part := range strings.Split(s, sep) {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// lines splits a textarea into its non-blank lines (commas separate too).
func lines(s string) []string {
	out := []string{}
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' || r == ',' }) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
