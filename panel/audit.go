package panel

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/staff"
)

// recordPanel writes the audit entry of a panel POST just served (the one
// place the panel records; see auditAPI for the JSON API).
func (p *panel) recordPanel(c *fiber.Ctx, v *view) {
	if c.Method() != fiber.MethodPost || v.Admin == nil {
		return
	}
	var sid uint64
	if id, err := strconv.ParseUint(c.Params("sid"), 10, 64); err == nil && v.Admin.CanAccess(id) {
		sid = id
	}
	p.h.svc.Record(c, v.Admin, sid, "panel", c.Response().StatusCode())
}

// confirmData is the confirm page of a dangerous action: its form posts
// Fields (and confirm=yes) to Action.
type confirmData struct {
	Heading string
	Message string
	Action  string
	Button  string
	Back    string
	Fields  map[string]string
}

// askFunc describes the confirmation a request needs, or nil when it needs
// none (activating a store). It reads its fields with param, so that the
// same description serves the GET page and the POST.
type askFunc func(c *fiber.Ctx, v *view) (*confirmData, error)

// param reads a form field, or the query parameter of the confirm page.
func param(c *fiber.Ctx, name string) string {
	if s := readForm(c, nil, name)[name]; s != "" {
		return s
	}
	return strings.Clone(strings.TrimSpace(c.Query(name)))
}

// askOn is ask for the record load reads from the path (its error ends
// the request, as with with).
func askOn[R any](load func(c *fiber.Ctx, v *view) (R, error),
	ask func(c *fiber.Ctx, v *view, rec R) (*confirmData, error)) askFunc {
	return func(c *fiber.Ctx, v *view) (*confirmData, error) {
		rec, err := load(c, v)
		if err != nil {
			return nil, err
		}
		return ask(c, v, rec)
	}
}

// confirmRoutes mounts a dangerous action at the store's path behind a
// confirm page, without script: a POST without confirm=yes is answered 303
// to the same path (GET), which shows the page; its form posts again with
// confirm=yes, and the action fn ends in its own redirect
// (post/redirect/get throughout). Who may is the store's route table's
// (app.StoreRoutePerms), for the page and the action alike.
func (p *panel) confirmRoutes(r fiber.Router, path string, ask askFunc, fn pageFunc) {
	r.Get(storeRoot+path, p.store(func(c *fiber.Ctx, v *view) error {
		d, err := ask(c, v)
		if err != nil {
			return err
		}
		if d == nil {
			return c.Redirect(storePath(v.Store, ""), fiber.StatusSeeOther)
		}
		v.Title, v.Data = d.Heading, d
		return p.render(c, fiber.StatusOK, "confirm", v)
	}))
	r.Post(storeRoot+path, p.store(func(c *fiber.Ctx, v *view) error {
		d, err := ask(c, v)
		if err != nil {
			return err
		}
		if d != nil && !formOn(c, "confirm") {
			q := url.Values{}
			for k, val := range d.Fields {
				q.Set(k, val)
			}
			c.Locals(staff.LocalConfirmAsked, true)
			return c.Redirect(pageLink(d.Action, q, 1), fiber.StatusSeeOther)
		}
		return fn(c, v)
	}))
}

func (p *panel) askRotateKey(c *fiber.Ctx, v *view) (*confirmData, error) {
	return &confirmData{Heading: "Rotate the API key of “" + v.Store.Name + "”?",
		Message: "A new key is made and the old one stops working at once: every storefront and script using it gets 401 until it is given the new key.",
		Action:  storePath(v.Store, "rotate-key/"), Button: "Rotate the key", Back: storePath(v.Store, "")}, nil
}

func (p *panel) askSetActive(c *fiber.Ctx, v *view) (*confirmData, error) {
	if param(c, "active") != "false" {
		return nil, nil
	}
	return &confirmData{Heading: "Deactivate “" + v.Store.Name + "”?",
		Message: "Its API key then answers 403 store_inactive: the storefront stops selling until an owner activates it again.",
		Action:  storePath(v.Store, "active/"), Button: "Deactivate the store", Back: storePath(v.Store, ""),
		Fields: map[string]string{"active": "false"}}, nil
}

func (p *panel) askDeleteCategory(c *fiber.Ctx, v *view, cat *app.Category) (*confirmData, error) {
	return &confirmData{Heading: "Delete the category “" + cat.Name + "”?",
		Message: "Its products stay, without a category.",
		Action:  storePath(v.Store, "categories/"+strconv.FormatUint(cat.ID, 10)+"/delete/"), Button: "Delete the category",
		Back: storePath(v.Store, "categories/")}, nil
}

type auditData struct {
	Entries []*app.AuditEntry
	Filter  app.AuditFilter
	Stores  []*app.Store
	Names   map[uint64]string
	From    string
	To      string
	Pager
}

// auditPage serves GET /admin/audit/ (owner): the audit log, newest first,
// filtered by ?store_id=&admin_id=&action=&object=&from=&to=.
func (p *panel) auditPage(c *fiber.Ctx, v *view) error {
	f, err := staff.ReadAuditFilter(c)
	if err != nil {
		return err
	}
	scope := staff.AuditScope(f)
	lp, err := p.listParams(c, scope, 0)
	if err != nil {
		return err
	}
	lp.Limit = 50
	page, err := p.h.svc.Audit.List(f, lp)
	if err != nil {
		return err
	}
	stores, err := p.h.svc.Stores.List()
	if err != nil {
		return err
	}
	names := map[uint64]string{}
	for _, st := range stores {
		names[st.ID] = st.Name
	}
	q := url.Values{}
	for k, val := range c.Queries() {
		if k != "cursor" && val != "" {
			q.Set(k, val)
		}
	}
	// the days as sent: ReadAuditFilter took them only as YYYY-MM-DD
	v.Title, v.Data = "Audit log", auditData{Entries: page.Items, Filter: f, Stores: stores, Names: names, From: c.Query("from"), To: c.Query("to"),
		Pager: p.pager(pageLink("/admin/audit/", q, 1), scope, 0, lp, page.Next)}
	return p.render(c, fiber.StatusOK, "audit", v)
}

// favicon serves GET /favicon.ico: the panel's embedded icon (browsers ask
// for it on every page).
func (p *panel) favicon(c *fiber.Ctx) error {
	if !p.static.ServeFile(c, "favicon.ico") {
		return p.notFound(c)
	}
	return nil
}
