package panel

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// editor is a kind of record the panel edits alike: coupons, blog posts,
// flash deals and bundles. Under the store's path: the list, a form for a
// new one, the record's edit form (with a delete box), each form shown
// again as typed with its problems when the service refuses it.
//
// T is the record the edit form shows (nil when creating), F the form as
// typed, In the service's input.
type editor[T any, F any, In any] struct {
	path  string // "blog-posts"
	param string // "bpid"
	noun  string // "blog post", for a bad id's error
	// tab, page and title: the store tab, the form's template, and the
	// title of the form of a new record (a record's own is its name).
	tab, page, title string
	get              func(storeID, id uint64) (*T, error)
	save             func(storeID, id uint64, in In) (*T, error) // id 0 creates
	del              func(storeID, id uint64) error
	// read reads the form (of record id, 0 when creating) as typed and into
	// the service's input; its error holds the form's own problems.
	read   func(c *fiber.Ctx, id uint64) (F, In, error)
	formOf func(*T) F
	// blank is the form of a new record (GET path/new/).
	blank func(c *fiber.Ctx) F
	// data is what the form's page shows: the form, the record (nil when
	// creating) and what the page needs besides.
	data func(v *view, status int, form F, rec *T) (any, error)
	key  func(*T) (id uint64, name string)
	// said is the flash after a record named name was "created", "saved"
	// or "deleted".
	said func(name, verb string) string
	// toList: a save goes back to the list, not to the record's form.
	toList bool
	// gone tells that a save's error is the record's own absence (the 404
	// page) rather than a problem to show on the form; nil: app.IsNotFound.
	gone func(error) bool
	// before, when set, may answer a posted form itself (done) instead of
	// saving it: the product form's "make variants" button.
	before func(c *fiber.Ctx, v *view, form F, rec *T) (done bool, err error)
}

// routes mounts the list page (list) and the editor's own: the form of a
// new record, create, edit, save and delete.
func (e editor[T, F, In]) routes(p *panel, r fiber.Router, list pageFunc) {
	base := storeRoot + "/" + e.path
	one := base + "/:" + e.param
	r.Get(base, p.store(list))
	r.Get(base+"/new", p.store(func(c *fiber.Ctx, v *view) error { return e.show(p, c, v, fiber.StatusOK, e.blank(c), nil) }))
	r.Post(base, p.store(func(c *fiber.Ctx, v *view) error { return e.post(p, c, v, nil) }))
	r.Get(one, p.store(with(e.record, func(c *fiber.Ctx, v *view, rec *T) error {
		return e.show(p, c, v, fiber.StatusOK, e.formOf(rec), rec) // the edit form
	})))
	r.Post(one, p.store(with(e.record, func(c *fiber.Ctx, v *view, rec *T) error { return e.post(p, c, v, rec) })))
	r.Post(one+"/delete", p.store(with(e.record, func(c *fiber.Ctx, v *view, rec *T) error { return e.remove(p, c, v, rec) })))
}

// record is the record of the path's id.
func (e editor[T, F, In]) record(c *fiber.Ctx, v *view) (*T, error) {
	return pathRecord(e.param, e.noun, e.get)(c, v)
}

// show renders the form page of rec (nil: a new record's) with form.
func (e editor[T, F, In]) show(p *panel, c *fiber.Ctx, v *view, status int, form F, rec *T) error {
	d, err := e.data(v, status, form, rec)
	if err != nil {
		return err
	}
	v.Tab, v.Title, v.Data = e.tab, e.title, d
	if rec != nil {
		_, v.Title = e.key(rec)
	}
	return p.render(c, status, e.page, v)
}

// saved ends a successful save: the record's form, or the list (toList).
func (e editor[T, F, In]) saved(p *panel, c *fiber.Ctx, v *view, rec *T, verb string) error {
	id, name := e.key(rec)
	to := e.path + "/"
	if !e.toList {
		to += strconv.FormatUint(id, 10) + "/"
	}
	return p.redirect(c, v, storePath(v.Store, to), ok1(e.said(name, verb)))
}

// post serves POST path/ (rec nil: create) and POST path/:param/ (save rec).
func (e editor[T, F, In]) post(p *panel, c *fiber.Ctx, v *view, rec *T) error {
	var id uint64
	verb := "created"
	if rec != nil {
		id, _ = e.key(rec)
		verb = "saved"
	}
	form, in, err := e.read(c, id)
	if e.before != nil {
		if done, err := e.before(c, v, form, rec); done {
			return err
		}
	}
	if err == nil {
		var saved *T
		if saved, err = e.save(v.Store.ID, id, in); err == nil {
			return e.saved(p, c, v, saved, verb)
		}
		if rec != nil && ((e.gone == nil && app.IsNotFound(err)) || (e.gone != nil && e.gone(err))) {
			return err
		}
	}
	return e.show(p, c, v, p.formError(c, v, err), form, rec)
}

// remove serves POST path/:param/delete/ {confirm=yes}: rec is deleted.
func (e editor[T, F, In]) remove(p *panel, c *fiber.Ctx, v *view, rec *T) error {
	if !formOn(c, "confirm") {
		err := app.Invalid("confirm", "tick the box to confirm the deletion")
		return e.show(p, c, v, p.formError(c, v, err), e.formOf(rec), rec)
	}
	id, name := e.key(rec)
	if err := e.del(v.Store.ID, id); err != nil {
		return err
	}
	return p.redirect(c, v, storePath(v.Store, e.path+"/"), ok1(e.said(name, "deleted")))
}

// quotedSaid is the flashes of a kind named in words: “Name” created or
// deleted, and "<kind> saved.".
func quotedSaid(kind string) func(name, verb string) string {
	return func(name, verb string) string {
		if verb == "saved" {
			return kind + " saved."
		}
		return kind + " “" + name + "” " + verb + "."
	}
}

// pathID reads the path's param as a record's id (noun names it in the
// error of a bad one), for with.
func pathID(param, noun string) func(c *fiber.Ctx, v *view) (uint64, error) {
	return func(c *fiber.Ctx, _ *view) (uint64, error) { return httpkit.PathID(c, param, noun) }
}

// pathRecord reads the store's record whose id is the path's param (noun
// names it in the error of a bad id) with get, for with.
func pathRecord[T any](param, noun string, get func(storeID, id uint64) (T, error)) func(c *fiber.Ctx, v *view) (T, error) {
	return func(c *fiber.Ctx, v *view) (T, error) {
		id, err := httpkit.PathID(c, param, noun)
		if err != nil {
			var none T
			return none, err
		}
		return get(v.Store.ID, id)
	}
}

// with runs fn on what load reads from the path (the record of its id);
// load's error (a bad id, a record not found) ends the request.
func with[R any](load func(c *fiber.Ctx, v *view) (R, error), fn func(c *fiber.Ctx, v *view, rec R) error) pageFunc {
	return func(c *fiber.Ctx, v *view) error {
		rec, err := load(c, v)
		if err != nil {
			return err
		}
		return fn(c, v, rec)
	}
}
