package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// resource is a kind of record of a store that the admin API lists,
// creates, reads, changes and deletes alike, under path and path/:param:
// categories, products, coupons, blog posts, flash deals, bundles and
// webhook endpoints. Each route decodes, calls the service, renders.
type resource[R, In any] struct {
	path  string // "/blog-posts"
	param string // "post_id"
	noun  string // "blog post", for a bad id's error
	list  fiber.Handler
	get   func(storeID, id uint64) (R, error) // nil: no GET of one record
	save  func(storeID, id uint64, in In) (R, error)
	del   func(storeID, id uint64) error
	view  func(R) any
	// created is the view of a new record (nil: view).
	created func(R) any
}

// routes mounts GET and POST path/, then GET, PATCH and DELETE path/:param/.
func (res resource[R, In]) routes(r fiber.Router) {
	one := res.path + "/:" + res.param
	r.Get(res.path, res.list)
	created := res.view
	if res.created != nil {
		created = res.created
	}
	r.Post(res.path, decoded(fiber.StatusCreated, res.create, created))
	if res.get != nil {
		r.Get(one, getOne(pathID(res.param, res.noun), res.get, res.view))
	}
	r.Patch(one, withBody(pathID(res.param, res.noun), fiber.StatusOK, inStoreWith(res.save), res.view)) // the fields sent change
	r.Delete(one, deleteOne(pathID(res.param, res.noun), res.delete))
}

// create serves POST path/: 201 with the new record.
func (res resource[R, In]) create(c *fiber.Ctx, in In) (R, error) {
	return res.save(storeOf(c).ID, 0, in)
}

// pathID reads the path's param as a record's id (noun names it in the
// error of a bad one).
func pathID(param, noun string) func(c *fiber.Ctx) (uint64, error) {
	return func(c *fiber.Ctx) (uint64, error) { return httpkit.PathID(c, param, noun) }
}

// getOne serves GET of the store's record of the path's id.
func getOne[ID, R any](key func(c *fiber.Ctx) (ID, error), get func(storeID uint64, id ID) (R, error), view func(R) any) fiber.Handler {
	return onOne(key, inStore(get), view)
}

// inStore calls a service's method on the record of the path's id in the
// path's store, for onOne.
func inStore[ID, R any](fn func(storeID uint64, id ID) (R, error)) func(c *fiber.Ctx, id ID) (R, error) {
	return func(c *fiber.Ctx, id ID) (R, error) { return fn(storeOf(c).ID, id) }
}

// inStoreWith is inStore for a method that takes the body, for withBody.
func inStoreWith[ID, In, R any](fn func(storeID uint64, id ID, in In) (R, error)) func(c *fiber.Ctx, id ID, in In) (R, error) {
	return func(c *fiber.Ctx, id ID, in In) (R, error) { return fn(storeOf(c).ID, id, in) }
}

// onOne serves a request on the record of the path's id (read by key):
// 200 with the view of what do answers.
func onOne[ID, R any](key func(c *fiber.Ctx) (ID, error), do func(c *fiber.Ctx, id ID) (R, error), view func(R) any) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := key(c)
		if err != nil {
			return err
		}
		rec, err := do(c, id)
		if err != nil {
			return err
		}
		return httpkit.OK(c, view(rec))
	}
}

// decoded serves a write whose JSON body decodes into In: status with the
// view of what do answers.
func decoded[In, R any](status int, do func(c *fiber.Ctx, in In) (R, error), view func(R) any) fiber.Handler {
	return withBody(noKey, status, func(c *fiber.Ctx, _ struct{}, in In) (R, error) { return do(c, in) }, view)
}

// noKey is the key of a request on no record of the path.
func noKey(*fiber.Ctx) (struct{}, error) { return struct{}{}, nil }

// withBody serves a write to the record of the path's id (read by key)
// whose JSON body decodes into In: status with the view of what do answers.
func withBody[ID, In, R any](key func(c *fiber.Ctx) (ID, error), status int, do func(c *fiber.Ctx, id ID, in In) (R, error),
	view func(R) any) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := key(c)
		if err != nil {
			return err
		}
		var in In
		if err := httpkit.Decode(c, &in); err != nil {
			return err
		}
		rec, err := do(c, id, in)
		if err != nil {
			return err
		}
		return httpkit.Reply(c, status, "", view(rec))
	}
}

// delete serves DELETE path/:param/.
func (res resource[R, In]) delete(c *fiber.Ctx, id uint64) error { return res.del(storeOf(c).ID, id) }

// deleteOne serves DELETE of the record of the path's id: 200, no data.
func deleteOne(key func(c *fiber.Ctx) (uint64, error), del func(c *fiber.Ctx, id uint64) error) fiber.Handler {
	return onOne(key, func(c *fiber.Ctx, id uint64) (any, error) { return nil, del(c, id) }, asIs[any])
}

// listAll serves a list the service gives whole (no paging).
func listAll[R any](list func(storeID uint64) ([]R, error), view func(R) any) fiber.Handler {
	return func(c *fiber.Ctx) error {
		items, err := list(storeOf(c).ID)
		if err != nil {
			return err
		}
		return httpkit.SendAll(c, items, view)
	}
}

// listPaged serves a list a page at a time (?limit=, ?cursor= of scope),
// newest first.
func listPaged[R any](h *Handler, scope string, list func(storeID uint64, lp app.ListParams) (app.Page[R], error),
	view func(R) any) fiber.Handler {
	return func(c *fiber.Ctx) error {
		return sendList(h, c, scope, func(lp app.ListParams) (app.Page[R], error) {
			return list(storeOf(c).ID, lp)
		}, view)
	}
}

// listByStatus serves a list under ?status= (empty: every status) a page
// at a time, newest first; a cursor is of scope and the status.
func listByStatus[R any](h *Handler, scope string, list func(storeID uint64, status string, lp app.ListParams) (app.Page[R], error),
	view func(R) any) fiber.Handler {
	return func(c *fiber.Ctx) error {
		status := c.Query("status")
		return sendList(h, c, scope+status, func(lp app.ListParams) (app.Page[R], error) {
			return list(storeOf(c).ID, status, lp)
		}, view)
	}
}

// sendList answers the page of a list named scope (?limit=, ?cursor=) that
// list reads.
func sendList[T any](h *Handler, c *fiber.Ctx, scope string, list func(lp app.ListParams) (app.Page[T], error),
	view func(T) any) error {
	lp, err := h.listParams(c, scope)
	if err != nil {
		return err
	}
	page, err := list(lp)
	if err != nil {
		return err
	}
	return sendPage(h, c, scope, page, view)
}

// asIs is the view of a record that is its own wire form.
func asIs[R any](r R) any { return r }
