package app

import "slices"

// Perm is one permission of the admin side (docs/decisions.md, "Staff roles").
// A role is a fixed set of them (RolePerms); every admin route needs one
// (StoreRoutePerms, GlobalRoutePerms) or none (PermAny).
type Perm string

// The permissions. Payments, webhooks, API keys, store creation and
// opening, users, domains, the audit log and backups are owner-only: no
// other role holds them. Refunds are the owner's and the managers'.
const (
	PermAny       Perm = ""          // any admin who may see the store
	PermCatalog   Perm = "catalog"   // categories, products, images, coupons
	PermOrders    Perm = "orders"    // orders, cancellation and refund requests
	PermCustomers Perm = "customers" // customers, tickets, contact messages, the outbox
	PermContent   Perm = "content"   // blog posts, flash deals, bundles, reviews
	PermSettings  Perm = "settings"  // store configuration, mail templates, notifications
	PermPayments  Perm = "payments"  // payment credentials and live mode
	PermWebhooks  Perm = "webhooks"  // webhook endpoints (customer data leaves the shop)
	PermKeys      Perm = "api_keys"  // rotating the store's API key
	PermStores    Perm = "stores"    // creating stores, opening and closing one
	PermUsers     Perm = "users"     // admin accounts
	PermAudit     Perm = "audit"     // the audit log
	PermBackups   Perm = "backups"   // database backups
	PermDomains   Perm = "domains"   // the shop's custom domains (hosts that serve the store)
	PermRefunds   Perm = "refunds"   // refunding money: a refund, approving a refund request
)

// RolePerms is what each role may do. An owner may do everything.
var RolePerms = map[string][]Perm{
	RoleOwner: {PermCatalog, PermOrders, PermCustomers, PermContent, PermSettings, PermPayments,
		PermWebhooks, PermKeys, PermStores, PermUsers, PermAudit, PermBackups, PermDomains, PermRefunds},
	RoleManager: {PermCatalog, PermOrders, PermCustomers, PermContent, PermSettings, PermRefunds},
	RoleStaff:   {PermCatalog, PermOrders, PermCustomers, PermContent},
}

// StoreRoutePerms is the permission a store's admin route needs, by its
// resource: the path segment after /stores/{id}/ ("" for the store itself),
// or "segment/next" where one sub-page needs another permission. The admin
// API and the panel share it; a resource missing here is owner-only.
var StoreRoutePerms = map[string]Perm{
	"": PermAny, "name": PermSettings, "config": PermSettings, "settings": PermSettings,
	"settings/payment-methods": PermPayments, "payments": PermPayments,
	"notifications": PermSettings, "mail-templates": PermSettings,
	"active": PermStores, "rotate-key": PermKeys, "webhooks": PermWebhooks,
	"categories": PermCatalog, "products": PermCatalog, "coupons": PermCatalog,
	"orders": PermOrders, "cancellation-requests": PermOrders, "refund-requests": PermOrders,
	"cancellations": PermOrders, "refunds": PermOrders,
	"customers": PermCustomers, "tickets": PermCustomers, "contact-messages": PermCustomers,
	"messages": PermCustomers, "outbox": PermCustomers,
	"blog-posts": PermContent, "flash-deals": PermContent, "bundles": PermContent, "reviews": PermContent,
	// one action on an item: "segment/*/action" (refunds give money back)
	"orders/*/refund": PermRefunds, "refund-requests/*/approve": PermRefunds, "refunds/*/approve": PermRefunds,
}

// GlobalRoutePerms is the same for the routes outside a store, by their
// first segment after /api/v1/admin/ or /admin/ ("stores" is creating one:
// listing the stores one may see needs nothing).
var GlobalRoutePerms = map[string]Perm{
	"": PermAny, "me": PermAny, "auth": PermAny, "password": PermAny, "logout": PermAny, "totp": PermAny,
	"stores": PermStores, "users": PermUsers, "audit-log": PermAudit, "audit": PermAudit, "backups": PermBackups,
}

// Roles lists the roles in the order a form offers them.
var Roles = []string{RoleStaff, RoleManager, RoleOwner}

// Has reports whether u holds p.
func (u *AdminUser) Has(p Perm) bool {
	return u != nil && (p == PermAny || slices.Contains(RolePerms[u.Role], p))
}

// Permit reports whether u may do what p covers: unauthorized without an
// admin, forbidden when u's role lacks p. The admin API and the panel both
// ask it.
func Permit(u *AdminUser, p Perm) error {
	if u == nil {
		return Errorf(EUnauthorized, "not logged in")
	}
	if !u.Has(p) {
		return Errorf(EForbidden, "your role (%s) may not do this; ask an owner", u.Role)
	}
	return nil
}

// StoreRoutePerm returns the permission of a store route whose path after
// /stores/{id}/ is segs (changing the store itself is settings); ok is false for a resource the table lacks (then
// only an owner passes).
func StoreRoutePerm(method string, segs []string) (p Perm, ok bool) {
	if len(segs) == 0 && method != "GET" {
		return PermSettings, true // PATCH the store: its settings
	}
	if len(segs) == 0 {
		return PermAny, true
	}
	if len(segs) > 2 {
		if p, ok := StoreRoutePerms[segs[0]+"/*/"+segs[2]]; ok {
			return p, true
		}
	}
	if len(segs) > 1 {
		if p, ok := StoreRoutePerms[segs[0]+"/"+segs[1]]; ok {
			return p, true
		}
	}
	p, ok = StoreRoutePerms[segs[0]]
	return p, ok
}

// GlobalRoutePerm returns the permission of a route outside a store (segs
// after the prefix); listing stores (GET) needs none.
func GlobalRoutePerm(method string, segs []string) (Perm, bool) {
	if len(segs) == 0 {
		return PermAny, true
	}
	if segs[0] == "stores" && method == "GET" {
		return PermAny, true
	}
	p, ok := GlobalRoutePerms[segs[0]]
	return p, ok
}

// Allow is the check of one admin route: u may use a store route (scoped)
// or a global one with method and segs when its permission is in u's role;
// a route missing from the tables is owner-only.
func Allow(u *AdminUser, scoped bool, method string, segs []string) error {
	var p Perm
	var ok bool
	if scoped {
		p, ok = StoreRoutePerm(method, segs)
	} else {
		p, ok = GlobalRoutePerm(method, segs)
	}
	if !ok {
		p = PermUsers // unknown: owner-only
	}
	return Permit(u, p)
}
