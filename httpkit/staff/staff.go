// Package staff is what the two staff rooms, the admin JSON API (admin) and
// the panel (panel), share besides app: the services a staff request may
// call, the route segments the permission table reads, the audit record of
// a staff write, the CSV exports and imports, and reading image uploads.
//
// It imports app, httpkit and Fiber; never admin, panel, web or shop.
package staff

import (
	"log/slog"
	"strings"

	"storefront/app"
	"storefront/httpkit"
)

// Staff is the services and the helpers of a staff request.
type Staff struct {
	Services
	Log     *slog.Logger
	Proxies httpkit.Proxies // http.trusted_proxies
}

// New is the staff view of svc, believing trustedProxies
// (http.trusted_proxies) about the client address.
func New(svc *app.Services, trustedProxies []string) Staff {
	return Staff{Log: svc.Log, Proxies: httpkit.NewProxies(trustedProxies), Services: Services{
		Now: svc.Now, Opt: svc.Opt, Outbox: svc.AdminOutbox, Shared: svc.Shared(), Secret: svc.DB.Secret,
		RetryMail: svc.RetryMail, PreviewMail: svc.PreviewMail, TestMail: svc.TestMail, PayTestOrder: svc.PayTestOrder, Webhooks: svc.Webhooks,
		Stores: svc.Stores, Admins: svc.Admins, Catalog: svc.Catalog, Customers: svc.Customers,
		Orders: svc.Orders, Payments: svc.Payments, Coupons: svc.Coupons, Requests: svc.Requests, Reviews: svc.Reviews, Audit: svc.Audit,
		Tickets: svc.Tickets, Contact: svc.Contact, Content: svc.Content}}
}

// StatusAll is the ?status= value of a list that shows every status.
const StatusAll = "all"

// Services are the parts of the domain the staff handlers call, and nothing
// else (the cart, checkout and payment services are not reachable from here).
type Services struct {
	Now app.Clock
	Opt app.Options
	// Outbox pages the mail kept in the database as every admin sees it:
	// the codes of account mails masked (app.Services.AdminOutbox).
	Outbox func(storeID uint64, lp app.ListParams) (app.Page[*app.Mail], error)
	// RetryMail, PreviewMail and TestMail are the outbox and template
	// actions of app.Services.
	RetryMail   func(storeID, id uint64) (*app.Mail, error)
	PreviewMail func(st *app.Store, kind string, draft *app.MailTemplate) (app.Mail, error)
	TestMail    func(st *app.Store, kind, to string) (*app.Mail, error)
	// PayTestOrder is app.Services.PayTestOrder (the "Pay a test order" button).
	PayTestOrder func(storeID uint64, method, email, callbackURL string) (app.TestOrder, error)
	// Shared keeps the panel sessions when several processes share the
	// database (nil: in memory); Secret gives them one login-form key.
	Shared app.SharedState
	Secret func(name string) ([]byte, error)

	Stores    *app.StoreService
	Admins    *app.AdminService
	Catalog   *app.CatalogService
	Customers *app.CustomerService
	Orders    *app.OrderService
	Payments  *app.PaymentService
	Coupons   *app.CouponService
	Requests  *app.RequestService
	Reviews   *app.ReviewService
	Tickets   *app.TicketService
	Contact   *app.ContactService
	Content   *app.ContentService
	Webhooks  *app.WebhookService
	Audit     *app.AuditService
}

// EnrolRoute reports whether segs are a route an admin who must enrol a
// second factor may still use (the enrolment, /me, the password, logout).
func EnrolRoute(segs []string) bool {
	return len(segs) > 0 && (segs[0] == "auth" || segs[0] == "me" || segs[0] == "totp" || segs[0] == "password" || segs[0] == "logout")
}

// RouteSegs splits a request path after prefix into its non-empty segments.
func RouteSegs(path, prefix string) []string {
	var segs []string
	for _, s := range strings.Split(strings.TrimPrefix(path, prefix), "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	return segs
}

// IsStoreRoute reports whether segs are under stores/{id}/.
func IsStoreRoute(segs []string) bool { return len(segs) >= 2 && segs[0] == "stores" }
