package staff

import (
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// auditVerbs are the last path segments that name an action on the object
// before them (…/orders/5/cancel), not a sub-collection (…/products/5/images).
var auditVerbs = map[string]bool{
	"approve": true, "reject": true, "cancel": true, "refund": true, "reply": true, "read": true,
	"delete": true, "status": true, "rotate-key": true, "active": true, "name": true, "config": true,
	"logout": true, "password": true, "login": true,
}

// auditAction names the action of a write from its route pattern
// ("/api/v1/admin/stores/:store_id/orders/:oid/cancel") and parameters:
// "orders.cancel" on "orders/5". The store's own segment is left out of the
// object (the entry has the store id).
func auditAction(method, pattern string, param func(string) string) (action, object string) {
	segs := RouteSegs(strings.TrimPrefix(pattern, "/api/v1/admin"), "/admin")
	scoped := len(segs) >= 2 && segs[0] == "stores" && strings.HasPrefix(segs[1], ":")
	storeParam := ""
	if scoped {
		storeParam, segs = segs[1][1:], segs[2:]
	}
	resource, verb := "", ""
	var objs []string
	i := 0
	for ; i+1 < len(segs) && !strings.HasPrefix(segs[i], ":") && strings.HasPrefix(segs[i+1], ":"); i += 2 {
		resource = segs[i]
		objs = append(objs, segs[i]+"/"+param(segs[i+1][1:]))
	}
	tail := segs[i:]
	byMethod := map[string]string{fiber.MethodPost: "create", fiber.MethodPut: "update", fiber.MethodPatch: "update", fiber.MethodDelete: "delete"}
	switch {
	case len(tail) == 0 && resource == "":
		resource, verb = "stores", byMethod[method]
		if method == fiber.MethodPost || method == fiber.MethodPatch {
			verb = "update"
		}
	case len(tail) == 0:
		verb = byMethod[method]
		if method == fiber.MethodPost {
			verb = "update" // the panel posts its edit forms
		}
	case len(tail) == 1 && auditVerbs[tail[0]]:
		verb = tail[0]
		if resource == "" {
			resource = "stores"
			if !scoped {
				resource = "auth"
			}
		}
	case len(tail) == 1:
		resource, verb = tail[0], byMethod[method]
	default:
		resource, verb = tail[len(tail)-2], tail[len(tail)-1]
	}
	if scoped && resource == "stores" {
		objs = append([]string{"stores/" + param(storeParam)}, objs...)
	}
	return resource + "." + verb, strings.Join(objs, "/")
}

// LocalConfirmAsked marks a request that a confirm step answered with its
// question (a POST without confirm=yes): it changed nothing, so the audit
// log does not record it as the action.
const LocalConfirmAsked = "audit.confirm-asked"

// audited reports whether a write that ended with status is recorded.
func audited(method string, status int) bool {
	if method == fiber.MethodGet || method == fiber.MethodHead || method == fiber.MethodOptions {
		return false
	}
	return status < 400 || status == fiber.StatusForbidden
}

// record writes the audit entry of the request c just served. A failure to
// record is logged: the write itself has happened.
func (s Staff) Record(c *fiber.Ctx, u *app.AdminUser, storeID uint64, via string, status int) {
	if u == nil || !audited(c.Method(), status) {
		return
	}
	if asked, _ := c.Locals(LocalConfirmAsked).(bool); asked {
		return // only the question of a confirm step: nothing was done
	}
	pattern, param := c.Route().Path, func(name string) string { return strings.Clone(c.Params(name)) }
	if status == fiber.StatusForbidden && strings.HasSuffix(pattern, "/:store_id") {
		pattern, param = pathPattern(c.Path()) // refused before its route ran
	}
	action, object := auditAction(c.Method(), pattern, param)
	e := app.AuditEntry{AdminID: u.ID, AdminEmail: u.Email, StoreID: storeID, Action: action, Object: object,
		IP: s.Proxies.ClientIP(c), Via: via, Status: status}
	if err := s.Audit.Record(e); err != nil {
		s.Log.Error("audit record", "action", action, "err", err)
	}
}

// recordRead writes the audit entry of a read that is audited (the outbox:
// it holds personal data and account mails).
func (s Staff) RecordRead(c *fiber.Ctx, u *app.AdminUser, storeID uint64, via, action string) {
	e := app.AuditEntry{AdminID: u.ID, AdminEmail: u.Email, StoreID: storeID, Action: action,
		IP: s.Proxies.ClientIP(c), Via: via, Status: fiber.StatusOK}
	if err := s.Audit.Record(e); err != nil {
		s.Log.Error("audit record", "action", action, "err", err)
	}
}

// pathPattern turns a request path into a route pattern whose numeric
// segments are parameters, for a request refused before its route was
// matched ("/stores/1/rotate-key" -> "/stores/:p1/rotate-key").
func pathPattern(path string) (string, func(string) string) {
	segs := strings.Split(path, "/")
	params := map[string]string{}
	for i, s := range segs {
		if _, err := strconv.ParseUint(s, 10, 64); err == nil {
			name := "p" + strconv.Itoa(i)
			params[name], segs[i] = s, ":"+name
		}
	}
	return strings.Join(segs, "/"), func(name string) string { return params[name] }
}

// ReadAuditFilter reads ?store_id=&admin_id=&action=&object=&from=&to=.
func ReadAuditFilter(c *fiber.Ctx) (app.AuditFilter, error) {
	var f app.AuditFilter
	var v app.Validation
	for name, dst := range map[string]*uint64{"store_id": &f.StoreID, "admin_id": &f.AdminID} {
		if s := c.Query(name); s != "" {
			n, err := strconv.ParseUint(s, 10, 64)
			v.Check(err == nil && n > 0, name, "must be a positive integer")
			*dst = n
		}
	}
	f.Action = strings.Clone(strings.TrimSpace(c.Query("action")))
	f.Object = strings.Clone(strings.TrimSpace(c.Query("object")))
	v.MaxLen("action", f.Action, 100)
	v.MaxLen("object", f.Object, 200)
	f.From = readDay(&v, c, "from")
	f.To = readDay(&v, c, "to")
	return f, v.Err()
}

// readDay reads a YYYY-MM-DD query parameter (zero when absent).
func readDay(v *app.Validation, c *fiber.Ctx, name string) time.Time {
	s := c.Query(name)
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.DateOnly, s)
	v.Check(err == nil, name, "must be a date YYYY-MM-DD")
	return t
}

// AuditScope binds a cursor to the filter it was made under.
func AuditScope(f app.AuditFilter) string {
	return "audit:" + strconv.FormatUint(f.StoreID, 10) + ":" + strconv.FormatUint(f.AdminID, 10) + ":" + f.Action + ":" +
		f.Object + ":" + f.From.Format(time.DateOnly) + ":" + f.To.Format(time.DateOnly)
}
